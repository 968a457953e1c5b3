"""Scoring a hand (sim/engine/score.py): the worked examples C-5 to C-10, every component in points."""

from __future__ import annotations

from sim.engine import layout as L
from sim.engine.goout import go_out_nb
from sim.engine.layout import SD_MELDED
from tests.support import NATURAL_KINGS, NATURAL_QUEENS, Table


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


def test_c10_r19_six_player_red_threes_400_1000_1200():
    got = []
    for k in (4, 5, 6):
        t = Table("classic-6p").meld(0, "9S 9H 9D").red_threes(0, k)
        got.append(t.score(out_seat=None)[0]["red_threes"])
    assert got == [400, 1000, 1200]
