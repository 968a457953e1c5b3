"""Choosing among settings played on the same deals: paired differences between them, which ones beat a
reference after Holm's correction, the confidence set of the best one, an equivalence test, and the power
of a check to see a reversal.

Every setting is played on the same duplicate deals (a sweep's rows share the master seed), so two settings
are compared deal by deal: the per-deal difference cancels the cards as well as the seating. The inputs are
per-deal values, one column per setting (`values[deal, setting]`); none of this knows what a value is (a
share of games won, a head-to-head score)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special

from .ranking import holm

ALPHA = 0.05  # the error rate of one decision when the games are not looked at more than once


def z_two_sided(alpha: float) -> float:
    """The normal quantile of a two-sided test at `alpha`."""
    return float(special.ndtri(1 - alpha / 2))


def z_one_sided(alpha: float) -> float:
    return float(special.ndtri(1 - alpha))


@dataclass(frozen=True)
class Paired:
    """Each setting's mean per-deal value, and for every pair (i, j) the mean and standard error of the
    per-deal difference i - j over the deals both played."""

    deals: int
    mean: np.ndarray  # (k,)
    diff: np.ndarray  # (k, k): mean of values[:, i] - values[:, j]
    se: np.ndarray  # (k, k): its standard error (0 where the two settings play the same games)

    def p_value(self, i: int, j: int) -> float:
        """Two-sided p of 'i and j do equally well' (normal; deals are in the hundreds at least)."""
        se = self.se[i, j]
        if se == 0:
            return 1.0 if self.diff[i, j] == 0 else 0.0
        return float(2 * special.ndtr(-abs(self.diff[i, j]) / se))


def paired(values: np.ndarray) -> Paired:
    """Paired statistics of the columns of `values` (deals x settings)."""
    v = np.asarray(values, dtype=float)
    n, k = v.shape
    mean = v.mean(axis=0) if n else np.full(k, np.nan)
    diff = mean[:, None] - mean[None, :]
    se = np.zeros((k, k))
    if n > 1:
        for i in range(k):
            d = v[:, [i]] - v  # (n, k)
            se[i] = d.std(axis=0, ddof=1) / np.sqrt(n)
    return Paired(n, mean, diff, se)


def beats(p: Paired, ref: int, alpha: float = ALPHA) -> np.ndarray:
    """The settings that do better than setting `ref` after Holm's correction over the others (two-sided
    tests at `alpha`, family-wise); `ref` itself never."""
    k = len(p.mean)
    others = [i for i in range(k) if i != ref]
    pv = np.array([p.p_value(i, ref) for i in others])
    real = holm(pv, alpha) if others else np.zeros(0, bool)
    out = np.zeros(k, bool)
    for i, r in zip(others, real, strict=True):
        out[i] = bool(r) and p.diff[i, ref] > 0
    return out


def loses(p: Paired, ref: int, alpha: float = ALPHA) -> np.ndarray:
    """The settings that do worse than `ref` after Holm's correction over the others."""
    k = len(p.mean)
    others = [i for i in range(k) if i != ref]
    pv = np.array([p.p_value(i, ref) for i in others])
    real = holm(pv, alpha) if others else np.zeros(0, bool)
    out = np.zeros(k, bool)
    for i, r in zip(others, real, strict=True):
        out[i] = bool(r) and p.diff[i, ref] < 0
    return out


def best_set(p: Paired, alpha: float = ALPHA) -> np.ndarray:
    """The confidence set of the best setting (Gupta's subset selection on paired differences, Bonferroni
    over the k - 1 comparisons): setting i stays unless some other setting beats it by more than
    z(1 - alpha / (k - 1)) standard errors of their difference. It holds the truly best setting with
    probability at least 1 - alpha, and a setting that plays the same games as the best is in it too."""
    k = len(p.mean)
    if k == 1:
        return np.ones(1, bool)
    z = z_one_sided(alpha / (k - 1))
    out = np.ones(k, bool)
    for i in range(k):
        for j in range(k):
            if j != i and p.diff[j, i] > z * p.se[j, i] and p.diff[j, i] > 0:
                out[i] = False
                break
    return out


def within(p: Paired, ref: int, margin: float, alpha: float = ALPHA) -> np.ndarray:
    """Two one-sided tests (TOST) at `alpha` for each setting against `ref`: its difference lies within
    +-margin (the 1 - 2 alpha interval inside it). Every setting passing is an intersection-union test:
    no correction for their number is needed."""
    z = z_one_sided(alpha)
    d, se = p.diff[:, ref], p.se[:, ref]
    return (d - z * se > -margin) & (d + z * se < margin)


def reversal_power(gain: float, se: float, alpha: float = ALPHA) -> float:
    """The chance that a check whose difference has standard error `se` sees, at `alpha` two-sided, an effect
    of the size `gain` (a reversal of a headline of that size): a check too small to see one cannot say the
    answer holds."""
    if not np.isfinite(gain) or not np.isfinite(se):
        return float("nan")
    if se <= 0:
        return 1.0
    z = z_two_sided(alpha)
    shift = abs(gain) / se
    return float(special.ndtr(shift - z) + special.ndtr(-shift - z))


def games_for_power(gain: float, se: float, games: int, power: float = 0.8, alpha: float = ALPHA) -> int:
    """Games per setting at which a difference measured with standard error `se` from `games` games would
    see an effect of size `gain` with probability `power` (the standard error shrinks as 1/sqrt(games))."""
    if gain == 0 or not np.isfinite(gain) or not np.isfinite(se) or se <= 0:
        return games
    need = (z_two_sided(alpha) + float(special.ndtri(power))) * se / abs(gain)
    return max(games, int(np.ceil(games * need * need)))


def games_to_decide(diff: float, se: float, games: int, alpha: float = ALPHA) -> int:
    """Games per setting at which a difference as large as `diff`, measured with standard error `se` from
    `games` games, would be told from zero at `alpha` (if the difference is what it seems)."""
    if diff == 0 or not np.isfinite(diff) or not np.isfinite(se) or se <= 0:
        return games
    ratio = z_two_sided(alpha) * se / abs(diff)
    return max(games, int(np.ceil(games * ratio * ratio)))
