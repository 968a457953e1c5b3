"""Issue 36, part 8: a strategy in fewer concepts. Its own knobs by name, the accessors the first example reads
(a card's value, a wild, the decision point), its function tried as plain Python before numba compiles it, and
the numbers the docs state about knob slots taken from the code."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim import play, try_strategy
from sim.engine import contract as L
from strategies.knobs import USER_SLOT0
from strategies.user import DEFER, own_knobs, user_strategy

ROOT = Path(__file__).resolve().parents[2]
OWN = own_knobs(("keep_wilds", 0, 1, 1, "1: never discard a wild"), ("floor", 0, 50, 0, "least value thrown", True))


@user_strategy("test-named-knobs", base="baseline", knobs=OWN)
def named_knobs(rules, obs, opts, n, knobs):
    """Throws its most valuable card, a wild only when told to."""
    if L.decision_point(obs) != L.DP_DISCARD:
        return DEFER
    best, best_value = 0, -1
    for i in range(n):
        card = L.option_card(opts, i)
        value = L.card_value(rules, card)
        if knobs[OWN.keep_wilds] >= 1 and L.is_wild(card):
            value = -1
        if value > best_value:
            best, best_value = i, value
    return best


def test_own_knobs_give_each_knob_its_slot_by_name_and_the_declaration_the_decorator_reads():
    from strategies import REGISTRY

    assert (OWN.keep_wilds, OWN.floor) == (USER_SLOT0, USER_SLOT0 + 1)
    spec = REGISTRY["test-named-knobs"]
    assert [(k.name, k.slot) for k in spec.knobs if k.slot >= USER_SLOT0] == [("keep_wilds", 48), ("floor", 49)]
    assert spec.knob("floor").whole and not spec.knob("keep_wilds").whole
    with pytest.raises(ValueError, match="own_knobs: give"):
        own_knobs(("not an identifier", 0, 1, 0, "x"))


def test_the_accessors_read_what_the_raw_offsets_read():
    rules = np.arange(200, dtype=np.int64)
    for k in range(L.NK):
        assert L.card_value(rules, k) == rules[L.R_CARDVAL + L.card_rank(k)]
        assert L.is_wild(k) == (L.card_rank(k) in (L.RK_2, L.RK_JK))
    obs = np.zeros(8, np.int64)
    obs[L.OB_DP] = L.DP_ASK
    assert L.decision_point(obs) == L.DP_ASK


def test_a_strategy_with_named_knobs_plays_and_its_knob_acts():
    keep = play("classic-4p", ["test-named-knobs", "baseline"], games=8, seed=3).games
    throw = play("classic-4p", ["test-named-knobs:keep_wilds=0", "baseline"], games=8, seed=3).games
    assert not keep.equals(throw)  # throwing wilds changes the games: the knob reaches the function by name


def test_try_strategy_runs_the_function_as_plain_python_and_names_every_problem():
    trial = try_strategy("test-named-knobs", games=3, seed=1)
    assert trial.ok and trial.decisions > 0
    row = trial.table.set_index("point")
    assert row.loc["discard", "chosen"] == row.loc["discard", "decisions"] > 0
    assert row.loc["draw-or-take", "deferred"] == row.loc["draw-or-take", "decisions"]

    @user_strategy("test-broken-python", base="baseline")
    def broken(rules, obs, opts, n, knobs):
        if L.decision_point(obs) == L.DP_DISCARD:
            return n + 5  # no such option
        if L.decision_point(obs) == L.DP_MELD and n > 3:
            return int(obs[len(obs)])  # reads past the end: numba would not say so
        return DEFER

    bad = try_strategy("test-broken-python", games=2, seed=1)
    assert not bad.ok and bad.table.set_index("point").loc["discard", "illegal"] > 0
    text = bad.text()
    assert "neither an option" in text and "IndexError" in text and "options:" in text


def test_the_docs_state_the_knob_vectors_numbers_the_code_has():
    text = (ROOT / "docs" / "strategies.md").read_text()
    assert f"`float64`, {L.NPRM} slots: 0-{USER_SLOT0 - 1} for the built-in heuristic knobs, from `USER_SLOT0` = " \
           f"{USER_SLOT0} a user strategy's own" in text
    assert f"below `USER_SLOT0` ({USER_SLOT0})" in text
    assert f"**Your own knobs** (up to {L.NPRM - USER_SLOT0})" in text
