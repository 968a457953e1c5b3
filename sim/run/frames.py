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
    # the seating pattern repeats every n_sides games (duplicate deals; every game where each deal is played once)
    rots = job.rotations
    labels = [side_labels(job, r) for r in range(rots)]
    rot = df["game"].to_numpy() % rots
    for s in range(nsides):
        df[f"strategy_{s}"] = pd.Categorical(np.array([labels[r][s] for r in range(rots)], dtype=object)[rot])
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
