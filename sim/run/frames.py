"""A job's games and hands as DataFrames, and the metadata record of a run: what the experiment writes
in each part and what every reader of a run folder gets back."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from sim.engine import layout as L
from sim.rules import house_rules
from sim.run.runner import Job
from sim.version import __version__


def metadata(job: Job, n_games: int, wall: float) -> dict[str, Any]:
    return {
        "variant": job.variant.name,
        "rules": job.variant.to_dict(),
        "strategies": [{"label": c.label, "name": c.spec.name, "knobs": c.knob_values()} for c in job.strategies],
        "seed": job.seed,
        "games": n_games,
        "package_version": __version__,
        "wall_seconds": round(wall, 3),
        "duplicate_rotations": job.rotations,
        "house_rules": house_rules(job.variant),
        "seating": job.seat_labels(0),
    }


def side_labels(job: Job, game: int) -> list[str]:
    seats = job.seat_labels(game)
    return ["+".join(seats[p] for p in side) for side in job.variant.sides]


def schema_columns(job: Job, rows: np.ndarray, schema: tuple[tuple[str, int, str], ...]) -> dict[str, Any]:
    """The columns of a result row's schema (sim/engine/layout.py: GAME_COLUMNS, HAND_COLUMNS), in its
    order, each read as its kind says."""
    reasons = [L.END_NAMES[int(e)] for e in L.EndReason]
    cols: dict[str, Any] = {}
    for name, offset, kind in schema:
        values = rows[:, offset]
        if kind == L.COL_INT:
            cols[name] = values
        elif kind == L.COL_BOOL:
            cols[name] = values.astype(bool)
        elif kind == L.COL_REASON:
            cols[name] = pd.Categorical.from_codes(values - 1, reasons)
        elif kind == L.COL_SIDE:
            cols[name] = [job.variant.seat_side(int(p)) if p >= 0 else -1 for p in values]
        else:
            raise ValueError(f"result column {name}: unknown kind {kind!r}")
    return cols


def games_frame(job: Job, rows: np.ndarray) -> pd.DataFrame:
    nsides = job.variant.n_sides
    df = pd.DataFrame(schema_columns(job, rows, L.GAME_COLUMNS))
    for s in range(nsides):
        df[f"score_{s}"] = rows[:, L.G_SCORE + s]
    # the seating pattern repeats every n_sides games (duplicate deals; every game where each deal is played once)
    rots = job.rotations
    labels = [side_labels(job, r) for r in range(rots)]
    rot = df["game"].to_numpy() % rots
    for s in range(nsides):
        df[f"strategy_{s}"] = pd.Categorical(np.array([labels[r][s] for r in range(rots)], dtype=object)[rot])
    return df


def hands_frame(job: Job, rows: np.ndarray) -> pd.DataFrame:
    nsides = job.variant.n_sides
    df = pd.DataFrame(schema_columns(job, rows, L.HAND_COLUMNS))
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
