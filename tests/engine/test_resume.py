"""turn.resume_turn_nb and game.resume_hand_nb (issue 10, part 3): a turn carried on from any of its
decisions goes exactly as it would have gone had it never stopped, and a hand resumed from a sampled
state plays to its end and is scored."""

from __future__ import annotations

import numpy as np
import pytest

from sim.engine import layout as L
from sim.engine.game import resume_hand_nb
from sim.engine.invariants import check_nb
from sim.engine.sample import sample_nb
from sim.engine.state import new_state
from sim.run.runner import function_table
from strategies.heuristic import heuristic_decide_nb
from strategies.library import BASELINE
from tests.decisions import play_hands

# scalars a stop leaves behind (the error's details); everything else must agree
STOP_TRACES = {L.S_ERR_A, L.S_ERR_B, L.S_ERR_C}


@pytest.mark.parametrize("variant", ["classic-2p", "classic-3p", "classic-4p", "classic-6p", "buraco-2p", "buraco-4p"])
def test_a_turn_resumed_at_its_decisions_goes_as_if_it_never_stopped(variant):
    straight = [S for kind, S in play_hands(variant, 21, hands=3, period=0) if kind == "hand"]
    stops = 0
    stopped = []
    for kind, x in play_hands(variant, 21, hands=3, period=2):
        if kind == "hand":
            stopped.append(x)
        else:
            stops += 1
    assert stops > 50
    keep = np.array([i not in STOP_TRACES for i in range(L.S_WORK)])
    for a, b in zip(straight, stopped, strict=True):
        assert np.array_equal(a.st[:L.S_WORK][keep], b.st[:L.S_WORK][keep])
        for name in ("hand", "side", "stock", "pile", "melds"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), name


@pytest.mark.parametrize("variant", ["classic-2p", "classic-4p"])
def test_a_sampled_hand_resumed_with_each_option_plays_to_its_end(variant):
    F = function_table([heuristic_decide_nb])
    met = set()
    for kind, d in play_hands(variant, 5, hands=1, period=4):
        if kind != "decision":
            continue
        S = new_state(d.R)
        S.hand[:, L.HC_FN] = 0
        S.hand[:, L.HC_FNB] = -1
        S.prm[:] = BASELINE.params()
        for i in range(d.n):
            sample_nb(d.R, d.obs, S, 7)
            S.opts[:d.n] = d.opts
            S.st[L.S_CHECK] = 1
            resume_hand_nb(d.R, S, F, d.seat, d.dp, i)
            assert S.st[L.S_ERR] == 0, f"decision point {d.dp}, option {d.opts[i].tolist()}"
            assert S.st[L.S_ENDED] in (L.END_OUT, L.END_STOCK, L.END_CAP)
            check_nb(d.R, S, L.CHECK_SCORED)
            assert S.st[L.S_ERR] == 0
        met.add(d.dp)
    assert {L.DP_DRAW, L.DP_MELD, L.DP_DISCARD} <= met
