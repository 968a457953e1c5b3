"""Build exact table positions and run the real kernels on them (for rule tests)."""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from sim import Variant, get_variant
from sim.engine import layout as L
from sim.engine.goout import can_go_out_nb
from sim.engine.layout import HC_LAID, SD_CUM, SD_MELDED, SD_RED3, SD_REQ
from sim.engine.meld import enum_meld_nb
from sim.engine.meldtable import canastas_nb, meld_new_nb, meld_put_nb
from sim.engine.opening import requirement_nb
from sim.engine.pile import enum_take_nb
from sim.engine.score import score_hand_nb
from sim.engine.state import State, new_state
from sim.engine.table import hadd_nb
from sim.rules import pack
from sim.rules.cards import parse_card, parse_cards, rank_class

NATURAL_KINGS = "KS KH KD KC KS KH KD"
NATURAL_QUEENS = "QS QH QD QC QS QH QD"


class Table:
    """A hand in progress, set up card by card. Seats, sides and values come from the variant."""

    def __init__(self, variant: str | Variant = "classic-4p", scores: list[int] | None = None):
        self.v = get_variant(variant) if isinstance(variant, str) else variant
        self.R = pack(self.v)
        self.S: State = new_state(self.R)
        st = self.S.st
        st[L.S_BLOCK] = -1
        st[L.S_PEND] = -1
        st[L.S_OUT_PLAYER] = -1
        st[L.S_TURN] = 1
        st[L.S_STOCK_N] = 40
        for s in range(self.v.n_sides):
            self.S.side[s, SD_CUM] = (scores or [0] * self.v.n_sides)[s]
            self.S.side[s, SD_REQ] = requirement_nb(self.R, self.S.side[s, SD_CUM])

    def hand(self, seat: int, cards: str) -> Table:
        for k in parse_cards(cards):
            hadd_nb(self.S, seat, k)
        return self

    def meld(self, side: int, cards: str, seat: int | None = None, black3: bool = False, turn: int = 0) -> Table:
        """Put a meld on the table for a side (laid by `seat`, on an earlier turn by default)."""
        ks = parse_cards(cards)
        seat = self.v.sides[side][0] if seat is None else seat
        naturals = [rank_class(k) for k in ks if rank_class(k) not in (1, 13)]
        rank = 2 if black3 else naturals[0]
        m = meld_new_nb(self.S, seat, side, L.MK_BLACK3 if black3 else L.MK_RANK, rank)
        self.S.melds[side, m, L.F_TURN] = turn
        for k in ks:
            meld_put_nb(self.R, self.S, side, m, k)
        self.S.side[side, SD_MELDED] = 1
        self.S.hand[seat, HC_LAID] = 1
        return self

    def red_threes(self, side: int, count: int) -> Table:
        self.S.side[side, SD_RED3] = count
        return self

    def pile(self, cards: str, frozen: bool = False) -> Table:
        ks = parse_cards(cards)
        for i, k in enumerate(ks):
            self.S.pile[i] = k
        self.S.st[L.S_PILE_N] = len(ks)
        self.S.st[L.S_FROZEN] = int(frozen)
        return self

    def stock(self, n: int) -> Table:
        self.S.st[L.S_STOCK_N] = n
        return self

    # -- queries on the real kernels ------------------------------------------------------------

    def take_options(self, seat: int) -> list[tuple[int, int]]:
        """Legal pile-taking methods for `seat` as (method, wild rank class or -1)."""
        n = enum_take_nb(self.R, self.S, seat, 0)
        return [(int(self.S.opts[i, 1]), int(self.S.opts[i, 2])) for i in range(n)]

    def meld_options(self, seat: int) -> list[tuple[int, int, int, int]]:
        n = enum_meld_nb(self.R, self.S, seat)
        return [tuple(int(x) for x in self.S.opts[i]) for i in range(n)]

    def can_go_out(self, seat: int) -> bool:
        return bool(can_go_out_nb(self.R, self.S, seat))

    def canastas(self, side: int) -> int:
        return int(canastas_nb(self.S, side))

    def score(self, out_seat: int | None = None, concealed: bool = False) -> list[dict[str, int]]:
        """Score the hand as it stands (§3.1 Scoring); one dict of components per side."""
        st = self.S.st
        st[L.S_ENDED] = L.END_OUT if out_seat is not None else L.END_STOCK
        st[L.S_OUT_PLAYER] = -1 if out_seat is None else out_seat
        st[L.S_CONCEALED] = int(concealed)
        before = self.S.side[:, SD_CUM].copy()
        score_hand_nb(self.R, self.S)
        self.S.side[:, SD_CUM] = before
        comp = self.S.side[:, L.SD_COMP:L.SD_COMP + L.NC]
        return [dict(zip(L.COMPONENTS, (int(x) for x in comp[s]), strict=True)) for s in range(self.v.n_sides)]


def strategy_table(variant: str = "classic-4p", strategies: tuple[str, ...] = ("random",)) -> tuple:
    """The engine's function table for these strategies, as a run builds it (slot i: strategy i)."""
    from sim.run.runner import make_job

    return make_job(variant, list(strategies), 0).engine_fns()


def empty_state(variant: str = "classic-4p") -> tuple[np.ndarray, State]:
    v = get_variant(variant)
    R = pack(v)
    return R, new_state(R)


def stock(t: Table, cards: str, filler: int = 0) -> Table:
    """The stock, top card first, over `filler` cards of no use to anybody (fours of clubs)."""
    ks = parse_cards(cards)
    below = [parse_card("4C")] * filler
    for i, k in enumerate(below + ks[::-1]):
        t.S.stock[i] = k
    t.S.st[L.S_STOCK_N] = len(ks) + filler
    return t


# Whole turns played by the engine with every real choice made by the test (test_boat.py, test_pennies_railroad.py,
# test_buraco.py): the engine stops at each decision with more than one legal option, the test picks one


@njit
def ask_the_test_nb(rules, obs, opts, n, knobs):
    return -1  # DEFER with no base strategy behind it: the engine stops right at the decision


@functools.cache
def stop_table() -> tuple:
    from sim.run.runner import function_table, prepare_engine

    prepare_engine([ask_the_test_nb])
    return function_table([ask_the_test_nb])


def pick(choice: tuple | str, opts: list[tuple[int, int, int, int]]) -> int:
    """The index of the option `choice` names: an option (or the start of one), or a card name to discard."""
    want = (L.O_DISCARD, parse_card(choice)) if isinstance(choice, str) else tuple(choice)
    hits = [i for i, o in enumerate(opts) if o[:len(want)] == want]
    assert len(hits) == 1, f"{choice} is not one of the options offered: {opts}"
    return hits[0]
