"""Paired statistics over duplicate deals, the sequential test, its bias correction and round-robin ranking."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sim import stats as S

ALPHA = 0.05
CONFIDENCE = 0.95
COVERAGE_REPS = 2000
COVERAGE_LOW, COVERAGE_HIGH = 0.93, 0.97
SPRT_TESTS = 1000  # simulated sequential tests per hypothesis
BIAS_TESTS = 300  # simulated tests for the bias correction


def games_table(scores: np.ndarray, labels: np.ndarray) -> pd.DataFrame:
    """A games table from per-game side scores and side labels (rows = games, consecutive rotations per deal)."""
    n, k = scores.shape
    g = np.arange(n)
    df = pd.DataFrame({"game": g, "deal": g // k, "winner_side": scores.argmax(axis=1)})
    for s in range(k):
        df[f"score_{s}"] = scores[:, s].astype(np.int64)
        df[f"strategy_{s}"] = pd.Categorical(labels[:, s])
    return df


def exact_copy_table(seating: list[str], deals: int, seed: int) -> pd.DataFrame:
    """Every deal's rotations are the same game (same seat scores) with the side labels rotated."""
    rng = np.random.default_rng(seed)
    k = len(seating)
    per_deal = rng.integers(-300, 40, size=(deals, k)) * 5  # multiples of 5 make ties frequent
    per_deal[0] = 1000  # a deal where every side ties
    scores = np.repeat(per_deal, k, axis=0)
    base = np.array(seating, dtype=object)
    labels = np.stack([np.roll(base, r) for r in range(k)])[np.arange(deals * k) % k]
    return games_table(scores, labels)


# --- head to head ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seating,a,b", [
    (["A", "B"], "A", "B"),
    (["baseline+baseline", "random+random"], "random+random", "baseline+baseline"),
    (["A", "B", "B"], "A", "B"),
    (["A", "B", "A"], "A", "B"),
    (["A", "B", "A"], "B", "A"),
])
def test_exact_copy_gives_exactly_half_zero_margin_zero_elo_and_p_one(seating, a, b):
    h = S.head_to_head(exact_copy_table(seating, 500, seed=len(seating)), a, b)
    assert h["deals"] == 500 and h["games"] == 500 * len(seating) and h["rotations"] == len(seating)
    assert h["win_rate"] == 0.5 and h["win_low"] == 0.5 and h["win_high"] == 0.5
    assert h["margin"] == 0.0 and h["margin_low"] == 0.0 and h["margin_high"] == 0.0
    assert h["elo"] == 0.0 and h["elo_low"] == 0.0 and h["elo_high"] == 0.0
    assert str(h["elo"]) == "0.0"  # not -0.0
    assert h["p_value"] == 1.0
    assert np.isnan(h["win_variance_factor"]) and np.isnan(h["margin_variance_factor"])  # paired variance is 0
    pv = S.pair_values(exact_copy_table(seating, 500, seed=len(seating)), a, b)
    assert np.all(pv.deal_x == 0.5) and np.all(pv.deal_margin == 0.0)


def test_counts_won_all_split_lost_all_and_incomplete_last_deal_left_out():
    scores = np.array([
        [100, 50], [40, 90],    # deal 0: A (side 0, then side 1) wins both rotations
        [100, 50], [90, 40],    # deal 1: one each
        [10, 50], [60, 40],     # deal 2: A loses both
        [70, 70], [70, 70],     # deal 3: two ties, 0.5
        [30, 20], [30, 20],     # deal 4: A wins one game, loses the other
        [500, 0],               # deal 5: incomplete, only one rotation played
    ])
    labels = np.array([["A", "B"], ["B", "A"]] * 5 + [["A", "B"]], dtype=object)
    h = S.head_to_head(games_table(scores, labels), "A", "B")
    assert (h["deals"], h["games"]) == (5, 10)
    assert (h["won_all"], h["split"], h["lost_all"]) == (1, 3, 1)
    assert h["win_rate"] == pytest.approx((1 + 0.5 + 0 + 0.5 + 0.5) / 5)
    margins = [(50 + 50) / 2, (50 - 50) / 2, (-40 - 20) / 2, 0.0, (10 - 10) / 2]
    assert h["margin"] == pytest.approx(np.mean(margins))
    pv = S.pair_values(games_table(scores, labels), "A", "B")
    assert list(pv.deal_ids) == [0, 1, 2, 3, 4] and list(pv.deal_margin) == margins


