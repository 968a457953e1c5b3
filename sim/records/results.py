"""Results: one row per game (and optionally per hand) as DataFrames; on disk a run folder of Parquet
part files (sim.store) or, for a derived table, one Parquet file with a metadata record."""

from __future__ import annotations

import json
import os
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
from .runner import Job, make_job
from .store import META_KEY, RUN_FILE, ResultsError, can_write_in, load_folder, outside_runs

__all__ = ["META_KEY", "Results", "ResultsError", "play", "read"]


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
        "reason": pd.Categorical.from_codes(rows[:, L.H_REASON] - 1, [L.END_NAMES[int(e)] for e in L.EndReason]),
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
    cols: dict[str, np.ndarray] = {}  # the per-side columns, joined at once (not inserted one by one)
    for s in range(nsides):
        for c, name in enumerate(L.COMPONENTS):
            cols[f"{name}_{s}"] = rows[:, L.H_COMP + s * L.NC + c]
        cols[f"cum_{s}"] = rows[:, L.H_CUM + s]
        for kind in L.CanastaKind:
            cols[f"{kind.name.lower()}_canastas_{s}"] = rows[:, L.H_CANK + s * L.NCKR + kind]
        for c, name in enumerate(L.SIDE_COUNTS):
            cols[f"{name}_{s}"] = rows[:, L.H_SCOUNT + s * L.NSC + c]
    return pd.concat([df, pd.DataFrame(cols, index=df.index)], axis=1)


def play(variant: str | Variant, strategies: str | StrategySpec | StrategyChoice
         | Sequence[str | StrategySpec | StrategyChoice], games: int, seed: int, workers: int = 0,
         hands: bool = False, check: bool = False, chunk: int = 2000, progress: Any = None,
         out: str | os.PathLike[str] | None = None, scheduler: Any = None, force: bool = False) -> Results:
    """Play `games` games of `variant` between `strategies` from `seed`: one row per game.

    One strategy (a name, or a spec) plays every seat. `workers=0` uses every core; `scheduler` (a
    Dask address or client) plays on a cluster instead. `progress` may be True (a bar: tqdm's notebook
    widget in a notebook), a tqdm bar, or a function called with the number of games just finished.
    With `out`, the games go to that run folder chunk by chunk as they finish; a stopped run is
    resumed by the same call, and asking for more games extends it (sim.store).

    >>> r = play("classic-4p", ["baseline", "random"], games=10, seed=1)  # doctest: +SKIP
    >>> r.games.groupby("strategy_0").winner_side.value_counts()  # doctest: +SKIP
    """
    from .experiment import Experiment

    job = make_job(variant, strategies, seed, check)
    with Experiment([job], games, [out] if out is not None else None, hands=hands, keep_rows=out is None,
                    workers=workers, chunk=chunk, progress=progress, scheduler=scheduler, force=force,
                    per_game=False) as exp:
        exp.advance()
    if out is not None:
        return read(out, games)
    g, h = exp.kept_rows(0)
    return Results(games_frame(job, g), hands_frame(job, h) if hands else None, exp.run_meta())


def read(path: str | os.PathLike[str], games: int | None = None) -> Results:
    """A run as DataFrames: a run folder (its games, its hands when it recorded them, and the metadata
    record with every session's wall time and machine), or a single results file. `games` keeps the
    first that many games."""
    p = Path(path)
    if not p.exists():
        raise ResultsError(f"results {str(p)!r} do not exist")
    if p.is_file():
        r = read_parquet(p)
        if games is not None:
            r.games = r.games[r.games["game"] < games].reset_index(drop=True)
        return r
    if not (p / RUN_FILE).exists():
        runs = sorted(e for e in p.iterdir() if (e / RUN_FILE).exists())
        if len(runs) == 1:  # a comparison's folder: its one run
            p = runs[0]
        elif runs:
            raise ResultsError(f"{str(p)!r} holds {len(runs)} runs (a tournament or a sweep); read one of them, "
                               f"e.g. {str(runs[0])!r}")
    f = load_folder(p)
    meta = dict(f.record.get("meta") or {})
    meta["sessions"] = f.record.get("sessions", [])
    meta["games_in_folder"] = f.games_done
    g = f.read(games)
    meta["games"] = len(g)
    return Results(g, f.read(games, hands=True) if f.hands else None, meta)


