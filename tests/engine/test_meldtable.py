"""The meld table and the meld rules (sim/engine/meldtable.py): composition (C-3, C-4, R-14) and the
canastas counted by kind as cards arrive."""

from __future__ import annotations

from sim.engine import layout as L
from sim.engine.layout import HC_R, SD_MOR
from sim.engine.meld import apply_meld_nb
from sim.engine.meldtable import truncate_melds_nb
from sim.rules.cards import parse_card, rank_class
from tests.support import NATURAL_KINGS, Table


def _meld_row(t: Table, side: int, rank: str) -> int:
    return int(t.S.side[side, SD_MOR + rank_class(parse_card(rank + "S"))])


def test_c3_eight_eight_two_is_a_legal_meld_worth_40():
    t = Table("classic-4p").meld(0, "5S 5H 5D").hand(0, "8S 8H 2C 6D 7C")
    opts = t.meld_options(0)
    new_88w = (L.O_NEW, rank_class(parse_card("8S")), 2, 1)
    assert new_88w in opts
    apply_meld_nb(t.R, t.S, 0, opts.index(new_88w))
    m = _meld_row(t, 0, "8")
    assert m >= 0
    row = t.S.melds[0, m]
    assert (int(row[L.F_NAT]), int(row[L.F_TWO]), int(row[L.F_JOK])) == (2, 1, 0)
    assert int(row[L.F_VAL]) == 40
    # scored on its own, the meld is worth 40
    assert Table("classic-4p").meld(0, "8S 8H 2C").score(out_seat=None)[0]["melded"] == 40


def test_c4_r14_two_naturals_three_wilds_is_legal_in_classic():
    t = Table("classic-4p").meld(0, "JS JH 2C JK").hand(0, "2D JK 5S 6H 7C")
    m = _meld_row(t, 0, "J")
    opts = t.meld_options(0)
    add_two = (L.O_ADD, m, 1, 0)
    assert add_two in opts  # 2 naturals + 2 wilds may take a third wild
    apply_meld_nb(t.R, t.S, 0, opts.index(add_two))
    row = t.S.melds[0, m]
    assert (int(row[L.F_NAT]), int(row[L.F_TWO] + row[L.F_JOK])) == (2, 3)
    # a fourth wild is never legal (w <= 3), although a joker is still in hand
    assert int(t.S.hand[0, HC_R + 13]) == 1
    assert not [o for o in t.meld_options(0) if o[0] == L.O_ADD and o[1] == m and o[2] in (1, 13)]


def kinds(t: Table, side: int) -> tuple[int, int, int]:
    s = t.S.side[side]
    return int(s[L.SD_CAN + L.CK_NATURAL]), int(s[L.SD_CAN + L.CK_MIXED]), int(s[L.SD_NCAN])


def test_canastas_are_counted_by_kind_as_cards_arrive():
    t = Table("classic-4p").meld(0, "KS KH KD KC KS KH").meld(0, "QS QH QD QC QS QH 2C")
    assert kinds(t, 0) == (0, 1, 1)  # six kings are no canasta yet; the queens are a mixed one
    m = _meld_row(t, 0, "K")
    t.hand(0, "KD 2D 5S 6S")
    opts = t.meld_options(0)
    apply_meld_nb(t.R, t.S, 0, opts.index((L.O_ADD, m, -1, 0)))  # the seventh king: natural canasta
    assert kinds(t, 0) == (1, 1, 2)
    opts = t.meld_options(0)
    apply_meld_nb(t.R, t.S, 0, opts.index((L.O_ADD, m, L.RK_2, 0)))  # a wild makes it mixed (500 -> 300)
    assert kinds(t, 0) == (0, 2, 2)
    assert t.score(out_seat=None)[0]["canastas"] == 600


def test_giving_back_melds_rebuilds_the_open_melds_and_canasta_counts():
    t = Table("classic-4p").meld(0, NATURAL_KINGS).meld(0, "QS QH QD")
    truncate_melds_nb(t.R, t.S, 0, 1)  # keep the kings only
    assert kinds(t, 0) == (1, 0, 1)
    assert _meld_row(t, 0, "K") == 0 and _meld_row(t, 0, "Q") == -1
