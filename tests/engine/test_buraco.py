"""Buraco (VARIANTS.md §3.10, §4.8 R-130 to R-145, R-146, R-147): the worked examples of §5.7 (BU-1 to
BU-6) and the rules Buraco adds: sets and same-suit sequences with one wild (R-131 to R-134, R-146), the
whole pile taken freely (R-135), the mortos reached by a direct or an indirect knock (R-136, R-137),
the final knock-out with a canasta (R-138), E-BURACO (R-139), the morto penalty (R-140), one deal
(R-141, R-147).

Every expected number comes from the rules text, not from the engine. Legality is asked of the engine
itself: the meld options it offers (buraco.enum_buraco_meld_nb) and whole turns (buraco.buraco_turn_nb)
in which every decision with more than one legal option is made here, from the options offered.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from sim import get_variant
from sim.engine import layout as L
from sim.engine.buraco import buraco_turn_nb, enum_buraco_draw_nb, enum_buraco_meld_nb
from sim.engine.deal import deal_hand_nb
from sim.engine.game import game_over_nb
from sim.engine.layout import HC_FN, HC_FNB, HC_INDIRECT, HC_N, HC_PACKET, SD_CUM
from sim.engine.meldtable import meld_new_nb, meld_put_nb
from sim.engine.seqtable import seq_new_nb, seq_put_nb
from sim.engine.state import new_state
from sim.engine.table import packet_lo_nb
from sim.rules import pack
from sim.rules.cards import card_name, parse_card, parse_cards, rank_class
from tests.support import Table, pick, stock, stop_table

B2, B4 = "buraco-2p", "buraco-4p"
S_, H_, D_, C_ = L.SUIT_S, L.SUIT_H, L.SUIT_D, L.SUIT_C
STOP = (L.O_STOP, 0, 0, 0)
TAKE = (L.O_TAKE, L.TAKE_FREE)
SUIT = {"S": S_, "H": H_, "D": D_, "C": C_}
POS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 11, "Q": 12, "K": 13}


def table(variant: str = B4, seat: int = 0) -> Table:
    """A position with `seat` to play, the test deciding for every seat, no morto dealt (HC_PACKET 0:
    both taken) unless `morto` puts one there."""
    t = Table(variant)
    t.S.st[L.S_CUR] = seat
    t.S.hand[:, HC_FN] = 0
    return t


def morto(t: Table, side: int, cards: str = "4C 4C 5C 5C 6C 6C 7C 7C 8C 8C 9C") -> Table:
    """Side s's 11-card morto face down where the engine keeps it (slot s, table.packet_seat_nb)."""
    ks = parse_cards(cards)
    lo = int(packet_lo_nb(t.R, t.S, side))
    for i, k in enumerate(ks):
        t.S.stock[lo + i] = k
    t.S.hand[side, HC_PACKET] = len(ks)
    return t


def seq(t: Table, side: int, cards: str) -> int:
    """A sequence on the table, its cards low to high; `X@7` puts wild X at position 7 (an ace: position 1
    when it comes first, else 14). Returns its row."""
    items = cards.split()
    placed = []
    suit = next(SUIT[c[1]] for c in items if "@" not in c and c != "JK")
    for j, c in enumerate(items):
        if "@" in c:
            name, at = c.split("@")
            placed.append((parse_card(name), int(at)))
        else:
            pos = POS[c[0]] if not (c[0] == "A" and j > 0) else 14
            placed.append((parse_card(c), pos))
    m = seq_new_nb(t.S, 0 if side == 0 else 1, side, suit, placed[0][1])
    for k, pos in placed:
        seq_put_nb(t.R, t.S, side, m, k, pos)
    t.S.side[side, L.SD_MELDED] = 1
    return m


def set_(t: Table, side: int, cards: str) -> int:
    ks = parse_cards(cards)
    r = next(rank_class(k) for k in ks if rank_class(k) not in (L.RK_2, L.RK_JK))
    m = meld_new_nb(t.S, side, side, L.MK_RANK, r)
    for k in ks:
        meld_put_nb(t.R, t.S, side, m, k)
    t.S.side[side, L.SD_MELDED] = 1
    return m


def options(t: Table, seat: int = 0) -> list[tuple[int, int, int, int]]:
    n = enum_buraco_meld_nb(t.R, t.S, seat)
    return [tuple(int(x) for x in t.S.opts[i]) for i in range(n)]


def whole(t: Table, side: int, m: int) -> list[str]:
    row = t.S.melds[side, m]
    out = []
    for pos in range(int(row[L.F_LO]), int(row[L.F_HI]) + 1):
        k = int(row[L.F_WCARD]) if pos == int(row[L.F_WPOS]) else (
            (0 if pos in (1, 14) else pos - 1) * 4 + int(row[L.F_SUIT]))
        out.append(card_name(k))
    return out


