"""Pennies from Heaven and Railroad Canasta (VARIANTS.md §3.8, §3.9, §4.6 R-90 to R-101, §4.7 R-110 to
R-122, §4.9 R-151 to R-159): the worked examples of §5.5 (P-1 to P-7) and §5.6 (RR-1 to RR-4), and the
rules these two presets add: melds closed at seven (R-92), the pile methods (R-93, R-117), sevens (R-97,
R-118), the foot and the kitty (R-95, R-114, R-152, R-159), un-picked-up feet in the score (R-96, R-115,
R-154), the voluntary end of the stock (R-99, R-120), the black-three going-out melds (R-121, R-151),
one canasta of each of four kinds to go out, the red threes, the 20,000 target and the deal.

Every expected number comes from the rules text, not from the engine. Legality is asked of the engine
itself: the draw step's options (enum_draw_step_nb), the takes (enum_take_nb), the meld actions
(enum_meld_nb), the discards (enum_discard_nb), the going-out search (can_go_out_nb) and whole turns
(turn.turn_nb), in which every decision with more than one legal option is made here, explicitly, from
the options the engine offered.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

import numpy as np
import pytest

from sim import get_variant
from sim.engine import layout as L
from sim.engine.deal import deal_hand_nb
from sim.engine.discard import enum_discard_nb
from sim.engine.draw import enum_draw_step_nb
from sim.engine.game import game_over_nb
from sim.engine.layout import HC_FN, HC_FNB, HC_N, HC_PACKET, SD_CAN, SD_MOR, SD_NCAN, SD_RED3, SD_REQ
from sim.engine.meld import meld_step_nb
from sim.engine.meldtable import meld_new_nb, meld_put_nb, rank_meld_ok_nb
from sim.engine.pile import apply_take_nb, snapshot_nb
from sim.engine.state import State, new_state
from sim.engine.table import packet_lo_nb
from sim.engine.turn import begin_turn_nb, play_turn_nb, resume_turn_nb
from sim.records.transcript import events
from sim.rules import pack
from sim.rules.cards import card_name, parse_card, parse_cards, rank_class
from sim.run.runner import make_job, run_chunk
from tests.support import NATURAL_KINGS, Table, pick, stock, stop_table

PENNIES = "pennies-6p"
RAILROAD = ["railroad-2p", "railroad-3p", "railroad-4p", "railroad-6p"]
BOTH = [PENNIES, "railroad-2p"]

DRAW = (L.O_DRAW, 0, 0, 0)
END = (L.O_END, 0, 0, 0)
M1 = (L.O_TAKE, L.TAKE_M1, -1, 0)
M2_JOKER = (L.O_TAKE, L.TAKE_M2, L.RK_JK, 0)
M3 = (L.O_TAKE, L.TAKE_M3, -1, 0)
STOP = (L.O_STOP, 0, 0, 0)
NOASK = (L.O_NOASK, 0, 0, 0)

FOUR, FIVE, SEVEN, NINE, J, Q, K = (rank_class(parse_card(c)) for c in ("4S", "5S", "7S", "9S", "JS", "QS", "KS"))
NATURAL_SEVENS = "7S 7H 7D 7C 7S 7H 7D"

# feet of 11 cards. P3_FOOT is §5.5 P-3's: a red three (-100) and cards worth 100
P3_FOOT = "3H AS AH KS QS 9S 8S 6S 5S 4S 4H"
PLAIN_FOOT = "AS KS KH 8D 8C 6H 6D 4S 4H 4D 4C"  # no red three
PLAIN_FOOT_VALUE = 20 + 10 + 10 + 10 + 10 + 5 + 5 + 5 + 5 + 5 + 5

# card values (§2 row 22): Pennies and Railroad as Classic
VALUE = {"A": 20, "2": 20, "3": 5, "4": 5, "5": 5, "6": 5, "7": 5, "8": 10, "9": 10, "T": 10, "J": 10,
         "Q": 10, "K": 10}


def value(name: str) -> int:
    return 50 if name == "JK" else VALUE[name[0]]


def is_wild(name: str) -> bool:
    return name == "JK" or name[0] == "2"


# Positions --------------------------------------------------------------------------------------------


def table(variant: str, scores: list[int] | None = None, seat: int = 0) -> Table:
    """A position with `seat` to play, slot 0 (the test's own choices) on every seat, no foot dealt."""
    t = Table(variant, scores=scores)
    t.S.st[L.S_CUR] = seat
    t.S.hand[:, HC_FN] = 0
    return t


def wild(t: Table, side: int, cards: str, seat: int | None = None) -> int:
    """Put a wild meld (jokers and twos only, R-91) on the table for a side; returns its row."""
    seat = t.v.sides[side][0] if seat is None else seat
    m = meld_new_nb(t.S, seat, side, L.MK_WILD, L.RK_JK)
    t.S.melds[side, m, L.F_TURN] = 0
    for k in parse_cards(cards):
        meld_put_nb(t.R, t.S, side, m, k)
    t.S.side[side, L.SD_MELDED] = 1
    t.S.hand[seat, L.HC_LAID] = 1
    t.S.st[L.S_FOOT_DUE] = L.FOOT_NONE
    return m


def four_kinds(t: Table, side: int, skip: str = "") -> Table:
    """One completed canasta of each kind on the side's table: natural K x7, mixed Q x5 + 2 2, wild
    JK x3 + 2 x4, sevens (Railroad: red, black, wild, seven); `skip` leaves one kind out."""
    if skip != "natural":
        t.meld(side, NATURAL_KINGS)
    if skip != "mixed":
        t.meld(side, "QS QH QD QC QS 2S 2H")
    if skip != "wild":
        wild(t, side, "JK JK JK 2S 2H 2D 2C")
    if skip != "sevens":
        t.meld(side, NATURAL_SEVENS)
    t.S.st[L.S_FOOT_DUE] = L.FOOT_NONE
    return t


def foot(t: Table, seat: int, cards: str) -> Table:
    """Seat's foot (Pennies) or kitty (Railroad), 11 cards face down where the engine keeps it (the far
    end of the stock's array, table.packet_lo_nb)."""
    ks = parse_cards(cards)
    assert len(ks) == t.v.table.foot_size == 11
    lo = int(packet_lo_nb(t.R, t.S, seat))
    for i, k in enumerate(ks):
        t.S.stock[lo + i] = k
    t.S.hand[seat, HC_PACKET] = len(ks)
    t.S.st[L.S_FOOT_DUE] = L.FOOT_NONE
    return t


def open_row(t: Table, side: int, rank: int) -> int:
    """Row of the side's open (incomplete) meld of a rank class, -1 none."""
    return int(t.S.side[side, SD_MOR + rank])


def rows(t: Table, side: int, rank: int) -> list[tuple[int, int]]:
    """(naturals, wilds) of every rank meld of the side of that rank class, in table order."""
    out = []
    for m in range(int(t.S.side[side, L.SD_NM])):
        row = t.S.melds[side, m]
        if int(row[L.F_KIND]) == L.MK_RANK and int(row[L.F_RANK]) == rank:
            out.append((int(row[L.F_NAT]), int(row[L.F_TWO] + row[L.F_JOK])))
    return out


def hand_of(t: Table, seat: int) -> list[str]:
    return sorted(card_name(k) for k in range(L.NK) for _ in range(int(t.S.hand[seat, k])))


def pile_of(t: Table) -> list[str]:
    return [card_name(int(k)) for k in t.S.pile[:int(t.S.st[L.S_PILE_N])]]


def kinds(t: Table, side: int) -> dict[str, int]:
    return {k.name.lower(): int(t.S.side[side, SD_CAN + k]) for k in L.CanastaKind}


def copy_state(S: State) -> State:
    return State(*(a.copy() for a in S))


def draw_step(t: Table, seat: int) -> list[tuple[int, int, int, int]]:
    """The options of `seat`'s draw step at the start of its next turn (on a copy of the position)."""
    S = copy_state(t.S)
    begin_turn_nb(S, seat)
    n = enum_draw_step_nb(t.R, S, seat)
    return [tuple(int(x) for x in S.opts[i]) for i in range(n)]


def discards(t: Table, seat: int) -> list[str]:
    n = enum_discard_nb(t.R, t.S, seat)
    return sorted(card_name(int(t.S.opts[i, L.OPT_A])) for i in range(n))


def score_now(t: Table, out_seat: int | None = None) -> list[dict[str, int]]:
    """The score of the position as it stands, on a copy (Table.score marks the hand ended)."""
    u = Table.__new__(Table)
    u.v, u.R, u.S = t.v, t.R, copy_state(t.S)
    return u.score(out_seat=out_seat)


def total(parts: dict[str, int]) -> int:
    return sum(v for k, v in parts.items() if k != "total")


# Whole turns played by the engine, every real choice made here ----------------------------------------


class Met(NamedTuple):
    """A decision met in a turn: its point, the options offered, the hand size and face-down foot then."""

    dp: int
    opts: list[tuple[int, int, int, int]]
    hand_n: int
    packet: int


def engine_turn(t: Table, seat: int, *choices: tuple | str) -> list[Met]:
    """`seat`'s whole turn as the engine plays it (turn.turn_nb from the start of the turn). At each
    decision with more than one legal option the next of `choices` is taken: an option (or the start
    of one), or a card name to discard. Every choice must be used. Returns the decisions met."""
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
        cur = int(S.st[L.S_CUR])
        met.append(Met(dp, opts, int(S.hand[cur, HC_N]), int(S.hand[cur, HC_PACKET])))
        assert todo, f"no choice left for the {L.DP_NAMES[dp]} decision of seat {who}: {opts}"
        i = pick(todo.pop(0), opts)
        S.st[L.S_ERR] = 0
        resume_turn_nb(R, S, F, who, dp, i)
    assert int(S.st[L.S_ERR]) == 0, int(S.st[L.S_ERR])
    assert not todo, f"choices left over: {todo}"
    return met


def add(t: Table, side: int, rank: int, wild_rank: int = -1) -> tuple[int, int, int, int]:
    """The meld option adding one card of `rank` (or a wild of `wild_rank`) to the side's open meld."""
    return (L.O_ADD, open_row(t, side, rank), wild_rank, 0)


# §5.5 Pennies from Heaven worked examples ---------------------------------------------------------


def test_p1_deal_216_cards_13_in_hand_11_in_the_foot_stock_72_and_71_after_the_upcard():
    v = get_variant(PENNIES)
    assert (v.deal.decks, v.deal.jokers_per_deck, v.pack_size) == (4, 2, 216)
    assert (v.players, v.deal.hand_size, v.table.foot_size, v.draw.draw_count) == (6, 13, 11, 2)
    assert v.pack_size - v.players * (v.deal.hand_size + v.table.foot_size) == 72
    assert v.stock_after_deal() == 71
    R = pack(v)
    red3_in_feet = 0
    for seed in range(6):
        S = new_state(R)
        S.st[L.S_SEED], S.st[L.S_DEAL], S.st[L.S_HANDNO], S.st[L.S_DEALER] = seed, seed, 1, seed % 6
        deal_hand_nb(R, S)
        assert [int(S.hand[p, HC_N]) for p in range(6)] == [13] * 6
        assert [int(S.hand[p, HC_PACKET]) for p in range(6)] == [11] * 6
        # 72 cards after hands and feet; the upcard (and any wild or red three it covers, §1.3) and each
        # red-three replacement come off them
        pile = int(S.st[L.S_PILE_N])
        red3 = int(S.side[0, SD_RED3] + S.side[1, SD_RED3])
        assert int(S.st[L.S_STOCK_N]) == 72 - pile - red3
        # EXPOSE-R3 runs on the hands only: the feet keep their red threes (§3.8 setup 2)
        for p in range(6):
            lo = int(packet_lo_nb(R, S, p))
            red3_in_feet += sum(int(k) in (L.RED3_H, L.RED3_D) for k in S.stock[lo:lo + 11])
    assert red3_in_feet > 0
    # the transcript's deal: 13-card hands, 11-card feet, the stock after the upcard
    for game in range(3):
        deal = next(e for e in events(make_job(PENNIES, ["random"], 4), game) if e["event"] == "deal")
        assert [len(h) for h in deal["hands"]] == [13] * 6 and [len(f) for f in deal["feet"]] == [11] * 6
        assert len(deal["stock"]) + len(deal["pile"]) == 72
        if len(deal["pile"]) == 1:
            assert len(deal["stock"]) == 71


def test_p2_r101_requirement_by_team_score():
    scores = (-5, 0, 4995, 5000, 9995, 10000, 14995, 15000, 30000)
    got = [int(table(PENNIES, scores=[s, 0]).S.side[0, SD_REQ]) for s in scores]
    assert got == [15, 50, 50, 90, 90, 120, 120, 150, 150]


def test_r116_railroad_requirement_is_the_pennies_table_on_the_players_own_score():
    got = [int(x) for x in table("railroad-4p", scores=[-5, 5000, 10000, 15000]).S.side[:4, SD_REQ]]
    assert got == [15, 90, 120, 150]


def test_r101_the_requirement_is_enforced_on_the_opening():
    # team score 5000 (requirement 90): K K K + A A A = 90 opens, K K K + 9 9 9 = 60 is given back
    for second, opened in (("AS AH AD", True), ("9S 9H 9D", False)):
        t = table(PENNIES, scores=[5000, 0]).hand(0, f"KS KH KD {second} 5C 6C")
        assert int(t.S.side[0, SD_REQ]) == 90
        snapshot_nb(t.R, t.S, 0)  # the meld phase of an unmelded side opens pending (meld_phase_from_nb)
        t.S.st[L.S_PEND] = 0
        for r in (K, rank_class(parse_card(second.split()[0]))):
            opts = t.meld_options(0)
            meld_step_nb(t.R, t.S, 0, opts.index((L.O_NEW, r, 3, -1)))
        assert bool(t.S.side[0, L.SD_MELDED]) == opened, second
        if not opened:
            meld_step_nb(t.R, t.S, 0, t.meld_options(0).index(STOP))
            assert int(t.S.side[0, L.SD_NM]) == 0 and int(t.S.hand[0, HC_N]) == 8


def pennies_hand_end() -> Table:
    """§5.5 P-3 and P-4: one hand's final table. Team A = seats 0, 2, 4; team B = seats 1, 3, 5."""
    t = table(PENNIES)
    t.meld(0, NATURAL_KINGS)  # natural: 70 + 500
    t.meld(0, "QS QH QD QC 2S 2H 2D")  # mixed: 40 + 60 + 300
    wild(t, 0, "JK JK 2S 2H 2D 2C 2S")  # wild: 100 + 100 + 1000
    t.meld(0, NATURAL_SEVENS)  # sevens: 35 + 1500
    t.red_threes(0, 3)
    t.hand(2, "TS JH")  # partner 2
    foot(t, 4, P3_FOOT)  # partner 3's foot, never picked up
    t.meld(1, "JS JH JD JC JS JH JD", seat=1)  # team B: natural J x7
    t.red_threes(1, 2)
    t.hand(1, "AS 5H").hand(3, "TC 5D").hand(5, "5C")  # 25 + 15 + 5 = 45
    return t


def test_p3_team_going_out_scores_3885():
    t = pennies_hand_end()
    assert kinds(t, 0)["natural"] == kinds(t, 0)["mixed"] == kinds(t, 0)["wild"] == kinds(t, 0)["sevens"] == 1
    a = t.score(out_seat=0)[0]
    assert a == {"melded": 70 + 100 + 200 + 35, "canastas": 500 + 300 + 1000 + 1500, "red_threes": 300,
                 "going_out": 100, "in_hand": -20, "other": -100 - 100, "total": 3885}


def test_p4_team_without_a_sevens_canasta_scores_325():
    b = pennies_hand_end().score(out_seat=0)[1]
    assert b == {"melded": 70, "canastas": 500, "red_threes": -200, "going_out": 0, "in_hand": -45,
                 "other": 0, "total": 325}


@pytest.mark.parametrize("sevens,want", [(True, 1000), (False, -1000)])
def test_p5_all_eight_red_threes_plus_1000_with_a_sevens_canasta_minus_1000_without(sevens, want):
    t = table(PENNIES).meld(0, NATURAL_KINGS).red_threes(0, 8)
    if sevens:
        t.meld(0, NATURAL_SEVENS)
    assert t.score(out_seat=None)[0]["red_threes"] == want
    # seven of them: 100 each, no all-eight bonus
    t.red_threes(0, 7)
    assert t.score(out_seat=None)[0]["red_threes"] == (700 if sevens else -700)


def test_p6_r97_a_seven_may_not_be_discarded_while_only_one_team_has_a_sevens_canasta():
    t = table(PENNIES).meld(0, NATURAL_SEVENS).meld(1, "9S 9H 9D", seat=1)
    t.hand(0, "7S 9H 5D").hand(1, "7C 9C 5H")
    assert discards(t, 0) == ["5D", "9H"]
    assert discards(t, 1) == ["5H", "9C"]
    # the engine's own turn never offers it either
    stock(t, "KH 8C", filler=10)
    met = engine_turn(t, 0, "KH")
    assert [m.dp for m in met] == [L.DP_DISCARD]
    assert sorted(card_name(o[1]) for o in met[0].opts) == ["5D", "8C", "9H", "KH"]
    assert "7S" in hand_of(t, 0) and pile_of(t) == ["KH"]


def test_p7_r93_no_natural_and_wild_take_in_pennies():
    # unfrozen pile, T = 9, the team has melded but has no nines, the player holds 9 + joker
    t = table(PENNIES).meld(0, "KS KH KD").hand(0, "9S JK 4H 6C 8D").pile("5C 9D")
    assert t.take_options(0) == []
    assert draw_step(t, 0) == [DRAW]
    # a natural pair takes it (M1)
    u = table(PENNIES).meld(0, "KS KH KD").hand(0, "9S 9H JK 4H 6C 8D").pile("5C 9D")
    assert u.take_options(0) == [(L.TAKE_M1, -1)]
    # Railroad has no such rule: the same position takes by M2
    r = table("railroad-2p").meld(0, "KS KH KD").hand(0, "9S JK 4H 6C 8D").pile("5C 9D")
    assert r.take_options(0) == [(L.TAKE_M2, L.RK_JK)]


# §5.6 Railroad worked examples ------------------------------------------------------------------------


def test_rr1_player_going_out_with_four_kinds_of_canasta_scores_4025():
    # red K x7, black Q x5 + 2 x2, seven 7 x7 on the table, the wild meld two cards short; the kitty
    # is already picked up. The player draws 2C 2D, completes the wild canasta and discards 9H: out
    t = table("railroad-2p")
    t.meld(0, NATURAL_KINGS).meld(0, "QS QH QD QC QS 2S 2H").meld(0, NATURAL_SEVENS)
    m = wild(t, 0, "JK JK JK 2S 2H")
    t.red_threes(0, 2).hand(0, "9H").meld(1, "9S 9H 9D", seat=1)
    stock(t, "2C 2D", filler=10)
    engine_turn(t, 0, (L.O_ADD, m, L.RK_2, 0), (L.O_ADD, m, L.RK_2, 0))
    assert int(t.S.st[L.S_ENDED]) == L.END_OUT and int(t.S.st[L.S_OUT_PLAYER]) == 0
    assert pile_of(t) == ["9H"] and int(t.S.hand[0, HC_N]) == 0
    assert kinds(t, 0)["wild"] == 1
    a = t.score(out_seat=0)[0]
    assert a == {"melded": 70 + 90 + 230 + 35, "canastas": 500 + 300 + 1000 + 1500, "red_threes": 200,
                 "going_out": 100, "in_hand": 0, "other": 0, "total": 4025}


def test_rr2_unpicked_kitty_red_three_is_0():
    """R-115: the opponent of RR-1 scores 15."""
    t = table("railroad-2p")
    four_kinds(t, 0)
    t.meld(1, "9S 9H 9D", seat=1).red_threes(1, 1).hand(1, "KS QH JD")
    # the kitty: a red three (0) and ten cards worth 85
    foot(t, 1, "3D AS AH 8S 5S 5H 5D 5C 4S 4H 4D")
    b = t.score(out_seat=0)[1]
    assert b == {"melded": 30, "canastas": 0, "red_threes": 100, "going_out": 0, "in_hand": -30,
                 "other": -85, "total": 15}


@pytest.mark.parametrize("variant", ["railroad-2p", "railroad-3p"])
def test_rr3_r121_going_out_meld_of_five_black_threes_scores_25_and_no_canasta_bonus(variant):
    t = table(variant)
    four_kinds(t, 0)
    t.hand(0, "3S 3C 3S 3C")
    stock(t, "3S 9H", filler=10)
    before = score_now(t)[0]
    engine_turn(t, 0, (L.O_BLACK3, 5, 0, 0))
    assert int(t.S.st[L.S_ENDED]) == L.END_OUT and pile_of(t) == ["9H"]
    b3 = [m for m in range(int(t.S.side[0, L.SD_NM])) if t.S.melds[0, m, L.F_KIND] == L.MK_BLACK3]
    assert len(b3) == 1
    assert (int(t.S.melds[0, b3[0], L.F_NAT]), int(t.S.melds[0, b3[0], L.F_VAL])) == (5, 25)
    a = t.score(out_seat=0)[0]
    assert a["melded"] == before["melded"] + 25
    assert a["canastas"] == before["canastas"] == 3300
    assert int(t.S.side[0, SD_NCAN]) == 4


def test_rr4_stock_for_three_players_is_251():
    v = get_variant("railroad", players=3)
    assert v.name == "railroad-3p" and v.pack_size == 3 * 108
    assert 84 * 3 - 1 == 251 == v.stock_after_deal()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 8])
