"""Ranking a round robin: Elo by least squares on the pairwise differences, and Holm's correction
for the number of pairs."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import special

from .intervals import CONFIDENCE, TWO_SIDED
from .pairs import HALF, elo_from_score

ELO_CAP = 1000.0  # infinite Elo ends (a pair won on every deal) are capped here


TIE_SE = 1e-3  # Elo standard error given to a zero-width interval (exact copies), so it ties them


RANK_TOLERANCE = 0.01  # Elo gap below which two strategies share a rank (exact copies differ by ~1e-6)


ALPHA_HOLM = 0.05  # family-wise error rate of a round robin's or a sweep's list of real differences


ELO_PER_LOGIT = 400 / np.log(10)  # d(elo)/d(logit of the score)


def elo_ranking(pairs: pd.DataFrame) -> pd.DataFrame:
    """Elo of every strategy of a round robin from its pairwise Elo differences (columns a, b, elo, elo_low,
    elo_high at 95%, as head_to_head gives).

    Weighted least squares with standard errors from the interval widths and the Elos summing to zero; the
    intervals come from the covariance of the fit. A pair won or lost on every deal (given `deals` and
    `win_rate`, as head_to_head gives them) is read with half a deal going the other way and a binomial
    standard error; without those columns its infinite ends are capped at +-1000 Elo. A zero-width interval at
    an even match gets a 0.001-Elo standard error, which ties exact copies. Returns strategy, elo, elo_low,
    elo_high and rank (1 = best), best first.
    """
    need = ["a", "b", "elo", "elo_low", "elo_high"]
    missing = [c for c in need if c not in pairs.columns]
    if missing:
        raise ValueError(f"elo_ranking needs columns {need}; missing {missing}")
    if len(pairs) == 0:
        raise ValueError("elo_ranking needs at least one pair")
    a = pairs["a"].astype(str).to_numpy()
    b = pairs["b"].astype(str).to_numpy()
    names, inv = np.unique(np.concatenate([a, b]), return_inverse=True)
    ia, ib = inv[:len(a)], inv[len(a):]
    y, low, high = (np.clip(pairs[c].to_numpy(dtype=float), -ELO_CAP, ELO_CAP) for c in ("elo", "elo_low", "elo_high"))
    if np.isnan(y).any() or np.isnan(low).any() or np.isnan(high).any():
        raise ValueError("elo_ranking got a pair with a missing (nan) Elo")
    z = float(special.ndtri((1 + CONFIDENCE) / TWO_SIDED))
    se = np.maximum((high - low) / (2 * z), TIE_SE)
    if {"deals", "win_rate"} <= set(pairs.columns):
        # a pair won (or lost) on every deal has no spread, so its interval is a point: not a certainty.
        # Read it as if half a deal had gone the other way (a continuity correction), with the binomial
        # standard error of that score carried to Elo, so it does not pin the whole fit
        n = np.maximum(pairs["deals"].to_numpy(dtype=float), 1.0)
        p = pairs["win_rate"].to_numpy(dtype=float)
        degenerate = (se <= TIE_SE) & (p != HALF)
        pc = np.clip(p, HALF / n, 1 - HALF / n)
        se_elo = ELO_PER_LOGIT * np.sqrt(pc * (1 - pc) / n) / (pc * (1 - pc))
        y = np.where(degenerate, elo_from_score(pc), y)
        se = np.where(degenerate, se_elo, se)
    m = len(names)
    x = np.zeros((len(y), m))
    rows = np.arange(len(y))
    x[rows, ia] += 1.0
    x[rows, ib] -= 1.0
    # the sum-to-zero constraint by reparametrisation: elo = basis @ beta with m - 1 free parameters
    basis = np.vstack([np.eye(m - 1), -np.ones((1, m - 1))])
    xb = x @ basis
    w = 1.0 / se**2
    info = xb.T @ (xb * w[:, None])
    if np.linalg.matrix_rank(info) < m - 1:
        raise ValueError("elo_ranking: the pairs do not connect every strategy, so their Elos are not comparable")
    cov_beta = np.linalg.inv(info)
    beta = cov_beta @ (xb.T @ (w * y))
    elo = basis @ beta
    elo = elo - elo.mean()  # already zero up to rounding
    sd = np.sqrt(np.clip(np.diag(basis @ cov_beta @ basis.T), 0.0, None))
    out = pd.DataFrame({"strategy": names, "elo": elo + 0.0, "elo_low": elo - z * sd + 0.0,
                        "elo_high": elo + z * sd + 0.0})  # + 0.0: no -0.0
    order = np.lexsort((names, -elo))
    new_level = np.r_[True, -np.diff(elo[order]) > RANK_TOLERANCE]
    rank = np.empty(m, dtype=int)
    rank[order] = np.maximum.accumulate(np.where(new_level, np.arange(1, m + 1), 0))
    out["rank"] = rank
    return out.iloc[order].reset_index(drop=True)


def holm(p_values: np.ndarray, alpha: float = ALPHA_HOLM) -> np.ndarray:
    """Holm-Bonferroni step-down: which hypotheses are rejected, controlling the family-wise error at alpha.

    Sorted ascending, the i-th smallest p (0-based) is rejected if it and every smaller one satisfy
    p <= alpha / (m - i). nan p values are never rejected (but count in m).
    """
    p = np.asarray(p_values, dtype=float)
    m = len(p)
    order = np.argsort(np.where(np.isnan(p), np.inf, p), kind="stable")
    ok = p[order] <= alpha / (m - np.arange(m))
    rejected_sorted = np.cumprod(ok).astype(bool)  # stop at the first failure
    out = np.zeros(m, dtype=bool)
    out[order] = rejected_sorted
    return out

