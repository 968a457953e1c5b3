"""Shuffle and deal (sim/engine/deal.py): hand sizes and the stock left (C-13), the upcard and red threes."""

from __future__ import annotations

import pytest

from sim.engine import layout as L
from sim.engine.deal import deal_hand_nb
from sim.engine.layout import HC_N
from sim.engine.state import new_state
from sim.rules import get_variant, pack


@pytest.mark.parametrize("variant, expected", [
    ("classic-4p", 63), ("classic-2p", 77), ("classic-3p", 68), ("classic-6p", 95),
])
def test_c13_stock_after_deal_63_77_68_95(variant, expected):
    v = get_variant(variant)
    assert v.stock_after_deal() == expected
    R = pack(v)
    for seed in (1, 2, 3):
        S = new_state(R)
        S.st[L.S_SEED] = seed
        S.st[L.S_HANDNO] = 1
        deal_hand_nb(R, S)
        replaced = int(S.side[:, L.SD_RED3].sum())  # each red three laid out from a hand drew one replacement
        extra_upcards = int(S.st[L.S_PILE_N]) - 1  # a wild / red-three upcard is covered by another card
        assert int(S.st[L.S_STOCK_N]) + replaced + extra_upcards == expected
        assert [int(S.hand[p, HC_N]) for p in range(v.players)] == [v.hand_size] * v.players