def test_r110_r111_railroad_deal_108_cards_a_player_13_in_hand_11_in_the_kitty_stock_84n_minus_1(players):
    v = get_variant("railroad", players=players)
    assert v.pack_size == 108 * players and v.deal.decks == 2 * players and v.deal.jokers_per_deck == 2
    assert v.sides == tuple((p,) for p in range(players))  # each for himself
    assert v.score.exact_deal_bonus == 0  # a random deal, no exact-cut bonus
    assert (v.deal.hand_size, v.table.foot_size, v.draw.draw_count) == (13, 11, 2)
    assert v.stock_after_deal() == 84 * players - 1
    R = pack(v)
    for seed in range(3):
        S = new_state(R)
        S.st[L.S_SEED], S.st[L.S_DEAL], S.st[L.S_HANDNO], S.st[L.S_DEALER] = seed, seed, 1, 0
        deal_hand_nb(R, S)
        assert [int(S.hand[p, HC_N]) for p in range(players)] == [13] * players
        assert [int(S.hand[p, HC_PACKET]) for p in range(players)] == [11] * players
        red3 = sum(int(S.side[s, SD_RED3]) for s in range(players))
        assert int(S.st[L.S_STOCK_N]) == 84 * players - int(S.st[L.S_PILE_N]) - red3


