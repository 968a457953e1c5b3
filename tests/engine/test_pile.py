"""Classic pile-taking legality (VARIANTS.md §0 methods, §1.6, §2 rows 12-15 and 40, §3.1 step 2, R-20, R-21).

`take_options(seat)` lists (method, wild rank class) with method 1 = M1 natural pair, 2 = M2 natural + wild,
3 = M3 lay-off; the wild rank class is 1 for a two, 13 for a joker, -1 when no wild is used.
Seats 0 and 2 are side 0, seats 1 and 3 side 1 in classic-4p.
"""

from __future__ import annotations

import pytest

from sim.engine import layout as L
from sim.engine.layout import HC_FN, HC_N, SD_MELDED, SD_NM, SD_REQ
from sim.engine.meld import meld_phase_nb
from sim.engine.pile import apply_take_nb
from sim.rules.cards import parse_card
from tests.support import Table, strategy_table

M1 = (1, -1)
M2_TWO = (2, 1)
M2_JOKER = (2, 13)
M3 = (3, -1)


def _melded(variant: str = "classic-4p", scores: list[int] | None = None) -> Table:
    """Side 0 has made its initial meld (a meld of queens, unrelated to the kings taken below)."""
    return Table(variant, scores=scores).meld(0, "QS QH QD")


# M1, M2, M3 on an unfrozen pile, side melded (§2 row 12) -----------------------------------------


def test_m1_natural_pair_takes_unfrozen_pile():
    t = _melded().hand(0, "KS KH 5D 6D").pile("7C KD")
    assert t.take_options(0) == [M1]
    # one natural is not enough without a wild
    t1 = _melded().hand(0, "KS 5D 6D 7H").pile("7C KD")
    assert t1.take_options(0) == []


def test_m2_natural_and_wild_only_when_unfrozen_and_side_melded():
    hand = "KS 2C JK 5D 6D"
    # unfrozen, side melded: a two or a joker
    t = _melded().hand(0, hand).pile("7C KD")
    assert sorted(t.take_options(0)) == [M2_TWO, M2_JOKER]
    # frozen pile: no M2
    t = _melded().hand(0, hand).pile("2H 7C KD", frozen=True)
    assert t.take_options(0) == []
    # side has not melded (even with value to spare: K + K + JK = 70 >= 50): no M2
    t = Table("classic-4p").hand(0, hand + " AS AH AD").pile("7C KD")
    assert t.take_options(0) == []


def test_m3_lay_off_onto_own_side_meld_of_top_rank():
    # the partner (seat 2) started the kings; seat 0 holds no king and no wild
    t = _melded().meld(0, "KS KH KD", seat=2).hand(0, "5D 6D 7H").pile("7C KC")
    assert t.take_options(0) == [M3]
    # the opponents' meld of kings does not count
    t = _melded().meld(1, "KS KH KD", seat=1).hand(0, "5D 6D 7H").pile("7C KC")
    assert t.take_options(0) == []
    # M3 also onto a canasta (Classic melds have no size cap)
    t = _melded().meld(0, "KS KH KD KC KS KH KD").hand(0, "5D 6D 7H").pile("7C KC")
    assert t.take_options(0) == [M3]


# Frozen pile (§2 row 13, §3.1 step 2) ------------------------------------------------------------


def test_frozen_pile_allows_only_m1():
    t = _melded().meld(0, "KS KH KD").hand(0, "KS KH 2C JK 5D").pile("2D 7C KC", frozen=True)
    assert t.take_options(0) == [M1]
    # unfrozen, the same position allows M1, M2 (two and joker) and M3
    t = _melded().meld(0, "KS KH KD").hand(0, "KS KH 2C JK 5D").pile("7D 7C KC")
    assert sorted(t.take_options(0)) == [M1, M2_TWO, M2_JOKER, M3]
    # frozen and no natural pair: M2 and M3 would fit but the pile cannot be taken
    t = _melded().meld(0, "KS KH KD").hand(0, "KS 2C JK 5D").pile("2D 7C KC", frozen=True)
    assert t.take_options(0) == []


# Before the side's initial meld (§2 row 14, §1.6 step 2, §3.1 step 2) -----------------------------


