"""Shuffle and deal (sim/engine/deal.py): hand sizes and the stock left (C-13), the upcard and red threes."""

from __future__ import annotations

import pytest

from sim import get_variant
from sim.engine import layout as L
from sim.engine.deal import deal_hand_nb
from sim.engine.layout import HC_N
from sim.engine.state import new_state
from sim.rules import pack


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
        assert [int(S.hand[p, HC_N]) for p in range(v.players)] == [v.deal.hand_size] * v.players


def deal(v, seed: int):
    R = pack(v)
    S = new_state(R)
    S.st[L.S_SEED], S.st[L.S_HANDNO], S.st[L.S_DEALER] = seed, 1, 0
    deal_hand_nb(R, S)
    return S


def test_upcards_wild_or_red_three_are_covered_and_freeze_the_pile():
    v = get_variant("classic-4p")
    covered = 0
    for seed in range(300):
        S = deal(v, seed)
        pile = [int(k) for k in S.pile[:S.st[L.S_PILE_N]]]
        under, top = pile[:-1], pile[-1]
        assert all(k == L.JOKER or k // 4 == L.RK_2 or k in (L.RED3_H, L.RED3_D) for k in under)
        assert not (top == L.JOKER or top // 4 == L.RK_2 or top in (L.RED3_H, L.RED3_D))
        assert S.st[L.S_FROZEN] == (1 if under else 0)
        covered += bool(under)
    assert covered > 10


def test_r21_black_three_upcard_bars_the_first_player_unless_the_rules_say_otherwise():
    blocking = get_variant("classic-4p")
    open_ = blocking.replace(upcard_blocks=())
    seen = 0
    for seed in range(400):
        S = deal(blocking, seed)
        top = int(S.pile[S.st[L.S_PILE_N] - 1])
        if top in (L.BLACK3_S, L.BLACK3_C):
            seen += 1
            assert S.st[L.S_BLOCK] == S.st[L.S_CUR]
            assert S.st[L.S_FROZEN] == (1 if S.st[L.S_PILE_N] > 1 else 0)  # only a covered card freezes
            assert deal(open_, seed).st[L.S_BLOCK] == -1
    assert seen > 3
