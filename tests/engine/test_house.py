"""House-001 and House-003 (VARIANTS.md §3.6, §3.7, §4.4, §4.5, §4.9): the worked examples of §5.1
(H001-1 to H001-12) and §5.3 (H003-1 to H003-6), and the rules that only these presets have: the
top-card draw (R-54, R-156), the pile methods (R-55, R-157), the wild limit (R-65), the final discard
(R-58), the deal passing right (R-63), eights worth 5 (R-51) and the exact-deal bonus (R-04, R-158).

Every expected number comes from the rules text. Legality is asked of the engine itself: the draw
step's options (enum_draw_step_nb), the takes (enum_take_nb), the meld actions (enum_meld_nb), the
discards (enum_discard_nb), the going-out search (can_go_out_nb) and the turn (resume_turn_nb).
"""

from __future__ import annotations

import math

import pytest

from sim import get_variant, play, with_rules
from sim.engine import layout as L
from sim.engine.discard import enum_discard_nb
from sim.engine.draw import apply_draw_step_nb, enum_draw_step_nb
from sim.engine.game import game_over_nb
from sim.engine.goout import go_out_nb
from sim.engine.layout import HC_FN, HC_N, SD_CUM, SD_MELDED, SD_MOR, SD_RED3, SD_REQ
from sim.engine.meld import meld_step_nb
from sim.engine.meldtable import rank_meld_ok_nb
from sim.engine.pile import snapshot_nb
from sim.engine.turn import resume_turn_nb
from sim.records.transcript import events
from sim.rules import exact_deal_cards
from sim.rules.cards import card_name, parse_card, rank_class
from sim.run.runner import make_job
from tests.support import NATURAL_KINGS, NATURAL_QUEENS, Table, strategy_table

H001 = ["house-001-2p", "house-001-3p", "house-001-4p"]
HOUSE = [*H001, "house-003-4p"]

M1 = (1, -1)
M2_TWO = (2, 1)
M2_JOKER = (2, 13)
M3 = (3, -1)
STOP = (L.O_STOP, 0, 0, 0)

J, K, EIGHT, NINE, FIVE = (rank_class(parse_card(c)) for c in ("JS", "KS", "8S", "9S", "5S"))


def house(variant: str = "house-001-4p", scores: list[int] | None = None, seat: int = 0) -> Table:
    """A position at the start of `seat`'s turn (nothing taken from the top yet), slot 0 on every seat."""
    t = Table(variant, scores=scores)
    assert t.S.st[L.S_TOP_BAN] == -1  # a new state holds no card taken from the top
    t.S.st[L.S_CUR] = seat
    t.S.hand[:, HC_FN] = 0
    return t


def draw_options(t: Table, seat: int) -> list[tuple[int, int, int, int]]:
    n = enum_draw_step_nb(t.R, t.S, seat)
    return [tuple(int(x) for x in t.S.opts[i]) for i in range(n)]


def top_options(t: Table, seat: int) -> list[tuple[int, int, int, int]]:
    return [o for o in draw_options(t, seat) if o[0] == L.O_TOP]


def discards(t: Table, seat: int) -> list[str]:
    n = enum_discard_nb(t.R, t.S, seat)
    return sorted(card_name(int(t.S.opts[i, L.OPT_A])) for i in range(n))


def meld_row(t: Table, side: int, rank: int) -> int:
    return int(t.S.side[side, SD_MOR + rank])


def take_top(t: Table, seat: int) -> None:
    """Seat takes the top discard alone, by the draw step's own option (R-54)."""
    opts = draw_options(t, seat)
    tops = [i for i, o in enumerate(opts) if o[0] == L.O_TOP]
    assert len(tops) == 1, opts
    F = strategy_table(t.v.name, ("baseline",))
    apply_draw_step_nb(t.R, t.S, F, seat, tops[0])


def finish_turn(t: Table, seat: int, option: tuple[int, int, int, int]) -> None:
    """The engine's own turn, entered at the meld decision with `option` chosen (turn.turn_nb): the
    meld phase goes on (every later decision here is forced), then the discard or going out."""
    opts = t.meld_options(seat)
    assert option in opts, opts
    t.S.st[L.S_CUR] = seat
    F = strategy_table(t.v.name, ("baseline",))
    resume_turn_nb(t.R, t.S, F, seat, L.DP_MELD, opts.index(option))
    assert int(t.S.st[L.S_ERR]) == 0


# §5.1 House-001 worked examples ------------------------------------------------------------------


