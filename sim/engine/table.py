"""Cards changing places (all phases): hands, the stock, the pile and the red-three areas.

Hands are counted by card kind and by rank class (hand[p, k], hand[p, HC_R + r]); the stock's top
is stock[S_STOCK_N - 1]; the pile is bottom first. The feet or kitties (`foot_size`, Pennies and
Railroad) lie face down at the far end of the stock's array, seat p's the `foot_size` cards below
those of seats before it: the stock never grows back over them (no variant with feet reshuffles), so
a 216- or 648-card game needs no array that a Classic game carries. Which suit leaves a hand when a rank is melded is
the engine's choice (S H D C), since suits do not matter in the rank-meld games."""

import numpy as np

from .cards import rank_of_nb, side_of_nb, value_nb
from .jit import engine_jit
from .layout import (
    EV_RED3,
    EV_RESHUFFLE,
    HC_KNOWN,
    HC_N,
    HC_PACKET,
    HC_R,
    JOKER,
    NR,
    R_B3_HAND,
    R_FOOT,
    R_NSIDES,
    R_PACKET_SIDE,
    R_PLAYERS,
    RED3_D,
    RED3_H,
    RK_3,
    RK_JK,
    S_BLOCK,
    S_DRNG,
    S_FROZEN,
    S_PILE_N,
    S_PILE_R3,
    S_STOCK_N,
    S_TOP_BAN,
    SD_RED3,
    SUITS,
)
from .log import log_nb, logc_nb
from .rng import below_nb


@engine_jit(inline="always")
def hadd_nb(S, p, k):
    """Card k into p's hand."""
    S.hand[p, k] += 1
    S.hand[p, HC_R + rank_of_nb(k)] += 1
    S.hand[p, HC_N] += 1


@engine_jit(inline="always")
def hdel_nb(S, p, k):
    """Card k out of p's hand. A card of a rank the table knows p holds (taken with the pile) may be
    that card: one fewer is known to remain."""
    r = rank_of_nb(k)
    S.hand[p, k] -= 1
    S.hand[p, HC_R + r] -= 1
    S.hand[p, HC_N] -= 1
    if S.hand[p, HC_KNOWN + r] > 0:
        S.hand[p, HC_KNOWN + r] -= 1


@engine_jit(inline="always")
def htake_rank_nb(S, p, r):
    """Remove one card of rank class r from the hand and return its kind: the card taken alone from the
    top this turn first (it may not be discarded, R-54, so melding it frees the others), then suits in
    S H D C order."""
    if r == RK_JK:
        k = JOKER
    else:
        k = r * SUITS
        for s in range(SUITS):
            if S.hand[p, r * SUITS + s] > 0:
                k = r * SUITS + s
                break
        ban = S.st[S_TOP_BAN]  # kept while the turn lasts: a rolled-back opening gives the card back
        if ban >= 0 and rank_of_nb(ban) == r and S.hand[p, ban] > 0:
            k = ban
    hdel_nb(S, p, k)
    return k


@engine_jit(inline="always")
def hand_value_nb(R, S, p):
    """Points of the cards in p's hand (they count against the side at scoring); a black three left
    in a hand costs `black3_in_hand` (Boat: 100, though 0 when melded)."""
    v = 0
    for r in range(NR):
        v += S.hand[p, HC_R + r] * (R[R_B3_HAND] if r == RK_3 else value_nb(R, r))
    return v


@engine_jit(inline="always")
def pop_stock_nb(S):
    """The top card of the stock."""
    n = S.st[S_STOCK_N] - 1
    S.st[S_STOCK_N] = n
    return S.stock[n]


@engine_jit(inline="always")
def pile_push_nb(S, k):
    """Card k on top of the pile."""
    S.pile[S.st[S_PILE_N]] = k
    S.st[S_PILE_N] += 1


@engine_jit
def lay_red3_nb(S, p, k, s):
    """A red three reaching the side's red-three area (from the deal, a draw, or the pile)."""
    S.side[s, SD_RED3] += 1
    return log_nb(S, EV_RED3, p, k, -1, 0, 0)


@engine_jit(inline="always")
def shuffle_stock_nb(S, n):
    """Fisher-Yates on S.stock[0:n] with the deal stream (S_DRNG: the deal's, or a sample's, seeded)."""
    for j in range(n - 1, 0, -1):
        x = below_nb(S.st, np.int64(S_DRNG), j + 1)
        t = S.stock[j]
        S.stock[j] = S.stock[x]
        S.stock[x] = t


@engine_jit
def reshuffle_nb(S, p):
    """The pile turned over and shuffled (the hand's deal stream) becomes the stock, and the pile starts
    afresh, empty and unblocked (E-RESHUFFLE, R-39): logged with the new stock, top first."""
    st = S.st
    n = st[S_PILE_N]
    for i in range(n):
        S.stock[i] = S.pile[i]
    shuffle_stock_nb(S, n)
    st[S_STOCK_N] = n
    st[S_PILE_N] = 0
    st[S_FROZEN] = 0
    st[S_BLOCK] = -1
    st[S_PILE_R3] = 0
    ei = log_nb(S, EV_RESHUFFLE, p, 0, 0, 0, 0)
    for j in range(n - 1, -1, -1):
        logc_nb(S, ei, S.stock[j])


@engine_jit(inline="always")
def foot_size_nb(R):
    """Cards in each player's foot or kitty (`foot_size`), 0 where the variant has none."""
    return R[R_FOOT]


@engine_jit(inline="always")
def packets_nb(R):
    """Face-down packets dealt: one per player (feet, kitties), or one per side (Buraco's mortos, R-136:
    in the partnership game a team shares one). Slot q's packet is counted at S.hand[q, HC_PACKET]."""
    return R[R_NSIDES] if R[R_PACKET_SIDE] != 0 else R[R_PLAYERS]


@engine_jit(inline="always")
def packet_seat_nb(R, p):
    """The slot of the packet seat p picks up: its own, or its side's (slot s holds side s's morto; seat s
    plays for side s in every preset with mortos)."""
    return side_of_nb(R, p) if R[R_PACKET_SIDE] != 0 else p


@engine_jit(inline="always")
def packet_side_nb(R, q):
    """The side whose packet lies in slot q."""
    return q if R[R_PACKET_SIDE] != 0 else side_of_nb(R, q)


@engine_jit(inline="always")
def packet_lo_nb(R, S, p):
    """Where seat p's face-down foot starts in S.stock (module docstring); it holds
    S.hand[p, HC_PACKET] cards from there on (all of them until picked up, then none)."""
    return S.stock.shape[0] - (p + 1) * R[R_FOOT]


@engine_jit
def packet_value_nb(R, S, p, red3):
    """Points of seat p's foot while still face down: its cards at their values as if held, each red
    three at `red3` (R-96, R-115)."""
    v = 0
    lo = packet_lo_nb(R, S, p)
    for i in range(S.hand[p, HC_PACKET]):
        k = S.stock[lo + i]
        if k == RED3_H or k == RED3_D:
            v += red3
        else:
            r = rank_of_nb(k)
            v += R[R_B3_HAND] if r == RK_3 else value_nb(R, r)
    return v
