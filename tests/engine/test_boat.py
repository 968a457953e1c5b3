"""Boat Canasta (VARIANTS.md §3.5, §4.3 R-30 to R-45, §4.9 R-148 and R-149, §1.10 E-RESHUFFLE): the
worked examples of §5.4 (B-1 to B-12) and the rules only Boat has: no upcard (R-31), the three
opening rounds (R-32), blocking by black threes and wilds (R-33), the table negative without a
canasta (R-34), wild melds and wild canastas (R-35), wilds below naturals without a cap (R-36), the
four-black-three close (R-37), the last card kept (R-38), the Treasure pile reshuffled (R-39,
R-149), 14 cards at any count (R-40), the target (R-41), no concealed bonus and no one-card pile
rule (R-45), and asking after the draw step (R-148).

Every expected number comes from the rules text. Legality is asked of the engine itself: the draw
step's options (enum_draw_step_nb, at the start of a turn), the meld actions (enum_meld_nb), the
going-out search (can_go_out_nb) and whole turns (turn.turn_nb), in which every decision with more
than one legal option is made here, explicitly, from the options the engine offered.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import NamedTuple

import numpy as np
import pytest

from sim import get_variant, play, trace_decisions
from sim.engine import layout as L
from sim.engine.deal import deal_hand_nb
from sim.engine.draw import enum_draw_step_nb
from sim.engine.game import game_over_nb
from sim.engine.layout import HC_FN, HC_FNB, HC_N, HC_TURNS, SD_CAN, SD_MELDED, SD_MOR, SD_RED3, SD_REQ
from sim.engine.meld import meld_step_nb
from sim.engine.meldtable import meld_new_nb, meld_put_nb, rank_meld_ok_nb
from sim.engine.pile import snapshot_nb
from sim.engine.state import State, new_state
from sim.engine.turn import begin_turn_nb, play_turn_nb, resume_turn_nb
from sim.records.transcript import events
from sim.rules import pack
from sim.rules.cards import card_name, parse_card, parse_cards, rank_class
from sim.run.runner import make_job
from tests.support import NATURAL_KINGS, Table, pick, stock, stop_table

BOAT = ["boat-2p", "boat-3p", "boat-4p"]
BOAT_CHECKED_GAMES = 200  # games per preset and strategy with the invariant checks on, at full size
BOAT_CHECKED_LEAST = 20  # enough for every kind of canasta and a black-three close to occur (seed 7)

DRAW = (L.O_DRAW, 0, 0, 0)
M1 = (L.O_TAKE, L.TAKE_M1, -1, 0)
M2_TWO = (L.O_TAKE, L.TAKE_M2, L.RK_2, 0)
M2_JOKER = (L.O_TAKE, L.TAKE_M2, L.RK_JK, 0)
M3 = (L.O_TAKE, L.TAKE_M3, -1, 0)
STOP = (L.O_STOP, 0, 0, 0)
NOASK = (L.O_NOASK, 0, 0, 0)
BLACK3_CLOSE = (L.O_BLACK3, 4, 0, 0)

FIVE, SIX, NINE, J, Q, K = (rank_class(parse_card(c)) for c in ("5S", "6S", "9S", "JS", "QS", "KS"))
NATURAL_NINES = "9S 9H 9D 9C 9S 9H 9D"
SIX_QUEENS = "QS QH QD QC QS QH"  # one short of a canasta

# Boat card values (§2 row 22, §3.5 scoring 3): a black three melded is worth 0, left in a hand -100
VALUE = {"A": 20, "2": 20, "3": 0, "4": 5, "5": 5, "6": 5, "7": 5, "8": 10, "9": 10, "T": 10, "J": 10,
         "Q": 10, "K": 10}


def value(name: str) -> int:
    return 50 if name == "JK" else VALUE[name[0]]


def is_wild(name: str) -> bool:
    return name == "JK" or name[0] == "2"


# Positions --------------------------------------------------------------------------------------------


def boat(variant: str = "boat-2p", scores: list[int] | None = None, seat: int = 0, played: int = 3) -> Table:
    """A Boat position with `seat` to play. Every seat has played `played` turns of this hand (3: the
    opening rounds are over, the next turn is the fourth, R-32)."""
    v = get_variant(variant)
    t = Table(v, scores=scores or [0] * v.n_sides)
    t.S.st[L.S_CUR] = seat
    t.S.hand[:, HC_TURNS] = played
    t.S.hand[:, HC_FN] = 0
    return t


def wild(t: Table, side: int, cards: str, seat: int | None = None) -> int:
    """Put the side's wild meld on the table (laid on an earlier turn); returns its row."""
    seat = t.v.sides[side][0] if seat is None else seat
    m = meld_new_nb(t.S, seat, side, L.MK_WILD, L.RK_JK)
    t.S.melds[side, m, L.F_TURN] = 0
    for k in parse_cards(cards):
        meld_put_nb(t.R, t.S, side, m, k)
    t.S.side[side, SD_MELDED] = 1
    t.S.hand[seat, L.HC_LAID] = 1
    return m


def meld_row(t: Table, side: int, rank: int) -> int:
    return int(t.S.side[side, SD_MOR + rank])


def hand_of(t: Table, seat: int) -> list[str]:
    return sorted(card_name(k) for k in range(L.NK) for _ in range(int(t.S.hand[seat, k])))


def pile_of(t: Table) -> list[str]:
    return [card_name(int(k)) for k in t.S.pile[:int(t.S.st[L.S_PILE_N])]]


def stock_of(t: Table) -> list[str]:
    return [card_name(int(k)) for k in t.S.stock[:int(t.S.st[L.S_STOCK_N])]]


def canasta_kinds(t: Table, side: int) -> dict[str, int]:
    return {k.name.lower(): int(t.S.side[side, SD_CAN + k]) for k in L.CanastaKind}


def copy_state(S: State) -> State:
    return State(*(a.copy() for a in S))


def draw_step(t: Table, seat: int) -> list[tuple[int, int, int, int]]:
    """The options of `seat`'s draw step at the start of its next turn (on a copy of the position)."""
    S = copy_state(t.S)
    begin_turn_nb(S, seat)
    n = enum_draw_step_nb(t.R, S, seat)
    return [tuple(int(x) for x in S.opts[i]) for i in range(n)]


def step(t: Table, seat: int, option: tuple[int, int, int, int]) -> int:
    """One meld action, chosen among the options the engine offers now."""
    opts = t.meld_options(seat)
    assert option in opts, opts
    return int(meld_step_nb(t.R, t.S, seat, opts.index(option)))


# Whole turns played by the engine, every real choice made here ----------------------------------------


class Met(NamedTuple):
    """A decision met in a turn: its point, the options offered, and the pile and hand sizes then."""

    dp: int
    opts: list[tuple[int, int, int, int]]
    pile_n: int
    hand_n: int


def engine_turn(t: Table, seat: int, *choices: tuple | str, all_used: bool = True) -> list[Met]:
    """`seat`'s whole turn as the engine plays it (turn.turn_nb from the start of the turn). At each
    decision with more than one legal option the next of `choices` is taken: an option (or the start of
    one), or a card name to discard. Returns the decisions met."""
    S, R = t.S, t.R
    F = stop_table()
    S.hand[:, HC_FN] = 0
    S.hand[:, HC_FNB] = -1
    todo = list(choices)
    met: list[Met] = []
    play_turn_nb(R, S, F, seat)
    while int(S.st[L.S_ERR]) == L.ERR_CHOICE:
        who, dp = int(S.st[L.S_ERR_A]), int(S.st[L.S_ERR_B])
        opts = [tuple(int(x) for x in S.opts[i]) for i in range(int(S.obs[L.OB_N]))]
        met.append(Met(dp, opts, int(S.st[L.S_PILE_N]), int(S.hand[int(S.st[L.S_CUR]), HC_N])))
        assert todo, f"no choice left for the {L.DP_NAMES[dp]} decision of seat {who}: {opts}"
        i = pick(todo.pop(0), opts)
        S.st[L.S_ERR] = 0
        resume_turn_nb(R, S, F, who, dp, i)
    assert int(S.st[L.S_ERR]) == 0, int(S.st[L.S_ERR])
    assert not (all_used and todo), f"choices left over: {todo}"
    return met