def test_h001_1_player_went_out_scores_815():
    # 2 red threes 200 + one mixed canasta 300 + going out 100 + melded cards 215
    t = house("house-001-2p")
    t.meld(0, "KS KH KD KC KS 2C JK")  # mixed canasta: 50 + 20 + 50 = 120 (5 naturals, 2 wilds)
    t.meld(0, "AS AH AD 2D")  # 60 + 20 = 80
    t.meld(0, "8S 8H 8D")  # 15 (eights are 5, R-51)
    t.red_threes(0, 2)
    t.meld(1, "QS QH QD", seat=1)
    assert int(t.S.hand[0, HC_N]) == 0  # went out with an empty hand
    a = t.score(out_seat=0)[0]
    assert a == {"melded": 215, "canastas": 300, "red_threes": 200, "going_out": 100,
                 "in_hand": 0, "other": 0, "total": 815}


def test_h001_2_r64_canasta_example_one_scores_430():
    # 4 J (40) + 2 twos (40) + 1 joker (50) = 130, mixed canasta 300: 430, not the seed's printed 390
    t = house("house-001-4p").meld(0, "JS JH JD JC 2C 2D JK")
    assert rank_meld_ok_nb(t.R, L.RK_A, 4, 3)  # 3 wilds < 4 naturals, and at most 3
    a = t.score(out_seat=None)[0]
    assert (a["melded"], a["canastas"], a["total"]) == (130, 300, 430)


def test_h001_3_canasta_example_two_natural_scores_570():
    a = house("house-001-4p").meld(0, "JS JH JD JC JS JH JD").score(out_seat=None)[0]
    assert (a["melded"], a["canastas"], a["total"]) == (70, 500, 570)


def test_h001_4_r53_initial_meld_k_k_k_2_is_worth_50_and_meets_the_minimum_at_score_0():
    t = house("house-001-4p", scores=[0, 0]).hand(0, "KS KH KD 2C 5S 6H 9C")
    assert int(t.S.side[0, SD_REQ]) == 50
    # the meld phase of a side that has not melded opens pending (meld.meld_phase_from_nb)
    snapshot_nb(t.R, t.S, 0)
    t.S.st[L.S_PEND] = 0
    assert meld_step_nb(t.R, t.S, 0, t.meld_options(0).index((L.O_NEW, K, 3, -1))) == L.MELD_NEXT
    assert int(t.S.side[0, SD_MELDED]) == 0  # K K K = 30 is short of 50
    m = meld_row(t, 0, K)
    assert meld_step_nb(t.R, t.S, 0, t.meld_options(0).index((L.O_ADD, m, L.RK_2, 0))) == L.MELD_NEXT
    assert int(t.S.melds[0, m, L.F_VAL]) == 50
    assert int(t.S.side[0, SD_MELDED]) == 1  # K K K 2 = 50 meets the requirement: legal


def test_h001_4_r53_k_k_k_alone_is_short_of_the_minimum_and_given_back():
    t = house("house-001-4p", scores=[0, 0]).hand(0, "KS KH KD 5S 6H 9C")
    snapshot_nb(t.R, t.S, 0)
    t.S.st[L.S_PEND] = 0
    meld_step_nb(t.R, t.S, 0, t.meld_options(0).index((L.O_NEW, K, 3, -1)))
    assert meld_step_nb(t.R, t.S, 0, t.meld_options(0).index(STOP)) == L.MELD_ON
    assert int(t.S.side[0, SD_MELDED]) == 0 and int(t.S.side[0, L.SD_NM]) == 0
    assert int(t.S.hand[0, HC_N]) == 6


def test_h001_5_r65_j_j_wild_is_a_legal_meld():
    t = house("house-001-4p").meld(0, "QS QH QD").hand(0, "JS JH 2C JK 5S 6H 7C")
    opts = t.meld_options(0)
    assert (L.O_NEW, J, 2, L.RK_2) in opts and (L.O_NEW, J, 2, L.RK_JK) in opts
    meld_step_nb(t.R, t.S, 0, opts.index((L.O_NEW, J, 2, L.RK_2)))
    m = meld_row(t, 0, J)
    row = t.S.melds[0, m]
    assert (int(row[L.F_NAT]), int(row[L.F_TWO] + row[L.F_JOK])) == (2, 1)
    # J J W also takes a pile: T with a natural and a wild (M2)
    t2 = house("house-001-4p").meld(0, "QS QH QD").hand(0, "JH 2C 5S 6H").pile("7C JS")
    assert t2.take_options(0) == [M2_TWO]
    # and goes out: J J 2 laid, 5S discarded (the canasta holds 3 wilds, so no wild can go there)
    t3 = house("house-001-4p").meld(0, "KS KH KD KC 2S 2H JK").hand(0, "JS JH 2C 5S")
    assert t3.can_go_out(0)


