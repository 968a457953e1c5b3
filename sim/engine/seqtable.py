"""Buraco's sequences (§3.10 turn step 2, R-131 to R-133, R-143, R-146): rows of the meld table that
hold a run of one suit.

A sequence row (F_KIND == MK_SEQ, F_RANK == -1) is described by its suit and its lowest and highest
position (F_LO, F_HI): position 1 is an ace below the two, 2 .. 13 the two to the king, 14 an ace above
the king; never both aces, so at most 13 cards (R-133). It holds at most one wild (R-131), standing for
position F_WPOS (0: none) and never moving (R-143); F_WCARD is that card. A two of the sequence's suit
at position 2 is natural (R-132, R-146). So the row says exactly which card lies at each place, and the
transcript can write the whole meld in order. F_NAT, F_TWO and F_JOK count its naturals and its wild as
for any meld, so the canasta counts (meldtable) and the scoring read it like a rank meld."""

import numpy as np

from .cards import rank_of_nb, value_nb
from .jit import engine_jit
from .layout import (
    F_HI,
    F_JOK,
    F_LO,
    F_NAT,
    F_SUIT,
    F_TWO,
    F_VAL,
    F_WCARD,
    F_WPOS,
    JOKER,
    MAX_SEQ,
    MIN_MELD,
    MK_SEQ,
    POS_ACE_HIGH,
    POS_ACE_LOW,
    RK_2,
    RK_A,
    RK_JK,
    SUITS,
)
from .meldtable import canasta_kind_nb, meld_new_nb, recount_nb


@engine_jit(inline="always")
def pos_rank_nb(pos):
    """Rank class of sequence position pos (1 and 14 are aces)."""
    return RK_A if pos == POS_ACE_LOW or pos == POS_ACE_HIGH else pos - 1


@engine_jit(inline="always")
def natural_kind_nb(suit, pos):
    """The natural card of a sequence of `suit` at position pos."""
    return pos_rank_nb(pos) * SUITS + suit


@engine_jit(inline="always")
def seq_span_ok_nb(lo, hi):
    """A run from position lo to hi: inside 1 .. 14, three cards or more, never both aces (R-133)."""
    return lo >= POS_ACE_LOW and hi <= POS_ACE_HIGH and hi - lo + 1 >= MIN_MELD and hi - lo + 1 <= MAX_SEQ


@engine_jit(inline="always")
def is_natural_at_nb(k, suit, pos):
    """Card k is natural at position pos of a sequence of `suit`: its own card there (a two of the suit at
    position 2 included, R-132, R-146)."""
    return k != JOKER and k == natural_kind_nb(suit, pos)


@engine_jit(inline="always")
def seq_card_nb(row, pos):
    """The card at position pos of sequence row `row`."""
    if pos == row[F_WPOS]:
        return row[F_WCARD]
    return natural_kind_nb(row[F_SUIT], pos)


@engine_jit(inline="always")
def seq_has_wild_nb(row):
    """The sequence holds its one wild (R-131)."""
    return row[F_WPOS] != 0


@engine_jit
def seq_new_nb(S, p, s, suit, pos):
    """Start an empty sequence row of `suit` for side s at position pos (its first card comes next)."""
    m = meld_new_nb(S, p, s, np.int64(MK_SEQ), np.int64(-1))
    row = S.melds[s, m]
    row[F_SUIT] = suit
    row[F_LO] = pos
    row[F_HI] = pos - 1
    return m


@engine_jit
def seq_put_nb(R, S, s, m, k, pos):
    """Card k (out of any hand) at position pos of sequence m of side s, next to its ends or (the first
    card) at the start: natural if it is the card of that place, else the sequence's one wild."""
    row = S.melds[s, m]
    before = canasta_kind_nb(R, S, s, m)
    if is_natural_at_nb(k, row[F_SUIT], pos):
        row[F_NAT] += 1
    else:
        row[F_WPOS] = pos
        row[F_WCARD] = k
        if k == JOKER:
            row[F_JOK] += 1
        else:
            row[F_TWO] += 1
    if pos < row[F_LO]:
        row[F_LO] = pos
    if pos > row[F_HI]:
        row[F_HI] = pos
    row[F_VAL] += value_nb(R, rank_of_nb(k))
    recount_nb(R, S, s, m, before)


@engine_jit
def seq_row_ok_nb(row):
    """A sequence row is valid (invariant 2): its span, at most one wild, which is no natural of its place
    and is a joker or a two, and its counts agree with the span."""
    lo = row[F_LO]
    hi = row[F_HI]
    if not seq_span_ok_nb(lo, hi):
        return False
    w = row[F_TWO] + row[F_JOK]
    if row[F_NAT] + w != hi - lo + 1 or w > 1 or (w == 1) != seq_has_wild_nb(row):
        return False
    if w == 1:
        k = row[F_WCARD]
        if row[F_WPOS] < lo or row[F_WPOS] > hi or is_natural_at_nb(k, row[F_SUIT], row[F_WPOS]):
            return False
        r = rank_of_nb(k)
        if not (r == RK_2 or r == RK_JK) or (r == RK_JK) != (row[F_JOK] == 1):
            return False
    return True