def points_met(met: list[Met]) -> list[int]:
    return [m.dp for m in met]


# §5.4 worked examples ---------------------------------------------------------------------------------


def test_b1_r149_requirement_by_team_score():
    scores = (-5, 0, 2500, 2505, 5000, 5005, 7500, 7505, 9995)
    got = [int(boat("boat-4p", scores=[s, 0]).S.side[0, SD_REQ]) for s in scores]
    assert got == [15, 50, 50, 90, 90, 120, 120, 150, 150]
    # 150 from 7505 up, without a top bound
    assert int(boat("boat-4p", scores=[15000, 0]).S.side[0, SD_REQ]) == 150
    # the engine's own opening: at 2505 (90) K K K + A A A = 90 opens; at 5005 (120) it is short
    for score, opened in ((2505, True), (5005, False)):
        t = boat("boat-2p", scores=[score, 0]).hand(0, "KS KH KD AS AH AD 5C 6C")
        snapshot_nb(t.R, t.S, 0)  # the meld phase of an unmelded side opens pending (meld_phase_from_nb)
        t.S.st[L.S_PEND] = 0
        step(t, 0, (L.O_NEW, K, 3, -1))
        step(t, 0, (L.O_NEW, rank_class(parse_card("AS")), 3, -1))
        assert bool(t.S.side[0, SD_MELDED]) == opened, score


def test_b2_r30_canasta_bonuses_mixed_300_natural_600_small_wild_1000_big_wild_2000():
    cases = [(lambda t: t.meld(0, "KS KH KD KC KS KH 2C"), 300),
             (lambda t: t.meld(0, NATURAL_KINGS), 600),
             (lambda t: wild(t, 0, "JK 2S 2H 2D 2C 2S 2H"), 1000),
             (lambda t: wild(t, 0, "JK JK JK JK 2S 2H 2D"), 2000)]
    for build, bonus in cases:
        t = boat("boat-2p")
        build(t)
        assert t.score(out_seat=None)[0]["canastas"] == bonus


def test_b3_team_closes_with_big_wild_natural_aces_eights_and_four_red_threes_scores_3925():
    t = boat("boat-4p")
    wild(t, 0, "JK JK JK JK 2S 2H 2D")  # 200 + 60, big wild +2000
    t.meld(0, "AS AH AD AC AS AH AD")  # 140, natural +600
    t.meld(0, "8S 8H 8D")  # 30
    t.red_threes(0, 4)  # +800
    t.hand(2, "3C 5D")  # the partner: -100, -5
    t.meld(1, "9S 9H 9D", seat=1)
    assert canasta_kinds(t, 0)["big_wild"] == 1 and canasta_kinds(t, 0)["natural"] == 1
    a = t.score(out_seat=0)[0]
    assert a == {"melded": 430, "canastas": 2600, "red_threes": 800, "going_out": 200,
                 "in_hand": -105, "other": 0, "total": 3925}


@pytest.mark.parametrize("out_seat", [0, None])
def test_b4_r34_team_without_canasta_scores_its_melds_negative_minus_135(out_seat):
    t = boat("boat-4p").meld(0, NATURAL_KINGS)
    t.meld(1, "KS KH KD 2C", seat=1).meld(1, "6S 6H 6D", seat=3)  # 50 and 15
    t.hand(1, "JK 9S").hand(3, "4C 4D")  # 60 and 10
    b = t.score(out_seat=out_seat)[1]
    assert b == {"melded": -65, "canastas": 0, "red_threes": 0, "going_out": 0,
                 "in_hand": -70, "other": 0, "total": -135}


def test_b5_r35_wild_canasta_four_jokers_four_twos_is_small_1280():
    t = boat("boat-2p")
    wild(t, 0, "JK JK JK JK 2S 2H 2D 2C")
    assert canasta_kinds(t, 0)["small_wild"] == 1 and canasta_kinds(t, 0)["big_wild"] == 0
    a = t.score(out_seat=None)[0]
    assert (a["melded"], a["canastas"], a["total"]) == (280, 1000, 1280)


def test_b5_r35_boat_wild_tie_big_makes_the_tie_big_2280():
    v = get_variant("boat-2p").replace(wild_tie_big=True)
    t = Table(v, scores=[0, 0])
    wild(t, 0, "JK JK JK JK 2S 2H 2D 2C")
    assert canasta_kinds(t, 0)["big_wild"] == 1 and canasta_kinds(t, 0)["small_wild"] == 0
    a = t.score(out_seat=None)[0]
    assert (a["melded"], a["canastas"], a["total"]) == (280, 2000, 2280)


def test_b6_natural_canasta_of_nines_670_becomes_mixed_390_when_a_two_is_added():
    t = boat("boat-2p").meld(0, NATURAL_NINES)
    a = t.score(out_seat=None)[0]
    assert (a["melded"], a["canastas"], a["total"]) == (70, 600, 670)
    t.hand(0, "2C 5S 6H")
    step(t, 0, (L.O_ADD, meld_row(t, 0, NINE), L.RK_2, 0))
    assert canasta_kinds(t, 0)["mixed"] == 1 and canasta_kinds(t, 0)["natural"] == 0
    a = t.score(out_seat=None)[0]
    assert (a["melded"], a["canastas"]) == (90, 300)
    assert a["melded"] + a["canastas"] == 390


def test_b7_r37_closing_with_all_four_black_threes_scores_1000_and_the_threes_0():
    t = boat("boat-2p").meld(0, NATURAL_KINGS).hand(0, "QS QH QD 3S 3C 3S")
    stock(t, "3C", filler=10)
    met = engine_turn(t, 0, (L.O_NEW, Q, 3, -1), BLACK3_CLOSE)
    # with the queens still in hand the black threes are not offered; once they are the whole hand, they are
    first, second = (m.opts for m in met)
    assert not [o for o in first if o[0] == L.O_BLACK3]
    assert BLACK3_CLOSE in second
    assert int(t.S.st[L.S_ENDED]) == L.END_OUT and int(t.S.st[L.S_OUT_PLAYER]) == 0
    assert int(t.S.hand[0, HC_N]) == 0
    b3 = [m for m in range(int(t.S.side[0, L.SD_NM])) if t.S.melds[0, m, L.F_KIND] == L.MK_BLACK3]
    assert len(b3) == 1 and int(t.S.melds[0, b3[0], L.F_NAT]) == 4 and int(t.S.melds[0, b3[0], L.F_VAL]) == 0
    a = t.score(out_seat=0)[0]
    assert a == {"melded": 70 + 30 + 0, "canastas": 600, "red_threes": 0, "going_out": 1000,
                 "in_hand": 0, "other": 0, "total": 1700}


def test_b8_black_three_left_in_hand_costs_100_each():
    t = boat("boat-4p").meld(0, NATURAL_KINGS).hand(0, "3S").hand(2, "3C 3S 5D").meld(1, "9S 9H 9D", seat=1)
    t.hand(1, "3C")
    a, b = t.score(out_seat=None)
    assert a["in_hand"] == -305 and b["in_hand"] == -100