def test_h001_6_r65_wild_wild_j_and_j_j_wild_wild_are_illegal():
    # W W J: a meld with one natural is never offered
    t = house("house-001-4p").meld(0, "QS QH QD").hand(0, "JS 2C JK 5S 6H 7C")
    assert not [o for o in t.meld_options(0) if o[0] == L.O_NEW and o[1] == J]
    # J J W W: after J J 2 no second wild may join the jacks (the joker is still in hand)
    t = house("house-001-4p").meld(0, "QS QH QD").hand(0, "JS JH 2C JK 5S 6H 7C")
    meld_step_nb(t.R, t.S, 0, t.meld_options(0).index((L.O_NEW, J, 2, L.RK_2)))
    m = meld_row(t, 0, J)
    assert int(t.S.hand[0, L.HC_R + L.RK_JK]) == 1
    assert not [o for o in t.meld_options(0) if o[0] == L.O_ADD and o[1] == m and o[2] in (L.RK_2, L.RK_JK)]
    # nor can the going-out search use J J W W (the canasta has no room for a wild: 4 naturals, 3 wilds)
    out = "KS KH KD KC 2S 2H JK"
    assert not house("house-001-4p").meld(0, out).hand(0, "JS JH 2C JK 5S").can_go_out(0)
    assert not house("house-001-4p").meld(0, out).hand(0, "JS 2C JK 5S").can_go_out(0)
    # contrast: J J W W is a legal Classic meld (C-4, R-14) and House-003 meld
    for variant in ("classic-4p", "house-003-4p"):
        u = house(variant).meld(0, out).meld(0, NATURAL_QUEENS).hand(0, "JS JH 2C JK 5S")
        assert u.can_go_out(0), variant
    assert not rank_meld_ok_nb(t.R, L.RK_A, 1, 2) and not rank_meld_ok_nb(t.R, L.RK_A, 2, 2)


def test_h001_7_r51_meld_8_8_8_scores_15():
    t = house("house-001-4p").meld(0, "QS QH QD").hand(0, "8S 8H 8D 5S 6H")
    meld_step_nb(t.R, t.S, 0, t.meld_options(0).index((L.O_NEW, EIGHT, 3, -1)))
    assert int(t.S.melds[0, meld_row(t, 0, EIGHT), L.F_VAL]) == 15
    assert house("house-001-4p").meld(0, "8S 8H 8D").score(out_seat=None)[0]["melded"] == 15


@pytest.mark.parametrize("variant", ["house-001-2p", "house-001-4p"])
def test_h001_8_r59_all_four_red_threes_melded_side_scores_800(variant):
    a = house(variant).meld(0, "9S 9H 9D").red_threes(0, 4).score(out_seat=None)[0]
    assert a["red_threes"] == 800


def test_h001_9_r60_unmelded_player_two_red_threes_and_45_in_hand_scores_minus_245():
    for out_seat in (0, None):
        t = house("house-001-2p").meld(0, NATURAL_KINGS).red_threes(1, 2).hand(1, "AS KH 9D 5C")
        b = t.score(out_seat=out_seat)[1]
        assert (b["red_threes"], b["in_hand"], b["total"]) == (-200, -45, -245)


def test_h001_10_r66_exact_deal_counts_31_40_45():
    assert [exact_deal_cards(get_variant(v)) for v in H001] == [31, 40, 45]
    # every hand dealt plus the upcard, as the engine deals them
    for name in H001:
        deal = next(e for e in events(make_job(name, ["baseline"], 1), 0) if e["event"] == "deal")
        assert sum(len(h) for h in deal["hands"]) + 1 == exact_deal_cards(get_variant(name))


@pytest.mark.parametrize("variant", H001)
def test_h001_11_r53_requirement_by_side_score(variant):
    got = [int(house(variant, scores=[s] + [0] * (get_variant(variant).n_sides - 1)).S.side[0, SD_REQ])
           for s in (-5, 0, 1495, 1500, 2995, 3000)]
    assert got == [15, 50, 50, 90, 90, 120]


def test_h001_12_r58_last_card_may_not_be_melded_but_discarding_it_goes_out_with_100():
    t = house("house-001-2p").meld(0, NATURAL_KINGS).meld(0, "9S 9H 9D").hand(0, "9C")
    m9 = meld_row(t, 0, NINE)
    # melding the last card (a lay-off on the nines) is not offered; stopping to discard it is
    assert t.meld_options(0) == [STOP]
    assert t.can_go_out(0)
    # contrast: in Classic (optional final discard) the lay-off is offered
    c = house("classic-4p").meld(0, NATURAL_KINGS).meld(0, "9S 9H 9D").hand(0, "9C")
    assert (L.O_ADD, meld_row(c, 0, NINE), -1, 0) in c.meld_options(0)
    assert (L.O_ADD, m9, -1, 0) not in t.meld_options(0)
    # the engine's turn: stop, discard 9C, out
    finish_turn(t, 0, STOP)
    assert int(t.S.st[L.S_ENDED]) == L.END_OUT and int(t.S.st[L.S_OUT_PLAYER]) == 0
    assert int(t.S.hand[0, HC_N]) == 0
    assert int(t.S.pile[int(t.S.st[L.S_PILE_N]) - 1]) == parse_card("9C")
    a = t.score(out_seat=0)[0]
    assert a["going_out"] == 100
    assert a["total"] == 70 + 500 + 30 + 100