def hand_of(t: Table, seat: int) -> list[str]:
    return sorted(card_name(k) for k in range(L.NK) for _ in range(int(t.S.hand[seat, k])))


# Whole turns played by the engine, every real choice made here --------------------------------------


class Met(NamedTuple):
    dp: int
    opts: list[tuple[int, int, int, int]]


def engine_turn(t: Table, seat: int, *choices: tuple | str) -> list[Met]:
    """`seat`'s whole Buraco turn as the engine plays it; at each decision with more than one legal option
    the next of `choices` is taken (an option or its start, or a card name to discard)."""
    S, R = t.S, t.R
    F = stop_table()
    S.hand[:, HC_FN] = 0
    S.hand[:, HC_FNB] = -1
    todo = list(choices)
    met: list[Met] = []
    buraco_turn_nb(R, S, F, seat, L.TURN_START, 0)
    while int(S.st[L.S_ERR]) == L.ERR_CHOICE:
        dp = int(S.st[L.S_ERR_B])
        opts = [tuple(int(x) for x in S.opts[i]) for i in range(int(S.obs[L.OB_N]))]
        met.append(Met(dp, opts))
        assert todo, f"no choice left for the {L.DP_NAMES[dp]} decision: {opts}"
        i = pick(todo.pop(0), opts)
        S.st[L.S_ERR] = 0
        buraco_turn_nb(R, S, F, seat, dp, i)
    assert int(S.st[L.S_ERR]) == 0, int(S.st[L.S_ERR])
    assert not todo, f"choices left over: {todo}"
    return met


# §5.7 worked examples ---------------------------------------------------------------------------------


def test_bu1_final_knock_out_scores_table_canastas_knock_and_hands():
    t = table(B4)
    seq(t, 0, "3H 4H 5H 6H 7H 8H 9H")  # 45, clean canasta +200
    set_(t, 0, "KS KH KD KC KS KH JK")  # 60 + 50, dirty canasta +100
    seq(t, 0, "JS QS KS")  # 30
    t.hand(2, "7C 2D")  # the partner's hand: -25
    side0 = t.score(out_seat=0)[0]
    assert side0 == {"melded": 185, "canastas": 300, "red_threes": 0, "going_out": 100, "in_hand": -25,
                     "other": 0, "total": 560}


def test_bu2_a_side_that_never_took_its_morto_loses_100():
    t = table(B4)
    morto(t, 1)
    seq(t, 1, "4D 5D 6D")  # 15
    set_(t, 1, "AS AH AD")  # 45
    t.hand(1, "JK KS QS JS")  # 80
    t.hand(3, "KD QD JD TD")  # 40
    side1 = t.score(out_seat=0)[1]
    assert side1["other"] == -100 and side1["in_hand"] == -120 and side1["melded"] == 60
    assert side1["total"] == -160


def test_bu3_r140_indirect_knock_then_the_hand_ends_costs_100_and_the_morto_is_not_subtracted():
    t = table(B4)
    morto_cards = "JK AS AH KS KH 5S 5H 4S 4H 3S 3H"  # 50 + 30 + 20 + 30: the morto worth 130
    t.hand(1, morto_cards)
    t.S.hand[1, HC_INDIRECT] = 1  # seat 1 knocked indirectly; the hand ended before its next turn
    t.hand(3, "9D")
    side1 = t.score(out_seat=0)[1]
    assert side1["in_hand"] == -10 and side1["other"] == -100


def test_bu4_values_a_natural_two_in_its_place_counts_20_and_keeps_the_sequence_clean():
    t = table(B2)
    m = seq(t, 0, "AC 2C 3C")
    row = t.S.melds[0, m]
    assert int(row[L.F_VAL]) == 15 + 20 + 5 == 40
    assert (int(row[L.F_NAT]), int(row[L.F_TWO] + row[L.F_JOK])) == (3, 0)  # natural, clean
    m2 = set_(t, 0, "AS AH AD")
    assert int(t.S.melds[0, m2, L.F_VAL]) == 45


def _seq_opts(opts, suit, lo):
    return [o for o in opts if o[0] == L.O_SEQ and o[1] == suit and o[2] == lo]