def test_b9_r34_one_red_three_plus_100_with_a_canasta_minus_100_without():
    t = boat("boat-4p").meld(0, NATURAL_KINGS).meld(1, "9S 9H 9D", seat=1).red_threes(0, 1).red_threes(1, 1)
    a, b = t.score(out_seat=None)
    assert (a["red_threes"], b["red_threes"]) == (100, -100)
    # a side with no meld at all pays for it too
    t = boat("boat-4p").meld(0, NATURAL_KINGS).red_threes(1, 1)
    assert t.score(out_seat=0)[1]["red_threes"] == -100


def test_b10_r36_five_naturals_and_four_wilds_is_a_legal_boat_meld():
    assert rank_meld_ok_nb(boat().R, L.RK_A, 5, 4)
    # built card by card, each step offered by the engine: J J J, two more jacks, then four wilds
    t = boat("boat-2p").meld(0, "QS QH QD").hand(0, "JS JH JD JC JS 2C 2D 2H JK 5S 6H")
    step(t, 0, (L.O_NEW, J, 3, -1))
    m = meld_row(t, 0, J)
    for _ in range(2):
        step(t, 0, (L.O_ADD, m, -1, 0))
    for wr in (L.RK_2, L.RK_2, L.RK_2, L.RK_JK):
        step(t, 0, (L.O_ADD, m, wr, 0))
    row = t.S.melds[0, m]
    assert (int(row[L.F_NAT]), int(row[L.F_TWO] + row[L.F_JOK])) == (5, 4)
    assert hand_of(t, 0) == ["5S", "6H"]
    # and the going-out search closes with those nine cards and the final discard
    u = boat("boat-2p").meld(0, NATURAL_KINGS).hand(0, "JS JH JD JC JS 2C 2D 2H JK 5S")
    assert u.can_go_out(0)


def test_b11_r38_one_card_left_and_no_canasta_keeps_it_without_a_discard():
    t = boat("boat-2p").meld(0, "QS QH QD").hand(0, "KS KH 5S")
    stock(t, "KD", filler=10)
    met = engine_turn(t, 0, (L.O_NEW, K, 3, -1))
    assert points_met(met) == [L.DP_MELD]  # the meld; then the stop is the only option, and no discard
    assert hand_of(t, 0) == ["5S"]
    assert int(t.S.st[L.S_PILE_N]) == 0  # nothing was discarded
    assert int(t.S.st[L.S_ENDED]) == 0
    # the game goes on: the next player draws
    stock(t, "7H", filler=10).hand(1, "5D 6D 7D 8D")
    engine_turn(t, 1, "5D")
    assert pile_of(t) == ["5D"] and hand_of(t, 0) == ["5S"]


def test_b12_r33_joker_discard_bars_the_next_player_then_only_a_natural_pair_takes_the_pile():
    # players 1-4 are seats 0-3; side 0 = seats 0, 2; side 1 = seats 1, 3
    t = boat("boat-4p").meld(0, "QS QH QD", seat=0).meld(1, "9S 9H 9D", seat=1)
    t.hand(1, "JK 6D 7D 8D").hand(2, "9C 4H 5S KC").hand(3, "9C 2S JK 5H 6S").hand(0, "6C 6H 2C 5C 8S")
    stock(t, "4C 8H 7S 7H", filler=10)
    # player 2 discards a joker: the pile is blocked, and player 3 is barred from it
    engine_turn(t, 1, STOP, "JK")
    assert pile_of(t) == ["JK"]
    assert int(t.S.st[L.S_FROZEN]) == 1 and int(t.S.st[L.S_BLOCK]) == 2
    assert draw_step(t, 2) == [DRAW]
    # player 3 draws and discards 9C; its bar is over, the block is not
    engine_turn(t, 2, "9C")
    assert int(t.S.st[L.S_BLOCK]) == -1 and int(t.S.st[L.S_FROZEN]) == 1
    # player 4 has a 9 and wilds, and its side a meld of nines: M2 or M3 would take an unblocked pile
    assert draw_step(t, 3) == [DRAW]
    unblocked = boat("boat-4p")
    unblocked.S = copy_state(t.S)
    unblocked.S.st[L.S_FROZEN] = 0
    assert sorted(draw_step(unblocked, 3)) == sorted([DRAW, M2_TWO, M2_JOKER, M3])
    engine_turn(t, 3, STOP, "6S")
    assert pile_of(t) == ["JK", "9C", "6S"] and int(t.S.st[L.S_FROZEN]) == 1
    # player 1 holds a natural pair of sixes (and a two): the pair alone takes it
    assert draw_step(t, 0) == [DRAW, M1]
    engine_turn(t, 0, M1, STOP, "5C")
    # taken: the block is over; the next discard starts an unblocked pile
    assert pile_of(t) == ["5C"] and int(t.S.st[L.S_FROZEN]) == 0 and int(t.S.st[L.S_BLOCK]) == -1
    sixes = t.S.melds[0, meld_row(t, 0, SIX)]
    assert (int(sixes[L.F_NAT]), int(sixes[L.F_TWO] + sixes[L.F_JOK])) == (3, 0)  # T and the pair


# R-31 no upcard, R-40 fourteen cards ------------------------------------------------------------------


@pytest.mark.parametrize("variant,stock_n", [("boat-2p", 80), ("boat-3p", 66), ("boat-4p", 52)])
def test_r31_r40_no_upcard_the_pile_empty_after_the_deal_and_the_stock_52_66_80(variant, stock_n):
    v = get_variant(variant)
    assert v.deal.hand_size == 14 and not v.deal.upcard
    R = pack(v)
    for seed in range(4):
        S = new_state(R)
        S.st[L.S_SEED], S.st[L.S_DEAL], S.st[L.S_HANDNO], S.st[L.S_DEALER] = seed, seed, 1, seed % v.players
        deal_hand_nb(R, S)
        assert int(S.st[L.S_PILE_N]) == 0
        assert int(S.st[L.S_FROZEN]) == 0 and int(S.st[L.S_BLOCK]) == -1
        assert [int(S.hand[p, HC_N]) for p in range(v.players)] == [14] * v.players
        red3 = sum(int(S.side[s, SD_RED3]) for s in range(v.n_sides))
        assert int(S.st[L.S_STOCK_N]) == stock_n - red3  # minus the replacements
    # the minimum from the player's own score in the individual games (one side per seat)
    scores = [2505] + [0] * (v.n_sides - 1)
    assert [int(x) for x in boat(variant, scores=scores).S.side[:v.n_sides, SD_REQ]] == [90] + [50] * (v.n_sides - 1)
    # the transcript's deal: 14 cards each, no pile, the stock before replacements
    deal = next(e for e in events(make_job(variant, ["baseline"], 3), 0) if e["event"] == "deal")
    assert [len(h) for h in deal["hands"]] == [14] * v.players
    assert deal["pile"] == [] and len(deal["stock"]) == stock_n


# R-32 the opening rounds ------------------------------------------------------------------------------


def opening_position(played: int) -> Table:
    """Seat 0 holds a natural pair of kings; the pile's top is a king and the side has melded."""
    t = boat("boat-2p", played=played).meld(0, "QS QH QD").hand(0, "KS KH 5S 5H 5D 8C 9C")
    t.pile("7C KD")
    return stock(t, "JH", filler=10)