# §5.3 House-003 worked examples ------------------------------------------------------------------


def test_h003_1_r04_exact_deal_of_53_gives_100_to_the_dealers_team():
    v = get_variant("house-003-4p")
    assert exact_deal_cards(v) == 53
    for dealer, side in ((1, 1), (2, 0)):
        t = house("house-003-4p").meld(0, "9S 9H 9D").meld(1, "8S 8H 8D", seat=1)
        t.S.st[L.S_DEALER] = dealer
        t.S.st[L.S_EXACT] = 1
        sc = t.score(out_seat=None)
        assert sc[side]["other"] == 100 and sc[1 - side]["other"] == 0
        assert sc[side]["total"] == sc[side]["melded"] + 100
        assert sc[1 - side]["total"] == sc[1 - side]["melded"]


def test_h003_2_four_red_threes_800_one_red_three_100():
    t = house("house-003-4p").meld(0, "9S 9H 9D")
    assert t.red_threes(0, 4).score(out_seat=None)[0]["red_threes"] == 800
    assert t.red_threes(0, 1).score(out_seat=None)[0]["red_threes"] == 100


def test_h003_3_going_out_needs_two_canastas_then_scores_100():
    t = house("house-003-4p").meld(0, NATURAL_KINGS).hand(0, "5S 5H 5D")
    assert t.canastas(0) == 1
    assert not t.can_go_out(0)
    assert (L.O_NEW, FIVE, 3, -1) not in t.meld_options(0)  # it would empty the hand
    u = house("house-003-4p").meld(0, NATURAL_KINGS).hand(0, "5S 5H 5D 6C")
    assert (L.O_NEW, FIVE, 3, -1) not in u.meld_options(0)  # nor by discarding the last card
    t.meld(0, NATURAL_QUEENS)
    assert t.canastas(0) == 2
    assert t.can_go_out(0)
    finish_turn(t, 0, (L.O_NEW, FIVE, 3, -1))  # the last card may be melded in House-003
    assert int(t.S.st[L.S_ENDED]) == L.END_OUT and int(t.S.st[L.S_OUT_PLAYER]) == 0
    a = t.score(out_seat=0)[0]
    assert a["going_out"] == 100
    assert a["total"] == 70 + 500 + 70 + 500 + 15 + 100


def test_h003_4_r78_game_over_only_above_5000():
    t = house("house-003-4p")
    t.S.side[0, SD_CUM], t.S.side[1, SD_CUM] = 5000, 4000
    assert int(game_over_nb(t.R, t.S)) == -1  # exactly 5000: the game continues
    t.S.side[0, SD_CUM] = 5005
    assert int(game_over_nb(t.R, t.S)) == 0  # 5005: over, team 0 wins
    c = house("classic-4p")  # contrast: Classic ends at 5000 (>=)
    c.S.side[0, SD_CUM], c.S.side[1, SD_CUM] = 5000, 4000
    assert int(game_over_nb(c.R, c.S)) == 0
    g = play("house-003-4p", ["baseline"], games=60, seed=4).games
    assert (g[["score_0", "score_1"]].max(axis=1) > 5000).all()


def test_h003_5_requirement_1495_1500_2995_3000():
    got = [int(house("house-003-4p", scores=[s, 0]).S.side[0, SD_REQ]) for s in (1495, 1500, 2995, 3000)]
    assert got == [50, 90, 90, 120]


def test_h003_6_team_went_out_scores_1185():
    t = house("house-003-4p")
    t.meld(0, "4S 4H 4D 4C 4S 4H 4D")  # natural canasta of fours: 35 + 500
    t.meld(0, "AS AH AD AC AS JK 2C")  # mixed canasta: 100 + 50 + 20 + 300
    t.red_threes(0, 1)
    t.hand(2, "9S 9H")  # the partner's hand
    t.meld(1, "QS QH QD", seat=1)
    a = t.score(out_seat=0)[0]
    assert a == {"melded": 205, "canastas": 800, "red_threes": 100, "going_out": 100,
                 "in_hand": -20, "other": 0, "total": 1185}


# the top discard alone (House-001) ---------------------------------------------------


@pytest.mark.parametrize("variant", H001)
def test_r54_top_card_option_offered_on_an_ordinary_top_card(variant):
    t = house(variant).hand(0, "5S 6H 7C").pile("9D KD")
    assert top_options(t, 0) == [(L.O_TOP, parse_card("KD"), 0, 0)]
    assert (L.O_DRAW, 0, 0, 0) in draw_options(t, 0)


@pytest.mark.parametrize("top", ["2H", "JK", "3S", "3C"])
def test_r54_r56_no_top_card_option_for_a_wild_or_black_three(top):
    for seat in range(4):  # a black three on top cannot be taken by anyone
        t = house("house-001-4p").hand(seat, "5S 6H 7C").pile("9D " + top)
        assert top_options(t, seat) == [], seat
    # neither alone nor with the pile (§3.6 turn step 5), even holding a pair of the top card's rank
    t = house("house-001-4p").meld(0, NATURAL_KINGS).hand(0, f"{top} {top} 5S 6H").pile("9D " + top)
    assert top_options(t, 0) == [] and t.take_options(0) == []