def test_before_initial_meld_only_m1_and_only_if_minimum_reachable():
    # score 0: requirement 50. T = KS with KH KD is 30: not enough alone
    t = Table("classic-4p", scores=[0, 0]).hand(0, "KH KD 5S 6S").pile("7C KS")
    assert int(t.S.side[0, SD_REQ]) == 50
    assert t.take_options(0) == []
    # with A A A in hand as well: 30 + 60 = 90 >= 50
    t = Table("classic-4p", scores=[0, 0]).hand(0, "KH KD AS AH AD 6S").pile("4C 9D KS")
    assert t.take_options(0) == [M1]
    # no M2 and no M3 before the initial meld, even when the value would suffice
    t = Table("classic-4p", scores=[0, 0]).hand(0, "KH JK AS AH AD 6S").pile("4C 9D KS")
    assert t.take_options(0) == []


def test_before_initial_meld_only_top_card_counts_from_pile():
    # the aces buried in the pile never count toward the minimum
    t = Table("classic-4p", scores=[0, 0]).hand(0, "KH KD 5S 6S").pile("AC AH AD KS")
    assert t.take_options(0) == []


def test_before_initial_meld_requirement_follows_side_score():
    hand = "KH KD AS AH AD 6S"  # with T = KS: 30 + 60 = 90
    pile = "4C 9D KS"
    assert Table("classic-4p", scores=[1600, 0]).hand(0, hand).pile(pile).take_options(0) == [M1]  # needs 90
    assert Table("classic-4p", scores=[3000, 0]).hand(0, hand).pile(pile).take_options(0) == []  # needs 120
    # a negative score needs only 15: T + the pair (30) suffices
    assert Table("classic-4p", scores=[-5, 0]).hand(0, "KH KD 5S 6S").pile("7C KS").take_options(0) == [M1]


def test_before_initial_meld_frozen_pile_m1_with_minimum():
    t = Table("classic-4p", scores=[0, 0]).hand(0, "KH KD AS AH AD 6S").pile("JK 4C 9D KS", frozen=True)
    assert t.take_options(0) == [M1]


# Untakeable top cards (§2 row 15) and the black-three block (R-21, §1.8) ----------------------------


@pytest.mark.parametrize("top", ["JK", "2H", "3S", "3C"])
def test_wild_or_black_three_on_top_cannot_be_taken(top):
    t = _melded().meld(0, "KS KH KD").hand(0, "JK JK 2S 2H 3S 3C KS KH 5D").pile("7C 8D " + top)
    assert t.take_options(0) == []


def test_black_three_block_bars_only_the_blocked_seat():
    t = Table("classic-4p").meld(1, "QS QH QD", seat=1)
    t.hand(1, "KS KH 5D 6D").hand(3, "KS KH 5D 6D").pile("3C 7C KD")
    t.S.st[L.S_BLOCK] = 1
    assert t.take_options(1) == []
    assert t.take_options(3) == [M1]
    t.S.st[L.S_BLOCK] = -1
    assert t.take_options(1) == [M1]


def test_r21_black_three_upcard_blocks_first_player_without_freezing():
    # the deal leaves a black-three upcard as S_BLOCK on the first player; the pile is not frozen
    t = _melded().meld(0, "KS KH KD").hand(0, "KS 2C 5D 6D").hand(2, "KS 2C 5D 6D").pile("3S 9H KD")
    t.S.st[L.S_BLOCK] = 0
    assert t.take_options(0) == []
    # seat 2 (not blocked) may use M2 and M3, so the pile is not frozen
    assert sorted(t.take_options(2)) == [M2_TWO, M3]


# R-20 one-card rule (§2 row 40) ---------------------------------------------------------------


def test_r20_one_card_in_hand_cannot_take_one_card_pile():
    # the side has a canasta and a meld of kings, so laying T off would otherwise be fine
    base = "KS KH KD KC KS KH KD"
    t = _melded().meld(0, base).hand(0, "5D").pile("KC")
    assert t.take_options(0) == []
    # a pile of two cards may be taken with one card in hand
    t = _melded().meld(0, base).hand(0, "5D").pile("7C KC")
    assert t.take_options(0) == [M3]
    # two cards in hand may take a pile of one card
    t = _melded().meld(0, base).hand(0, "5D 6D").pile("KC")
    assert t.take_options(0) == [M3]