@pytest.mark.parametrize("played", [0, 1, 2])
def test_r32_first_three_turns_offer_only_the_draw_and_no_meld_action(played):
    t = opening_position(played)
    assert draw_step(t, 0) == [DRAW]
    met = engine_turn(t, 0, "9C")
    # the draw was forced, no meld decision was met, then the discard
    assert points_met(met) == [L.DP_DISCARD]
    assert int(t.S.side[0, L.SD_NM]) == 1  # the queens only: 5 5 5 and the kings stayed in hand
    assert hand_of(t, 0) == sorted(["KS", "KH", "5S", "5H", "5D", "8C", "JH"])
    assert int(t.S.hand[0, HC_TURNS]) == played + 1


def test_r32_from_the_fourth_turn_the_pile_and_melds_are_possible():
    t = opening_position(3)
    assert draw_step(t, 0) == [DRAW, M1]
    met = engine_turn(t, 0, M1, (L.O_NEW, FIVE, 3, -1), "9C")
    assert points_met(met) == [L.DP_DRAW, L.DP_MELD, L.DP_DISCARD]
    assert meld_row(t, 0, K) >= 0 and meld_row(t, 0, FIVE) >= 0


def test_r32_no_closing_in_the_first_three_turns():
    # the side has a canasta and the draw would let seat 0 meld 5 5 5 and close
    for played, closes in ((2, False), (3, True)):
        t = boat("boat-2p", played=played).meld(0, NATURAL_KINGS).hand(0, "5S 5H")
        stock(t, "5D", filler=10)
        if closes:
            engine_turn(t, 0, (L.O_NEW, FIVE, 3, -1))
            assert int(t.S.st[L.S_ENDED]) == L.END_OUT
        else:
            engine_turn(t, 0, "5D")
            assert int(t.S.st[L.S_ENDED]) == 0 and hand_of(t, 0) == ["5H", "5S"]


@pytest.mark.parametrize("variant", BOAT)
def test_r32_opening_rounds_in_real_games(variant):
    tr = trace_decisions(variant, ["random"], games=3, seed=5)
    d = tr.decisions
    turns = tr.obs[np.arange(len(d)), L.OB_SEAT_TURNS + d.seat.to_numpy()]
    early = turns <= 3
    # in a player's own turns 1-3 the only decision is the discard
    assert set(d.dp.to_numpy()[early].tolist()) == {L.DP_DISCARD}
    # from the fourth, takes and melds are offered
    kinds = {int(o[0]) for i in range(len(d)) if not early[i] for o in tr.options_of(i)}
    assert {L.O_TAKE, L.O_NEW, L.O_DISCARD} <= kinds


# R-33 blocking ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("card", ["3S", "3C", "JK", "2H", "9H"])
@pytest.mark.parametrize("pile,blocked", [("", False), ("7C 8D", False), ("7C 8D", True)])
def test_r33_black_three_joker_or_two_discard_sets_block_next_and_blocked(card, pile, blocked):
    t = boat("boat-3p").hand(0, f"{card} 5D 6D")
    if pile:
        t.pile(pile, frozen=blocked)
    stock(t, "KD", filler=10)
    engine_turn(t, 0, card)
    assert pile_of(t)[-1] == card
    blocking = card != "9H"
    assert int(t.S.st[L.S_BLOCK]) == (1 if blocking else -1)  # the next player only
    assert int(t.S.st[L.S_FROZEN]) == int(blocking or blocked)  # blocked until the pile is taken


def test_r33_black_three_discard_freezes_in_boat_but_not_in_classic():
    for variant, frozen in (("boat-4p", 1), ("classic-4p", 0)):
        t = Table(variant).meld(0, "QS QH QD").hand(0, "3S 5D 6D")
        t.S.hand[:, HC_TURNS] = 3
        t.pile("7C 8D")
        stock(t, "KD", filler=10)
        engine_turn(t, 0, "3S")
        assert int(t.S.st[L.S_BLOCK]) == 1 and int(t.S.st[L.S_FROZEN]) == frozen, variant


def test_r33_block_next_bars_the_next_player_from_the_pile_at_all():
    t = boat("boat-4p").meld(1, "KS KH KD", seat=1).hand(1, "KS KH 2C 5D").hand(3, "KS KH 2C 5D").pile("7C KD")
    t.S.st[L.S_BLOCK] = 1
    assert draw_step(t, 1) == [DRAW]
    assert sorted(draw_step(t, 3)) == sorted([DRAW, M1, M2_TWO, M3])


@pytest.mark.parametrize("top", ["3S", "3C", "JK", "2H"])
def test_r33_blocked_pile_with_a_wild_or_black_three_on_top_is_never_takeable(top):
    t = boat("boat-4p").meld(0, "9S 9H 9D").meld(1, "9S 9H 9D", seat=1)
    wild(t, 0, "JK 2S 2H")
    wild(t, 1, "JK 2S 2H", seat=1)
    for seat in range(4):
        t.hand(seat, "9S 9H 3S 3C 2C 2D JK 5H")
    t.pile("9C 9D " + top, frozen=True)
    for seat in range(4):  # the next player is barred; nobody else can take it either
        t.S.st[L.S_BLOCK] = -1
        assert draw_step(t, seat) == [DRAW], seat


def test_r33_blocked_pile_with_a_natural_on_top_takes_by_a_natural_pair_only():
    # side melded, with a meld of kings: unblocked M1, M2 and M3; blocked M1 alone
    melded = "KS KH 2C JK 5S"
    t = boat("boat-2p").meld(0, "KS KH KD").hand(0, melded).pile("7D 7C KC")
    assert sorted(draw_step(t, 0)) == sorted([DRAW, M1, M2_TWO, M2_JOKER, M3])
    t = boat("boat-2p").meld(0, "KS KH KD").hand(0, melded).pile("2D 7C KC", frozen=True)
    assert draw_step(t, 0) == [DRAW, M1]
    # side not melded (minimum 50): unblocked M1 or M2 with the minimum; blocked M1 alone
    unmelded = "KH KD AS AH AD 2C JK 5S"
    t = boat("boat-2p").hand(0, unmelded).pile("7C KS")
    assert sorted(draw_step(t, 0)) == sorted([DRAW, M1, M2_TWO, M2_JOKER])
    t = boat("boat-2p").hand(0, unmelded).pile("2D 7C KS", frozen=True)
    assert draw_step(t, 0) == [DRAW, M1]
    # blocked, and no natural pair: no take
    t = boat("boat-2p").meld(0, "KS KH KD").hand(0, "KS 2C JK 5S").pile("2D 7C KC", frozen=True)
    assert draw_step(t, 0) == [DRAW]


# R-34 the table of a side without a canasta -----------------------------------------------------------


def test_r34_side_without_a_canasta_scores_melds_and_red_threes_negative():
    t = boat("boat-4p").meld(0, NATURAL_KINGS).meld(0, "8S 8H 8D").red_threes(0, 4)
    t.meld(1, "AS AH AD 2C", seat=1).meld(1, "8S 8H 8D", seat=3).red_threes(1, 0)
    a, b = t.score(out_seat=None)
    assert (a["melded"], a["red_threes"]) == (100, 800)
    assert (b["melded"], b["red_threes"]) == (-110, 0)
    for k, want in ((1, -100), (2, -200), (3, -300), (4, -800)):
        t.red_threes(1, k)
        assert t.score(out_seat=None)[1]["red_threes"] == want
    # six cards of kings are no canasta: the whole table goes negative; a seventh makes it positive
    t = boat("boat-2p").meld(0, "KS KH KD KC KS KH").red_threes(0, 2)
    a = t.score(out_seat=None)[0]
    assert (a["melded"], a["canastas"], a["red_threes"]) == (-60, 0, -200)
    t.hand(0, "KD 5S 6S")
    step(t, 0, (L.O_ADD, meld_row(t, 0, K), -1, 0))
    a = t.score(out_seat=None)[0]
    assert (a["melded"], a["canastas"], a["red_threes"]) == (70, 600, 200)