# R-92 melds closed at seven ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", BOTH)
def test_r92_a_meld_closes_at_seven_then_a_new_meld_of_the_rank_may_start(variant):
    t = table(variant).meld(0, "KS KH KD KC KS KH").hand(0, "KD KC KS KH 2C 5S 6H 8D 9C")
    m = open_row(t, 0, K)
    opts = t.meld_options(0)
    assert (L.O_ADD, m, -1, 0) in opts and (L.O_ADD, m, L.RK_2, 0) in opts
    assert not [o for o in opts if o[0] == L.O_NEW and o[1] == K]  # one incomplete meld of a rank at a time
    meld_step_nb(t.R, t.S, 0, opts.index((L.O_ADD, m, -1, 0)))
    assert rows(t, 0, K) == [(7, 0)] and kinds(t, 0)["natural"] == 1
    assert open_row(t, 0, K) == -1  # closed
    opts = t.meld_options(0)
    assert not [o for o in opts if o[0] == L.O_ADD and o[1] == m]  # no eighth card, natural or wild
    assert (L.O_NEW, K, 3, -1) in opts and (L.O_NEW, K, 2, L.RK_2) in opts
    meld_step_nb(t.R, t.S, 0, opts.index((L.O_NEW, K, 3, -1)))
    assert rows(t, 0, K) == [(7, 0), (3, 0)] and open_row(t, 0, K) == 1


@pytest.mark.parametrize("variant", BOTH)
def test_r91_r92_a_new_wild_meld_only_once_the_previous_one_is_complete(variant):
    t = table(variant).meld(0, "KS KH KD").hand(0, "JK JK 2S 2H 5S 6H")
    w = wild(t, 0, "JK 2C 2D")
    opts = t.meld_options(0)
    assert not [o for o in opts if o[0] == L.O_WILD]
    assert (L.O_ADD, w, L.RK_JK, 0) in opts and (L.O_ADD, w, L.RK_2, 0) in opts
    # a complete wild canasta: a new wild meld of three may start, nothing more goes onto the canasta
    u = table(variant).meld(0, "KS KH KD").hand(0, "JK JK 2S 2H 5S 6H")
    w = wild(u, 0, "JK JK 2C 2D 2S 2H 2C")
    assert kinds(u, 0)["wild"] == 1 and open_row(u, 0, L.RK_JK) == -1
    opts = u.meld_options(0)
    assert [o for o in opts if o[0] == L.O_WILD]
    assert not [o for o in opts if o[0] == L.O_ADD and o[1] == w]


@pytest.mark.parametrize("variant", BOTH)
@pytest.mark.parametrize("size,extra", [(6, 1), (5, 2), (4, 0)])
def test_r92_m1_take_overflowing_an_open_meld_closes_it_and_starts_a_new_one_with_extra_naturals(
        variant, size, extra):
    """T and the pair complete the open meld to exactly 7; the rest start a new meld, which needs 3
    cards: the player must add `extra` more naturals of the rank from hand, or may not take by M1."""
    open_kings = " ".join(["KS", "KH", "KD", "KC", "KS", "KH"][:size])
    short = table(variant).meld(0, open_kings).hand(0, " ".join(["KC"] * (1 + extra)) + " 9H 9D 4C 6C").pile("5C KD")
    enough = table(variant).meld(0, open_kings).hand(0, " ".join(["KC"] * (2 + extra)) + " 9H 9D 4C 6C").pile("5C KD")
    assert (L.TAKE_M1, -1) not in short.take_options(0)
    assert (L.TAKE_M1, -1) in enough.take_options(0)
    assert (L.TAKE_M3, -1) in enough.take_options(0)  # the lay-off onto the incomplete meld, unfrozen
    stock(enough, "8H 8S", filler=10)
    engine_turn(enough, 0, M1, "9D")
    left = size + 3 + extra - 7
    assert rows(enough, 0, K) == ([(7, 0), (left, 0)] if left else [(7, 0)])
    assert kinds(enough, 0)["natural"] == 1
    assert "KC" not in hand_of(enough, 0) and "5C" in hand_of(enough, 0)
    assert open_row(enough, 0, K) == (1 if left else -1)


@pytest.mark.parametrize("variant", BOTH)
def test_r92_t_matching_only_completed_canastas_is_taken_by_m1_into_a_new_meld(variant):
    t = table(variant).meld(0, NATURAL_KINGS).hand(0, "KS KH 9H 9D 4C 6C").pile("5C KD")
    assert t.take_options(0) == [(L.TAKE_M1, -1)]  # no lay-off onto a closed canasta
    stock(t, "8H 8S", filler=10)
    engine_turn(t, 0, M1, "9D")
    assert rows(t, 0, K) == [(7, 0), (3, 0)]
    u = table(variant).meld(0, NATURAL_KINGS).hand(0, "9H 9D 4C 6C").pile("5C KD")
    assert u.take_options(0) == []


# pile-taking methods ----------------------------------------------------------------------


def test_r93_pennies_lay_off_only_onto_an_incomplete_meld_and_only_unfrozen():
    hand = "JK 4H 6C 8D"
    # unfrozen, an incomplete meld of nines: M3 (a joker in hand is no M2)
    assert table(PENNIES).meld(0, "9S 9H 9C").hand(0, hand).pile("5C 9D").take_options(0) == [(L.TAKE_M3, -1)]
    # the nines a complete canasta: no lay-off
    t = table(PENNIES).meld(0, "9S 9H 9C 9S 9H 9C 9D").hand(0, hand).pile("5C 9D")
    assert t.take_options(0) == []
    # frozen: M1 only (R-93, §2 row 13), the incomplete meld or not
    assert table(PENNIES).meld(0, "9S 9H 9C").hand(0, hand).pile("2C 5C 9D", frozen=True).take_options(0) == []
    t = table(PENNIES).meld(0, "9S 9H 9C").hand(0, "9S 9H " + hand).pile("2C 5C 9D", frozen=True)
    assert t.take_options(0) == [(L.TAKE_M1, -1)]
    # unfrozen with a pair as well: M1 or M3, never M2
    t = table(PENNIES).meld(0, "9S 9H 9C").hand(0, "9S 9H " + hand).pile("5C 9D")
    assert sorted(t.take_options(0)) == [(L.TAKE_M1, -1), (L.TAKE_M3, -1)]


