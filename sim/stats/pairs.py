"""Paired comparisons over duplicate deals: the per-deal head-to-head score and margin of A against
B, summed block by block (DealStats), and their intervals, Elo and p value."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import special

from .intervals import CONFIDENCE, TWO_SIDED, Moments, _t_interval, _wilson_fraction, long_form, mean_interval


def paired_difference(games: pd.DataFrame, a: str, b: str, confidence: float = CONFIDENCE) -> dict[str, float]:
    """Mean final-score difference a - b per duplicate deal (luck of the cards cancels), with a t interval."""
    lf = long_form(games)
    per = lf.pivot_table(index="deal", columns="strategy", values="score", aggfunc="mean")
    if a not in per or b not in per:
        raise ValueError(f"strategies {a!r} and {b!r} must both appear in the results")
    d = (per[a] - per[b]).dropna().to_numpy(dtype=float)
    mean, lo, hi = mean_interval(d, confidence)
    return {"deals": len(d), "mean_difference": mean, "ci_low": lo, "ci_high": hi}


HALF = 0.5  # the head-to-head score of a tie, and the score of two equal strategies


ELO_SCALE = 400.0  # logistic Elo: a 400-point gap means 10-to-1 odds


@dataclass(frozen=True, eq=False)
class PairValues:
    """A's head-to-head score and margin against B, per game and per complete deal.

    Games are ordered by (deal, game) so `game_x.reshape(-1, rotations)` gives one row per deal.
    """

    a: str
    b: str
    rotations: int
    deal_ids: np.ndarray
    deal_x: np.ndarray
    deal_margin: np.ndarray
    game_ids: np.ndarray
    game_x: np.ndarray
    game_margin: np.ndarray


def _side_columns(games: pd.DataFrame) -> int:
    """Number of sides k, checking that score_i and strategy_i exist for every i < k."""
    k = sum(1 for c in games.columns if c.startswith("score_"))
    missing = [c for i in range(k) for c in (f"score_{i}", f"strategy_{i}") if c not in games.columns]
    if k < 2 or missing:
        raise ValueError(f"a games table needs score_i and strategy_i for every side (at least two); "
                         f"missing {missing or ['score_1', 'strategy_1']}")
    for c in ("game", "deal"):
        if c not in games.columns:
            raise ValueError(f"a games table needs a {c!r} column")
    return k


def _labels_present(games: pd.DataFrame, k: int) -> list[str]:
    found: set[str] = set()
    for s in range(k):
        found.update(str(x) for x in pd.unique(games[f"strategy_{s}"].astype(object)))
    return sorted(found)


def _label_mask(column: pd.Series, label: str) -> np.ndarray:
    """Rows whose side label is `label`; compares category codes when it can (fast on a million games)."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        matches = np.flatnonzero(column.cat.categories.astype(str) == label)
        return np.isin(column.cat.codes.to_numpy(), matches)
    return column.to_numpy(dtype=object) == label