def test_r54_no_top_card_option_at_an_empty_stock_or_an_empty_pile():
    t = house("house-001-4p").meld(0, NATURAL_KINGS).hand(0, "5S 6H 7C").pile("9D QD").stock(0)
    assert top_options(t, 0) == []
    t = house("house-001-4p").hand(0, "5S 6H 7C").stock(20)
    assert top_options(t, 0) == []


@pytest.mark.parametrize("variant", ["classic-4p", "classic-2p", "house-003-4p"])
def test_r54_no_top_card_option_outside_house_001(variant):
    t = house(variant).hand(0, "5S 6H 7C").pile("9D KD")
    assert top_options(t, 0) == []


def test_r54_top_card_option_on_a_frozen_pile_and_before_the_side_has_melded():
    t = house("house-001-4p", scores=[0, 0]).hand(0, "5S 6H 7C").pile("2C 9D KD", frozen=True)
    assert int(t.S.side[0, SD_MELDED]) == 0
    assert t.take_options(0) == []  # the whole pile cannot be taken here
    assert top_options(t, 0) == [(L.O_TOP, parse_card("KD"), 0, 0)]
    take_top(t, 0)
    # KD alone went to the hand; the rest of the pile stays, still frozen; the side is still unmelded
    assert int(t.S.hand[0, parse_card("KD")]) == 1 and int(t.S.hand[0, HC_N]) == 4
    assert int(t.S.st[L.S_PILE_N]) == 2 and int(t.S.st[L.S_FROZEN]) == 1
    assert int(t.S.side[0, SD_MELDED]) == 0
    assert STOP in t.meld_options(0)  # T need not be melded


def test_r54_taken_card_may_not_be_discarded_the_same_turn():
    t = house("house-001-4p").hand(0, "KS 5S 6H").pile("9D KD")
    take_top(t, 0)
    assert discards(t, 0) == ["5S", "6H", "KS"]  # another king, held before, may go; KD may not


def test_r54_taken_card_stays_banned_after_a_short_opening_is_given_back():
    # side unmelded (minimum 50): KD taken alone, K K K laid (30) and given back; KD is in hand again
    t = house("house-001-4p", scores=[0, 0]).hand(0, "KS KH 5S 6H").pile("9D KD")
    take_top(t, 0)
    snapshot_nb(t.R, t.S, 0)  # as meld.meld_phase_from_nb opens the pending initial meld
    t.S.st[L.S_PEND] = 0
    meld_step_nb(t.R, t.S, 0, t.meld_options(0).index((L.O_NEW, K, 3, -1)))
    assert meld_step_nb(t.R, t.S, 0, t.meld_options(0).index(STOP)) == L.MELD_ON
    assert int(t.S.side[0, L.SD_NM]) == 0 and int(t.S.hand[0, parse_card("KD")]) == 1
    assert discards(t, 0) == ["5S", "6H", "KH", "KS"]


def test_r156_another_copy_of_the_taken_card_already_held_may_be_discarded():
    t = house("house-001-4p").hand(0, "KD 5S 6H").pile("9D KD")
    take_top(t, 0)
    assert int(t.S.hand[0, parse_card("KD")]) == 2
    assert "KD" in discards(t, 0)


def test_r54_taken_card_cannot_be_the_going_out_discard():
    # side 0 has a canasta; seat 0 holds 5S and takes KD alone
    with_kings = house("house-001-4p").meld(0, NATURAL_QUEENS).meld(0, "KS KH KC").hand(0, "5S").pile("9D KD")
    take_top(with_kings, 0)
    assert with_kings.can_go_out(0)  # KD laid off on the kings, 5S discarded
    no_kings = house("house-001-4p").meld(0, NATURAL_QUEENS).hand(0, "5S").pile("9D KD")
    take_top(no_kings, 0)
    assert not no_kings.can_go_out(0)  # KD can be neither melded nor discarded
    assert discards(no_kings, 0) == ["5S"]


def test_r156_red_three_surfaced_on_top_is_taken_alone_and_laid_out_without_replacement():
    # a red-three upcard covered by KD, the pile frozen (§1.3)
    t = house("house-001-4p").hand(0, "5S 6H 7C").hand(1, "5D 6D 7D").pile("3H KD", frozen=True)
    t.S.st[L.S_PILE_R3] = 1
    take_top(t, 0)
    assert top_options(t, 1) == [(L.O_TOP, parse_card("3H"), 0, 0)]
    stock = int(t.S.st[L.S_STOCK_N])
    take_top(t, 1)
    assert int(t.S.side[1, SD_RED3]) == 1  # laid out in side 1's area
    assert int(t.S.hand[1, HC_N]) == 3 and int(t.S.hand[1, parse_card("3H")]) == 0
    assert int(t.S.st[L.S_STOCK_N]) == stock  # no replacement
    assert int(t.S.st[L.S_PILE_N]) == 0 and int(t.S.st[L.S_FROZEN]) == 0