def test_a_game_where_a_or_b_does_not_play_makes_its_deal_incomplete():
    scores = np.array([[10, 5, 0]] * 6)
    labels = np.array([["A", "B", "B"], ["B", "A", "B"], ["B", "B", "A"],
                       ["A", "C", "C"], ["C", "A", "C"], ["C", "C", "A"]], dtype=object)
    h = S.head_to_head(games_table(scores, labels), "A", "B")
    assert h["deals"] == 1 and h["win_rate"] == 0.5  # A beats both, one and none of its two opponents


def test_two_sides_game_x_is_whether_a_won():
    rng = np.random.default_rng(7)
    deals = 400
    scores = np.stack([rng.permutation(5000)[:2] for _ in range(2 * deals)])  # distinct scores: no ties
    labels = np.array([["A", "B"], ["B", "A"]] * deals, dtype=object)
    df = games_table(scores, labels)
    pv = S.pair_values(df, "A", "B")
    a_side = np.where(labels[:, 0] == "A", 0, 1)
    assert np.array_equal(pv.game_x, (df["winner_side"].to_numpy() == a_side).astype(float))
    assert np.array_equal(pv.game_ids, df["game"].to_numpy())
    sign = np.where(a_side == 0, 1, -1)
    assert np.array_equal(pv.game_margin, sign * (scores[:, 0] - scores[:, 1]))


def test_labels_missing_or_equal_are_refused_with_the_labels_present():
    df = exact_copy_table(["baseline", "random"], 3, seed=1)
    with pytest.raises(ValueError, match=r"'cautious' not in the games; labels present: baseline, random"):
        S.head_to_head(df, "cautious", "random")
    with pytest.raises(ValueError, match="two different side labels"):
        S.head_to_head(df, "random", "random")


def synthetic_pairs(rng: np.random.Generator, deals: int, p: float, luck: float, sd: float, rho: float,
                    true_margin: float) -> S.PairValues:
    """Two rotations per deal with negatively correlated games, as duplicate deals give.

    Win: a deal's cards favour one seat by `luck`, so rotation 1 is won with p + luck*u and rotation 2 with
    p - luck*u (u = +-1): correlation -luck^2 / (p (1 - p)). Margin: bivariate normal with correlation rho.
    """
    u = rng.choice([-1.0, 1.0], size=deals)
    x = (rng.random((deals, 2)) < p + luck * np.stack([u, -u], axis=1)).astype(float)
    cov = sd**2 * np.array([[1.0, rho], [rho, 1.0]])
    m = rng.multivariate_normal([true_margin, true_margin], cov, size=deals)
    return S.PairValues(a="A", b="B", rotations=2, deal_ids=np.arange(deals), deal_x=x.mean(axis=1),
                        deal_margin=m.mean(axis=1), game_ids=np.arange(2 * deals), game_x=x.ravel(),
                        game_margin=m.ravel())


def test_pair_aware_interval_covers_the_true_mean_95_percent_with_correlated_rotations():
    rng = np.random.default_rng(11)
    p, margin = 0.55, 30.0
    hits_win = hits_margin = naive_hits = 0
    for _ in range(COVERAGE_REPS):
        h = S.summarize_pairs(synthetic_pairs(rng, 120, p, 0.35, 400.0, -0.6, margin), CONFIDENCE)
        hits_win += h["win_low"] <= p <= h["win_high"]
        hits_margin += h["margin_low"] <= margin <= h["margin_high"]
        naive_hits += h["wilson_low"] <= p <= h["wilson_high"]
    assert COVERAGE_LOW <= hits_win / COVERAGE_REPS <= COVERAGE_HIGH, hits_win
    assert COVERAGE_LOW <= hits_margin / COVERAGE_REPS <= COVERAGE_HIGH, hits_margin
    assert naive_hits / COVERAGE_REPS > COVERAGE_HIGH  # the naive interval is too wide when rotations cancel