def test_r117_railroad_takes_by_m1_m2_or_m3_onto_an_incomplete_meld():
    hand = "9S JK 4H 6C 8D"
    t = table("railroad-2p").meld(0, "9S 9H 9C").hand(0, hand).pile("5C 9D")
    assert sorted(t.take_options(0)) == [M2_JOKER[1:3], (L.TAKE_M3, -1)]
    t = table("railroad-2p").meld(0, "9S 9H 9C 9S 9H 9C 9D").hand(0, hand).pile("5C 9D")
    assert t.take_options(0) == [M2_JOKER[1:3]]  # a new meld T 9 JK; nothing onto the closed canasta
    # frozen, or the player not yet melded: M1 only
    t = table("railroad-2p").meld(0, "9S 9H 9C").hand(0, "9H " + hand).pile("2C 5C 9D", frozen=True)
    assert t.take_options(0) == [(L.TAKE_M1, -1)]
    u = table("railroad-2p", scores=[-5, 0]).hand(0, "9H " + hand).pile("5C 9D")  # requirement 15
    assert u.take_options(0) == [(L.TAKE_M1, -1)]
    # a black three on top: untakeable (§2 row 15)
    t = table("railroad-2p").meld(0, "9S 9H 9C").hand(0, "3S 3C " + hand).pile("5C 3S")
    assert t.take_options(0) == []


@pytest.mark.parametrize("variant", BOTH)
def test_r93_r117_a_take_before_the_initial_meld_is_m1_with_the_minimum(variant):
    # score 0: requirement 50. T = KD with K K is 30; 5 5 5 more is 45, short; A A A (60) or 5 5 JK (60)
    # more reach it
    scores = [0] * get_variant(variant).n_sides
    for extra, ok in (("5S 5H 5D", False), ("AS AH AD", True), ("JK 5S 5H", True)):
        t = table(variant, scores=scores).hand(0, f"KS KH {extra} 9C").pile("8C KD")
        assert t.take_options(0) == ([(L.TAKE_M1, -1)] if ok else []), extra
    # the take, then the aces from hand complete the opening and the pile is picked up
    t = table(variant, scores=scores).hand(0, "KS KH AS AH AD 9C 6D").pile("8C KD")
    stock(t, "QH QD", filler=10)
    engine_turn(t, 0, M1, (L.O_NEW, rank_class(parse_card("AS")), 3, -1), "9C")
    assert int(t.S.side[0, L.SD_MELDED]) == 1 and rows(t, 0, K) == [(3, 0)]
    assert hand_of(t, 0) == ["6D", "8C"] and pile_of(t) == ["9C"] and int(t.S.st[L.S_STOCK_N]) == 12


@pytest.mark.parametrize("variant", BOTH)
def test_r94_r122_buried_red_three_upcard_goes_to_the_taker_without_replacement(variant):
    # the upcard was a red three, covered by a two, then by 9D: the pile is frozen (§1.3)
    t = table(variant).meld(0, "KS KH KD").hand(0, "9S 9H 5C 6C").pile("3H 2C 9D", frozen=True)
    t.S.st[L.S_PILE_R3] = 1
    stock(t, "JD", filler=10)
    assert draw_step(t, 0) == [DRAW, M1]
    engine_turn(t, 0, M1, STOP, "5C")
    assert int(t.S.side[0, SD_RED3]) == 1 and int(t.S.st[L.S_STOCK_N]) == 11  # no replacement drawn
    assert hand_of(t, 0) == ["2C", "6C"] and rows(t, 0, NINE) == [(3, 0)]
    assert pile_of(t) == ["5C"] and int(t.S.st[L.S_FROZEN]) == 0


@pytest.mark.parametrize("variant", BOTH)
@pytest.mark.parametrize("card,frozen,blocks", [("2C", 1, False), ("JK", 1, False), ("3S", 0, True),
                                                ("5D", 0, False)])
def test_discard_of_a_wild_freezes_the_pile_and_a_black_three_bars_the_next_player(variant, card, frozen, blocks):
    t = table(variant).meld(0, "9S 9H 9D").hand(0, f"{card} 5D 6D 4H").pile("7C 8C")
    stock(t, "KD QH", filler=10)
    engine_turn(t, 0, *((STOP,) if is_wild(card) else ()), card)  # a wild could join the nines: not now
    assert pile_of(t)[-1] == card
    assert int(t.S.st[L.S_FROZEN]) == frozen
    assert int(t.S.st[L.S_BLOCK]) == (1 if blocks else -1)


# sevens -----------------------------------------------------------------------------------


def test_r97_sevens_discardable_only_once_both_teams_have_a_sevens_canasta():
    t = table(PENNIES).meld(0, "9S 9H 9D").meld(1, "9S 9H 9D", seat=1).hand(0, "7S 9C 5D")
    assert discards(t, 0) == ["5D", "9C"]
    t.meld(1, NATURAL_SEVENS, seat=1)
    assert discards(t, 0) == ["5D", "9C"]  # only team B
    t.meld(0, NATURAL_SEVENS)
    assert discards(t, 0) == ["5D", "7S", "9C"]


def test_r118_railroad_sevens_are_discarded_freely():
    t = table("railroad-3p").meld(0, "9S 9H 9D").hand(0, "7S 9C 5D")
    assert discards(t, 0) == ["5D", "7S", "9C"]


def test_r97_a_seven_is_never_the_going_out_discard():
    # both teams have a sevens canasta, so sevens may be discarded; team A has all four kinds
    t = table(PENNIES)
    four_kinds(t, 0)
    t.meld(0, "5C 5D 5H").meld(1, NATURAL_SEVENS, seat=1).hand(0, "5S 7H")
    assert "7H" in discards(t, 0)
    # melding 5S and discarding 7H would go out with a seven: not possible
    assert not t.can_go_out(0)
    assert add(t, 0, FIVE) not in t.meld_options(0)
    # a seven that can be melded goes there, and another card is the last discard
    t.meld(0, "7C 7D 7S")
    assert t.can_go_out(0)
    assert add(t, 0, SEVEN) in t.meld_options(0)
    # after melding the 5, a lone seven is not a legal discard (it would be the going-out discard)
    u = table(PENNIES)
    four_kinds(u, 0)
    u.meld(1, NATURAL_SEVENS, seat=1).hand(0, "7H")
    assert discards(u, 0) == []
    # Railroad has no such rule: a seven may be the last discard
    r = table("railroad-2p")
    four_kinds(r, 0)
    r.meld(0, "5C 5D 5H").hand(0, "5S 7H")
    assert r.can_go_out(0)


@pytest.mark.parametrize("variant", BOTH)
def test_r97_r118_sevens_melds_take_no_wild(variant):
    t = table(variant)
    assert rank_meld_ok_nb(t.R, SEVEN, 3, 0) and not rank_meld_ok_nb(t.R, SEVEN, 2, 1)
    assert not rank_meld_ok_nb(t.R, SEVEN, 6, 1)
    assert rank_meld_ok_nb(t.R, NINE, 2, 1) and rank_meld_ok_nb(t.R, NINE, 4, 3)  # other ranks: n >= 2, w <= 3
    assert not rank_meld_ok_nb(t.R, NINE, 3, 4) and not rank_meld_ok_nb(t.R, NINE, 6, 2)  # 8 cards: over the cap
    t = table(variant).meld(0, "KS KH KD").hand(0, "7S 7H 2C JK 5S 6H 8D")
    opts = t.meld_options(0)
    assert not [o for o in opts if o[0] == L.O_NEW and o[1] == SEVEN]
    t = table(variant).meld(0, "7S 7H 7D").hand(0, "2C JK 5S 6H 8D")
    m = open_row(t, 0, SEVEN)
    assert not [o for o in t.meld_options(0) if o[0] == L.O_ADD and o[1] == m]
    # a mixed canasta of sevens does not exist: seven sevens are the sevens kind
    t = table(variant).meld(0, NATURAL_SEVENS)
    assert kinds(t, 0)["sevens"] == 1 and kinds(t, 0)["natural"] == 0 and kinds(t, 0)["mixed"] == 0


def test_r118_railroad_m2_take_of_a_seven_is_not_offered():
    t = table("railroad-2p").meld(0, "KS KH KD").hand(0, "7S JK 4H 6C 8D").pile("5C 7D")
    assert t.take_options(0) == []
    t = table("railroad-2p").meld(0, "KS KH KD").hand(0, "7S 7H JK 4H 6C 8D").pile("5C 7D")
    assert t.take_options(0) == [(L.TAKE_M1, -1)]


def test_r97_all_sevens_hand_that_may_not_discard_ends_the_hand_without_a_bonus():
    # no sevens canasta anywhere: a hand of three sevens may neither discard one nor meld them all
    t = table(PENNIES).meld(0, "9S 9H 9D").meld(1, "9S 9H 9D", seat=1).hand(0, "7S")
    stock(t, "7C 7D", filler=10)
    engine_turn(t, 0)
    assert int(t.S.st[L.S_ENDED]) == L.END_SEVENS
    assert hand_of(t, 0) == ["7C", "7D", "7S"] and pile_of(t) == []
    assert [s["going_out"] for s in t.score(out_seat=None)] == [0, 0]
    # Railroad: the same hand discards a seven and play goes on
    r = table("railroad-2p").meld(0, "9S 9H 9D").meld(1, "9S 9H 9D", seat=1).hand(0, "7S")
    stock(r, "7C 7D", filler=10)
    engine_turn(r, 0, "7S")
    assert int(r.S.st[L.S_ENDED]) == 0 and pile_of(r) == ["7S"]


def test_r97_no_meld_that_leaves_only_undiscardable_sevens():
    t = table(PENNIES).meld(0, "5C 5D 5H").hand(0, "5S 7S 7H")
    assert add(t, 0, FIVE) not in t.meld_options(0)
    # with another card kept, the 5 may go
    t = table(PENNIES).meld(0, "5C 5D 5H").hand(0, "5S 7S 7H 9C")
    assert add(t, 0, FIVE) in t.meld_options(0)