def test_r54_take_top_is_played_in_house_001_games_only():
    def tops(variant: str) -> int:
        job = make_job(variant, ["random"], 3)
        return sum(e["event"] == "take_top" for g in range(2) for e in events(job, g))

    assert tops("house-001-4p") > 0
    assert tops("house-003-4p") == 0 and tops("classic-4p") == 0


# pile methods -------------------------------------------------------------------------


def test_r157_frozen_and_unmelded_house_001_offers_m1_and_m2():
    hand = "KH KD JK AS AH AD 6S"  # T = KS: K K K + A A A = 90, K K JK = 70; the minimum is 50
    t = house("house-001-4p", scores=[0, 0]).hand(0, hand).pile("2H 4C KS", frozen=True)
    assert sorted(t.take_options(0)) == [M1, M2_JOKER]
    u = house("house-001-4p", scores=[0, 0]).hand(0, hand).pile("7H 4C KS")  # unfrozen, unmelded: the same
    assert sorted(u.take_options(0)) == [M1, M2_JOKER]
    # the minimum still applies: K K K JK + 5 5 5 = 95 meets 50, not 120 (score 3000)
    small = "KH KD JK 5S 5H 5D 6S"
    for score, want in ((0, [M1, M2_JOKER]), (3000, [])):
        v = house("house-001-4p", scores=[score, 0]).hand(0, small).pile("2H 4C KS", frozen=True)
        assert sorted(v.take_options(0)) == want, score


def test_r157_frozen_and_unmelded_house_003_offers_only_m1():
    hand, pile = "KH KD JK AS AH AD 6S", "2H 4C KS"
    t = house("house-003-4p", scores=[0, 0]).hand(0, hand).pile(pile, frozen=True)
    assert t.take_options(0) == [M1]
    # unfrozen and unmelded, House-003 allows M2 as well: frozen is what removes it
    u = house("house-003-4p", scores=[0, 0]).hand(0, hand).pile("7H 4C KS")
    assert sorted(u.take_options(0)) == [M1, M2_JOKER]


def test_r55_house_001_frozen_pile_m1_or_m2_never_m3():
    # side 0 has a meld of kings: a lay-off (M3) fits, but a frozen pile needs hand cards
    t = house("house-001-4p").meld(0, "KS KH KD").hand(0, "5D 6D 7H").pile("2D 7C KC", frozen=True)
    assert t.take_options(0) == []
    t = house("house-001-4p").meld(0, "KS KH KD").hand(0, "5D 6D 7H").pile("7D 7C KC")
    assert t.take_options(0) == [M3]
    # with hand cards: M1 and M2 on the frozen pile, never M3
    t = house("house-001-4p").meld(0, "KS KH KD").hand(0, "KS KH 2C JK 5D").pile("2D 7C KC", frozen=True)
    assert sorted(t.take_options(0)) == [M1, M2_TWO, M2_JOKER]
    t = house("house-001-4p").meld(0, "KS KH KD").hand(0, "KS KH 2C JK 5D").pile("7D 7C KC")
    assert sorted(t.take_options(0)) == [M1, M2_TWO, M2_JOKER, M3]


# no concealed bonus ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["house-001-4p", "house-003-4p"])
def test_r62_r77_going_out_concealed_scores_the_plain_100(variant):
    # seat 0 laid nothing before this turn and melds two canastas now (turn 1), then goes out
    t = house(variant).hand(2, "9S 9H")
    t.meld(0, NATURAL_QUEENS, seat=0, turn=1).meld(0, "AS AH AD AC AS AH AD", seat=0, turn=1)
    t.S.st[L.S_LAID0] = 0
    go_out_nb(t.R, t.S, 0)
    assert int(t.S.st[L.S_CONCEALED]) == 0
    a = t.score(out_seat=0, concealed=False)[0]
    assert a["going_out"] == 100
    assert a["total"] == 70 + 500 + 140 + 500 + 100 - 20


# wilds below naturals, at most three -----------------------------------------------------------


