"""Win rates with honest error bars, and paired comparisons over duplicate deals."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats


def long_form(games: pd.DataFrame) -> pd.DataFrame:
    """One row per (game, side): its strategy label, score and whether it won."""
    n_sides = sum(1 for c in games.columns if c.startswith("score_"))
    parts = []
    for s in range(n_sides):
        parts.append(pd.DataFrame({
            "game": games["game"].to_numpy(),
            "deal": games["deal"].to_numpy(),
            "side": s,
            "strategy": games[f"strategy_{s}"].astype(str).to_numpy(),
            "score": games[f"score_{s}"].to_numpy(),
            "won": (games["winner_side"] == s).to_numpy(),
        }))
    return pd.concat(parts, ignore_index=True)


def wilson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def mean_interval(d: np.ndarray, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean of independent differences with its t interval: (mean, low, high)."""
    n = len(d)
    mean = float(d.mean()) if n else float("nan")
    if n > 1 and d.std(ddof=1) > 0:
        lo, hi = stats.t.interval(confidence, n - 1, loc=mean, scale=stats.sem(d))
        return mean, float(lo), float(hi)
    return mean, mean, mean


def win_rates(games: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Per strategy: games played, wins, win rate and its Wilson interval (scipy)."""
    lf = long_form(games)
    rows = []
    for label, g in lf.groupby("strategy", sort=True):
        n = len(g)
        k = int(g["won"].sum())
        lo, hi = wilson(k, n, confidence)
        rows.append({"strategy": label, "games": n, "wins": k, "win_rate": k / n,
                     "ci_low": lo, "ci_high": hi, "mean_score": g["score"].mean()})
    return pd.DataFrame(rows)


def paired_difference(games: pd.DataFrame, a: str, b: str, confidence: float = 0.95) -> dict[str, float]:
    """Mean final-score difference a - b per duplicate deal (luck of the cards cancels), with a t interval."""
    lf = long_form(games)
    per = lf.pivot_table(index="deal", columns="strategy", values="score", aggfunc="mean")
    if a not in per or b not in per:
        raise ValueError(f"strategies {a!r} and {b!r} must both appear in the results")
    d = (per[a] - per[b]).dropna().to_numpy(dtype=float)
    mean, lo, hi = mean_interval(d, confidence)
    return {"deals": len(d), "mean_difference": mean, "ci_low": lo, "ci_high": hi}
