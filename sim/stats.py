"""Win rates with honest error bars, and paired comparisons over duplicate deals.

Quantiles come from scipy.special (the t and normal distribution functions), not scipy.stats: importing
scipy.stats costs every process about 58 MB, a fifth of the memory a million-game run may use.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import special


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
    """Wilson interval for k wins in n independent games (honest near 0 and 1, unlike the normal one)."""
    return _wilson_fraction(k / n, n, confidence) if n else (float("nan"), float("nan"))


def mean_interval(d: np.ndarray, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean of independent differences with its t interval: (mean, low, high)."""
    n = len(d)
    mean = float(d.mean()) if n else float("nan")
    if n > 1 and d.std(ddof=1) > 0:
        lo, hi = _t_interval(d, mean, confidence)
        return mean, lo, hi
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


# --- head to head over duplicate deals -----------------------------------------------------------------------------

HALF = 0.5  # the head-to-head score of a tie, and the score of two equal strategies
ELO_SCALE = 400.0  # logistic Elo: a 400-point gap means 10-to-1 odds
DEFAULT_CONFIDENCE = 0.95
TWO_SIDED = 2.0


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


def concat_pair_values(parts: Sequence[PairValues]) -> PairValues:
    """The pair values of consecutive blocks of whole deals, as one."""
    first = parts[0]
    cat = {f: np.concatenate([getattr(p, f) for p in parts])
           for f in ("deal_ids", "deal_x", "deal_margin", "game_ids", "game_x", "game_margin")}
    return PairValues(a=first.a, b=first.b, rotations=first.rotations, **cat)


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


def _moments(values: np.ndarray | Moments) -> Moments:
    return values if isinstance(values, Moments) else Moments.of(np.asarray(values, dtype=float))


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