def test_variance_factor_matches_one_over_one_plus_rotation_correlation():
    rng = np.random.default_rng(12)
    p, luck, rho = 0.5, 0.4, -0.6
    h = S.summarize_pairs(synthetic_pairs(rng, 40000, p, luck, 300.0, rho, 0.0))
    win_rho = -luck**2 / (p * (1 - p))
    assert h["win_variance_factor"] == pytest.approx(1 / (1 + win_rho), rel=0.05)  # 2.78
    assert h["margin_variance_factor"] == pytest.approx(1 / (1 + rho), rel=0.05)  # 2.5
    # three rotations, exchangeable correlation: 1 / (1 + 2 rho)
    rho3, deals = -0.4, 30000
    cov = (1 - rho3) * np.eye(3) + rho3 * np.ones((3, 3))
    m = rng.multivariate_normal(np.zeros(3), cov, size=deals)
    pv = S.PairValues("A", "B", 3, np.arange(deals), np.full(deals, 0.5), m.mean(axis=1), np.arange(3 * deals),
                      np.full(3 * deals, 0.5), m.ravel())
    assert S.summarize_pairs(pv)["margin_variance_factor"] == pytest.approx(1 / (1 + 2 * rho3), rel=0.05)


def test_elo_conversion_is_the_logistic_and_infinite_at_the_ends():
    assert S.elo_from_score(0.5) == 0.0
    assert S.elo_from_score(S.score_from_elo(123.0)) == pytest.approx(123.0)
    assert S.elo_from_score(0.75) == pytest.approx(-400 * np.log10(1 / 0.75 - 1))
    assert S.elo_from_score(1.0) == np.inf and S.elo_from_score(0.0) == -np.inf


# --- parsing a sequential test -------------------------------------------------------------------------------------


def test_parse_sprt_accepts_elo_win_rate_and_margin_forms():
    assert S.parse_sprt("elo0=0,elo1=10") == S.SprtSpec("elo", 0.0, 10.0, 0.05, 0.05)
    assert S.parse_sprt("p0=0.5, p1=0.52") == S.SprtSpec("win_rate", 0.5, 0.52)
    assert S.parse_sprt("margin0=0,margin1=50,alpha=0.01,beta=0.1") == S.SprtSpec("margin", 0.0, 50.0, 0.01, 0.1)
    assert S.parse_sprt("ELO1=-5,elo0=5") == S.SprtSpec("elo", 5.0, -5.0)


@pytest.mark.parametrize("text,problem", [
    ("elo0=0,elo2=10", "unknown SPRT key 'elo2'"),
    ("elo0=0,p1=0.52", r"mixed SPRT kinds \(elo, win_rate\)"),
    ("margin0=0", "needs both margin0 and margin1; margin1 is missing"),
    ("p1=0.52,alpha=0.05", "needs both p0 and p1; p0 is missing"),
    ("elo0=zero,elo1=10", "elo0='zero' is not a number"),
    ("elo0=0,elo1=nan", "not a finite number"),
    ("elo0=5,elo1=5", "elo0 and elo1 are both 5.0; they must differ"),
    ("elo0=0,elo1=10,alpha=0.5", r"alpha=0.5 is outside \(0, 0.5\)"),
    ("elo0=0,elo1=10,beta=0", r"beta=0.0 is outside \(0, 0.5\)"),
    ("p0=0.5,p1=1.2", r"p1=1.2 is not a win rate in \(0, 1\)"),
    ("p0=0,p1=0.5", r"p0=0.0 is not a win rate in \(0, 1\)"),
    ("elo0", "not key=value"),
    ("", "empty SPRT specification"),
    ("alpha=0.1", "no SPRT hypotheses"),
    ("elo0=0,elo0=1,elo1=2", "given twice"),
])
def test_parse_sprt_refuses_bad_input_naming_the_problem(text, problem):
    with pytest.raises(ValueError, match=problem) as e:
        S.parse_sprt(text)
    assert "\n" not in str(e.value)


# --- the sequential test -------------------------------------------------------------------------------------------


def test_sprt_bounds_are_walds():
    lower, upper = S.sprt_bounds(S.SprtSpec("elo", 0, 10, alpha=0.05, beta=0.1))
    assert lower == pytest.approx(np.log(0.1 / 0.95)) and upper == pytest.approx(np.log(0.9 / 0.05))