def test_bu5_r131_a_sequence_with_one_wild_is_offered_and_extended_but_never_a_second_wild():
    t = table(B2)
    t.hand(0, "5H 6H JK 8H 9C 9D")
    opts = options(t)
    assert (L.O_SEQ, H_, 5, L.seq_wild(7, L.RK_JK)) in opts  # 5H 6H JK(7)
    m = seq(t, 0, "5H 6H JK@7")
    assert whole(t, 0, m) == ["5H", "6H", "JK"]
    assert (L.O_EXTEND, m, L.END_HIGH, -1) in options(t)  # 8H at position 8: 5H 6H JK(7) 8H legal
    t2 = table(B2)
    m = seq(t2, 0, "5H 2C@6 7H")
    t2.hand(0, "JK 8S 8D")
    assert [o for o in options(t2) if o[0] == L.O_EXTEND and o[1] == m and o[3] >= 0] == []  # no second wild
    t3 = table(B2)
    t3.hand(0, "5H 2C JK 8H 9S")  # 5H 2C(6) JK(7) 8H: two wilds, never offered
    assert [o for o in options(t3) if o[0] == L.O_SEQ] == []


def test_bu5_r134_no_set_of_twos():
    t = table(B2)
    t.hand(0, "2C 2D 2H 9S")
    assert [o for o in options(t) if o[0] == L.O_NEW] == []


def test_bu5_r133_no_wrap_around_ace_low_or_high_never_both():
    t = table(B2)
    t.hand(0, "KS AS 2S 9H")
    assert [o for o in options(t) if o[0] == L.O_SEQ] == []  # K-A-2 wraps
    t.hand(0, "QD KD AD")
    assert _seq_opts(options(t), D_, 12) == [(L.O_SEQ, D_, 12, -1)]  # Q K A, the ace high
    t2 = table(B2)
    m = seq(t2, 0, "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS")  # 13 cards, the ace low
    t2.hand(0, "AS AS 9H")
    assert [o for o in options(t2) if o[0] == L.O_EXTEND and o[1] == m] == []


def test_bu6_stock_after_the_deal_is_41_for_four_and_63_for_two_with_two_11_card_mortos():
    for variant, stock_n, seats in ((B4, 41, 4), (B2, 63, 2)):
        v = get_variant(variant)
        assert v.stock_after_deal() == stock_n
        R = pack(v)
        for seed in range(4):
            S = new_state(R)
            S.st[L.S_SEED], S.st[L.S_DEAL], S.st[L.S_HANDNO], S.st[L.S_DEALER] = seed, seed, 1, seed % seats
            deal_hand_nb(R, S)
            assert int(S.st[L.S_STOCK_N]) == stock_n and int(S.st[L.S_PILE_N]) == 1  # the upcard, never covered
            assert [int(S.hand[p, HC_N]) for p in range(seats)] == [11] * seats
            assert [int(S.hand[q, HC_PACKET]) for q in range(seats)] == [11, 11] + [0] * (seats - 2)
            assert int(S.side[0, L.SD_RED3] + S.side[1, L.SD_RED3]) == 0  # threes are plain cards


# The rules Buraco adds -------------------------------------------------------------------------------


def test_r132_r146_a_two_of_the_suit_in_its_own_place_is_natural_even_at_the_bottom():
    t = table(B2)
    t.hand(0, "2S 3S 4S 9H 9D")
    assert (L.O_SEQ, S_, 2, -1) in options(t)  # 2S 3S 4S: three naturals
    m = seq(t, 0, "2S 3S 4S")
    assert int(t.S.melds[0, m, L.F_TWO]) == 0


def test_r131_a_natural_two_and_one_wild_in_one_sequence():
    t = table(B2)
    m = seq(t, 0, "AH 2H 3H 4H 5H 6H")  # the 2H is natural
    t.hand(0, "JK 9C 9D")
    assert (L.O_EXTEND, m, L.END_HIGH, L.RK_JK) in options(t)  # a wild at 7 completes a dirty canasta


def test_r134_sets_of_threes_are_plain_and_one_set_per_rank():
    t = table(B2)
    t.hand(0, "3H 3D 3S 3C 9H")
    assert (L.O_NEW, L.RK_3, 3, -1) in options(t)
    m = set_(t, 0, "3H 3D 3S")
    opts = options(t)
    assert (L.O_ADD, m, -1, 0) in opts and not [o for o in opts if o[0] == L.O_NEW and o[1] == L.RK_3]


def test_r134_a_set_takes_at_most_one_wild():
    t = table(B2)
    m = set_(t, 0, "9H 9D JK")
    t.hand(0, "2C 9S 5H")
    opts = options(t)
    assert (L.O_ADD, m, -1, 0) in opts and (L.O_ADD, m, L.RK_2, 0) not in opts


def test_r135_the_whole_pile_is_always_takeable_even_a_wild_on_top():
    t = table(B2)
    t.pile("5H 9C JK")
    n = enum_buraco_draw_nb(t.S)
    assert [tuple(int(x) for x in t.S.opts[i][:2]) for i in range(n)] == [(L.O_DRAW, 0), TAKE]


