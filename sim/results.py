"""Results: one row per game (and optionally per hand) as DataFrames, Parquet with a metadata record."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from strategies import StrategyChoice, StrategySpec

from . import __version__
from .engine import layout as L
from .rules import Variant, house_rules
from .runner import Job, make_job, run

META_KEY = b"canasta_lab"


class ResultsError(ValueError):
    """A results file that is missing, corrupt or not written by Canasta Lab."""


@dataclass
class Results:
    games: pd.DataFrame
    hands: pd.DataFrame | None
    meta: dict[str, Any] = field(default_factory=dict)


def metadata(job: Job, n_games: int, wall: float) -> dict[str, Any]:
    return {
        "variant": job.variant.name,
        "rules": job.variant.to_dict(),
        "strategies": [{"label": c.label, "name": c.spec.name, "knobs": c.knob_values()} for c in job.strategies],
        "seed": job.seed,
        "games": n_games,
        "package_version": __version__,
        "wall_seconds": round(wall, 3),
        "duplicate_rotations": job.variant.n_sides,
        "house_rules": house_rules(job.variant),
        "seating": job.seat_labels(0),
    }


def side_labels(job: Job, game: int) -> list[str]:
    seats = job.seat_labels(game)
    return ["+".join(seats[p] for p in side) for side in job.variant.sides]


def games_frame(job: Job, rows: np.ndarray) -> pd.DataFrame:
    nsides = job.variant.n_sides
    df = pd.DataFrame({
        "game": rows[:, L.G_GAME],
        "deal": rows[:, L.G_DEAL],
        "winner_side": rows[:, L.G_WINNER],
        "n_hands": rows[:, L.G_NHANDS],
        "capped_hands": rows[:, L.G_CAPPED_HANDS],
        "capped_game": rows[:, L.G_CAPPED_GAME].astype(bool),
        "decisions": rows[:, L.G_DECISIONS],
        "turns": rows[:, L.G_TURNS],
    })
    for s in range(nsides):
        df[f"score_{s}"] = rows[:, L.G_SCORE + s]
    # the seating pattern repeats every n_sides games (duplicate deals)
    labels = [side_labels(job, r) for r in range(nsides)]
    rot = df["game"].to_numpy() % nsides
    for s in range(nsides):
        df[f"strategy_{s}"] = pd.Categorical(np.array([labels[r][s] for r in range(nsides)], dtype=object)[rot])
    return df


def hands_frame(job: Job, rows: np.ndarray) -> pd.DataFrame:
    nsides = job.variant.n_sides
    df = pd.DataFrame({
        "game": rows[:, L.H_GAME],
        "hand": rows[:, L.H_HAND],
        "dealer": rows[:, L.H_DEALER],
        "reason": pd.Categorical.from_codes(rows[:, L.H_REASON] - 1, ["out", "stock", "cap"]),
        "out_seat": rows[:, L.H_OUT],
        "out_side": [job.variant.seat_side(int(p)) if p >= 0 else -1 for p in rows[:, L.H_OUT]],
        "concealed": rows[:, L.H_CONCEALED].astype(bool),
        "turns": rows[:, L.H_TURNS],
        "pile_pickups": rows[:, L.H_PICKUPS],
        "freezes": rows[:, L.H_FREEZES],
        "black3_discards": rows[:, L.H_B3DISC],
        "asks": rows[:, L.H_ASKS],
        "yes_answers": rows[:, L.H_YES],
    })
    for s in range(nsides):
        for c, name in enumerate(L.COMPONENTS):
            df[f"{name}_{s}"] = rows[:, L.H_COMP + s * L.NC + c]
        df[f"cum_{s}"] = rows[:, L.H_CUM + s]
    return df


def play(variant: str | Variant, strategies: str | StrategySpec | StrategyChoice
         | Sequence[str | StrategySpec | StrategyChoice], games: int, seed: int, workers: int = 1,
         hands: bool = False, check: bool = False, chunk: int = 2000, progress: Any = None) -> Results:
    """Play `games` games of `variant` between `strategies` from `seed`: one row per game.

    One strategy (a name, or a spec) plays every seat. `progress` may be True (a bar is shown), a
    tqdm bar (advanced as games finish), or a function called with the number of games just finished;
    it moves at least once a second.

    >>> r = play("classic-4p", ["baseline", "random"], games=10, seed=1)  # doctest: +SKIP
    >>> r.games.groupby("strategy_0").winner_side.value_counts()  # doctest: +SKIP
    """
    job = make_job(variant, strategies, seed, check)
    g, h, wall = run(job, games, workers=workers, chunk=chunk, want_hands=hands, progress=progress)
    return Results(games_frame(job, g), hands_frame(job, h) if hands else None, metadata(job, games, wall))


def _can_write_in(folder: Path) -> bool:
    """Try it: os.access says yes to root everywhere, even on read-only file systems."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def check_writable(path: str | os.PathLike[str], force: bool = False, suffix: str = ".parquet") -> Path:
    """Fail before any work is done if the output cannot be written (or would overwrite a file)."""
    p = Path(path)
    if p.suffix != suffix:
        raise ResultsError(f"output {str(p)!r} must end in {suffix}")
    if p.is_dir():
        raise ResultsError(f"output {str(p)!r} is a folder; give a file path ending in {suffix}")
    if p.exists() and not force:
        raise ResultsError(f"output {str(p)!r} already exists; choose another path or pass --force")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise ResultsError(f"cannot write {str(p)!r}: folder {str(parent)!r} is not writable (it does not exist)")
    if not _can_write_in(parent):
        raise ResultsError(f"cannot write {str(p)!r}: folder {str(parent)!r} is not writable")
    if p.exists() and not os.access(p, os.W_OK):
        raise ResultsError(f"cannot replace {str(p)!r}: the file is not writable")
    return p


