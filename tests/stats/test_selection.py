"""Choosing among settings played on the same deals (sim.stats.selection): paired differences, Holm's
correction against a reference, the confidence set of the best, equivalence and power."""

from __future__ import annotations

import numpy as np
import pytest

from sim.stats.selection import (
    beats,
    best_set,
    games_for_power,
    games_to_decide,
    loses,
    paired,
    reversal_power,
    within,
    z_two_sided,
)


def deals(means: list[float], n: int = 4000, seed: int = 0, common: float = 0.4) -> np.ndarray:
    """Per-deal values of settings sharing each deal's luck (`common`), each with its own noise on top."""
    rng = np.random.default_rng(seed)
    luck = rng.normal(0, common, n)[:, None]
    return np.asarray(means)[None, :] + luck + rng.normal(0, 0.3, (n, len(means)))


def test_pairing_cancels_the_deals_luck_and_two_equal_columns_have_no_spread():
    v = deals([0.5, 0.5, 0.52])
    p = paired(np.column_stack([v, v[:, 0]]))
    assert p.se[0, 3] == 0 and p.diff[0, 3] == 0 and p.p_value(0, 3) == 1.0
    independent = np.hypot(v[:, 0].std(ddof=1), v[:, 2].std(ddof=1)) / np.sqrt(len(v))
    assert p.se[2, 0] < 0.8 * independent  # the shared luck cancels deal by deal


def test_holm_says_which_settings_beat_and_which_lose_to_the_reference():
    p = paired(deals([0.5, 0.56, 0.5, 0.44, 0.505]))
    assert beats(p, 0).tolist() == [False, True, False, False, False]
    assert loses(p, 0).tolist() == [False, False, False, True, False]


def test_the_confidence_set_of_the_best_keeps_the_best_and_its_ties_and_drops_the_clearly_worse():
    p = paired(deals([0.5, 0.56, 0.559, 0.44]))
    assert best_set(p).tolist() == [False, True, True, False]
    same = paired(np.column_stack([deals([0.5])[:, 0]] * 3))
    assert best_set(same).all()  # settings that play the same games are all among the best


def test_the_confidence_set_holds_the_true_best_about_as_often_as_it_promises():
    hits = 0
    for seed in range(200):
        p = paired(deals([0.5, 0.51, 0.505, 0.49], n=400, seed=seed))
        hits += bool(best_set(p, alpha=0.05)[1])
    assert hits >= 185  # 95% promised; the Bonferroni bound is conservative


def test_equivalence_needs_the_whole_interval_inside_the_margin():
    p = paired(deals([0.5, 0.502, 0.53], n=20_000))
    assert within(p, 0, 0.01).tolist() == [True, True, False]
    assert not within(paired(deals([0.5, 0.5], n=50)), 0, 0.01)[1]  # too few deals to say it


def test_power_to_see_a_reversal_grows_with_its_size_against_the_checks_error():
    z = z_two_sided(0.05)
    assert reversal_power(z * 0.01, 0.01) == pytest.approx(0.5, abs=0.01)
    assert reversal_power(2.8 * 0.01, 0.01) == pytest.approx(0.8, abs=0.01)
    assert reversal_power(0.05, 0.0) == 1.0 and np.isnan(reversal_power(np.nan, 0.01))
    n = games_for_power(0.02, 0.012, 1000)
    assert n > 1000 and reversal_power(0.02, 0.012 * np.sqrt(1000 / n)) >= 0.8 - 1e-9


def test_the_games_that_would_decide_a_difference_scale_with_its_standard_error():
    assert games_to_decide(0.01, 0.01, 1000) == pytest.approx(1000 * z_two_sided(0.05) ** 2, rel=0.01)
    assert games_to_decide(0.05, 0.01, 1000) == 1000  # already decided: no more games
