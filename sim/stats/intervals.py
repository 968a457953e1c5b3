"""Intervals: win rates with honest error bars (Wilson), t intervals, and the moments that let a
million values be summed block by block; the one confidence level every command reports.

Quantiles come from scipy.special (the t and normal distribution functions), not scipy.stats: importing
scipy.stats costs every process about 58 MB, a fifth of the memory a million-game run may use.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special

CONFIDENCE = 0.95  # the level of every interval the commands, reports and studies print


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


def wilson(k: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson interval for k wins in n independent games (honest near 0 and 1, unlike the normal one)."""
    return _wilson_fraction(k / n, n, confidence) if n else (float("nan"), float("nan"))


def mean_interval(d: np.ndarray, confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """Mean of independent differences with its t interval: (mean, low, high)."""
    n = len(d)
    mean = float(d.mean()) if n else float("nan")
    if n > 1 and d.std(ddof=1) > 0:
        lo, hi = _t_interval(d, mean, confidence)
        return mean, lo, hi
    return mean, mean, mean


def win_rates(games: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
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


TWO_SIDED = 2.0


def _t_interval(values: np.ndarray | Moments, mean: float, confidence: float) -> tuple[float, float]:
    """t interval around `mean`; collapses to the point when there is no spread (or a single value)."""
    m = _moments(values)
    n = m.n
    if n < 2:
        return mean, mean
    sd = float(np.sqrt(m.var))
    if sd == 0.0:
        return mean, mean
    half = float(special.stdtrit(n - 1, (1 + confidence) / TWO_SIDED)) * sd / np.sqrt(n)
    return mean - half, mean + half


def _wilson_fraction(p: float, n: int, confidence: float) -> tuple[float, float]:
    """Wilson interval for a proportion that may be fractional (ties count a half)."""
    if n == 0:
        return float("nan"), float("nan")
    z = float(special.ndtri((1 + confidence) / TWO_SIDED))
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return float(max(0.0, centre - half)), float(min(1.0, centre + half))


@dataclass(frozen=True)
class Moments:
    """Count, mean and sum of squared deviations of some values: what the per-game figures need,
    combined block by block (Chan et al.) so a million games need not stand in memory at once."""

    n: int
    mean: float
    m2: float

    @classmethod
    def of(cls, values: np.ndarray) -> Moments:
        n = len(values)
        mean = float(values.mean()) if n else 0.0
        return cls(n, mean, float(((values - mean) ** 2).sum()) if n else 0.0)

    def __add__(self, other: Moments) -> Moments:
        n = self.n + other.n
        if n == 0:
            return self
        delta = other.mean - self.mean
        return Moments(n, self.mean + delta * other.n / n, self.m2 + other.m2 + delta * delta * self.n * other.n / n)

    @property
    def var(self) -> float:
        return self.m2 / (self.n - 1) if self.n > 1 else float("nan")


def _moments(values: np.ndarray | Moments) -> Moments:
    return values if isinstance(values, Moments) else Moments.of(np.asarray(values, dtype=float))


def fmt_interval(x: float, lo: float, hi: float, digits: int = 3, signed: bool = False) -> str:
    """`x [lo, hi]` as every table and report prints an estimate with its interval."""
    def f(y: float) -> str:
        y = y + 0.0  # -0.0 prints as 0
        if math.isinf(y):
            return "+inf" if y > 0 else "-inf"
        return f"{y:+.{digits}f}" if signed else f"{y:.{digits}f}"

    return f"{f(x)} [{f(lo)}, {f(hi)}]"
