"""Results: one row per game (and optionally per hand) as DataFrames; on disk a run folder of Parquet
part files (sim.run.store) or, for a derived table, one Parquet file with a metadata record."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from sim.rules import Variant
from sim.run.experiment import Experiment
from sim.run.frames import games_frame, hands_frame
from sim.run.runner import make_job
from sim.run.store import (
    META_KEY,
    RUN_FILE,
    ResultsError,
    arrow_errors,
    can_write_in,
    load_folder,
    outside_runs,
    write_table,
)
from strategies import StrategyChoice, StrategySpec

__all__ = ["META_KEY", "Results", "ResultsError", "play", "read"]


@dataclass
class Results:
    games: pd.DataFrame
    hands: pd.DataFrame | None
    meta: dict[str, Any] = field(default_factory=dict)


def play(variant: str | Variant, strategies: str | StrategySpec | StrategyChoice
         | Sequence[str | StrategySpec | StrategyChoice], games: int, seed: int, workers: int = 0,
         hands: bool = False, check: bool = False, chunk: int = 2000, progress: Any = None,
         out: str | os.PathLike[str] | None = None, scheduler: Any = None, force: bool = False,
         one_rotation: bool = False) -> Results:
    """Play `games` games of `variant` between `strategies` from `seed`: one row per game.

    One strategy (a name, or a spec) plays every seat. `workers=0` uses every core; `scheduler` (a
    Dask address or client) plays on a cluster instead. `progress` may be True (a bar: tqdm's notebook
    widget in a notebook), a tqdm bar, or a function called with the number of games just finished.
    With `out`, the games go to that run folder chunk by chunk as they finish; a stopped run is
    resumed by the same call, and asking for more games extends it (sim.run.store). Games are dealt in
    duplicate, deal g // sides on the seating rotated by g % sides; `one_rotation` plays each deal once, on its
    base seating (game g is deal g, the same game as game g * sides of a run of every rotation): with one
    strategy on every seat the rotations replay the same game.

    >>> r = play("classic-4p", ["baseline", "random"], games=10, seed=1)  # doctest: +SKIP
    >>> r.games.groupby("strategy_0").winner_side.value_counts()  # doctest: +SKIP
    """

    job = make_job(variant, strategies, seed, check, one_rotation)
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

    p = Path(path)
    write_table(df, meta, p if str(p.parent) else Path(".") / p)


def read_parquet(path: str | os.PathLike[str],
                 remedy: str = "run the command that wrote it again to write it anew") -> Results:
    """A single results file (a table with our metadata record). A damaged one is refused in one line naming
    it, with `remedy`: what to do about it."""
    import pyarrow.parquet as pq

    p = Path(path)
    if not p.exists():
        raise ResultsError(f"results file {str(p)!r} does not exist")
    if p.is_dir():
        raise ResultsError(f"{str(p)!r} is a folder; read a run folder with sim.records.results.read")
    try:
        pq.read_metadata(p)
    except arrow_errors() as exc:
        raise ResultsError(f"{str(p)!r} is not a readable Parquet file ({type(exc).__name__})") from None
    try:
        table = pq.read_table(p)
    except arrow_errors():  # a damaged page under an intact footer
        raise ResultsError(f"{str(p)!r} is damaged (its data cannot be read): {remedy}") from None
    raw = (table.schema.metadata or {}).get(META_KEY)
    if raw is None:
        raise ResultsError(f"{str(p)!r} was not written by canasta-lab (no {META_KEY.decode()} metadata)")
    try:
        meta = json.loads(raw)
    except ValueError:
        raise ResultsError(f"{str(p)!r} is damaged (its record cannot be read): {remedy}") from None
    return Results(table.to_pandas(), None, meta)