def test_sprt_on_identical_values_is_finite_and_decides_the_right_way():
    spec = S.parse_sprt("elo0=0,elo1=10")
    copy = S.sprt_status(spec, np.full(200, 0.5))  # exact copies: true Elo 0 = elo0
    assert np.isfinite(copy["llr"]) and copy["decision"] == "H0" and copy["deals"] == 200
    assert S.sprt_status(spec, np.ones(50))["decision"] == "H1"
    margin = S.parse_sprt("margin0=0,margin1=50")
    assert S.sprt_status(margin, np.zeros(10))["decision"] == "H0"
    assert S.sprt_status(S.parse_sprt("elo0=-10,elo1=10"), np.full(30, 0.5))["llr"] == 0.0  # at the midpoint


def test_sprt_run_on_exact_copies_accepts_h0_at_the_first_look_with_elo_exactly_zero():
    r = S.sprt_run(S.parse_sprt("elo0=0,elo1=10"), np.full(1000, 0.5), 100, 1000)
    assert r["decision"] == "H0" and r["looks"] == 1 and r["deals"] == 100 and r["stopped_early"]
    assert r["estimate"] == 0.0 and r["corrected"] == 0.0


def test_head_to_head_without_a_complete_deal_reports_nan_not_numbers():
    df = exact_copy_table(["A", "B"], 3, seed=2).iloc[[0, 2, 4]]  # one rotation of each deal
    h = S.head_to_head(df, "A", "B")
    assert h["deals"] == 0 and h["won_all"] == h["split"] == h["lost_all"] == 0
    for key in ("win_rate", "win_low", "win_high", "margin", "elo", "p_value", "wilson_low"):
        assert np.isnan(h[key]), key


def test_sprt_llr_is_the_normal_gsprt_formula():
    spec = S.parse_sprt("p0=0.5,p1=0.6")
    v = np.array([0.0, 0.5, 1.0, 1.0, 0.5, 1.0])
    assert S.sprt_llr(spec, v) == pytest.approx(0.1 / v.var(ddof=1) * np.sum(v - 0.55))