def test_r97_a_hand_of_sevens_only_may_meld_them_down_and_go_out():
    """§3.8 step 8 forbids a meld that leaves a hand of undiscardable sevens "if possible"; a hand that
    already is one (two sevens drawn to a last seven) may meld them. The team has its natural, mixed and
    wild canastas and four sevens on the table: adding the three sevens one by one completes the sevens
    canasta and goes out (seen in a game of baseline:wild_meld=3 against baseline:wild_meld=never, where
    the engine had refused the first seven and found no legal continuation)."""
    t = four_kinds(table(PENNIES), 0, skip="sevens")
    t.meld(0, "7S 7H 7D").meld(0, "5C 5D 5H").hand(0, "7C 7S 5S")
    assert add(t, 0, FIVE) not in t.meld_options(0)  # the 5 would leave two sevens and no discard
    t = four_kinds(table(PENNIES), 0, skip="sevens")
    t.meld(0, "7S 7H 7D 7C").hand(0, "7S")
    stock(t, "7H 7D", filler=10)
    engine_turn(t, 0, NOASK, add(t, 0, SEVEN), add(t, 0, SEVEN), add(t, 0, SEVEN))
    assert int(t.S.st[L.S_ENDED]) == L.END_OUT and kinds(t, 0)["sevens"] == 1


def test_r97_a_hand_of_sevens_only_melds_all_but_one_and_the_hand_ends():
    """The seed's own case: a last seven and two sevens drawn, no going out; the player may meld all but
    one of them, and with no discard the hand ends (reason `sevens`), nobody scoring for going out."""
    t = table(PENNIES).meld(0, "7S 7H 7D").meld(0, "KS KH KD").hand(0, "7C")
    stock(t, "7S 7H", filler=10)
    engine_turn(t, 0, add(t, 0, SEVEN), add(t, 0, SEVEN))  # then stopping is all that is left
    assert int(t.S.st[L.S_ENDED]) == L.END_SEVENS and [c[0] for c in hand_of(t, 0)] == ["7"]


def test_r97_no_wild_meld_that_leaves_a_single_undiscardable_seven_with_the_foot_due():
    """Seen in a random game: a last seven and two wilds drawn; the joker completes a canasta (the foot
    is due), and the two may not then go on a meld, leaving the seven alone with no discard (laying the
    seven first, then the two, empties the hand and brings the foot at once, R-95)."""
    t = table(PENNIES).meld(0, "9S 9H 9D 9C 9S JK").meld(0, "TS TC TH TD 2D").meld(0, "7S 7H 7D")
    for seat in range(6):
        foot(t, seat, PLAIN_FOOT)
    t.hand(0, "7C 2H JK")
    meld_step_nb(t.R, t.S, 0, t.meld_options(0).index(add(t, 0, NINE, L.RK_JK)))
    assert int(t.S.st[L.S_FOOT_DUE]) == L.FOOT_DUE
    ten = rank_class(parse_card("TS"))
    assert add(t, 0, ten, L.RK_2) not in t.meld_options(0)
    assert add(t, 0, SEVEN) in t.meld_options(0)


def test_r97_completing_the_last_missing_sevens_canasta_frees_the_sevens_the_same_turn():
    # team B has a sevens canasta, team A six sevens; seat 0 draws two sevens to a hand of one. The
    # seventh seven completes team A's canasta: both teams have one, so sevens may now be discarded, and
    # the meld does not leave the player "holding only sevens while sevens are still undiscardable"
    def position() -> Table:
        return table(PENNIES).meld(0, "7S 7H 7D 7C 7S 7H").meld(1, NATURAL_SEVENS, seat=1).hand(0, "7S")

    drawn = position().hand(0, "7H 7D")
    assert add(drawn, 0, SEVEN) in drawn.meld_options(0)
    t = position()
    stock(t, "7H 7D", filler=10)
    engine_turn(t, 0, add(t, 0, SEVEN), "7H")
    assert int(t.S.st[L.S_ENDED]) == 0 and kinds(t, 0)["sevens"] == 1
    assert hand_of(t, 0) == ["7D"] and pile_of(t) == ["7H"]


# §3.8 turn step 8 and the seed: "you are not allowed to meld all your other cards, leaving yourself only with
# sevens; you must keep at least one legal discard". A pile take lays T (and cards of the hand) as a meld, so a take
# too may not leave a hand of sevens only while no seven may be discarded (issue 24, random seed 77, games 59, 32).


def test_pennies_layoff_take_that_leaves_only_sevens_is_refused():
    """Game 59: holding 7S 7S, a player laid the one-card pile [QD] off, melded a seven and the hand ended by
    sevens. The take is not offered, even to a hand that already is all sevens: the player draws instead (a draw
    may bring a discard; a take here cannot). A card kept to discard, or one in the pile's rest, allows it; so do
    free sevens (both teams have a sevens canasta), and Railroad, which discards sevens freely (R-118)."""
    def position(hand: str, pile: str = "QD") -> Table:
        return table(PENNIES).meld(0, "QS QS QC").meld(0, "7S 7H 7C").hand(0, hand).pile(pile)

    t = position("7S 7S")
    assert t.take_options(0) == []
    assert draw_step(t, 0) == [DRAW]
    assert position("7S 7S 5C").take_options(0) == [(L.TAKE_M3, -1)]
    assert position("7S 7S", pile="5C QD").take_options(0) == [(L.TAKE_M3, -1)]
    free = table(PENNIES).meld(0, NATURAL_SEVENS).meld(1, NATURAL_SEVENS, seat=1).meld(0, "QS QS QC")
    assert free.hand(0, "7S 7S").pile("QD").take_options(0) == [(L.TAKE_M3, -1)]
    r = table("railroad-2p").meld(0, "QS QS QC").meld(0, "7S 7H 7C").hand(0, "7S 7S").pile("QD")
    assert r.take_options(0) == [(L.TAKE_M3, -1)]


def test_pennies_pair_take_that_leaves_only_sevens_is_refused():
    """Game 32: holding 7H 7H 9C 9C, a player took [9H] with the pair and was left with the two sevens. Refused,
    and so is the same take by a side that has not melded (A A A reach the 50 alone, so the pile comes at once)."""
    t = table(PENNIES).meld(0, "KS KH KD").hand(0, "7H 7H 9C 9C").pile("9H")
    assert t.take_options(0) == []
    t = table(PENNIES).meld(0, "KS KH KD").hand(0, "7H 7H 9C 9C 5S").pile("9H")
    assert t.take_options(0) == [(L.TAKE_M1, -1)]
    assert table(PENNIES).hand(0, "7S 7H AS AH").pile("AD").take_options(0) == []
    assert table(PENNIES).hand(0, "7S 5H AS AH").pile("AD").take_options(0) == [(L.TAKE_M1, -1)]


def test_pennies_take_that_brings_the_foot_but_leaves_only_sevens_is_refused():
    """T laid off as the seventh queen makes the foot due, but the foot comes only after a discard (R-95): with
    two sevens left and no discard the hand would end with the foot face down (R-153). Refused as well."""
    t = table(PENNIES).meld(0, "QS QH QC QD QS QH").hand(0, "7S 7D").pile("QC")
    foot(t, 0, PLAIN_FOOT)
    assert t.take_options(0) == []
    u = table(PENNIES).meld(0, "QS QH QC QD QS QH").hand(0, "7S 7D 5C").pile("QC")
    foot(u, 0, PLAIN_FOOT)
    assert u.take_options(0) == [(L.TAKE_M3, -1)]


def test_pennies_take_of_a_seven_that_completes_the_last_sevens_canasta_may_leave_sevens():
    """A seven on the pile while sevens are not free can only be the upcard. Taken with two sevens onto the side's
    four, it completes the side's sevens canasta; the other team has one, so sevens are free at once and the two
    left may be discarded (R-97), as for a meld. Laid off alone (five sevens), or with the other team lacking its
    sevens canasta, the take would leave undiscardable sevens only: refused."""
    def position() -> Table:
        return table(PENNIES).meld(0, "7S 7H 7D 7C").hand(0, "7S 7H 7D 7C").pile("7D")

    assert position().take_options(0) == []
    assert position().meld(1, NATURAL_SEVENS, seat=1).take_options(0) == [(L.TAKE_M1, -1)]


def test_pennies_opening_meld_of_a_pending_take_that_leaves_only_sevens_is_refused():
    """A side that has not melded takes [7C 9D] (the seven the upcard, covered) with 9S 9H: 30, short of the 50, so
    the pile waits for K K K from the hand (§1.6). K K K would leave 7S and bring 7C: sevens only. Refused, the
    pile's rest counted (the engine had counted its cards but not its sevens); with an eight there it may go."""
    def pending(pile: str) -> Table:
        t = table(PENNIES).hand(0, "9S 9H KS KH KD 7S").pile(pile)
        assert t.take_options(0) == [(L.TAKE_M1, -1)]
        assert int(apply_take_nb(t.R, t.S, 0, L.TAKE_M1, -1)) == L.TAKE_PENDING
        return t

    assert (L.O_NEW, K, 3, -1) not in pending("7C 9D").meld_options(0)
    assert (L.O_NEW, K, 3, -1) in pending("8C 9D").meld_options(0)


# the foot and the kitty ----------------------------------------------------


