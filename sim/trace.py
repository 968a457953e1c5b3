"""Decision traces: every decision a strategy made, with what it saw, its options and its choice.

For checking that a knob does what it says over real games (tests/test_knobs.py) and for asking
"what did my strategy do when ...?" in a notebook. Runs in this process; memory grows with the
number of traced decisions (about 5 KB each in a two-side game), so trace what you need.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from strategies import StrategyChoice, StrategySpec

from .engine import layout as L
from .rules import Variant, pack
from .runner import EngineError, describe_error, make_job


@dataclass
class DecisionTrace:
    """decisions: one row per decision (game, seat, strategy, point, n, choice and the chosen option's
    kind, a, b, c); obs[i]: the observation at decision i (layout.OB_*); options_of(i): its options."""

    decisions: pd.DataFrame
    obs: np.ndarray
    options: np.ndarray
    offsets: np.ndarray

    def options_of(self, i: int) -> np.ndarray:
        o = int(self.offsets[i])
        return self.options[o:o + int(self.decisions["n"].iat[i])]

    def __len__(self) -> int:
        return len(self.decisions)


def trace_decisions(variant: str | Variant, strategies: Sequence[str | StrategySpec | StrategyChoice], games: int,
                    seed: int = 0, traced: Iterable[int] = (0,), points: Iterable[int] | None = None,
                    check: bool = False, chunk: int = 10) -> DecisionTrace:
    """Play `games` games and trace the decisions of the strategies at positions `traced` of the
    list, at the decision points `points` (layout.DP_*; default all). Same games as `play`."""
    from .engine.game import play_batch_nb
    from .engine.state import new_state

    job = make_job(variant, strategies, seed, check)
    R = pack(job.variant)
    seat_fns, prm = job.seat_tables()
    fns = job.engine_fns()
    base = sum(1 << int(q) for q in traced)
    dpm = sum(1 << int(d) for d in points) if points is not None else (1 << 8) - 1
    rows: list[np.ndarray] = []
    opts: list[np.ndarray] = []
    offs: list[np.ndarray] = []
    cap = 400 * chunk
    done = 0
    n_opts = 0
    while done < games:
        n = min(chunk, games - done)
        while True:
            S = new_state(R, 0, cap)
            S.st[L.S_TRACE_BASE] = base
            S.st[L.S_TRACE_DPM] = dpm
            out_g = np.zeros((n, L.GF), np.int64)
            play_batch_nb(R, S, fns, seat_fns, prm, job.seed, done, n, out_g, np.zeros((0, L.HF), np.int64),
                          1 if check else 0)
            if S.st[L.S_ERR] != 0:
                raise EngineError(describe_error(job, S.st))
            k, ko = int(S.st[L.S_TRACE_N]), int(S.st[L.S_TRACE_ON])
            if k <= S.tr.shape[0] and ko <= S.tro.shape[0]:
                break
            cap = max(k, -(-ko // 8)) + 1  # the buffers were too small: replay the same games
        rows.append(S.tr[:k].copy())
        opts.append(S.tro[:ko].copy())
        offs.append(S.tr[:k, L.T_OPT0] + n_opts)
        n_opts += ko
        done += n
    tr = np.concatenate(rows) if rows else np.zeros((0, L.T_OBS), np.int64)
    games_col = tr[:, L.T_GAME].astype(np.int64)
    labels = np.array([job.seat_labels(g)[s] for g, s in zip(games_col, tr[:, L.T_SEAT], strict=True)],
                      dtype=object)
    df = pd.DataFrame({
        "game": games_col,
        "seat": tr[:, L.T_SEAT],
        "strategy": labels,
        "point": pd.Categorical([L.DP_NAMES[int(d)] for d in tr[:, L.T_DP]], categories=list(L.DP_NAMES.values())),
        "dp": tr[:, L.T_DP],
        "n": tr[:, L.T_N],
        "choice": tr[:, L.T_CHOICE],
        "kind": [L.option_name(int(t)) for t in tr[:, L.T_ROW]],
        "a": tr[:, L.T_ROW + 1],
        "b": tr[:, L.T_ROW + 2],
        "c": tr[:, L.T_ROW + 3],
    })
    return DecisionTrace(df, tr[:, L.T_OBS:], np.concatenate(opts) if opts else np.zeros((0, 4), np.int64),
                         np.concatenate(offs) if offs else np.zeros(0, np.int64))
