"""Issue 26, part 3: where `search` chooses otherwise than its fast player (`canasta-lab overrides`), the tool
that finds the decisions worth improving in the heuristics."""

from __future__ import annotations

import pytest

from sim.analysis.overrides import overrides


@pytest.mark.parametrize("variant", ["classic-2p", "buraco-2p", "boat-4p"])
def test_a_player_never_overrides_itself(variant):
    """The fast player's choice is recomputed from the traced observation: for the player itself it is the
    traced choice, at every decision (else the tool would report its own replay errors as overrides)."""
    o = overrides(variant, "expert", fast="expert", games=2, seed=3)
    assert len(o.decisions) > 50 and not o.decisions["override"].any() and o.summary.empty


def test_search_overrides_its_rollout_player_somewhere_and_the_summary_counts_them():
    o = overrides("classic-2p", "search:samples=6", games=1, seed=2)
    d = o.decisions
    assert o.fast == "baseline"  # search's rollout player by default
    assert d["override"].sum() == o.summary["overrides"].sum() > 0
    assert not d.loc[d["n"] == 1, "override"].any()  # one legal option: nothing to override
    diff = d[d["override"]]
    assert (diff["chosen"] != diff["fast_choice"]).all()
    assert o.command.startswith("canasta-lab overrides classic-2p -s search:samples=6 --fast baseline")


def test_overrides_without_a_rollout_player_asks_for_the_fast_one(cli):
    r = cli("overrides", "classic-2p", "-s", "baseline", "--games", "1", "--seed", "1")
    assert r.returncode != 0 and "has no rollout player; give the fast player" in r.stderr
    assert r.stderr.count("\n") == 1