def test_r95_pennies_foot_comes_after_the_discard_on_the_turn_the_player_first_completes_a_canasta():
    t = table(PENNIES)
    t.meld(0, "KS KH KD KC KS KH", seat=0).meld(0, "QS QH QD QC QS QH", seat=0)  # both laid by seat 0
    t.hand(0, "KD 5S 9C").hand(2, "QD 6D 8D")
    for seat in range(6):
        foot(t, seat, P3_FOOT if seat == 0 else PLAIN_FOOT)
    stock(t, "6H 8C 5H 9D JD", filler=10)
    # seat 2 (a partner) places the seventh queen of the meld seat 0 started: seat 2's foot, not seat 0's
    met = engine_turn(t, 2, add(t, 0, Q), "6D")
    assert [m.dp for m in met] == [L.DP_MELD, L.DP_DISCARD]
    assert met[-1].packet == 11 and met[-1].hand_n == 4  # the discard is made with the foot still down
    assert [int(t.S.hand[p, HC_PACKET]) for p in range(6)] == [11, 11, 0, 11, 11, 11]
    assert hand_of(t, 2) == sorted(["8D", "6H", "8C"] + PLAIN_FOOT.split())
    assert pile_of(t) == ["6D"] and int(t.S.st[L.S_FOOT_DUE]) == L.FOOT_TAKEN
    # seat 0 places the seventh king: its foot comes after its discard, the red three in it laid out and
    # replaced from the stock
    met = engine_turn(t, 0, add(t, 0, K), "9C")
    assert [m.dp for m in met] == [L.DP_MELD, L.DP_DISCARD]
    assert met[-1].packet == 11 and met[-1].hand_n == 4
    assert [int(t.S.hand[p, HC_PACKET]) for p in range(6)] == [0, 11, 0, 11, 11, 11]
    assert int(t.S.side[0, SD_RED3]) == 1
    assert hand_of(t, 0) == sorted(["5S", "5H", "9D", "JD"] + [c for c in P3_FOOT.split() if c != "3H"])
    assert pile_of(t) == ["6D", "9C"] and int(t.S.st[L.S_ENDED]) == 0
    assert int(t.S.side[0, L.SD_COUNT + L.SC_FEET]) == 2
    # the feet of team B were never touched
    assert [int(t.S.hand[p, HC_PACKET]) for p in (1, 3, 5)] == [11, 11, 11]


@pytest.mark.parametrize("variant", BOTH)
@pytest.mark.parametrize("kind", ["natural", "mixed", "wild", "sevens"])
def test_r95_r114_which_canastas_bring_the_foot_or_kitty(variant, kind):
    """Pennies: the first canasta of any kind the player completes; Railroad: a red (natural), wild or
    seven canasta, never a black (mixed) one (R-114)."""
    t = table(variant)
    if kind == "natural":
        t.meld(0, "KS KH KD KC KS KH").hand(0, "KD")
        option = add(t, 0, K)
    elif kind == "mixed":
        t.meld(0, "KS KH KD KC KS 2H").hand(0, "KD")
        option = add(t, 0, K)
    elif kind == "wild":
        m = wild(t, 0, "JK 2S 2H 2D 2C 2S")
        t.hand(0, "JK")
        option = (L.O_ADD, m, L.RK_JK, 0)
    else:
        t.meld(0, "7S 7H 7D 7C 7S 7H").hand(0, "7D")
        option = add(t, 0, SEVEN)
    t.hand(0, "5S 9C")
    foot(t, 0, P3_FOOT)
    stock(t, "6H 8C JD", filler=10)
    engine_turn(t, 0, option, "9C")
    assert kinds(t, 0)[kind] == 1
    picked = variant == PENNIES or kind != "mixed"
    assert int(t.S.hand[0, HC_PACKET]) == (0 if picked else 11)
    # picked up: its red three laid out and replaced by the stock's top card (JD)
    assert int(t.S.side[0, SD_RED3]) == int(picked)
    want = ["5S", "6H", "8C"] + ([c for c in P3_FOOT.split() if c != "3H"] + ["JD"] if picked else [])
    assert hand_of(t, 0) == sorted(want)
    assert pile_of(t) == ["9C"] and int(t.S.st[L.S_ENDED]) == 0


@pytest.mark.parametrize("variant", BOTH)
def test_r95_r114_emptying_the_hand_by_the_discard_on_the_foot_turn_picks_it_up_and_is_not_out(variant):
    # the side has all four kinds: without the foot, that discard would go out
    t = table(variant)
    four_kinds(t, 0)
    t.meld(0, "JS JH JD JC JS JH").meld(0, "5C 5D 5H").hand(0, "JD")
    foot(t, 0, PLAIN_FOOT)
    stock(t, "5S 9C", filler=10)
    engine_turn(t, 0, add(t, 0, J), add(t, 0, FIVE))
    assert pile_of(t) == ["9C"]
    assert int(t.S.st[L.S_ENDED]) == 0 and int(t.S.st[L.S_OUT_PLAYER]) == -1
    assert int(t.S.hand[0, HC_PACKET]) == 0 and hand_of(t, 0) == sorted(PLAIN_FOOT.split())


def test_r95_r159_pennies_hand_emptied_by_melding_picks_the_foot_up_at_once_and_may_not_go_out():
    t = table(PENNIES)
    four_kinds(t, 0)
    t.meld(0, "JS JH JD JC JS JH").meld(0, "5C 5D 5H").meld(0, "9C 9D 9H").meld(0, "6C 6D 6S").hand(0, "JD")
    foot(t, 0, "QS QH QD TS TH TD 4S 4H 4D 9S 6H")
    stock(t, "5S 5H", filler=10)
    ten = rank_class(parse_card("TS"))
    met = engine_turn(t, 0, NOASK, add(t, 0, J), add(t, 0, FIVE), add(t, 0, FIVE),
                      (L.O_NEW, Q, 3, -1), (L.O_NEW, ten, 3, -1), (L.O_NEW, FOUR, 3, -1), "6H")
    # the hand emptied by melding: the foot came at once (a meld decision with 11 cards, the foot up)
    after = [m for m in met if m.dp == L.DP_MELD and m.packet == 0]
    assert after[0].hand_n == 11
    # with 9S 6H left, each fits a meld of the side, but melding either would leave one card for a
    # going-out discard, which the turn of a mid-turn foot pickup may not make: the only option
    # was to stop (no decision met), then a normal discard
    assert [m.dp for m in met] == [L.DP_ASK] + [L.DP_MELD] * 6 + [L.DP_DISCARD]
    assert met[-1].hand_n == 2
    assert int(t.S.st[L.S_ENDED]) == 0 and hand_of(t, 0) == ["9S"] and pile_of(t) == ["6H"]
    assert int(t.S.st[L.S_FOOT_DUE]) == L.FOOT_TAKEN


def test_r152_railroad_never_melds_the_last_card_so_the_kitty_comes_after_the_discard():
    t = table("railroad-2p")
    four_kinds(t, 0)
    t.meld(0, "JS JH JD JC JS JH").meld(0, "5C 5D 5H").hand(0, "JD")
    foot(t, 0, PLAIN_FOOT)
    stock(t, "5S 5H", filler=10)
    met = engine_turn(t, 0, add(t, 0, J), add(t, 0, FIVE))
    # with 5H left the only option was to stop: the last card may not be melded, it is discarded
    assert [m.dp for m in met] == [L.DP_MELD, L.DP_MELD]
    assert pile_of(t) == ["5H"] and rows(t, 0, FIVE) == [(4, 0)]
    assert int(t.S.st[L.S_ENDED]) == 0 and hand_of(t, 0) == sorted(PLAIN_FOOT.split())


@pytest.mark.parametrize("variant", BOTH)
def test_r05_r95_red_three_in_the_foot_at_an_empty_stock_gets_no_replacement_and_play_goes_on(variant):
    t = table(variant).meld(0, "KS KH KD KC KS KH").hand(0, "KD 5S 9C")
    foot(t, 0, P3_FOOT)
    stock(t, "6H 8C")  # the draw empties the stock
    engine_turn(t, 0, add(t, 0, K), "9C")
    assert int(t.S.st[L.S_STOCK_N]) == 0 and int(t.S.side[0, SD_RED3]) == 1
    assert hand_of(t, 0) == sorted(["5S", "6H", "8C"] + [c for c in P3_FOOT.split() if c != "3H"])
    assert int(t.S.st[L.S_ENDED]) == 0


@pytest.mark.parametrize("variant", BOTH)
def test_r95_r114_a_player_whose_foot_is_face_down_may_go_out_and_it_counts_against_the_side(variant):
    t = table(variant)
    four_kinds(t, 0)
    t.meld(0, "5C 5D 5H").hand(0, "5S")
    foot(t, 0, P3_FOOT)
    stock(t, "5H 9C", filler=10)
    first = (NOASK,) if variant == PENNIES else ()
    met = engine_turn(t, 0, *first, add(t, 0, FIVE), add(t, 0, FIVE))
    if variant == PENNIES:  # not asking, or asking one partner of the player's choice
        assert met[0].dp == L.DP_ASK and met[0].opts == [NOASK, (L.O_ASK, 2, 0, 0), (L.O_ASK, 4, 0, 0)]
    else:  # nobody to ask
        assert L.DP_ASK not in [m.dp for m in met]
    assert int(t.S.st[L.S_ENDED]) == L.END_OUT and int(t.S.st[L.S_OUT_PLAYER]) == 0
    assert int(t.S.hand[0, HC_PACKET]) == 11 and pile_of(t) == ["9C"]
    a = t.score(out_seat=0)[0]
    # P3_FOOT: a red three (Pennies -100, Railroad 0) and cards worth 100
    assert a["other"] == (-200 if variant == PENNIES else -100)
    assert a["going_out"] == 100


@pytest.mark.parametrize("variant", BOTH)
def test_r114_completing_a_black_canasta_keeps_the_railroad_kitty_down_so_the_player_may_go_out(variant):
    t = table(variant)
    t.meld(0, NATURAL_KINGS).meld(0, NATURAL_SEVENS)
    wild(t, 0, "JK JK JK 2S 2H 2D 2C")
    t.meld(0, "QS QH QD QC QS 2S").meld(0, "5C 5D 5H").hand(0, "QD")
    foot(t, 0, PLAIN_FOOT)
    stock(t, "5S 9C", filler=10)
    engine_turn(t, 0, add(t, 0, Q), add(t, 0, FIVE))
    assert kinds(t, 0)["mixed"] == 1 and pile_of(t) == ["9C"]
    if variant == PENNIES:  # any canasta brings the foot: picked up, not out
        assert int(t.S.st[L.S_ENDED]) == 0 and int(t.S.hand[0, HC_PACKET]) == 0
    else:  # a black canasta does not: the last discard goes out, the kitty counts against the player
        assert int(t.S.st[L.S_ENDED]) == L.END_OUT and int(t.S.hand[0, HC_PACKET]) == 11
        assert t.score(out_seat=0)[0]["other"] == -PLAIN_FOOT_VALUE