def summarize_pairs(pv: PairValues | DealStats, confidence: float = DEFAULT_CONFIDENCE,
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


def head_to_head(games: pd.DataFrame, a: str, b: str, confidence: float = DEFAULT_CONFIDENCE) -> dict[str, Any]:
    """A against B over complete duplicate deals, with intervals that respect the pairing of rotations.

    The deal is the independent unit (its rotations share the cards), so intervals and the p value are t
    statistics on per-deal values; `wilson_low/high` treat games as independent, for contrast only.
    """
    return summarize_pairs(pair_values(games, a, b), confidence)


# --- sequential probability ratio test ------------------------------------------------------------------------------

SPRT_KINDS = ("elo", "win_rate", "margin")
_SPRT_KEYS = {"elo0": ("elo", 0), "elo1": ("elo", 1), "p0": ("win_rate", 0), "p1": ("win_rate", 1),
              "margin0": ("margin", 0), "margin1": ("margin", 1)}
_SPRT_KEY_NAMES = {"elo": ("elo0", "elo1"), "win_rate": ("p0", "p1"), "margin": ("margin0", "margin1")}
SPRT_FORMS = "'elo0=A,elo1=B', 'p0=A,p1=B' or 'margin0=A,margin1=B', optionally with ',alpha=X,beta=Y'"
DEFAULT_ERROR_RATE = 0.05
MAX_ERROR_RATE = 0.5
# a variance floor relative to the squared gap between the hypotheses: identical values give a huge but finite
# log-likelihood ratio with the right sign (decisive at once) instead of a division by zero
VAR_FLOOR = 1e-12
H1_CODE, H0_CODE, CONTINUE_CODE = 1, -1, 0
# the bias correction's simulation under the normal model
CORRECTION_PATHS = 4000
CORRECTION_SEED = 20240601
CORRECTION_CHUNK = 32  # looks simulated at a time: stopped paths drop out, long tests never hold every look
NO_BUDGET_FACTOR = 20  # without a budget, simulated tests stop at 20 times the observed deals
BRACKET_TRIES = 12
CORRECTION_XTOL = 1e-4  # root precision, relative to the gap between the hypotheses


@dataclass(frozen=True)
class SprtSpec:
    """Hypotheses of a sequential test: elo or win rate (on per-deal scores) or margin (points per deal)."""

    kind: str
    h0: float
    h1: float
    alpha: float = DEFAULT_ERROR_RATE
    beta: float = DEFAULT_ERROR_RATE

    def __post_init__(self) -> None:
        if self.kind not in SPRT_KINDS:
            raise ValueError(f"SPRT kind {self.kind!r} unknown; accepted: {', '.join(SPRT_KINDS)}")
        names = _SPRT_KEY_NAMES[self.kind]
        for name, v in (*zip(names, (self.h0, self.h1), strict=True), ("alpha", self.alpha), ("beta", self.beta)):
            if not np.isfinite(v):
                raise ValueError(f"SPRT {name}={v} is not a finite number")
        if self.h0 == self.h1:
            raise ValueError(f"SPRT {names[0]} and {names[1]} are both {self.h0}; they must differ")
        for name, v in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < v < MAX_ERROR_RATE:
                raise ValueError(f"SPRT {name}={v} is outside (0, 0.5)")
        if self.kind == "win_rate":
            for name, v in zip(names, (self.h0, self.h1), strict=True):
                if not 0.0 < v < 1.0:
                    raise ValueError(f"SPRT {name}={v} is not a win rate in (0, 1)")

    @property
    def means(self) -> tuple[float, float]:
        """The per-deal means under H0 and H1 (elo converted to the expected score)."""
        if self.kind == "elo":
            return score_from_elo(self.h0), score_from_elo(self.h1)
        return float(self.h0), float(self.h1)

    def to_units(self, mean: float) -> float:
        """A per-deal mean in the kind's units (elo for elo)."""
        return elo_from_score(min(1.0, max(0.0, mean))) if self.kind == "elo" else float(mean)


def parse_sprt(text: str) -> SprtSpec:
    """Parse 'elo0=0,elo1=10', 'p0=0.5,p1=0.52' or 'margin0=0,margin1=50' (+ optional alpha, beta)."""
    items = [t.strip() for t in str(text).split(",") if t.strip()]
    if not items:
        raise ValueError(f"empty SPRT specification; accepted: {SPRT_FORMS}")
    found: dict[str, float] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip().lower()
        if not sep:
            raise ValueError(f"SPRT item {item!r} is not key=value; accepted: {SPRT_FORMS}")
        if key not in _SPRT_KEYS and key not in ("alpha", "beta"):
            raise ValueError(f"unknown SPRT key {key!r}; accepted keys: {', '.join(_SPRT_KEYS)}, alpha, beta")
        if key in found:
            raise ValueError(f"SPRT key {key!r} given twice")
        try:
            value = float(raw.strip())
        except ValueError:
            raise ValueError(f"SPRT {key}={raw.strip()!r} is not a number") from None
        if not np.isfinite(value):
            raise ValueError(f"SPRT {key}={raw.strip()!r} is not a finite number")
        found[key] = value
    kinds = sorted({_SPRT_KEYS[k][0] for k in found if k in _SPRT_KEYS})
    if len(kinds) > 1:
        raise ValueError(f"mixed SPRT kinds ({', '.join(kinds)}); use one pair: {SPRT_FORMS}")
    if not kinds:
        raise ValueError(f"no SPRT hypotheses given; accepted: {SPRT_FORMS}")
    kind = kinds[0]
    k0, k1 = _SPRT_KEY_NAMES[kind]
    missing = [k for k in (k0, k1) if k not in found]
    if missing:
        raise ValueError(f"SPRT needs both {k0} and {k1}; {missing[0]} is missing")
    return SprtSpec(kind, found[k0], found[k1], found.get("alpha", DEFAULT_ERROR_RATE),
                    found.get("beta", DEFAULT_ERROR_RATE))


def sprt_bounds(spec: SprtSpec) -> tuple[float, float]:
    """Wald's bounds on the log-likelihood ratio: accept H0 at or below the first, H1 at or above the second."""
    return float(np.log(spec.beta / (1 - spec.alpha))), float(np.log((1 - spec.beta) / spec.alpha))


def sprt_values(spec: SprtSpec, pv: PairValues | DealStats) -> np.ndarray | Moments:
    """The per-deal values a test of this kind is about (scores for elo / win rate, points for margin), or
    their moments, which is all the test reads."""
    if isinstance(pv, DealStats):
        return pv.margin if spec.kind == "margin" else pv.x
    return pv.deal_margin if spec.kind == "margin" else pv.deal_x


def _var_floor(spec: SprtSpec) -> float:
    mu0, mu1 = spec.means
    return VAR_FLOOR * (mu1 - mu0) ** 2


def _llr_centered(spec: SprtSpec, n: np.ndarray, c_sum: np.ndarray, c_sumsq: np.ndarray) -> np.ndarray:
    """GSPRT llr from n, sum and sum of squares of values minus the midpoint of the hypotheses (broadcasts)."""
    mu0, mu1 = spec.means
    n = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        var = np.where(n >= 2, (c_sumsq - c_sum * c_sum / n) / (n - 1), 0.0)
    var = np.maximum(var, _var_floor(spec))
    return (mu1 - mu0) / var * c_sum


def sprt_llr(spec: SprtSpec, values: np.ndarray | Moments) -> float:
    """Generalized SPRT log-likelihood ratio under a normal model of the per-deal values (as engine testing does).

    (mu1 - mu0) / var * sum(values - (mu0 + mu1) / 2) with var the sample variance, floored so identical values
    give a huge, finite llr with the right sign. Reads only the values' moments.
    """
    m = _moments(values)
    if m.n == 0:
        return 0.0
    mu0, mu1 = spec.means
    var = m.var if m.n > 1 else 0.0
    var = max(var, _var_floor(spec))
    return float((mu1 - mu0) / var * m.n * (m.mean - (mu0 + mu1) / 2))


def _decision(code: int) -> str | None:
    return {H1_CODE: "H1", H0_CODE: "H0"}.get(int(code))


def sprt_status(spec: SprtSpec, values: np.ndarray | Moments) -> dict[str, Any]:
    """The test on all values so far: llr, bounds, decision ('H0', 'H1' or None to continue), deals."""
    m = _moments(values)
    llr = sprt_llr(spec, m)
    lower, upper = sprt_bounds(spec)
    code = H1_CODE if llr >= upper else H0_CODE if llr <= lower else CONTINUE_CODE
    return {"llr": llr, "lower": lower, "upper": upper, "decision": _decision(code), "deals": m.n}


def _first_crossing(spec: SprtSpec, llr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per path (last axis = looks): the decision code and the index of the stopping look (last if none)."""
    lower, upper = sprt_bounds(spec)
    hit = (llr >= upper) | (llr <= lower)
    crossed = hit.any(axis=-1)
    look = np.where(crossed, hit.argmax(axis=-1), llr.shape[-1] - 1)
    at = np.take_along_axis(llr, look[..., None], axis=-1)[..., 0]
    code = np.where(crossed, np.where(at >= upper, H1_CODE, H0_CODE), CONTINUE_CODE)
    return code, look


def sprt_batches(spec: SprtSpec, counts: np.ndarray, sums: np.ndarray, sumsq: np.ndarray) -> dict[str, np.ndarray]:
    """The batched test on many paths at once, from per-batch summaries (last axis = batches, in order).

    counts, sums and sumsq are the number of deals, the sum and the sum of squares of the per-deal values of
    each batch; the test looks after every batch. Returns per path `code` (1 H1, -1 H0, 0 none), `look` (index
    of the stopping look), `deals` and `llr` at the stop. Lets simulations run thousands of tests without
    materialising every deal; sprt_run uses the same rule.
    """
    mid = sum(spec.means) / 2
    n = np.cumsum(np.asarray(counts, dtype=float), axis=-1)
    s = np.cumsum(np.asarray(sums, dtype=float), axis=-1)
    ss = np.cumsum(np.asarray(sumsq, dtype=float), axis=-1)
    c_sum = s - n * mid
    c_sumsq = ss - 2 * mid * s + n * mid * mid
    llr = _llr_centered(spec, n, c_sum, c_sumsq)
    code, look = _first_crossing(spec, llr)
    pick = look[..., None]
    return {"code": code, "look": look, "deals": np.take_along_axis(n, pick, axis=-1)[..., 0].astype(np.int64),
            "llr": np.take_along_axis(llr, pick, axis=-1)[..., 0]}


def _look_sizes(batch_deals: int, budget: int) -> np.ndarray:
    """Deals seen at each look: batch, 2 batch, ... and the budget itself if it is not a multiple."""
    return np.minimum(np.arange(1, -(-budget // batch_deals) + 1, dtype=np.int64) * batch_deals, budget)


def sprt_run(spec: SprtSpec, values: np.ndarray, batch_deals: int, max_deals: int) -> dict[str, Any]:
    """Run the batched test over a sequence of per-deal values: look after every batch, stop at a bound or budget.

    Returns sprt_status's keys at the stop plus `looks`, `stopped_early`, `estimate` and the bias-corrected
    `corrected` (both in the kind's units) and `correction` (the method, in words).
    """
    if batch_deals < 1 or max_deals < 1:
        raise ValueError(f"batch_deals and max_deals must be positive, got {batch_deals} and {max_deals}")
    v = np.asarray(values, dtype=float)[:max_deals]
    lower, upper = sprt_bounds(spec)
    if len(v) == 0:
        out = {"llr": 0.0, "lower": lower, "upper": upper, "decision": None, "deals": 0, "looks": 0,
               "stopped_early": False}
        return out | sprt_estimate(spec, v, batch_deals, False, max_deals)
    sizes = _look_sizes(batch_deals, len(v))
    c = v - sum(spec.means) / 2
    c_sum = np.cumsum(c)[sizes - 1]
    c_sumsq = np.cumsum(c * c)[sizes - 1]
    llr = _llr_centered(spec, sizes, c_sum, c_sumsq)
    code, look = _first_crossing(spec, llr)
    used = int(sizes[int(look)])
    stopped = bool(code != CONTINUE_CODE)
    out = {"llr": float(llr[int(look)]), "lower": lower, "upper": upper, "decision": _decision(int(code)),
           "deals": used, "looks": int(look) + 1, "stopped_early": stopped}
    return out | sprt_estimate(spec, v[:used], batch_deals, stopped, max_deals)


def _stop_mean_function(spec: SprtSpec, var: float, batch_deals: int, budget: int) -> Callable[[float], float]:
    """mu -> expected mean at the stopping time of the batched test, simulated with common random numbers."""
    sizes = _look_sizes(batch_deals, budget).astype(float)
    steps = np.diff(sizes, prepend=0.0)
    lower, upper = sprt_bounds(spec)
    mu0, mu1 = spec.means
    gap, mid, sd = mu1 - mu0, (mu0 + mu1) / 2, np.sqrt(var)
    rng = np.random.default_rng(CORRECTION_SEED)
    walks: list[np.ndarray] = []  # cumulative standard-normal sums per chunk of looks, made once, reused

    def walk(chunk: int) -> np.ndarray:
        while len(walks) <= chunk:
            lo = len(walks) * CORRECTION_CHUNK
            hi = min(lo + CORRECTION_CHUNK, len(sizes))
            z = rng.standard_normal((CORRECTION_PATHS, hi - lo)) * np.sqrt(steps[lo:hi])
            start = walks[-1][:, -1:] if walks else 0.0
            walks.append(start + np.cumsum(z, axis=1))
        return walks[chunk]

    def expected_stop_mean(mu: float) -> float:
        running = np.arange(CORRECTION_PATHS)
        noise_mean = np.zeros(CORRECTION_PATHS)  # sd * W / n at each path's stop
        n_chunks = -(-len(sizes) // CORRECTION_CHUNK)
        for chunk in range(n_chunks):
            w = walk(chunk)
            w = w if len(running) == CORRECTION_PATHS else w[running]
            n = sizes[chunk * CORRECTION_CHUNK:chunk * CORRECTION_CHUNK + w.shape[1]]
            # llr = gap / var * (n * (mu - mid) + sd * w) crosses a bound where w crosses a per-look threshold
            t_up = (upper * var / gap - n * (mu - mid)) / sd
            t_low = (lower * var / gap - n * (mu - mid)) / sd
            hit = (w >= np.maximum(t_up, t_low)) | (w <= np.minimum(t_up, t_low))
            if chunk == n_chunks - 1:
                hit[:, -1] = True  # the budget stops every path still running
            crossed = hit.any(axis=1)
            at = hit.argmax(axis=1)[crossed]
            noise_mean[running[crossed]] = sd * w[crossed, at] / n[at]
            running = running[~crossed]
            if len(running) == 0:
                break
        return mu + float(noise_mean.mean())

    return expected_stop_mean


def sprt_estimate(spec: SprtSpec, values: np.ndarray | Moments, batch_deals: int, stopped_early: bool,
                  max_deals: int | None = None) -> dict[str, Any]:
    """The mean of the values used, and a version corrected for the bias of stopping early, in the kind's units.

    A test that stops when the running mean crosses a bound overstates the difference. The correction is the
    mean-unbiased estimate under a normal model with the observed variance: the true mean mu for which the
    expected mean at the stopping time of the same batched test (bounds, batch size, budget `max_deals`; without
    one, 20 times the deals seen) equals the observed mean, found by brentq over simulated paths with common
    random numbers. When the test ran to its budget the plain mean is unbiased and is returned as is.
    """
    v = _moments(values)
    if v.n == 0:
        nan = float("nan")
        return {"estimate": nan, "corrected": nan, "correction": "none: no deals"}
    mean = v.mean
    estimate = spec.to_units(mean)
    if not stopped_early:
        return {"estimate": estimate, "corrected": estimate,
                "correction": "none: the test ran to its end, so the plain mean is unbiased"}
    sample_var = v.var if v.n > 1 else 0.0
    if sample_var == 0.0:
        return {"estimate": estimate, "corrected": estimate,
                "correction": "none: every deal gave the same value, so there was no noise for the stop to select"}
    var = max(sample_var, _var_floor(spec))
    budget = max(int(max_deals) if max_deals is not None else NO_BUDGET_FACTOR * v.n, v.n)
    f = _stop_mean_function(spec, var, batch_deals, budget)
    mu0, mu1 = spec.means
    half = 2 * abs(mu1 - mu0) + 10 * np.sqrt(var / batch_deals)
    lo, hi = mean - half, mean + half
    f_lo, f_hi = f(lo) - mean, f(hi) - mean
    for _ in range(BRACKET_TRIES):
        if f_lo <= 0.0 <= f_hi:
            break
        half *= 2
        lo, hi = mean - half, mean + half
        f_lo, f_hi = f(lo) - mean, f(hi) - mean
    else:
        return {"estimate": estimate, "corrected": estimate,
                "correction": "none: the simulated bias correction found no root; plain mean"}
    if f_lo == 0.0:
        mu = lo
    elif f_hi == 0.0:
        mu = hi
    else:
        from scipy import optimize  # here only: scipy.optimize costs every process about 25 MB

        mu = optimize.brentq(lambda m: f(m) - mean, lo, hi, xtol=CORRECTION_XTOL * abs(mu1 - mu0))
    return {"estimate": estimate, "corrected": spec.to_units(mu),
            "correction": (f"mean-unbiased: the true mean whose expected stopping-time mean over "
                           f"{CORRECTION_PATHS} simulated normal paths of the same batched test equals the "
                           f"observed mean")}


# --- ranking a round robin ------------------------------------------------------------------------------------------

ELO_CAP = 1000.0  # infinite Elo ends (a pair won on every deal) are capped here
TIE_SE = 1e-3  # Elo standard error given to a zero-width interval (exact copies), so it ties them
RANK_TOLERANCE = 0.01  # Elo gap below which two strategies share a rank (exact copies differ by ~1e-6)
RANKING_CONFIDENCE = 0.95


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
    z = float(special.ndtri((1 + RANKING_CONFIDENCE) / TWO_SIDED))
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


def holm(p_values: np.ndarray, alpha: float = DEFAULT_ERROR_RATE) -> np.ndarray:
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