def check_distinct(*paths: Path | None) -> None:
    """Two outputs of one run may not be the same file (the second would replace the first)."""
    seen: dict[Path, Path] = {}
    for p in paths:
        if p is None:
            continue
        key = p.resolve()
        if key in seen:
            raise ResultsError(f"outputs {str(seen[key])!r} and {str(p)!r} are the same file; give each its own path")
        seen[key] = p


REPORT_FILES = ("report.md", "win_rates.png", "games.parquet")


def check_report_folder(path: str | os.PathLike[str], force: bool = False) -> Path:
    """A report folder: refused if it is a file, or exists without `force` (which replaces only the
    report's own files), or cannot be created or written."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise ResultsError(f"report folder {str(p)!r} is a file; give a folder path (it is created)")
    if p.is_dir():
        if not force:
            raise ResultsError(f"report folder {str(p)!r} already exists; choose another path or pass --force "
                               f"(which replaces its {', '.join(REPORT_FILES)})")
        if not _can_write_in(p):
            raise ResultsError(f"cannot write into report folder {str(p)!r}: it is not writable")
        return p
    parent = p.parent if str(p.parent) else Path(".")
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir() or not _can_write_in(parent):
        raise ResultsError(f"cannot create report folder {str(p)!r}: folder {str(parent)!r} is not writable")
    return p


def publish(tmp: str, path: Path) -> None:
    """Give a finished temporary file the usual permissions and rename it into place atomically."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)
    os.replace(tmp, path)


def write_parquet(df: pd.DataFrame, meta: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """Write atomically: a temporary file renamed into place, so a failure loses nothing."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(df, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), META_KEY: json.dumps(meta).encode()})
    p = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".parquet", dir=p.parent if str(p.parent) else ".")
    os.close(fd)
    try:
        pq.write_table(table, tmp)
        publish(tmp, p)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def read_parquet(path: str | os.PathLike[str]) -> Results:
    import pyarrow.parquet as pq

    p = Path(path)
    if not p.exists():
        raise ResultsError(f"results file {str(p)!r} does not exist")
    try:
        table = pq.read_table(p)
    except Exception as exc:  # pyarrow raises several types for a damaged file
        raise ResultsError(f"{str(p)!r} is not a readable Parquet file ({type(exc).__name__})") from None
    raw = (table.schema.metadata or {}).get(META_KEY)
    if raw is None:
        raise ResultsError(f"{str(p)!r} was not written by canasta-lab (no {META_KEY.decode()} metadata)")
    return Results(table.to_pandas(), None, json.loads(raw))
