"""The discard step (sim/engine/discard.py, §1.8): what a discard does to the pile is rules data
(`freeze_on_discard`, `block_on_discard`)."""

from __future__ import annotations

import pytest

from sim import get_variant
from sim.engine import layout as L
from sim.engine.discard import apply_discard_nb, enum_discard_nb
from sim.rules.cards import parse_card
from tests.support import Table


def discard(t: Table, seat: int, card: str) -> Table:
    apply_discard_nb(t.R, t.S, seat, parse_card(card))
    return t


def test_any_card_held_is_a_discard_option():
    t = Table().hand(0, "5S 5S 9H JK")
    n = enum_discard_nb(t.R, t.S, 0)
    assert sorted(int(t.S.opts[i, L.OPT_A]) for i in range(n)) == sorted({parse_card(c) for c in "5S 9H JK".split()})


@pytest.mark.parametrize("card", ["JK", "2D"])
def test_a_discarded_wild_freezes_the_pile(card):
    t = discard(Table().hand(0, f"{card} 5S 6S").pile("7C"), 0, card)
    assert t.S.st[L.S_FROZEN] == 1 and t.S.st[L.S_BLOCK] == -1
    assert t.S.pile[t.S.st[L.S_PILE_N] - 1] == parse_card(card)


def test_a_discarded_black_three_bars_only_the_next_player():
    t = discard(Table().hand(1, "3S 5S 6S").pile("7C"), 1, "3S")
    assert t.S.st[L.S_FROZEN] == 0 and t.S.st[L.S_BLOCK] == 2


def test_an_ordinary_discard_changes_no_flag():
    t = discard(Table().hand(0, "9S 5S 6S").pile("7C"), 0, "9S")
    assert t.S.st[L.S_FROZEN] == 0 and t.S.st[L.S_BLOCK] == -1


def test_what_freezes_and_what_blocks_are_rules_data():
    v = get_variant("classic-4p").replace(freeze_on_discard=("wild", "black3"), block_on_discard=())
    t = discard(Table(v).hand(0, "3C 5S 6S").pile("7C"), 0, "3C")
    assert t.S.st[L.S_FROZEN] == 1 and t.S.st[L.S_BLOCK] == -1
    v = get_variant("classic-4p").replace(freeze_on_discard=())
    t = discard(Table(v).hand(0, "JK 5S 6S").pile("7C"), 0, "JK")
    assert t.S.st[L.S_FROZEN] == 0
