"""Issue 26, part 2: knob defaults by variant family or preset, in the knob table: a strategy plays its
family's defaults at every preset of the family, a preset's own where it has them, and its one default
elsewhere; what is shown and recorded is what is played."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from sim.rules import get_variant
from strategies import REGISTRY, StrategyError, family_of, parse_strategy
from strategies.library import BASELINE

SPEC = BASELINE.with_defaults("scoped-test", "for this test", at={"boat": {"min_pile": 7},
                                                                 "boat-2p": {"min_pile": 9}}, freeze=5)


def test_the_family_of_a_preset_is_its_name_without_the_player_count():
    assert [family_of(n) for n in ("classic-4p", "house-001-2p", "railroad-5p", "buraco-2p")] == [
        "classic", "house-001", "railroad", "buraco"]


def test_a_family_default_holds_at_its_presets_a_preset_default_wins_and_elsewhere_the_one_default():
    k = SPEC.knob("min_pile")
    assert k.default_at(get_variant("boat-4p")) == k.default_at(get_variant("boat-3p")) == 7
    assert k.default_at(get_variant("boat-2p")) == 9
    assert k.default_at(get_variant("classic-4p")) == k.default == BASELINE.knob("min_pile").default
    assert SPEC.knob("freeze").default_at(get_variant("boat-4p")) == 5  # a default for every variant


def test_a_choice_plays_the_defaults_at_its_variant_and_keeps_what_the_user_set():
    boat = get_variant("boat-4p")
    c = SPEC.choice()
    assert c.at(boat).params[SPEC.knob("min_pile").slot] == 7 and c.params[SPEC.knob("min_pile").slot] == 3
    set_by_user = SPEC.choice(min_pile=4).at(boat)
    assert set_by_user.params[SPEC.knob("min_pile").slot] == 4 and set_by_user.label == "scoped-test:min_pile=4"


def test_a_run_plays_the_defaults_at_its_variant():
    """Two strategies equal at boat (one with boat's default written out) play the same games there."""
    from sim import play

    plain = BASELINE.with_defaults("scoped-plain", "min_pile 7 everywhere", min_pile=7, freeze=5)
    for s in (SPEC, plain):
        if s.name not in REGISTRY:
            from strategies import register
            register(s)
    a = play("boat-4p", ["scoped-test", "baseline"], games=4, seed=2).games
    b = play("boat-4p", ["scoped-plain", "baseline"], games=4, seed=2).games
    assert np.array_equal(a.score_0, b.score_0) and np.array_equal(a.winner_side, b.winner_side)


def test_a_default_given_for_every_variant_drops_the_family_defaults_it_replaces():
    """A tuned strategy's values hold wherever it is played (tune saves them as plain defaults)."""
    tuned = SPEC.with_defaults("tuned-test", "for this test", min_pile=2)
    assert tuned.knob("min_pile").at == () and tuned.knob("min_pile").default_at(get_variant("boat-2p")) == 2


def test_a_family_or_preset_the_rules_do_not_know_is_refused_with_the_accepted_ones():
    with pytest.raises(StrategyError, match="no family or preset 'yacht'.*accepted: .*boat"):
        BASELINE.with_defaults("bad", "bad", at={"yacht": {"min_pile": 2}})
    with pytest.raises(StrategyError, match="has no knob 'depth'"):
        BASELINE.with_defaults("bad", "bad", at={"boat": {"depth": 2}})


def test_a_relative_with_defaults_by_variant_travels_to_worker_processes():
    from strategies import register
    from strategies.registry import _relative

    spec = register(SPEC.with_defaults("scoped-travel", "for this test"))
    try:
        fn, args = spec.__reduce__()
        assert fn is _relative
        del REGISTRY["scoped-travel"]
        back = pickle.loads(pickle.dumps(spec))
        assert back.knob("min_pile").at == spec.knob("min_pile").at
    finally:
        REGISTRY.pop("scoped-travel", None)


def test_strategies_variant_shows_each_strategy_default_at_that_variant(cli):
    """expert's defaults differ by family: the listing at a variant shows the ones it plays there."""
    expert = REGISTRY["expert"]
    scoped = [k for k in expert.knobs if k.at]
    assert scoped, "expert has no defaults by variant family"
    k = scoped[0]
    scope, value = k.at[0]
    name = next(n for n in ("classic-4p", "boat-4p", "house-003-4p", "pennies-6p", "railroad-4p", "buraco-2p",
                            "house-001-4p", "classic-2p") if n == scope or family_of(n) == scope)
    out = cli("strategies", "--variant", name).stdout
    block = out.split("\nexpert:")[1].split("\n", 1)[1]
    line = next(ln for ln in block.splitlines() if ln.strip().startswith(k.name + " "))
    assert f"default {k.show(value)} " in line + " "
    assert parse_strategy("expert").at(get_variant(name)).knob_values()[k.name] == value