def trinomial_batches(rng: np.random.Generator, mean: float, tests: int, batches: int, batch: int,
                      split: float = 0.5) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-batch (count, sum, sum of squares) of per-deal scores 0, 0.5, 1 with the given mean."""
    win = mean - split / 2
    c = rng.multinomial(batch, [win, split, 1 - split - win], size=(tests, batches))
    return np.full((tests, batches), batch), c[..., 0] + 0.5 * c[..., 1], c[..., 0] + 0.25 * c[..., 1]


def error_bounds(tests: int) -> tuple[float, float]:
    return ALPHA / 4, ALPHA + 3 * np.sqrt(ALPHA * (1 - ALPHA) / tests)


def test_sprt_elo_error_rates_on_trinomial_deals_are_near_alpha_and_beta():
    spec = S.parse_sprt("elo0=0,elo1=10,alpha=0.05,beta=0.05")
    mu0, mu1 = spec.means
    rng = np.random.default_rng(21)
    batch, batches = 100, 400  # budget 40,000 deals, ten times the mean test length
    under_h0 = S.sprt_batches(spec, *trinomial_batches(rng, mu0, SPRT_TESTS, batches, batch))
    under_h1 = S.sprt_batches(spec, *trinomial_batches(rng, mu1, SPRT_TESTS, batches, batch))
    false_h1 = np.mean(under_h0["code"] == S.H1_CODE)
    false_h0 = np.mean(under_h1["code"] == S.H0_CODE)
    low, high = error_bounds(SPRT_TESTS)
    assert low <= false_h1 <= high, false_h1  # measured 0.038
    assert low <= false_h0 <= high, false_h0  # measured 0.032
    assert np.mean(under_h0["code"] == S.CONTINUE_CODE) < 0.01 and np.mean(under_h1["code"] == 0) < 0.01


def test_sprt_margin_error_rates_on_normal_deals_are_near_alpha_and_beta():
    spec = S.parse_sprt("margin0=0,margin1=50")
    rng = np.random.default_rng(22)
    batch, budget = 20, 6000
    rates = []
    for truth in (0.0, 50.0):
        v = rng.normal(truth, 400.0, size=(SPRT_TESTS, budget)).reshape(SPRT_TESTS, -1, batch)
        r = S.sprt_batches(spec, np.full(v.shape[:2], batch), v.sum(axis=-1), (v * v).sum(axis=-1))
        rates.append(np.mean(r["code"] == (S.H1_CODE if truth == 0.0 else S.H0_CODE)))
    low, high = error_bounds(SPRT_TESTS)
    assert low <= rates[0] <= high and low <= rates[1] <= high, rates  # measured 0.029 and 0.032


def test_sprt_run_stops_where_the_batched_rule_stops():
    spec = S.parse_sprt("elo0=0,elo1=10")
    rng = np.random.default_rng(23)
    batch, budget = 100, 8000
    v = rng.choice([1.0, 0.5, 0.0], p=[0.27, 0.5, 0.23], size=(20, budget))
    vb = v.reshape(20, -1, batch)
    ref = S.sprt_batches(spec, np.full(vb.shape[:2], batch), vb.sum(axis=-1), (vb * vb).sum(axis=-1))
    for i in range(20):
        r = S.sprt_run(spec, v[i], batch, budget)
        assert r["deals"] == ref["deals"][i] and r["looks"] == ref["look"][i] + 1
        assert r["decision"] == {1: "H1", -1: "H0", 0: None}[int(ref["code"][i])]
        assert r["stopped_early"] == (r["decision"] is not None)
        assert r["llr"] == pytest.approx(S.sprt_status(spec, v[i, :r["deals"]])["llr"])
        assert r["estimate"] == pytest.approx(S.elo_from_score(v[i, :r["deals"]].mean()))


def test_sprt_run_to_the_budget_reports_the_plain_mean():
    spec = S.parse_sprt("margin0=0,margin1=50")
    v = np.random.default_rng(24).normal(0.0, 400.0, size=300)
    v = v - v.mean() + 25.0  # mean at the midpoint of the hypotheses: the llr stays near 0
    r = S.sprt_run(spec, v, 100, 300)
    assert r["decision"] is None and not r["stopped_early"] and r["deals"] == 300 and r["looks"] == 3
    assert r["estimate"] == r["corrected"] == pytest.approx(v.mean())
    assert S.sprt_estimate(spec, v, 100, False)["corrected"] == r["estimate"]


def bias_figures(spec: S.SprtSpec, values: np.ndarray, batch: int, budget: int) -> tuple[float, float, int]:
    """Mean naive and corrected estimates over the tests that stopped early, and how many did."""
    runs = [S.sprt_run(spec, row, batch, budget) for row in values]
    early = [r for r in runs if r["stopped_early"]]
    return float(np.mean([r["estimate"] for r in early])), float(np.mean([r["corrected"] for r in early])), len(early)


def test_bias_correction_brings_early_stopped_elo_estimates_closer_to_the_truth():
    spec = S.parse_sprt("elo0=0,elo1=10")
    truth = 8.0
    p = S.score_from_elo(truth)
    rng = np.random.default_rng(31)
    values = rng.choice([1.0, 0.5, 0.0], p=[p - 0.25, 0.5, 0.75 - p], size=(BIAS_TESTS, 20000))
    naive, corrected, early = bias_figures(spec, values, 200, 20000)
    assert early >= BIAS_TESTS * 0.9
    assert abs(corrected - truth) < abs(naive - truth), (naive, corrected)  # measured 9.91 vs 8.53 (297 early stops)


def test_bias_correction_brings_early_stopped_margin_estimates_closer_to_the_truth():
    spec = S.parse_sprt("margin0=0,margin1=50")
    truth = 10.0
    values = np.random.default_rng(32).normal(truth, 400.0, size=(BIAS_TESTS, 3000))
    naive, corrected, early = bias_figures(spec, values, 20, 3000)
    assert early >= BIAS_TESTS * 0.9
    assert abs(corrected - truth) < abs(naive - truth), (naive, corrected)  # measured -0.63 vs 7.25 (300 early stops)


# --- ranking and multiple comparisons -----------------------------------------------------------------------------


def test_holm_matches_a_hand_worked_example():
    # sorted: 0.005 <= 0.05/4 yes, 0.01 <= 0.05/3 yes, 0.03 <= 0.05/2 no -> stop; 0.04 not rejected either
    assert S.holm(np.array([0.01, 0.04, 0.03, 0.005])).tolist() == [True, False, False, True]
    # step-down rejects all three (0.01 <= 0.0167, 0.02 <= 0.025, 0.03 <= 0.05) where Bonferroni keeps one
    assert S.holm(np.array([0.03, 0.01, 0.02])).tolist() == [True, True, True]
    assert S.holm(np.array([0.2, np.nan, 0.001]), alpha=0.01).tolist() == [False, False, True]
    assert S.holm(np.array([])).tolist() == []


def ranking_pairs(rows: list[tuple[str, str, float, float]]) -> pd.DataFrame:
    z = 1.959963984540054
    return pd.DataFrame([{"a": a, "b": b, "elo": e, "elo_low": e - z * se, "elo_high": e + z * se}
                         for a, b, e, se in rows])


def test_elo_ranking_of_three_strategies_orders_them_centres_on_zero_and_covers_the_truth():
    truth = {"x": 60.0, "y": 0.0, "z": -60.0}
    pairs = ranking_pairs([("x", "y", 55.0, 15.0), ("z", "y", -66.0, 15.0), ("x", "z", 118.0, 20.0)])
    r = S.elo_ranking(pairs)
    assert r["strategy"].tolist() == ["x", "y", "z"] and r["rank"].tolist() == [1, 2, 3]
    assert abs(r["elo"].sum()) < 1e-9
    for _, row in r.iterrows():
        assert row["elo_low"] < truth[row["strategy"]] < row["elo_high"]
        assert row["elo_high"] - row["elo_low"] < 2 * 1.96 * 15


def test_elo_ranking_ties_exact_copies_and_caps_infinite_ends():
    pairs = ranking_pairs([("a", "a2", 0.0, 0.0), ("a", "b", 40.0, 10.0), ("b", "c", np.inf, 0.0)])
    pairs.loc[2, ["elo_low", "elo_high"]] = [np.inf, np.inf]
    r = S.elo_ranking(pairs).set_index("strategy")
    assert r.loc["a", "rank"] == r.loc["a2", "rank"] == 1 and r.loc["c", "rank"] == 4
    assert r.loc["a", "elo"] == pytest.approx(r.loc["a2", "elo"], abs=0.01)
    assert r.loc["b", "elo"] - r.loc["c", "elo"] == pytest.approx(S.ELO_CAP, abs=0.01)
    assert np.isfinite(r[["elo", "elo_low", "elo_high"]].to_numpy()).all()


def test_elo_ranking_refuses_strategies_the_pairs_do_not_connect():
    with pytest.raises(ValueError, match="do not connect"):
        S.elo_ranking(ranking_pairs([("a", "b", 10.0, 5.0), ("c", "d", 10.0, 5.0)]))


def test_elo_ranking_reads_a_pair_won_on_every_deal_as_strong_evidence_not_a_certainty():
    # A beat C on all 50 deals; A and B are close, B beat C 0.9: the sweep must not pin A - C at the cap
    pairs = pd.DataFrame([
        {"a": "A", "b": "B", "deals": 50, "win_rate": 0.55, "elo": S.elo_from_score(0.55), "elo_low": -20.0,
         "elo_high": 90.0},
        {"a": "A", "b": "C", "deals": 50, "win_rate": 1.0, "elo": np.inf, "elo_low": np.inf, "elo_high": np.inf},
        {"a": "B", "b": "C", "deals": 50, "win_rate": 0.9, "elo": S.elo_from_score(0.9), "elo_low": 300.0,
         "elo_high": 460.0},
    ])
    r = S.elo_ranking(pairs).set_index("strategy")
    assert list(r.sort_values("rank").index) == ["A", "B", "C"]
    gap = r.loc["A", "elo"] - r.loc["C", "elo"]
    assert 400 < gap < S.ELO_CAP  # far apart, but read from the evidence, not from the cap
    assert r.loc["A", "elo_high"] - r.loc["A", "elo_low"] > 10  # and not with a pinned, point-like interval


def test_a_pair_won_on_every_deal_gets_a_wilson_interval_on_the_deals_not_a_point():
    n = 200
    pv = S.PairValues(a="A", b="B", rotations=2, deal_ids=np.arange(n), deal_x=np.ones(n),
                      deal_margin=np.linspace(2000, 4000, n), game_ids=np.arange(2 * n), game_x=np.ones(2 * n),
                      game_margin=np.linspace(2000, 4000, 2 * n))
    r = S.summarize_pairs(pv)
    assert r["win_rate"] == 1.0 and r["win_high"] == 1.0
    assert r["win_low"] == pytest.approx(S.wilson(n, n)[0]) and 0.97 < r["win_low"] < 0.99
    assert np.isfinite(r["elo_low"]) and r["elo_low"] > 500