# R-35 wild melds --------------------------------------------------------------------------------------


def wild_options(t: Table, seat: int) -> list[tuple[int, int, int, int]]:
    return sorted(o for o in t.meld_options(seat) if o[0] == L.O_WILD)


def test_r35_a_wild_meld_starts_with_three_wild_cards():
    t = boat("boat-2p").meld(0, "QS QH QD").hand(0, "JK JK 2C 2D 5S 6H")
    assert wild_options(t, 0) == [(L.O_WILD, 1, 2, 0), (L.O_WILD, 2, 1, 0)]  # (jokers, twos)
    assert not wild_options(boat("boat-2p").meld(0, "QS QH QD").hand(0, "JK 2C 5S 6H 7C"), 0)  # two wilds
    assert wild_options(boat("boat-2p").meld(0, "QS QH QD").hand(0, "2C 2D 2H 5S 6H"), 0) == [(L.O_WILD, 0, 3, 0)]
    step(t, 0, (L.O_WILD, 2, 1, 0))
    m = meld_row(t, 0, L.RK_JK)
    row = t.S.melds[0, m]
    assert int(row[L.F_KIND]) == L.MK_WILD
    assert (int(row[L.F_JOK]), int(row[L.F_TWO]), int(row[L.F_NAT]), int(row[L.F_VAL])) == (2, 1, 0, 120)
    assert int(t.S.hand[0, HC_N]) == 3 and int(t.S.hand[0, L.HC_R + L.RK_2]) == 1
    # a wild meld is a meld like any other for the side's opening: JK 2 2 = 90 meets 50
    u = boat("boat-2p", scores=[0, 0]).hand(0, "JK 2C 2D 5S 6H 7C")
    snapshot_nb(u.R, u.S, 0)  # the meld phase of an unmelded side opens pending (meld_phase_from_nb)
    u.S.st[L.S_PEND] = 0
    step(u, 0, (L.O_WILD, 1, 2, 0))
    assert int(u.S.side[0, SD_MELDED]) == 1


def test_r35_only_wild_cards_join_the_wild_meld_and_a_side_has_one():
    t = boat("boat-2p").meld(0, "QS QH QD").hand(0, "JK 2C 2D 2H QC 5S 5H 5D")
    m = wild(t, 0, "JK 2S 2H")
    opts = t.meld_options(0)
    assert (L.O_ADD, m, L.RK_JK, 0) in opts and (L.O_ADD, m, L.RK_2, 0) in opts
    assert (L.O_ADD, m, -1, 0) not in opts  # never a natural card
    assert not wild_options(t, 0)  # one wild meld per side, though four wilds are held
    # the opponents' wild meld does not stop this side's
    u = boat("boat-2p").meld(0, "QS QH QD").hand(0, "JK 2C 2D 5S 6H")
    wild(u, 1, "JK 2S 2H", seat=1)
    assert wild_options(u, 0) == [(L.O_WILD, 1, 2, 0)]
    # nor is the pile's top card ever laid off onto a wild meld (T is a natural)
    w = boat("boat-2p").hand(0, "5S 6H 7C").pile("4D 9C")
    wild(w, 0, "JK 2S 2H")
    assert draw_step(w, 0) == [DRAW]


def test_r35_wild_canasta_kind_decided_by_the_final_composition():
    t = boat("boat-2p").hand(0, "2C 5S 6H")
    m = wild(t, 0, "JK JK JK JK 2S 2H 2D")  # 4 jokers, 3 twos: big
    assert canasta_kinds(t, 0)["big_wild"] == 1
    assert t.score(out_seat=None)[0]["canastas"] == 2000
    step(t, 0, (L.O_ADD, m, L.RK_2, 0))  # a fourth two: a tie, small
    assert canasta_kinds(t, 0)["big_wild"] == 0 and canasta_kinds(t, 0)["small_wild"] == 1
    assert t.score(out_seat=None)[0]["canastas"] == 1000
    # more twos than jokers: small; six wilds: no canasta
    u = boat("boat-2p")
    wild(u, 0, "JK JK JK 2S 2H 2D 2C")
    assert canasta_kinds(u, 0)["small_wild"] == 1 and u.score(out_seat=None)[0]["canastas"] == 1000
    x = boat("boat-2p")
    wild(x, 0, "JK JK JK 2S 2H 2D")
    assert x.canastas(0) == 0 and x.score(out_seat=None)[0]["canastas"] == 0
    # with wild_tie_big the fourth two leaves it big
    v = Table(get_variant("boat-2p").replace(wild_tie_big=True), scores=[0, 0]).hand(0, "2C 5S 6H")
    v.S.st[L.S_CUR] = 0
    mv = wild(v, 0, "JK JK JK JK 2S 2H 2D")
    step(v, 0, (L.O_ADD, mv, L.RK_2, 0))
    assert canasta_kinds(v, 0)["big_wild"] == 1 and v.score(out_seat=None)[0]["canastas"] == 2000


def test_r35_a_wild_canasta_counts_for_closing():
    t = boat("boat-2p").meld(0, "QS QH QD").hand(0, "JK 5S")
    m = wild(t, 0, "JK JK 2S 2H 2D 2C")  # six wilds: the side has no canasta yet
    assert t.canastas(0) == 0
    assert t.can_go_out(0)  # the joker completes a wild canasta, 5S is the final discard
    assert not boat("boat-2p").meld(0, "QS QH QD").hand(0, "8S 5S").can_go_out(0)
    # the engine's turn: the joker, then 5 5 5 empties the hand
    t.hand(0, "5H")
    stock(t, "5D", filler=10)
    engine_turn(t, 0, (L.O_ADD, m, L.RK_JK, 0), (L.O_NEW, FIVE, 3, -1))
    assert int(t.S.st[L.S_ENDED]) == L.END_OUT
    assert canasta_kinds(t, 0)["small_wild"] == 1  # 3 jokers, 4 twos
    a = t.score(out_seat=0)[0]
    assert (a["canastas"], a["going_out"], a["melded"]) == (1000, 200, 30 + 230 + 15)


# R-36 wilds below naturals, no cap --------------------------------------------------------------------


def test_r36_wilds_stay_below_naturals_without_a_cap():
    R = boat().R
    pairs = ((2, 1), (2, 2), (3, 2), (3, 3), (5, 4), (5, 5), (8, 7))
    assert [bool(rank_meld_ok_nb(R, L.RK_A, n, w)) for n, w in pairs] == [True, False, True, False, True, False, True]
    # J J J 2 2 (3 naturals, 2 wilds): no third wild while it would equal the naturals
    t = boat("boat-2p").meld(0, "JS JH JD 2C 2D").hand(0, "JK 2H JC 5S 6H")
    m = meld_row(t, 0, J)
    opts = t.meld_options(0)
    assert (L.O_ADD, m, L.RK_JK, 0) not in opts and (L.O_ADD, m, L.RK_2, 0) not in opts
    step(t, 0, (L.O_ADD, m, -1, 0))  # a fourth jack: now a third wild fits
    opts = t.meld_options(0)
    assert (L.O_ADD, m, L.RK_JK, 0) in opts and (L.O_ADD, m, L.RK_2, 0) in opts
    # a new meld: two naturals take one wild (J J W), never two (J J W W, C-4)
    u = boat("boat-2p").meld(0, "QS QH QD").hand(0, "KS KH 2C JK 5S 6H")
    assert (L.O_NEW, K, 2, L.RK_2) in u.meld_options(0)
    step(u, 0, (L.O_NEW, K, 2, L.RK_2))
    assert not [o for o in u.meld_options(0) if o[0] == L.O_ADD and o[1] == meld_row(u, 0, K) and o[2] >= 0]
    # eight naturals carry seven wilds: more than Classic's three
    x = boat("boat-2p").meld(0, "JS JH JD JC JS JH JD JC 2S 2H 2D 2C JK JK").hand(0, "JK 5S 6H")
    assert (L.O_ADD, meld_row(x, 0, J), L.RK_JK, 0) in x.meld_options(0)