def test_r65_wilds_stay_below_naturals_and_at_most_three():
    # 3 naturals + 2 wilds: a third wild would equal the naturals
    t = house("house-001-4p").meld(0, "JS JH JD 2C 2D").hand(0, "JK 5S 6H 7C")
    m = meld_row(t, 0, J)
    assert (L.O_ADD, m, L.RK_JK, 0) not in t.meld_options(0)
    assert (L.O_ADD, m, L.RK_JK, 0) in house("classic-4p").meld(0, "JS JH JD 2C 2D").hand(0, "JK 5S 6H 7C") \
        .meld_options(0)
    # 4 naturals + 2 wilds: a third wild is fine
    t = house("house-001-4p").meld(0, "JS JH JD JC 2C 2D").hand(0, "JK 5S 6H 7C")
    assert (L.O_ADD, meld_row(t, 0, J), L.RK_JK, 0) in t.meld_options(0)
    # 6 naturals + 3 wilds: never a fourth
    t = house("house-001-4p").meld(0, "JS JH JD JC JS JH 2C 2D JK").hand(0, "2H 5S 6H 7C")
    m = meld_row(t, 0, J)
    assert not [o for o in t.meld_options(0) if o[0] == L.O_ADD and o[1] == m and o[2] >= 0]


def test_r65_wild_limit_counts_in_the_initial_meld_of_a_pile_take():
    # score 3000, requirement 120; T = KS. Classic: K K K + JK 2 2 = 120. House-001: three naturals
    # carry at most two wilds, K K K + JK 2 = 100, short of 120, so the pile cannot be taken
    hand, pile = "KH KD JK 2C 2D 5S 6H", "7C 4D KS"
    assert house("classic-4p", scores=[3000, 0]).hand(0, hand).pile(pile).take_options(0) == [M1]
    assert house("house-001-4p", scores=[3000, 0]).hand(0, hand).pile(pile).take_options(0) == []
    # at 1500 (requirement 90) the 100 is enough
    assert sorted(house("house-001-4p", scores=[1500, 0]).hand(0, hand).pile(pile).take_options(0)) \
        == [M1, M2_TWO, M2_JOKER]


# going out needs a final discard ---------------------------------------------------------------


def test_r58_taking_the_pile_with_the_last_cards_is_not_going_out():
    # the nines in hand and T = 9D would empty the hand with no discard
    t = house("house-001-4p").meld(0, NATURAL_KINGS).hand(0, "9S 9H").pile("9D")
    assert t.take_options(0) == []
    # a second pile card is left to discard: legal
    t = house("house-001-4p").meld(0, NATURAL_KINGS).hand(0, "9S 9H").pile("5C 9D")
    assert t.take_options(0) == [M1]
    # House-003 (optional discard, two canastas): the same take goes out
    t = house("house-003-4p").meld(0, NATURAL_KINGS).meld(0, NATURAL_QUEENS).hand(0, "9S 9H").pile("9D")
    assert t.take_options(0) == [M1]


def test_r58_black_three_meld_on_the_going_out_turn_needs_a_discard_after_it():
    t = house("house-001-4p").meld(0, NATURAL_KINGS).hand(0, "3S 3C 3S")
    assert not [o for o in t.meld_options(0) if o[0] == L.O_BLACK3]
    assert not t.can_go_out(0)
    t = house("house-001-4p").meld(0, NATURAL_KINGS).hand(0, "3S 3C 3S 5H")
    assert (L.O_BLACK3, 3, 0, 0) in t.meld_options(0)
    assert t.can_go_out(0)


# the deal passes to the right, the dealer's left plays first -----------------------------------


@pytest.mark.parametrize("variant,step", [("house-001-3p", -1), ("house-001-4p", -1), ("house-003-4p", 1)])
def test_r63_dealer_rotation(variant, step):
    n = get_variant(variant).players
    h = play(variant, ["baseline"], games=20, seed=6, hands=True).hands
    assert len(h) > 40
    for _, game in h.groupby("game"):
        d = game.sort_values("hand").dealer.to_numpy()
        assert ((d[1:] - d[:-1]) % n == step % n).all()


@pytest.mark.parametrize("variant", ["house-001-3p", "house-001-4p"])
def test_r63_first_player_is_the_dealers_left_and_play_runs_clockwise(variant):
    n = get_variant(variant).players
    job = make_job(variant, ["baseline"], 8)
    hands = 0
    for g in range(2):
        dealer, last = -1, -1
        for e in events(job, g):
            if e["event"] == "deal":
                dealer, last = e["dealer"], -1
                hands += 1
            elif e["event"] in ("draw", "take_pile", "take_top"):
                want = (dealer + 1) % n if last < 0 else (last + 1) % n
                assert e["player"] == want, (g, e)
                last = e["player"]
    assert hands >= 4


# eights are worth 5 in House-001 ----------------------------------------------------------------


def test_r51_eights_worth_5_in_house_001_scoring():
    a = house("house-001-4p").meld(0, "8S 8H 8D 8C").hand(0, "8S 5H").score(out_seat=None)[0]
    assert (a["melded"], a["in_hand"]) == (20, -10)
    for variant in ("classic-4p", "house-003-4p"):  # eights 10 elsewhere
        a = house(variant).meld(0, "8S 8H 8D 8C").hand(0, "8S 5H").score(out_seat=None)[0]
        assert (a["melded"], a["in_hand"]) == (40, -15), variant


# the exact-deal bonus --------------------------------------------------------------------