# feet never picked up --------------------------------------------------------------


def test_r96_r154_pennies_unpicked_feet_count_card_values_and_minus_100_per_red_three_in_other():
    t = table(PENNIES)
    t.meld(0, NATURAL_SEVENS).red_threes(0, 7)
    foot(t, 2, "3D 3S 3C JK 2C AS KS 9S 7S 5S 4S")  # the eighth red three; black threes at 5
    foot(t, 4, PLAIN_FOOT)
    foot(t, 1, PLAIN_FOOT)  # team B's, against team B
    t.meld(1, "9S 9H 9D", seat=1)
    a, b = t.score(out_seat=None)
    foot2 = 5 + 5 + 50 + 20 + 20 + 10 + 10 + 5 + 5 + 5
    # a red three in a foot is -100 though the team has a sevens canasta, and is not one of "all eight"
    assert a["red_threes"] == 700
    assert a["other"] == -(100 + foot2) - PLAIN_FOOT_VALUE
    assert b["other"] == -PLAIN_FOOT_VALUE
    assert a["total"] == total(a) and b["total"] == total(b)


def test_r115_r154_railroad_unpicked_kitty_counts_card_values_and_0_per_red_three_in_other():
    t = table("railroad-3p")
    foot(t, 0, "3D 3H 3S 3C JK 2C AS KS 9S 7S 4S")
    foot(t, 2, PLAIN_FOOT)
    t.meld(0, "9S 9H 9D").meld(2, "9S 9H 9D", seat=2)
    sc = t.score(out_seat=None)
    assert sc[0]["other"] == -(5 + 5 + 50 + 20 + 20 + 10 + 10 + 5 + 5)
    assert sc[1]["other"] == 0 and sc[2]["other"] == -PLAIN_FOOT_VALUE
    assert sc[0]["red_threes"] == 0


# E-VOLUNTARY ------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", BOTH)
def test_r99_r120_at_an_empty_stock_the_player_may_take_the_pile_or_end_the_hand_never_forced(variant):
    def position() -> Table:
        return table(variant).meld(0, "9S 9H 9D").meld(1, "KS KH KD", seat=1).hand(0, "5S 6H 8C") \
            .pile("4C 9D").stock(0)

    t = position()
    # T lays off on the side's nines: E-CLASSIC would force the take, E-VOLUNTARY never does
    assert sorted(draw_step(t, 0)) == sorted([M3, END])
    c = table("classic-4p").meld(0, "9S 9H 9D").hand(0, "5S 6H 8C").pile("4C 9D").stock(0)
    assert draw_step(c, 0) == [M3]
    # ending it: no going-out bonus for anybody
    engine_turn(t, 0, END)
    assert int(t.S.st[L.S_ENDED]) == L.END_STOCK and int(t.S.st[L.S_OUT_PLAYER]) == -1
    assert hand_of(t, 0) == ["5S", "6H", "8C"] and pile_of(t) == ["4C", "9D"]
    assert [s["going_out"] for s in t.score(out_seat=None)] == [0] * t.v.n_sides
    # taking it: play goes on
    u = position()
    engine_turn(u, 0, M3, "4C")
    assert int(u.S.st[L.S_ENDED]) == 0 and rows(u, 0, NINE) == [(4, 0)] and pile_of(u) == ["4C"]
    # no legal take: the hand ends
    w = table(variant).meld(0, "9S 9H 9D").hand(0, "5S 6H 8C").pile("4C KD").stock(0)
    assert draw_step(w, 0) == []
    engine_turn(w, 0)
    assert int(w.S.st[L.S_ENDED]) == L.END_STOCK


@pytest.mark.parametrize("variant", BOTH)
def test_r99_r08_a_single_last_stock_card_is_a_complete_draw(variant):
    t = table(variant).meld(0, "9S 9H 9D").hand(0, "5S 6H 8C")
    stock(t, "KD")
    engine_turn(t, 0, "5S")
    assert hand_of(t, 0) == ["6H", "8C", "KD"] and pile_of(t) == ["5S"]
    assert int(t.S.st[L.S_STOCK_N]) == 0 and int(t.S.st[L.S_ENDED]) == 0


@pytest.mark.parametrize("variant", BOTH)
def test_r99_r05_red_three_as_the_last_stock_card_ends_the_hand_without_a_discard(variant):
    t = table(variant).meld(0, "9S 9H 9D").hand(0, "5S 6H 8C")
    stock(t, "3H")
    engine_turn(t, 0)
    assert int(t.S.side[0, SD_RED3]) == 1 and hand_of(t, 0) == ["5S", "6H", "8C"] and pile_of(t) == []
    assert int(t.S.st[L.S_ENDED]) == L.END_STOCK


# R-121 Railroad black threes, R-151 Pennies black threes ----------------------------------------------


def black3_options(t: Table) -> list[int]:
    return [o[1] for o in t.meld_options(0) if o[0] == L.O_BLACK3]


def test_r121_railroad_black_three_going_out_meld_of_any_number_5_each_no_canasta_bonus():
    # railroad-3p holds 12 black threes; nine of them in one going-out meld, over the cap of 7
    t = table("railroad-3p")
    four_kinds(t, 0)
    t.hand(0, "3S 3C 3S 3C 3S 3C 3S 3C")
    assert black3_options(t) == [7]  # eight threes: seven melded, the last discarded (a discard is required)
    stock(t, "3S 9H", filler=10)
    engine_turn(t, 0, (L.O_BLACK3, 9, 0, 0))
    assert int(t.S.st[L.S_ENDED]) == L.END_OUT and pile_of(t) == ["9H"]
    a = t.score(out_seat=0)[0]
    assert a["canastas"] == 3300 and int(t.S.side[0, SD_NCAN]) == 4  # nine black threes are no canasta
    assert a["melded"] == 70 + 90 + 230 + 35 + 45


def test_r121_railroad_black_threes_only_when_going_out():
    # without the four kinds no going out, so no black-three meld
    t = table("railroad-2p")
    four_kinds(t, 0, skip="wild")
    t.hand(0, "3S 3C 3S 9H")
    assert black3_options(t) == [] and not t.can_go_out(0)
    # fewer than three: never a meld (the player can't go out with two black threes and a card)
    t = table("railroad-2p")
    four_kinds(t, 0)
    t.hand(0, "3S 3C 9H")
    assert black3_options(t) == [] and not t.can_go_out(0)
    t.hand(0, "3S")
    assert black3_options(t) == [3] and t.can_go_out(0)


def test_r151_pennies_black_three_meld_holds_3_to_7_and_is_never_a_canasta():
    t = table(PENNIES)
    four_kinds(t, 0)
    t.hand(0, "3S 3C 3S 3C 3S 3C 3S 9H")
    assert black3_options(t) == [7] and t.can_go_out(0)
    # eight black threes and a card: seven melded leave two, eight may not be melded
    u = table(PENNIES)
    four_kinds(u, 0)
    u.hand(0, "3S 3C 3S 3C 3S 3C 3S 3C 9H")
    assert black3_options(u) == [] and not u.can_go_out(0)
    # Railroad: the same hand goes out
    r = table("railroad-2p")
    four_kinds(r, 0)
    r.hand(0, "3S 3C 3S 3C 3S 3C 3S 3C 9H")
    assert black3_options(r) == [8] and r.can_go_out(0)
    # three black threes and nothing else: melded, no discard needed in Pennies (optional, §2 row 31);
    # Railroad requires a final discard
    for variant, ok in ((PENNIES, True), ("railroad-2p", False)):
        w = table(variant)
        four_kinds(w, 0)
        w.hand(0, "3S 3C 3S")
        assert w.can_go_out(0) == ok, variant
    # the meld of seven: 35 points, no canasta
    meld_step_nb(t.R, t.S, 0, t.meld_options(0).index((L.O_BLACK3, 7, 0, 0)))
    b3 = [m for m in range(int(t.S.side[0, L.SD_NM])) if t.S.melds[0, m, L.F_KIND] == L.MK_BLACK3]
    assert [(int(t.S.melds[0, m, L.F_NAT]), int(t.S.melds[0, m, L.F_VAL])) for m in b3] == [(7, 35)]
    assert int(t.S.side[0, SD_NCAN]) == 4 and t.score(out_seat=0)[0]["canastas"] == 3300


# Going out: one canasta of each of four kinds ---------------------------------------------------------


@pytest.mark.parametrize("variant", BOTH)
@pytest.mark.parametrize("missing", ["natural", "mixed", "wild", "sevens", ""])
def test_going_out_needs_one_canasta_of_each_of_natural_mixed_wild_and_sevens(variant, missing):
    t = table(variant)
    four_kinds(t, 0, skip=missing)
    t.hand(0, "5S 5H 5D 9C")
    assert t.can_go_out(0) == (missing == "")
    # 5 5 5 leaves one card: offered only when its discard goes out
    assert ((L.O_NEW, FIVE, 3, -1) in t.meld_options(0)) == (missing == "")
    # two of one kind do not stand in for another
    if missing:
        u = table(variant)
        four_kinds(u, 0, skip=missing)
        if missing != "natural":
            u.meld(0, "AS AH AD AC AS AH AD")
        if missing != "mixed":
            u.meld(0, "JS JH JD JC JS 2C 2D")
        u.hand(0, "5S 5H 5D 9C")
        assert int(u.S.side[0, SD_NCAN]) >= 4
        assert not u.can_go_out(0)