# R-37 the four-black-three close ----------------------------------------------------------------------


def black3_options(t: Table, seat: int) -> list[tuple[int, int, int, int]]:
    return [o for o in t.meld_options(seat) if o[0] == L.O_BLACK3]


def test_r37_four_black_three_close_offered_only_as_the_whole_hand_with_a_canasta():
    threes = "3S 3C 3S 3C"
    t = boat("boat-2p").meld(0, NATURAL_KINGS).hand(0, threes)
    assert black3_options(t, 0) == [BLACK3_CLOSE] and t.can_go_out(0)
    # a fifth card: no black-three meld, and no way to close
    t = boat("boat-2p").meld(0, NATURAL_KINGS).hand(0, threes + " 5H")
    assert black3_options(t, 0) == [] and not t.can_go_out(0)
    # no canasta: not offered
    t = boat("boat-2p").meld(0, "KS KH KD KC KS KH").hand(0, threes)
    assert black3_options(t, 0) == [] and not t.can_go_out(0)
    # three black threes are not enough (the four of them, R-37)
    t = boat("boat-2p").meld(0, NATURAL_KINGS).hand(0, "3S 3C 3S")
    assert black3_options(t, 0) == [] and not t.can_go_out(0)
    # after the player's other melds: K K K first, then the threes
    t = boat("boat-2p").meld(0, NATURAL_NINES).hand(0, "KS KH KD " + threes)
    assert black3_options(t, 0) == [] and t.can_go_out(0)
    step(t, 0, (L.O_NEW, K, 3, -1))
    assert black3_options(t, 0) == [BLACK3_CLOSE]
    # the canasta completed this turn counts: the seventh queen, then the threes
    t = boat("boat-2p").meld(0, SIX_QUEENS).hand(0, "QC " + threes)
    assert black3_options(t, 0) == [] and t.can_go_out(0)
    step(t, 0, (L.O_ADD, meld_row(t, 0, Q), -1, 0))
    assert black3_options(t, 0) == [BLACK3_CLOSE]
    # not under a "no" answer: the threes stay in hand, one is discarded
    t = boat("boat-4p").meld(0, NATURAL_KINGS).hand(0, threes)
    t.S.st[L.S_ANSWER] = L.ANSWER_NO
    assert t.meld_options(0) == [STOP]


def test_r37_a_black_three_meld_is_never_followed_by_a_discard():
    # 5 5 5, the four threes and 9S: closing would need the threes melded, then 9S discarded
    t = boat("boat-2p").meld(0, NATURAL_KINGS).hand(0, "5S 5H 5D 3S 3C 3S 3C 9S")
    assert not t.can_go_out(0)
    step(t, 0, (L.O_NEW, FIVE, 3, -1))
    assert black3_options(t, 0) == []
    # the same hand without 9S closes
    u = boat("boat-2p").meld(0, NATURAL_KINGS).hand(0, "5S 5H 5D 3S 3C 3S 3C")
    assert u.can_go_out(0)


def test_r37_closing_with_the_black_threes_in_a_partnership_game_writes_1000_in_going_out():
    t = boat("boat-4p").meld(0, NATURAL_KINGS, seat=2).hand(0, "3S 3C 3S").hand(2, "5D 9S")
    stock(t, "3C", filler=10)
    met = engine_turn(t, 0, NOASK, BLACK3_CLOSE)
    assert points_met(met) == [L.DP_ASK, L.DP_MELD]
    assert int(t.S.st[L.S_ENDED]) == L.END_OUT
    a = t.score(out_seat=0)[0]
    assert (a["going_out"], a["melded"], a["in_hand"], a["total"]) == (1000, 70, -15, 70 + 600 + 1000 - 15)


# R-38 the last card -----------------------------------------------------------------------------------


def test_r38_one_card_left_and_permitted_to_close_must_discard_it_closing():
    t = boat("boat-2p").meld(0, NATURAL_KINGS).hand(0, "KS 5S")
    stock(t, "KD", filler=10)
    met = engine_turn(t, 0, (L.O_ADD, meld_row(t, 0, K), -1, 0), (L.O_ADD, meld_row(t, 0, K), -1, 0))
    # with 5S alone the only option is to stop; the discard of 5S is then forced: it closes
    assert points_met(met) == [L.DP_MELD, L.DP_MELD]
    assert int(t.S.st[L.S_ENDED]) == L.END_OUT and pile_of(t) == ["5S"]
    assert t.score(out_seat=0)[0]["going_out"] == 200


def test_r38_one_card_left_under_a_no_answer_is_kept_without_a_discard():
    t = boat("boat-4p").meld(0, NATURAL_KINGS).hand(0, "KS 5S").hand(2, "6D 7D")
    stock(t, "KD", filler=10)
    k = meld_row(t, 0, K)
    met = engine_turn(t, 0, (L.O_ASK, 2), (L.O_NO,), (L.O_ADD, k, -1, 0), (L.O_ADD, k, -1, 0))
    assert points_met(met) == [L.DP_ASK, L.DP_ANSWER, L.DP_MELD, L.DP_MELD]
    assert int(t.S.st[L.S_ENDED]) == 0 and hand_of(t, 0) == ["5S"] and pile_of(t) == []


def test_r38_a_player_with_two_cards_and_no_canasta_discards_one():
    t = boat("boat-2p").meld(0, "QS QH QD").hand(0, "5S")
    stock(t, "6H", filler=10)
    met = engine_turn(t, 0, "6H")
    assert points_met(met) == [L.DP_DISCARD] and hand_of(t, 0) == ["5S"] and pile_of(t) == ["6H"]


def test_r38_r42_an_opening_short_of_the_minimum_is_given_back_though_one_card_would_be_kept():
    # side 0 has not melded (minimum 50): K K K is 30. Laid, it would leave 5S to keep, but the
    # side's first melding must reach the minimum (§3.5 turn step 4, R-42): stopping gives it back
    t = boat("boat-2p", scores=[0, 0]).hand(0, "KS KH 5S")
    stock(t, "KD", filler=10)
    assert int(t.S.side[0, SD_REQ]) == 50
    engine_turn(t, 0, (L.O_NEW, K, 3, -1), "5S", all_used=False)
    assert int(t.S.side[0, L.SD_NM]) == 0 and int(t.S.side[0, SD_MELDED]) == 0
    assert hand_of(t, 0) == ["KD", "KH", "KS"] and pile_of(t) == ["5S"]


def test_r38_the_hand_is_never_emptied_without_closing():
    # no canasta: 5 5 5 may not be melded from a hand of exactly 5 5 5 (the hand would be empty)
    t = boat("boat-2p").meld(0, "QS QH QD").hand(0, "5S 5H 5D")
    assert (L.O_NEW, FIVE, 3, -1) not in t.meld_options(0)
    # with a fourth card it may: the fourth is then kept
    t = boat("boat-2p").meld(0, "QS QH QD").hand(0, "5S 5H 5D 9C")
    assert (L.O_NEW, FIVE, 3, -1) in t.meld_options(0)