# Meld composition limits M2 (§1.4, R-14) --------------------------------------------------------


def test_no_m2_when_side_meld_of_top_rank_has_three_wilds():
    t = _melded().meld(0, "KS KH 2C 2D JK").hand(0, "KD JK 2H 5S 6S").pile("7C KC")
    assert t.take_options(0) == [M3]
    # with only two wilds in the meld, M2 is still possible
    t = _melded().meld(0, "KS KH 2C JK").hand(0, "KD JK 2H 5S 6S").pile("7C KC")
    assert sorted(t.take_options(0)) == [M2_TWO, M2_JOKER, M3]


# Keep-a-card rule applied to a take (§1.7, §1.9) ----------------------------------------------


def test_take_that_leaves_one_card_needs_a_canasta_side_melded():
    # after M1 the hand is just 5S, which must be discarded: that is going out, and side 0 has no canasta
    t = _melded().hand(0, "KH KD 5S").pile("KS")
    assert t.take_options(0) == []
    t = _melded().meld(0, "9S 9H 9D 9C 9S 9H 9D").hand(0, "KH KD 5S").pile("KS")
    assert t.take_options(0) == [M1]


def test_take_before_initial_meld_may_not_leave_one_card_without_canasta():
    # requirement 15 (score -5): T + KH KD = 30 meets it, but the hand is then 5S alone, which must be
    # discarded (= going out) while side 0 has no canasta, so the take is illegal
    t = Table("classic-4p", scores=[-5, 0]).hand(0, "KH KD 5S").pile("KS")
    assert t.take_options(0) == []


def test_premeld_take_that_cannot_leave_two_cards_rolls_back_to_a_draw():
    # requirement 50: only K K K + A A A reaches it, and that would leave just 7C from the pile. The take is
    # offered (the exact card count is settled in the meld phase); A A A is then refused by the keep-a-card
    # rule and stopping short rolls the take back, so the player draws from the stock instead.
    t = Table("classic-4p", scores=[0, 0]).hand(0, "KH KD AS AH AD").pile("7C KS").stock(10)
    assert t.take_options(0) == [M1]
    R, S = t.R, t.S
    assert apply_take_nb(R, S, 0, L.TAKE_M1, -1) == L.TAKE_PENDING  # pending: T + K K = 30 < 50
    opts = t.meld_options(0)
    assert (L.O_NEW, 0, 3, -1) not in opts  # A A A would leave one card after the pickup
    assert opts == [(L.O_STOP, 0, 0, 0)]
    S.stock[9] = parse_card("9C")
    S.hand[0, HC_FN] = 0  # baseline (slot 0) picks the only option
    play_draw_after = meld_phase_nb(R, S, strategy_table("classic-4p", ("baseline",)), 0)
    assert play_draw_after == 2  # rolled back
    assert S.st[L.S_PILE_N] == 2 and S.hand[0, HC_N] == 5 and S.side[0, SD_NM] == 0 and S.side[0, SD_MELDED] == 0


# Classic-2p: two canastas to go out (C-11, R-17) ---------------------------------------------------


def test_classic_2p_cannot_go_out_with_one_canasta_can_with_two():
    kings = "KS KH KD KC KS KH KD"
    queens = "QS QH QD QC QS QH QD"
    # going out by melding 5 5 5
    t = Table("classic-2p").meld(0, kings).hand(0, "5S 5H 5D")
    assert t.canastas(0) == 1
    assert not t.can_go_out(0)
    t.meld(0, queens)
    assert t.canastas(0) == 2
    assert t.can_go_out(0)
    # going out by taking the pile: the 9 with the pair empties the hand, which needs two canastas
    t = Table("classic-2p").meld(0, kings).hand(0, "9S 9H").pile("9D")
    assert t.take_options(0) == []
    t.meld(0, queens)
    assert t.take_options(0) == [M1]
    # the same one-canasta positions may go out at four players (one canasta needed)
    assert Table("classic-4p").meld(0, kings).hand(0, "5S 5H 5D").can_go_out(0)
    assert Table("classic-4p").meld(0, kings).hand(0, "9S 9H").pile("9D").take_options(0) == [M1]