def bonus_hands(variant, games: int, seed: int) -> tuple[int, int]:
    """(draws, draws with the bonus) in a run. A draw is one (deal, hand): the games of one duplicate
    deal replay its hands with the seats rotated, so they share the draw and count once. Checks every
    hand's `other` on the way: 0 or the bonus on the dealer's side, 0 on every other side, in the total."""
    v = get_variant(variant) if isinstance(variant, str) else variant
    r = play(v, ["baseline"], games=games, seed=seed, hands=True)
    h = r.hands.merge(r.games[["game", "deal"]], on="game")
    bonus = h.hand * 0
    for s in range(v.n_sides):
        dealer_side = h.dealer.map(v.seat_side) == s
        other = h[f"other_{s}"]
        assert (other[~dealer_side] == 0).all()
        assert other[dealer_side].isin([0, 100]).all()
        bonus += (dealer_side & (other == 100)).astype(int)
        parts = sum(h[f"{c}_{s}"] for c in L.COMPONENTS if c != "total")
        assert (parts == h[f"total_{s}"]).all()
    per_draw = bonus.groupby([h.deal, h.hand]).agg(["min", "max"])
    assert (per_draw["min"] == per_draw["max"]).all()  # one draw per deal and hand, from the deal's stream
    return len(per_draw), int(per_draw["max"].sum())


@pytest.mark.parametrize("variant,games", [("house-001-2p", 800), ("house-001-4p", 800), ("house-003-4p", 1600)])
def test_r04_exact_deal_bonus_frequency_is_exact_deal_prob(variant, games):
    for v, p in ((get_variant(variant), 0.10), (with_rules(get_variant(variant), ["exact_deal_prob=0.3"]), 0.3)):
        assert v.deal.exact_deal_prob == p and v.score.exact_deal_bonus == 100
        n, hits = bonus_hands(v, games, seed=12)
        assert n >= 2500
        # independent draws: 5 standard errors
        assert abs(hits / n - p) <= 5 * math.sqrt(p * (1 - p) / n), (v.name, p, n, hits)


def test_r04_r158_exact_deal_prob_zero_gives_no_bonus_and_writes_false():
    v = with_rules(get_variant("house-001-4p"), ["exact_deal_prob=0"])
    n, hits = bonus_hands(v, 100, seed=2)
    assert n > 0 and hits == 0
    deals = [e for e in events(make_job(v, ["baseline"], 2), 0) if e["event"] == "deal"]
    assert deals and all(e["exact_deal"] is False for e in deals)


@pytest.mark.parametrize("variant", HOUSE)
def test_r158_exact_deal_written_in_every_house_deal_and_scored_to_the_dealers_side(variant):
    v = get_variant(variant)
    job = make_job(v, ["baseline"], 9)
    flags = []
    for g in range(4):
        dealer, exact = -1, None
        for e in events(job, g):
            if e["event"] == "deal":
                assert isinstance(e.get("exact_deal"), bool), e.keys()
                dealer, exact = e["dealer"], e["exact_deal"]
                flags.append(exact)
            elif e["event"] == "hand_end":
                for sc in e["scores"]:
                    want = 100 if exact and sc["side"] == v.seat_side(dealer) else 0
                    assert sc["other"] == want, (g, e)
    assert len(flags) >= 8


def test_r04_exact_deal_has_no_effect_on_the_cards_dealt():
    # the same games with another probability: the same cards in every hand that both play
    def deals(p: float) -> dict[int, list[dict]]:
        v = with_rules(get_variant("house-001-4p"), [f"exact_deal_prob={p}"])
        job = make_job(v, ["baseline"], 5)
        return {g: [e for e in events(job, g) if e["event"] == "deal"] for g in range(3)}

    none, lo, hi = deals(0), deals(0.05), deals(0.6)
    compared, flags_differ = 0, False
    for g in lo:
        for a, b, c in zip(none[g], lo[g], hi[g], strict=False):
            cards = {k: x for k, x in a.items() if k != "exact_deal"}
            assert cards == {k: x for k, x in b.items() if k != "exact_deal"}
            assert cards == {k: x for k, x in c.items() if k != "exact_deal"}
            assert a["exact_deal"] is False
            flags_differ |= b["exact_deal"] != c["exact_deal"]
            compared += 1
    assert compared >= 6 and flags_differ


def test_r04_classic_never_has_the_bonus():
    n, hits = bonus_hands("classic-4p", 100, seed=2)
    assert n > 0 and hits == 0
    assert all(not e.get("exact_deal", False)
               for e in events(make_job("classic-4p", ["baseline"], 2), 0) if e["event"] == "deal")
    # even with the flag forced, Classic's rules carry no bonus
    t = house("classic-4p").meld(0, "9S 9H 9D")
    t.S.st[L.S_EXACT] = 1
    assert [s["other"] for s in t.score(out_seat=None)] == [0, 0]