# the Treasure pile reshuffled -------------------------------------------------------------


def test_r39_a_draw_at_an_empty_stock_makes_the_pile_the_new_stock():
    pile = ["4C", "8D", "9H", "KC"]
    t = boat("boat-2p").meld(0, "QS QH QD").hand(0, "5S 6H 7C").pile(" ".join(pile), frozen=True).stock(0)
    assert draw_step(t, 0) == [DRAW]
    engine_turn(t, 0, "5S")
    assert int(t.S.st[L.S_ENDED]) == 0
    # three pile cards are the stock, the fourth was drawn; the old pile is gone and its block with it
    drawn = [c for c in hand_of(t, 0) if c not in ("6H", "7C")]
    assert len(drawn) == 1 and sorted(stock_of(t) + drawn) == sorted(pile)
    assert pile_of(t) == ["5S"] and int(t.S.st[L.S_FROZEN]) == 0 and int(t.S.st[L.S_BLOCK]) == -1


def test_r39_a_red_three_replacement_at_an_empty_stock_reshuffles_the_pile():
    pile = ["4C", "8D", "9H"]
    t = boat("boat-2p").meld(0, "QS QH QD").hand(0, "5S 6H 7C").pile(" ".join(pile), frozen=True)
    stock(t, "3H")
    engine_turn(t, 0, "5S")
    assert int(t.S.side[0, SD_RED3]) == 1
    drawn = [c for c in hand_of(t, 0) if c not in ("6H", "7C")]
    assert len(drawn) == 1 and sorted(stock_of(t) + drawn) == sorted(pile)
    assert pile_of(t) == ["5S"] and int(t.S.st[L.S_ENDED]) == 0


def test_r149_stock_and_pile_both_empty_end_the_hand_with_no_closing_bonus():
    t = boat("boat-2p").meld(0, NATURAL_KINGS).hand(0, "5S 6H").stock(0)
    assert draw_step(t, 0) == []
    engine_turn(t, 0)
    assert int(t.S.st[L.S_ENDED]) == L.END_STOCK and int(t.S.st[L.S_OUT_PLAYER]) == -1
    assert hand_of(t, 0) == ["5S", "6H"]
    assert [s["going_out"] for s in t.score(out_seat=None)] == [0, 0]


def test_r149_a_red_three_with_no_card_left_for_its_replacement_ends_the_hand():
    t = boat("boat-2p").meld(0, NATURAL_KINGS).hand(0, "5S 6H")
    stock(t, "3D")
    engine_turn(t, 0)
    assert int(t.S.st[L.S_ENDED]) == L.END_STOCK and int(t.S.st[L.S_OUT_PLAYER]) == -1
    assert int(t.S.side[0, SD_RED3]) == 1 and hand_of(t, 0) == ["5S", "6H"] and pile_of(t) == []


def test_r39_a_short_opening_given_back_at_an_empty_stock_draws_from_the_reshuffled_pile():
    # side 0 has not melded (minimum 50): T = KS with K K is 30, and A A A would make 90. The player takes
    # the pile and stops short: the take is given back and becomes a draw (§1.6-1.7 in the engine). With
    # the stock empty and the pile holding cards, R-39 makes that draw from the pile turned into the stock;
    # the hand ends only when stock and pile are both empty.
    pile = ["8D", "4C", "KS"]
    t = boat("boat-2p").hand(0, "KH KD AS AH AD 5S 6H 7C").pile(" ".join(pile)).stock(0)
    assert sorted(draw_step(t, 0)) == sorted([DRAW, M1])
    engine_turn(t, 0, M1, STOP, STOP, "5S", all_used=False)
    assert int(t.S.st[L.S_ENDED]) == 0, "the hand ended although the pile held cards to reshuffle"
    assert int(t.S.st[L.S_STOCK_N]) == 2 and pile_of(t) == ["5S"]


# R-40 fourteen cards (with R-31 above), R-41 the target -----------------------------------------------


def test_r41_target_10000_ties_play_on_and_the_meld_table_stays():
    for name in BOAT:
        v = get_variant(name)
        assert v.game.target_score == 10000 and not v.game.target_strict
    t = boat("boat-4p")
    for scores, winner in (([9995, 9000], -1), ([10000, 9000], 0), ([10500, 10200], 0), ([10200, 10500], 1),
                           ([10000, 10000], -1)):
        t.S.side[0, L.SD_CUM], t.S.side[1, L.SD_CUM] = scores
        assert int(game_over_nb(t.R, t.S)) == winner, scores
    # a lower target (R-41's 5,000) leaves the brackets as they are
    low = Table(get_variant("boat-4p").replace(target_score=5000), scores=[7505, 0])
    assert int(low.S.side[0, SD_REQ]) == 150
    g = play("boat-4p", ["baseline"], games=20, seed=3).games
    assert (g[["score_0", "score_1"]].max(axis=1) >= 10000).all()


# R-45 no concealed bonus, no one-card pile rule -------------------------------------------------------


def test_r45_going_out_concealed_scores_the_plain_200():
    # seat 0 has laid nothing this hand; it draws the seventh queen, melds all seven and discards 5S
    t = boat("boat-2p").hand(0, SIX_QUEENS + " 5S")
    stock(t, "QD", filler=10)
    assert int(t.S.side[0, SD_MELDED]) == 0 and int(t.S.hand[0, L.HC_LAID]) == 0
    add = (L.O_ADD, 0, -1, 0)  # the queens are the side's first meld row
    engine_turn(t, 0, (L.O_NEW, Q, 3, -1), add, add, add, add)
    assert int(t.S.st[L.S_ENDED]) == L.END_OUT and int(t.S.st[L.S_CONCEALED]) == 0
    assert pile_of(t) == ["5S"]
    a = t.score(out_seat=0, concealed=False)[0]
    assert (a["going_out"], a["total"]) == (200, 70 + 600 + 200)


def test_r45_no_one_card_pile_rule():
    # one card in hand, a pile of one card that lays off on the side's nines
    t = boat("boat-2p").meld(0, "9S 9H 9D").hand(0, "5S").pile("9C")
    assert draw_step(t, 0) == [DRAW, M3]
    c = Table("classic-2p").meld(0, "9S 9H 9D").hand(0, "5S").pile("9C")
    assert c.take_options(0) == []  # R-20 forbids it in Classic


# R-148 asking after the draw step ---------------------------------------------------------------------


def test_r148_may_i_close_is_asked_after_the_pile_is_picked_up_and_before_any_meld():
    t = boat("boat-4p").meld(0, NATURAL_KINGS).hand(0, "9S 9H 5D 5H 5C").hand(2, "6D").pile("4C 9D")
    stock(t, "7H", filler=10)
    assert draw_step(t, 0) == [DRAW, M1]
    met = engine_turn(t, 0, M1, (L.O_ASK, 2), (L.O_YES,), (L.O_NEW, FIVE, 3, -1), "4C", all_used=False)
    assert points_met(met)[:3] == [L.DP_DRAW, L.DP_ASK, L.DP_ANSWER]
    # asked with the pile picked up: T melded with the pair, 4C in the hand, no meld of this turn's own yet
    ask = met[1]
    assert ask.pile_n == 0 and ask.hand_n == 4
    # bound by the yes, the player closed
    assert int(t.S.st[L.S_ENDED]) == L.END_OUT
    # two- and three-player Boat has nobody to ask
    for name in ("boat-2p", "boat-3p"):
        u = boat(name).meld(0, NATURAL_KINGS).hand(0, "9S 9H 5D 5H 5C").pile("4C 9D")
        stock(u, "7H", filler=10)
        met = engine_turn(u, 0, M1, (L.O_NEW, FIVE, 3, -1), "4C", all_used=False)
        assert L.DP_ASK not in points_met(met) and int(u.S.st[L.S_ENDED]) == L.END_OUT, name