@pytest.mark.parametrize("variant", BOTH)
def test_going_out_in_a_real_turn_scores_100_and_no_concealed_bonus(variant):
    t = table(variant)
    four_kinds(t, 0)
    t.hand(0, "5S 5H")
    stock(t, "5D 9C", filler=10)
    first = (NOASK,) if variant == PENNIES else ()
    engine_turn(t, 0, *first, (L.O_NEW, FIVE, 3, -1))
    assert int(t.S.st[L.S_ENDED]) == L.END_OUT and int(t.S.st[L.S_CONCEALED]) == 0
    assert t.score(out_seat=0)[0]["going_out"] == 100


@pytest.mark.parametrize("variant", BOTH)
def test_going_out_after_a_pile_take_that_leaves_one_card_to_discard(variant):
    """The pile taken by a natural pair with all the hand's cards but one, and that one discarded: the
    player goes out (§1.6, §1.9; Railroad §3.9 step 4: 'melding all but one card and discarding the
    last'). Nothing in §1.6 or the keep-a-card rule (§1.7: 'unless the player goes out this turn')
    forbids the take."""
    t = table(variant)
    four_kinds(t, 0)
    t.hand(0, "9S 9H 5C").pile("9D")
    assert (L.TAKE_M1, -1) in t.take_options(0)
    engine_turn(t, 0, M1)
    assert int(t.S.st[L.S_ENDED]) == L.END_OUT and pile_of(t) == ["5C"]


def test_pennies_going_out_by_a_pile_take_with_the_last_two_cards():
    """Pennies' final discard is optional (§2 row 31): T and the last natural pair melded empty the hand,
    which goes out when the team has its four kinds (§3.8 step 7)."""
    t = table(PENNIES)
    four_kinds(t, 0)
    t.hand(0, "9S 9H").pile("9D")
    assert (L.TAKE_M1, -1) in t.take_options(0)
    engine_turn(t, 0, M1)
    assert int(t.S.st[L.S_ENDED]) == L.END_OUT and int(t.S.hand[0, HC_N]) == 0


# Red threes -------------------------------------------------------------------------------------------


def test_pennies_red_threes_positive_only_with_a_sevens_canasta():
    t = table(PENNIES).meld(0, NATURAL_KINGS).red_threes(0, 3).red_threes(1, 2)
    a, b = t.score(out_seat=None)
    assert (a["red_threes"], b["red_threes"]) == (-300, -200)  # b has no meld at all: negative too
    t.meld(0, NATURAL_SEVENS)
    assert t.score(out_seat=None)[0]["red_threes"] == 300


def test_r115_railroad_red_threes_never_count_against_and_have_no_all_bonus():
    t = table("railroad-3p").red_threes(0, 3).red_threes(1, 9).red_threes(2, 0)
    sc = t.score(out_seat=None)
    assert [s["red_threes"] for s in sc] == [300, 900, 0]  # side 0 melded nothing: still +300
    t.red_threes(1, 8)
    assert t.score(out_seat=None)[1]["red_threes"] == 800
    t.red_threes(1, 12)
    assert t.score(out_seat=None)[1]["red_threes"] == 1200


# R-119 the target -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", [PENNIES, "railroad-2p", "railroad-3p"])
def test_r119_game_target_20000_a_tie_plays_another_hand(variant):
    v = get_variant(variant)
    assert v.game.target_score == 20000 and not v.game.target_strict
    t = table(variant)
    n = v.n_sides
    for scores, winner in (([19995, 19000], -1), ([20000, 19000], 0), ([20500, 21000], 1),
                           ([20000, 20000], -1), ([25000, 5000], 0)):
        t.S.side[:n, L.SD_CUM] = (scores + [0] * n)[:n]
        assert int(game_over_nb(t.R, t.S)) == winner, scores


# Real games -------------------------------------------------------------------------------------------


def canasta_kind(kind: str, cards: list[str]) -> str:
    if kind == "wild":
        return "wild"
    if all(c[0] == "7" for c in cards):
        return "sevens"
    return "mixed" if any(is_wild(c) for c in cards) else "natural"


def replay(variant: str, seed: int, game: int) -> Counter:
    """Replay one game's transcript against the foot, sevens and meld rules; returns what happened."""
    v = get_variant(variant)
    brings = {"natural", "mixed", "wild", "sevens"} if variant == PENNIES else {"natural", "wild", "sevens"}
    seen: Counter = Counter()
    cur, completed, feet, sevens, prev = -1, set(), [], set(), None
    for e in events(make_job(variant, ["random"], seed), game):
        t = e["event"]
        if t == "deal":
            feet = [list(f) for f in e["feet"]]
            assert [len(f) for f in feet] == [11] * v.players
            down = [True] * v.players
            sevens = set()
            cur, completed = -1, set()
        elif t in ("draw", "take_pile"):
            # the turn before: an allowed canasta completed with the foot down was followed by its pickup
            assert not (cur >= 0 and completed & brings and down[cur]), (game, cur, completed)
            cur, completed = e["player"], set()
        elif t == "meld":
            whole = e["whole"]
            assert len(whole) <= 7 or e["kind"] == "black3", e
            if e["kind"] == "black3":
                assert variant != PENNIES or 3 <= len(whole) <= 7, e
                seen["black3"] += 1
            elif len(whole) == 7 and len(whole) - len(e["cards"]) < 7:
                k = canasta_kind(e["kind"], whole)
                if k == "sevens":
                    assert not any(is_wild(c) for c in whole), e
                    sevens.add(e["side"])
                if e["player"] == cur:
                    completed.add(k)
                seen[k] += 1
        elif t == "discard":
            if variant == PENNIES and e["card"][0] == "7":
                assert sevens == set(range(v.n_sides)), e
                seen["seven_discards"] += 1
        elif t == "foot":
            p = e["player"]
            assert p == cur and down[p] and e["cards"] == feet[p], e
            assert completed & brings, (e, completed)
            if variant != PENNIES:
                assert prev["event"] == "discard" and prev["player"] == p, prev
            else:
                assert prev["event"] in ("discard", "meld") and prev["player"] == p, prev
                seen["mid_turn"] += prev["event"] == "meld"
            down[p] = False
            seen["feet"] += 1
        elif t == "go_out":
            if variant == PENNIES:
                assert not (prev["event"] == "discard" and prev["card"][0] == "7"), prev
            else:
                assert prev["event"] == "discard", prev  # a final discard is required
        elif t == "hand_end":
            seen[e["reason"]] += 1
            for sc in e["scores"]:
                s = sc["side"]
                assert sc["other"] <= 0
                if variant != PENNIES:
                    assert sc["red_threes"] >= 0
                assert sc["going_out"] == (100 if e["out_player"] is not None
                                           and v.seat_side(e["out_player"]) == s else 0)
            cur = -1
        prev = e
    return seen


@pytest.mark.parametrize("variant", [PENNIES, *RAILROAD])
def test_r92_r95_r97_r114_r152_real_game_transcripts_follow_the_rules(variant):
    seen: Counter = Counter()
    for game in range(6):
        seen.update(replay(variant, 3, game))
    assert seen["feet"] > 0 and seen["natural"] > 0 and seen["mixed"] > 0 and seen["sevens"] > 0, seen


def test_random_games_with_the_invariant_checks_on():
    """A few hundred games of random play per preset, every invariant checked after every action
    (run_chunk raises on a broken one): feet are picked up, wild and sevens canastas occur, sevens-only
    hands end Pennies hands, and the hand rows agree with the rules."""
    games = {PENNIES: 300, "railroad-2p": 300, "railroad-3p": 200, "railroad-4p": 200, "railroad-6p": 150}
    total_seen: Counter = Counter()
    for variant, n in games.items():
        v = get_variant(variant)
        g, h = run_chunk(make_job(variant, ["random"], 1, True), 0, n, True)
        ns = v.n_sides
        assert len(g) == n and not g[:, L.G_CAPPED_GAME].any()
        best = g[:, L.G_SCORE:L.G_SCORE + ns].max(axis=1)
        assert (best >= 20000).all()
        reasons = Counter(int(r) for r in h[:, L.H_REASON])
        allowed = {L.END_OUT, L.END_STOCK} | ({L.END_SEVENS} if variant == PENNIES else set())
        assert set(reasons) <= allowed, reasons
        seen: Counter = Counter()
        seen["sevens_end"] = reasons[L.END_SEVENS]
        seen["out"] = reasons[L.END_OUT]
        for s in range(ns):
            cank = h[:, L.H_CANK + s * L.NCKR:L.H_CANK + (s + 1) * L.NCKR]
            comp = h[:, L.H_COMP + s * L.NC:L.H_COMP + (s + 1) * L.NC]
            feet = h[:, L.H_SCOUNT + s * L.NSC + L.SC_FEET]
            for k in L.CanastaKind:
                seen[k.name.lower()] += int(cank[:, k].sum())
            seen["feet"] += int(feet.sum())
            assert (feet <= len(v.sides[s])).all()
            assert (comp[:, L.C_OTHER] <= 0).all()
            assert (comp[:, :L.C_TOTAL].sum(axis=1) == comp[:, L.C_TOTAL]).all()
            assert np.isin(comp[:, L.C_GOING_OUT], [0, 100]).all()
            assert (comp[:, L.C_GOING_OUT][h[:, L.H_REASON] != L.END_OUT] == 0).all()
            red3 = comp[:, L.C_RED3]
            if variant == PENNIES:
                with_sevens = cank[:, L.CK_SEVENS] > 0
                assert (red3[with_sevens] >= 0).all() and (red3[~with_sevens] <= 0).all()
            else:
                assert (red3 >= 0).all()
        assert seen["small_wild"] == seen["big_wild"] == 0
        assert seen["feet"] > 0 and seen["wild"] > 0 and seen["sevens"] > 0, (variant, seen)
        assert seen["natural"] > 0 and seen["mixed"] > 0
        if variant == PENNIES:
            assert seen["sevens_end"] > 0, seen
        total_seen.update(seen)
    assert total_seen["out"] > 0
