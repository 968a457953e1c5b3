"""VARIANTS.md §5.2: the Classic worked examples C-1 .. C-14, one test each, on the real kernels.

Seats 0 and 2 are side 0 and seats 1 and 3 side 1 in classic-4p; in classic-2p seat s is side s.
"""

from __future__ import annotations

import pytest
from support import Table

from sim.cards import parse_card, rank_class
from sim.engine import layout as L
from sim.engine.kernel import apply_meld_nb, deal_hand_nb, draw_nb, go_out_nb
from sim.engine.layout import HC_N, HC_R, SD_MELDED, SD_MOR, SD_REQ
from sim.engine.state import new_state
from sim.rules import get_variant, pack

NATURAL_KINGS = "KS KH KD KC KS KH KD"
NATURAL_QUEENS = "QS QH QD QC QS QH QD"


def _requirement(variant: str, score: int) -> int:
    """The initial-meld requirement the engine sets up for a side with cumulative score `score`."""
    t = Table(variant, scores=[score, 0])
    return int(t.S.side[0, SD_REQ])


def _meld_row(t: Table, side: int, rank: str) -> int:
    return int(t.S.side[side, SD_MOR + rank_class(parse_card(rank + "S"))])


# C-1, C-2: initial-meld requirement by score (§2 row 23, R-10) ------------------------------------


def test_c1_r10_requirement_1600_is_90_and_1250_is_50():
    assert _requirement("classic-4p", 1600) == 90
    assert _requirement("classic-4p", 1250) == 50


def test_c2_requirement_table_boundaries():
    scores = [-5, 0, 1495, 1500, 2995, 3000]
    assert [_requirement("classic-4p", s) for s in scores] == [15, 50, 50, 90, 90, 120]


# C-3, C-4: meld composition (§1.4, R-14) ---------------------------------------------------------


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


# C-5, C-6: a full 4p hand score (§3.1 Scoring) --------------------------------------------------


def _c5_c6_table() -> Table:
    t = Table("classic-4p")
    # team A (side 0): seat 0 went out with an empty hand
    t.meld(0, NATURAL_KINGS).meld(0, "QS QH QD QC QS 2C JK").meld(0, "5S 5H 5D").red_threes(0, 2)
    t.hand(2, "4S 9H")
    # team B (side 1)
    t.meld(1, "8S 8H 8D 2D", seat=1).red_threes(1, 1)
    t.hand(1, "AS AH JK 7C 6D").hand(3, "3S KH")
    return t


def test_c5_team_went_out_scores_1290():
    a = _c5_c6_table().score(out_seat=0)[0]
    assert a == {"melded": 70 + 120 + 15, "canastas": 500 + 300, "red_threes": 200, "going_out": 100,
                 "in_hand": -15, "other": 0, "total": 1290}


def test_c6_other_team_same_hand_scores_35():
    b = _c5_c6_table().score(out_seat=0)[1]
    assert b == {"melded": 50, "canastas": 0, "red_threes": 100, "going_out": 0,
                 "in_hand": -115, "other": 0, "total": 35}


# C-7, C-8: red threes of a side with no meld count negative (R-12) -------------------------------


def test_c7_r12_unmelded_team_two_red_threes_scores_minus_260():
    for out_seat in (0, None):  # however the hand ends
        t = Table("classic-4p").meld(0, NATURAL_KINGS).red_threes(1, 2)
        t.hand(1, "KS KH").hand(3, "AS AH")  # 20 + 40 = 60
        b = t.score(out_seat=out_seat)[1]
        assert (b["red_threes"], b["in_hand"], b["total"]) == (-200, -60, -260)


def test_c8_unmelded_team_all_four_red_threes_scores_minus_800():
    t = Table("classic-4p").meld(0, NATURAL_KINGS).red_threes(1, 4)
    b = t.score(out_seat=0)[1]
    assert (b["red_threes"], b["in_hand"], b["total"]) == (-800, 0, -800)


# C-9: concealed going out (R-13) ---------------------------------------------------------------


def test_c9_r13_concealed_bonus_is_200_total():
    partner = "4S 5H 6D 8S 8H 9D 9C TS TH JH KC"  # 11 cards, 3 x 5 + 8 x 10 = 95
    before = Table("classic-4p").hand(0, NATURAL_QUEENS + " AS AH AD 2C").hand(2, partner)
    assert int(before.S.side[0, SD_MELDED]) == 0
    assert before.can_go_out(0)
    # seat 0 drew from the stock and melded everything this turn (turn 1); nothing laid before
    t = Table("classic-4p").hand(2, partner)
    t.meld(0, NATURAL_QUEENS, seat=0, turn=1).meld(0, "AS AH AD 2C", seat=0, turn=1)
    t.S.st[L.S_LAID0] = 0
    go_out_nb(t.R, t.S, 0)
    assert int(t.S.st[L.S_CONCEALED]) == 1
    a = t.score(out_seat=0, concealed=True)[0]
    assert a["going_out"] == 200  # in place of 100, not 100 + 200
    assert a == {"melded": 70 + 80, "canastas": 500, "red_threes": 0, "going_out": 200,
                 "in_hand": -95, "other": 0, "total": 755}


# C-10: six-player red threes (R-19) -----------------------------------------------------------


def test_c10_r19_six_player_red_threes_400_1000_1200():
    got = []
    for k in (4, 5, 6):
        t = Table("classic-6p").meld(0, "9S 9H 9D").red_threes(0, k)
        got.append(t.score(out_seat=None)[0]["red_threes"])
    assert got == [400, 1000, 1200]


# C-11, C-12: two-player rules (R-17) ----------------------------------------------------------


def test_c11_r17_two_player_needs_two_canastas_to_go_out():
    t = Table("classic-2p").meld(0, NATURAL_KINGS).hand(0, "5S 5H 5D")
    assert t.canastas(0) == 1
    assert not t.can_go_out(0)
    # melding the three fives would empty the hand: not offered
    assert (L.O_NEW, rank_class(parse_card("5S")), 3, -1) not in t.meld_options(0)
    t.meld(0, NATURAL_QUEENS)
    assert t.canastas(0) == 2
    assert t.can_go_out(0)


def test_c12_r08_two_player_last_single_stock_card_is_a_complete_draw():
    t = Table("classic-2p").hand(0, "5S 6H 9C")
    t.S.stock[0] = parse_card("7H")
    t.stock(1)
    draw_nb(t.R, t.S, 0)
    assert int(t.S.hand[0, HC_N]) == 4
    assert int(t.S.hand[0, parse_card("7H")]) == 1
    assert int(t.S.st[L.S_STOCK_N]) == 0
    assert int(t.S.st[L.S_LASTR3]) == 0
    assert int(t.S.st[L.S_ENDED]) == 0
    assert (L.O_STOP, 0, 0, 0) in t.meld_options(0)  # the turn continues normally


# C-13: stock sizes after the deal -------------------------------------------------------------


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


# C-14: two black threes cannot go out (R-15) ---------------------------------------------------


def test_c14_r15_two_black_threes_cannot_go_out():
    t = Table("classic-4p").meld(0, NATURAL_KINGS).hand(0, "3S 3C")
    assert t.canastas(0) == 1
    assert not t.can_go_out(0)
    assert not [o for o in t.meld_options(0) if o[0] == L.O_BLACK3]
    # contrast: three black threes make a going-out meld
    t3 = Table("classic-4p").meld(0, NATURAL_KINGS).hand(0, "3S 3C 3S")
    assert t3.can_go_out(0)
    assert (L.O_BLACK3, 3, 0, 0) in t3.meld_options(0)
