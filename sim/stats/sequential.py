"""The sequential probability ratio test on per-deal values, batched so that its decision does not
depend on the number of workers, and the estimate corrected for the bias of stopping early."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .intervals import Moments, _moments
from .pairs import DealStats, PairValues, elo_from_score, score_from_elo

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

