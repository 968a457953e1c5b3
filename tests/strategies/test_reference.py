"""Issue 26, the fixed yardstick: `reference` plays the games `baseline` played when it was frozen from it, at
every preset, at its defaults and with knobs changed, whatever `baseline` becomes (tests/golden/reference.py)."""

from __future__ import annotations

import json

import pytest

from sim import PRESETS
from strategies import REGISTRY
from strategies.buraco import BURACO_DISCARD_FEATURES
from strategies.heuristic import DISCARD_FEATURES
from tests.golden import reference as golden

RECORDED = json.loads(golden.FILE.read_text())


def test_the_record_covers_every_preset_and_was_made_from_baseline():
    assert set(RECORDED["games_by_preset"]) == set(PRESETS) and RECORDED["frozen_from"] == "baseline"


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_reference_plays_the_games_baseline_played_when_it_was_frozen(preset):
    for name, seats in golden.scenarios(preset):
        got = golden.rows(preset, [s.format(s="reference") for s in seats])
        assert got == RECORDED["games_by_preset"][preset][name], (preset, name)


def test_reference_has_baseline_s_knobs_with_the_defaults_of_the_frozen_commit():
    ref = {k.name: (k.low, k.high, k.default, k.needs) for k in REGISTRY["reference"].knobs}
    later = {"bu_pile"} | {f"d_{n}" for n in DISCARD_FEATURES} | {f"bd_{n}" for n in BURACO_DISCARD_FEATURES}
    assert set(ref) | later == {k.name for k in REGISTRY["baseline"].knobs}
    assert ref["min_pile"][2] == 3 and ref["hold_black3"][2] == 4 and ref["bu_take"][2] == 2