def test_r135_taking_the_pile_puts_every_card_in_the_hand():
    t = table(B2)
    morto(t, 0)
    morto(t, 1)
    stock(t, "KD", filler=10)
    t.pile("5H 9C JK 3D")
    t.hand(0, "7S 8D")
    engine_turn(t, 0, TAKE, "8D")  # nothing to meld: the meld phase stops by itself
    assert hand_of(t, 0) == sorted(["5H", "9C", "JK", "3D", "7S"])
    assert int(t.S.st[L.S_PILE_N]) == 1


def test_r137_direct_knock_picks_up_the_morto_and_plays_on():
    t = table(B2)
    morto(t, 0, "KS KH KD 9S 9H 9D 4C 4D 5C 6C 7C")
    morto(t, 1)
    stock(t, "8S", filler=10)
    t.hand(0, "5S 6S 7S")
    met = engine_turn(t, 0, (L.O_SEQ, S_, 5, -1), (L.O_EXTEND,), STOP, "KS")  # the draw is forced
    # four spades melded (the hand emptied by melding): the morto came at once, and the turn went on
    assert int(t.S.hand[0, HC_PACKET]) == 0 and int(t.S.hand[0, HC_INDIRECT]) == 0
    assert int(t.S.hand[0, HC_N]) == 10 and int(t.S.st[L.S_ENDED]) == 0
    assert met[-1].dp == L.DP_DISCARD


def test_r137_r140_indirect_knock_takes_the_morto_into_the_hand_and_the_turn_ends():
    t = table(B2)
    morto(t, 0)
    morto(t, 1)
    stock(t, "9D", filler=10)
    t.hand(0, "5S 6S 7S")
    engine_turn(t, 0, (L.O_SEQ, S_, 5, -1))  # then stopping and discarding the last card, 9D, are forced
    assert int(t.S.hand[0, HC_N]) == 11 and int(t.S.hand[0, HC_PACKET]) == 0
    assert int(t.S.hand[0, HC_INDIRECT]) == 1 and int(t.S.st[L.S_ENDED]) == 0
    assert [card_name(int(k)) for k in t.S.pile[:int(t.S.st[L.S_PILE_N])]] == ["9D"]


def test_r137_without_a_canasta_and_with_the_morto_taken_the_hand_never_empties():
    t = table(B2)
    morto(t, 1)  # side 0's morto is gone
    t.hand(0, "5S 6S 7S 9D")
    # laying 5S 6S 7S would leave one card, which could not be discarded: never offered
    assert options(t) == [STOP]
    t.hand(0, "KD")
    assert (L.O_SEQ, S_, 5, -1) in options(t)


def test_r138_final_knock_out_needs_a_canasta_and_ends_the_hand():
    t = table(B2)
    morto(t, 1)
    seq(t, 0, "3H 4H 5H 6H 7H 8H 9H")
    stock(t, "9D", filler=10)
    t.hand(0, "5S 6S 7S 8S")
    # 5S 6S 7S, then 8S onto it; the last card, 9D, is discarded: the final knock-out
    engine_turn(t, 0, (L.O_SEQ, S_, 5, -1), (L.O_EXTEND, 1, L.END_HIGH, -1))
    assert int(t.S.st[L.S_ENDED]) == L.END_OUT and int(t.S.st[L.S_OUT_PLAYER]) == 0


def test_r139_e_buraco_the_hand_ends_after_the_turn_that_drew_the_last_stock_card():
    t = table(B2)
    morto(t, 0)
    morto(t, 1)
    stock(t, "9D", filler=0)
    t.hand(0, "5S KH")
    engine_turn(t, 0, "KH")
    assert int(t.S.st[L.S_STOCK_N]) == 0 and int(t.S.st[L.S_ENDED]) == L.END_STOCK
    assert int(t.S.st[L.S_PILE_N]) == 1  # the discard was made first


def test_r141_r147_one_deal_is_the_game_and_a_tie_plays_another():
    t = table(B2)
    t.S.side[0, SD_CUM], t.S.side[1, SD_CUM] = -40, -75
    assert int(game_over_nb(t.R, t.S)) == 0  # one deal, the higher score wins, negative or not
    t.S.side[1, SD_CUM] = -40
    assert int(game_over_nb(t.R, t.S)) == -1  # a tie: another deal
    v = get_variant(B2).replace(target_score=3000)
    R = pack(v)
    t.S.side[0, SD_CUM] = 2990
    assert int(game_over_nb(R, t.S)) == -1


@pytest.mark.parametrize("variant", [B2, B4])
def test_r136_each_side_takes_its_own_morto_once(variant):
    from sim import play

    r = play(variant, ["baseline", "random"], games=40, seed=11, hands=True, check=True)
    h = r.hands
    assert (h["feet_taken_0"] <= 1).all() and (h["feet_taken_1"] <= 1).all()
    assert h["feet_taken_0"].sum() + h["feet_taken_1"].sum() > 0