def _sum_by_run(values: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Sums of consecutive runs starting at `starts` (exact for integer arrays)."""
    if len(values) == 0:
        return values[:0]
    return np.add.reduceat(values, starts)


def pair_values(games: pd.DataFrame, a: str, b: str) -> PairValues:
    """A's per-game and per-deal head-to-head score and margin against B, over complete duplicate deals.

    Per game the score is the mean over (A side, B side) pairs of 1 / 0.5 / 0 for a higher / equal / lower
    final score, and the margin is mean A score minus mean B score. Sums are kept as integers over a common
    denominator and divided once, so a strategy against an exact copy of itself comes out exactly 0.5 and 0.
    Deals missing a rotation (or with a game where A or B does not play) are left out.
    """
    if a == b:
        raise ValueError(f"compare two different side labels, got {a!r} twice")
    k = _side_columns(games)
    rotations = k
    is_a = np.column_stack([_label_mask(games[f"strategy_{s}"], a) for s in range(k)])
    is_b = np.column_stack([_label_mask(games[f"strategy_{s}"], b) for s in range(k)])
    absent = [x for x, m in ((a, is_a), (b, is_b)) if not m.any()]
    if absent:
        raise ValueError(f"side label(s) {', '.join(map(repr, absent))} not in the games; "
                         f"labels present: {', '.join(_labels_present(games, k))}")
    score_cols = [games[f"score_{s}"] for s in range(k)]
    integer = all(pd.api.types.is_integer_dtype(c) for c in score_cols)
    scores = np.column_stack([c.to_numpy(dtype=np.int64 if integer else float) for c in score_cols])

    n_a = is_a.sum(axis=1)
    n_b = is_b.sum(axis=1)
    valid = (n_a > 0) & (n_b > 0)
    # twice the number of won pairs (a tie counts 1 of 2): an integer per game
    x2 = np.zeros(len(games), dtype=np.int64)
    for i in range(k):  # a loop over sides, not over games
        for j in range(k):
            if i != j:
                both = is_a[:, i] & is_b[:, j]
                cmp2 = 2 * (scores[:, i] > scores[:, j]) + (scores[:, i] == scores[:, j])
                x2 += np.where(both, cmp2, 0)
    sum_a = np.where(is_a, scores, 0).sum(axis=1)
    sum_b = np.where(is_b, scores, 0).sum(axis=1)
    m_num = n_b * sum_a - n_a * sum_b  # margin times n_a * n_b
    denom = n_a * n_b

    game = games["game"].to_numpy(dtype=np.int64)
    deal = games["deal"].to_numpy(dtype=np.int64)
    idx = np.flatnonzero(valid)
    idx = idx[np.lexsort((game[idx], deal[idx]))]
    deal_ids, starts, counts = np.unique(deal[idx], return_index=True, return_counts=True)
    complete = counts == rotations
    keep = np.repeat(complete, counts)
    idx = idx[keep]
    deal_ids = deal_ids[complete]
    starts = np.arange(len(deal_ids)) * rotations

    d = denom[idx]
    common = int(np.lcm.reduce(np.unique(d))) if len(d) else 1
    scale = common // d  # every game's numerators brought to the common denominator
    deal_x2 = _sum_by_run(x2[idx] * scale, starts)
    deal_m = _sum_by_run(m_num[idx] * scale, starts)
    return PairValues(
        a=a, b=b, rotations=rotations, deal_ids=deal_ids,
        deal_x=deal_x2 / (2 * common * rotations),
        deal_margin=deal_m / (common * rotations),
        game_ids=game[idx], game_x=x2[idx] / (2 * d), game_margin=m_num[idx] / d,
    )


def elo_from_score(p: float | np.ndarray) -> float | np.ndarray:
    """Logistic Elo difference for an expected score p (-400*log10(1/p - 1)); +-inf at p = 1 / 0, never -0.0."""
    arr = np.asarray(p, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = ELO_SCALE * (np.log10(arr) - np.log10(1.0 - arr)) + 0.0  # + 0.0 turns -0.0 into 0.0
    return float(out) if out.ndim == 0 else out


def score_from_elo(elo: float | np.ndarray) -> float | np.ndarray:
    """Expected score of an Elo difference: 1 / (1 + 10^(-elo/400))."""
    out = 1.0 / (1.0 + np.power(10.0, -np.asarray(elo, dtype=float) / ELO_SCALE))
    return float(out) if np.ndim(out) == 0 else out


@dataclass(frozen=True)
class DealStats:
    """All the statistics on deals read of A's per-deal scores and margins against B: counts, sums and
    moments, added block by block, so a run never holds its deals (24 bytes each) in memory at once."""

    a: str
    b: str
    rotations: int
    x: Moments  # of the per-deal scores
    margin: Moments  # of the per-deal margins
    x_sum: float  # sums of halves and integers are exact, so an exact copy stays exactly 0.5 and 0
    margin_sum: float
    won_all: int
    split: int
    lost_all: int
    halves: int  # deals scored exactly a half

    @classmethod
    def of(cls, pv: PairValues) -> DealStats:
        x = pv.deal_x
        return cls(pv.a, pv.b, pv.rotations, Moments.of(x), Moments.of(pv.deal_margin), float(np.sum(x)),
                   float(np.sum(pv.deal_margin)), int(np.sum(x == 1.0)), int(np.sum((x > 0.0) & (x < 1.0))),
                   int(np.sum(x == 0.0)), int(np.sum(x == HALF)))

    def __add__(self, other: DealStats) -> DealStats:
        return DealStats(self.a, self.b, self.rotations, self.x + other.x, self.margin + other.margin,
                         self.x_sum + other.x_sum, self.margin_sum + other.margin_sum, self.won_all + other.won_all,
                         self.split + other.split, self.lost_all + other.lost_all, self.halves + other.halves)

    @property
    def n(self) -> int:
        return self.x.n


def _variance_factor(games: Moments, deals: Moments) -> float:
    """Var of a mean over independent games / var of the mean over paired deals; nan if the latter is 0."""
    n_deals = deals.n
    if n_deals < 2 or games.n < 2:
        return float("nan")
    paired = deals.var / n_deals
    if paired == 0.0:
        return float("nan")
    return games.var / games.n / paired


def _p_value_half(d: DealStats) -> float:
    """Two-sided t test of the per-deal scores against 0.5; 1.0 when every deal is exactly 0.5."""
    n = d.n
    if n and d.halves == n:
        return 1.0
    if n < 2:
        return float("nan")
    sd = float(np.sqrt(d.x.var))
    if sd == 0.0:
        return 0.0  # every deal the same score, not 0.5: no spread left to explain it by chance
    t = (d.x.mean - HALF) / (sd / np.sqrt(n))
    return float(TWO_SIDED * special.stdtr(n - 1, -abs(t)))


def summarize_pairs(pv: PairValues | DealStats, confidence: float = CONFIDENCE,
                    game_moments: tuple[Moments, Moments] | None = None) -> dict[str, Any]:
    """head_to_head's statistics from already computed pair values (lets simulations skip the games table).

    Given the deals' sums (DealStats, added block by block), `game_moments` (of the per-game scores and
    margins) must come with them: no per-game values are kept."""
    if isinstance(pv, PairValues):
        game_moments = game_moments or (Moments.of(pv.game_x), Moments.of(pv.game_margin))
        pv = DealStats.of(pv)
    elif game_moments is None:
        raise ValueError("summarize_pairs of summed deals needs the per-game moments")
    n = pv.n
    if n:
        win = pv.x_sum / n
        margin = pv.margin_sum / n
    else:
        win = margin = float("nan")
    win_low, win_high = _t_interval(pv.x, win, confidence)
    win_low, win_high = float(np.clip(win_low, 0.0, 1.0)), float(np.clip(win_high, 0.0, 1.0))  # keeps nan
    if n and win_low == win_high and win != HALF:
        # every deal scored the same (say, won on every rotation): no spread is not certainty. A Wilson
        # interval on the deals, each one trial, says what so many deals all alike allow. An exact
        # copy (every deal exactly a half) is certain and keeps its point.
        win_low, win_high = _wilson_fraction(win, n, confidence)
        win_low, win_high = (0.0 if win == 0.0 else win_low), (1.0 if win == 1.0 else win_high)  # not 1 - 1e-16
    margin_low, margin_high = _t_interval(pv.margin, margin, confidence)
    gx, gm = game_moments
    n_games = gx.n
    wilson_low, wilson_high = _wilson_fraction(gx.mean if n_games else float("nan"), n_games, confidence)
    return {
        "a": pv.a, "b": pv.b, "deals": n, "games": n_games, "rotations": pv.rotations,
        "won_all": pv.won_all, "split": pv.split, "lost_all": pv.lost_all,
        "win_rate": win, "win_low": win_low, "win_high": win_high,
        "margin": margin, "margin_low": margin_low, "margin_high": margin_high,
        "elo": elo_from_score(win), "elo_low": elo_from_score(win_low), "elo_high": elo_from_score(win_high),
        "win_variance_factor": _variance_factor(gx, pv.x),
        "margin_variance_factor": _variance_factor(gm, pv.margin),
        "p_value": _p_value_half(pv),
        "wilson_low": wilson_low, "wilson_high": wilson_high,
    }


def head_to_head(games: pd.DataFrame, a: str, b: str, confidence: float = CONFIDENCE) -> dict[str, Any]:
    """A against B over complete duplicate deals, with intervals that respect the pairing of rotations.

    The deal is the independent unit (its rotations share the cards), so intervals and the p value are t
    statistics on per-deal values; `wilson_low/high` treat games as independent, for contrast only.
    """
    return summarize_pairs(pair_values(games, a, b), confidence)