# Real games -------------------------------------------------------------------------------------------


@functools.cache
def game_events(variant: str, strategy: str, seed: int, game: int) -> tuple[dict, ...]:
    return tuple(events(make_job(variant, [strategy], seed), game))


def replay(variant: str, strategy: str, seed: int, game: int) -> Counter:
    """Replay one game's transcript against the Boat rules; returns what happened (counts)."""
    v = get_variant(variant)
    seen: Counter = Counter()
    turns = [0] * v.players
    for e in game_events(variant, strategy, seed, game):
        t = e["event"]
        if t == "deal":
            pile: list[str] = []
            stock_n = len(e["stock"])
            size = [len(h) for h in e["hands"]]
            melds: dict[tuple[int, int], tuple[str, list[str]]] = {}
            red3 = [0] * v.n_sides
            turns = [0] * v.players
            player, discarded, told_no, last = -1, True, False, None
            assert e["pile"] == [] and size == [14] * v.players
        elif t in ("draw", "take_pile"):
            if player >= 0 and not discarded:  # the previous turn ended with no discard: R-38
                seen["keeps"] += 1
                s = v.seat_side(player)
                has_canasta = any(len(c) >= 7 for (side, _), (kind, c) in melds.items() if side == s)
                assert size[player] == 1 and (told_no or not has_canasta), e
            player, discarded, told_no = e["player"], False, False
            turns[player] += 1
            size[player] += len(e["cards"])
            if t == "draw":
                stock_n -= len(e["cards"])
                assert stock_n >= 0
            else:
                assert turns[player] >= 4, e
                assert e["cards"] == pile
                pile = []
        elif t == "reshuffle":
            seen["reshuffles"] += 1
            assert stock_n == 0, e  # only when the stock is empty
            assert sorted(e["stock"]) == sorted(pile)
            stock_n, pile = len(e["stock"]), []
        elif t == "red_three":
            red3[v.seat_side(e["player"])] += 1
            size[e["player"]] -= 1
            if e["replacement"] is not None:
                size[e["player"]] += 1
                stock_n -= 1
        elif t == "meld":
            assert turns[e["player"]] >= 4, e
            size[e["player"]] -= len(e["cards"])
            melds[(e["side"], e["meld"])] = (e["kind"], e["whole"])
            if e["kind"] == "wild":
                assert all(is_wild(c) for c in e["whole"]), e
            if e["kind"] == "black3":
                assert sorted(e["whole"]) == ["3C", "3C", "3S", "3S"] and size[e["player"]] == 0, e
                seen["black3_closes"] += 1
        elif t == "discard":
            size[e["player"]] -= 1
            pile.append(e["card"])
            discarded = True
            assert last is None or last["event"] != "meld" or last["kind"] != "black3"
        elif t == "ask":
            told_no = not e["answer"]
        elif t == "go_out":
            assert size[e["player"]] == 0 and turns[e["player"]] >= 4, e
        elif t == "hand_end":
            seen[e["reason"]] += 1
            if e["reason"] == "stock":
                assert stock_n == 0 and pile == [], (stock_n, len(pile))
            out = e["out_player"]
            for sc in e["scores"]:
                s = sc["side"]
                mine = [(kind, c) for (side, _), (kind, c) in melds.items() if side == s]
                bonus = 0
                for kind, c in mine:
                    if kind == "black3" or len(c) < 7:
                        continue
                    jokers, twos = c.count("JK"), sum(x[0] == "2" for x in c if x != "JK")
                    if kind == "wild":
                        big = jokers > twos  # a tie is small
                        bonus += 2000 if big else 1000
                        seen["big_wild" if big else "small_wild"] += 1
                    else:
                        bonus += 300 if jokers + twos else 600
                sign = 1 if bonus else -1
                k = red3[s]
                go = 0
                if out is not None and v.seat_side(out) == s:
                    go = 1000 if any(kind == "black3" for kind, _ in mine) else 200
                assert sc["canastas"] == bonus, (e, s)
                assert sc["melded"] == sign * sum(value(x) for _, c in mine for x in c), (e, s)
                assert sc["red_threes"] == sign * (800 if k == 4 else 100 * k), (e, s)
                assert sc["going_out"] == go, (e, s)
                assert sc["total"] == sum(sc[c] for c in L.COMPONENTS if c != "total")
            player = -1
        last = e
    return seen


@pytest.mark.parametrize("variant", BOAT)
@pytest.mark.parametrize("strategy", ["random", "baseline"])
def test_r31_to_r45_real_games_follow_the_boat_rules(variant, strategy):
    """Transcripts replayed: no upcard, 14 cards (R-31, R-40), nothing but draws and discards in the
    opening rounds (R-32), wild melds of wilds (R-35), the four-black-three close (R-37), the kept
    last card (R-38), reshuffles only of an empty stock (R-39), stock ends only with stock and pile
    empty (R-149), and every hand's score from the table (R-30, R-34, R-35)."""
    for game in range(4):
        replay(variant, strategy, 1, game)


@pytest.mark.parametrize("variant", BOAT)
def test_r39_r149_real_games_end_at_the_stock_only_with_stock_and_pile_empty(variant):
    """A dozen games of random play each (random takes piles it cannot open with and gives them back,
    which the replayer cannot see: it sees the draw that replaces the take): every hand that ends at
    the stock ends with the stock and the Treasure pile both empty (R-39, R-149)."""
    for game in range(12):
        replay(variant, "random", 1, game)


def test_boat_games_play_to_the_end_with_the_invariant_checks_on(scaled):
    seen: Counter = Counter()
    games = scaled(BOAT_CHECKED_GAMES, least=BOAT_CHECKED_LEAST)
    for variant in BOAT:
        v = get_variant(variant)
        for strategy in ("random", "baseline"):
            r = play(variant, [strategy], games=games, seed=7, hands=True, check=True)
            g, h = r.games, r.hands
            assert not g.capped_game.any()
            assert (g[[f"score_{s}" for s in range(v.n_sides)]].max(axis=1) >= 10000).all()
            for s in range(v.n_sides):
                seen["small_wild"] += int(h[f"small_wild_canastas_{s}"].sum())
                seen["big_wild"] += int(h[f"big_wild_canastas_{s}"].sum())
                seen["black3_closes"] += int((h[f"going_out_{s}"] == 1000).sum())
                assert h[f"going_out_{s}"].isin([0, 200, 1000]).all()
                assert (h[f"going_out_{s}"][h.reason != "out"] == 0).all()
                none = sum(h[f"{k.name.lower()}_canastas_{s}"] for k in L.CanastaKind) == 0
                assert (h[f"melded_{s}"][none] <= 0).all() and (h[f"red_threes_{s}"][none] <= 0).all()
                assert (h[f"melded_{s}"][~none] >= 0).all() and (h[f"red_threes_{s}"][~none] >= 0).all()
    # a few transcripts: reshuffles and kept last cards
    for variant in BOAT:
        for strategy in ("random", "baseline"):
            for game in range(4):
                seen.update(replay(variant, strategy, 1, game))
    for what in ("small_wild", "big_wild", "black3_closes", "reshuffles", "keeps"):
        assert seen[what] > 0, (what, dict(seen))