def check_writable(path: str | os.PathLike[str], force: bool = False, suffix: str = ".parquet",
                   label: str = "output") -> Path:
    """Fail before any work is done if the output cannot be written (or would overwrite a file);
    `label` names it in the message (`--save` for a tuned strategy file)."""
    p = Path(path)
    if p.suffix != suffix:
        raise ResultsError(f"{label} {str(p)!r} must end in {suffix}")
    if p.is_dir():
        raise ResultsError(f"{label} {str(p)!r} is a folder; give a file path ending in {suffix}")
    if p.exists() and not force:
        raise ResultsError(f"{label} {str(p)!r} already exists; choose another path or pass --force")
    outside_runs(p)  # a file inside a run folder would make the run unreadable
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise ResultsError(f"cannot write {str(p)!r}: folder {str(parent)!r} is not writable (it does not exist)")
    if not can_write_in(parent):
        raise ResultsError(f"cannot write {str(p)!r}: folder {str(parent)!r} is not writable")
    if p.exists() and not os.access(p, os.W_OK):
        raise ResultsError(f"cannot replace {str(p)!r}: the file is not writable")
    return p


def write_parquet(df: pd.DataFrame, meta: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """Write atomically: a temporary file renamed into place, so a failure loses nothing."""
    from .store import write_table

    p = Path(path)
    write_table(df, meta, p if str(p.parent) else Path(".") / p)


def read_parquet(path: str | os.PathLike[str]) -> Results:
    """A single results file (a table with our metadata record)."""
    import pyarrow.parquet as pq

    p = Path(path)
    if not p.exists():
        raise ResultsError(f"results file {str(p)!r} does not exist")
    if p.is_dir():
        raise ResultsError(f"{str(p)!r} is a folder; read a run folder with sim.results.read")
    try:
        table = pq.read_table(p)
    except Exception as exc:  # pyarrow raises several types for a damaged file
        raise ResultsError(f"{str(p)!r} is not a readable Parquet file ({type(exc).__name__})") from None
    raw = (table.schema.metadata or {}).get(META_KEY)
    if raw is None:
        raise ResultsError(f"{str(p)!r} was not written by canasta-lab (no {META_KEY.decode()} metadata)")
    return Results(table.to_pandas(), None, json.loads(raw))


def load(path: str | os.PathLike[str]) -> Any:
    """Any command's output read back into the tables it returned: a `play` run folder or file gives
    Results; a `compare` folder a Comparison, a `tournament` folder a Tournament, a `sweep` or
    `profile` folder its DataFrame (metadata in `.attrs`); the columns and their types are those the
    command returned in memory."""
    from .compare import Comparison, Tournament
    from .profile import PROFILE_FILE
    from .store import OUTPUT_FILE

    p = Path(path)
    if not p.exists():
        raise ResultsError(f"results {str(p)!r} do not exist")
    if p.is_file() or (p / RUN_FILE).exists():
        return read(p)
    record = p / OUTPUT_FILE
    if not record.exists():
        raise ResultsError(f"{str(p)!r} holds no canasta-lab output (no run and no {OUTPUT_FILE}); give a folder "
                           "that play, compare, tournament, sweep or profile wrote")
    command = json.loads(record.read_text()).get("command")
    if command == "report":
        raise ResultsError(f"{str(p)!r} holds the reports of canasta-lab report (STUDY.md and its charts), not a "
                           "table to load")
    tables = {"compare": "pairs.parquet", "tournament": "pairs.parquet", "sweep": "sweep.parquet",
              "profile": PROFILE_FILE}
    if command not in tables or not (p / tables[command]).exists():
        raise ResultsError(f"{str(p)!r}: its {command} tables are missing (a run stopped before the end); run the "
                           "same command again to finish it")
    main = read_parquet(p / tables[command])
    meta = main.meta
    if command == "compare":
        return Comparison(meta["variant"], meta["labels"], main.games, meta["games"], meta["seed"], meta.get("sprt"),
                          {k: v for k, v in meta.items() if k not in ("sprt", "labels")})
    if command == "tournament":
        return Tournament(meta["variant"], meta["strategies_order"], main.games,
                          read_parquet(p / "matrix.parquet").games, read_parquet(p / "ranking.parquet").games,
                          meta["games_per_pair"], meta["seed"],
                          {k: v for k, v in meta.items() if k != "strategies_order"})
    df = main.games
    df.attrs.update(meta)
    return df
