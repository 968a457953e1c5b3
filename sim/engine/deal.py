"""Shuffle, deal and red threes (§1.1-1.3): a new hand's table, the upcard (`upcard`, `upcard_cover`,
`upcard_blocks`, R-21), the dealing bonus's draw (`exact_deal_prob`, R-04, §1.12), EXPOSE-R3 with its
replacements (§1.2, R-05), and the feet or kitties dealt face down (Pennies §3.8, Railroad §3.9; their
place in the stock's array: table.py). This module reads the deal's rules: `hand_size`, `decks`,
`jokers_per_deck`. Buraco deals the same way: its mortos are one packet per side, and it lays
out no red three."""

import numpy as np

from . import layout as L
from .cards import card_class_nb, is_red3_nb, side_of_nb, threes_plain_nb
from .jit import engine_jit
from .log import log_nb, logc_nb
from .meldtable import clear_side_melds_nb
from .opening import requirement_nb
from .rng import below_nb, seed_rng_nb
from .table import (
    foot_size_nb,
    hadd_nb,
    hdel_nb,
    lay_red3_nb,
    packet_lo_nb,
    packets_nb,
    pile_push_nb,
    pop_stock_nb,
    reshuffle_nb,
    shuffle_stock_nb,
)


@engine_jit
def expose_nb(R, S, p, k, refill):
    """EXPOSE-R3 (§1.2) for red three k already out of p's hand: laid out, replaced from the stock
    while replacements are red threes. With `refill` (E-RESHUFFLE, R-39) an empty stock is first made
    again from the pile. Returns 1 when a replacement was needed but no card was left (R-05, R-149)."""
    s = side_of_nb(R, p)
    cur = k
    while True:
        if refill and S.st[L.S_STOCK_N] == 0 and S.st[L.S_PILE_N] > 0:
            reshuffle_nb(S, p)
        ei = lay_red3_nb(S, p, cur, s)
        if S.st[L.S_STOCK_N] == 0:
            return 1
        rep = pop_stock_nb(S)
        if ei >= 0:
            S.ev[ei, L.EV_B] = rep
        if is_red3_nb(rep):
            cur = rep
            continue
        hadd_nb(S, p, rep)
        return 0


@engine_jit(inline="always")
def pack_count_nb(R, k):
    """Copies of card kind k in the pack (`decks`, `jokers_per_deck`): what a sampled state's hidden
    cards are drawn from (sample.py)."""
    return R[L.R_JOKERS] if k == L.JOKER else R[L.R_DECKS]


@engine_jit
def new_table_nb(R, S):
    """Empty hands, melds, pile and per-hand counts; each side's minimum from its score (R-10)."""
    st = S.st
    for p in range(L.MAXP):
        S.hand[p, L.HC_N] = 0
        S.hand[p, L.HC_LAID] = 0
        S.hand[p, L.HC_TURNS] = 0
        S.hand[p, L.HC_PACKET] = 0
        S.hand[p, L.HC_INDIRECT] = 0
        for k in range(L.NK):
            S.hand[p, k] = 0
        for r in range(L.NR):
            S.hand[p, L.HC_R + r] = 0
            S.hand[p, L.HC_KNOWN + r] = 0
    for s in range(L.MAXS):
        clear_side_melds_nb(S, s)
        S.side[s, L.SD_RED3] = 0
        S.side[s, L.SD_MELDED] = 0
        S.side[s, L.SD_CUM0] = S.side[s, L.SD_CUM]
        for c in range(L.NSC):
            S.side[s, L.SD_COUNT + c] = 0
        if s < R[L.R_NSIDES]:
            S.side[s, L.SD_REQ] = requirement_nb(R, S.side[s, L.SD_CUM])
    st[L.S_PILE_N] = 0
    st[L.S_FROZEN] = 0
    st[L.S_BLOCK] = -1
    st[L.S_PILE_R3] = 0
    st[L.S_ENDED] = 0
    st[L.S_OUT_PLAYER] = -1
    st[L.S_CONCEALED] = 0
    st[L.S_TURN] = 0
    st[L.S_PICKUPS] = 0
    st[L.S_FREEZES] = 0
    st[L.S_B3DISC] = 0
    st[L.S_ASKS] = 0
    st[L.S_YES] = 0
    st[L.S_EXACT] = 0
    st[L.S_TOP_BAN] = -1
    st[L.S_B3_OUT] = 0
    st[L.S_FOOT_DUE] = L.FOOT_NONE


@engine_jit
def deal_hand_nb(R, S):
    """Shuffle and deal (§1.1); turn the upcard (§1.3); expose red threes in turn order from the
    player on the dealer's left, who plays first."""
    st = S.st
    n = R[L.R_PLAYERS]
    new_table_nb(R, S)
    # the shuffle depends on (seed, deal, hand) only, so rotated seatings see the same cards
    seed_rng_nb(st, np.int64(L.S_DRNG), st[L.S_SEED], st[L.S_DEAL], st[L.S_HANDNO])
    i = 0
    for _deck in range(R[L.R_DECKS]):
        for k in range(L.SUITED_KINDS):
            S.stock[i] = k
            i += 1
    for _j in range(R[L.R_JOKERS]):
        S.stock[i] = L.JOKER
        i += 1
    pack = R[L.R_PACK]
    shuffle_stock_nb(S, pack)
    # the feet: the deck's last cards are as random as any, so they stay where they lie (table.py)
    foot = foot_size_nb(R)
    npk = packets_nb(R)
    for q in range(npk):
        S.hand[q, L.HC_PACKET] = foot
    base = pack - npk * foot
    st[L.S_STOCK_N] = base
    if R[L.R_EXACT_PPM] > 0:
        # whether the dealer grabbed exactly the cards needed; the cards are shuffled either way
        st[L.S_EXACT] = 1 if below_nb(st, np.int64(L.S_DRNG), np.int64(L.PPM)) < R[L.R_EXACT_PPM] else 0
    hs = R[L.R_HAND]
    for p in range(n):
        for _j in range(hs):
            hadd_nb(S, p, pop_stock_nb(S))
    first = (st[L.S_DEALER] + 1) % n
    if R[L.R_UPCARD] != 0:
        while True:
            c = pop_stock_nb(S)
            pile_push_nb(S, c)
            cls = card_class_nb(c)
            if cls & R[L.R_UPCARD_COVER]:
                st[L.S_FROZEN] = 1  # covered by the next card, the pile frozen
                if cls == L.CC_RED3:
                    st[L.S_PILE_R3] += 1
                continue
            if cls & R[L.R_UPCARD_BLOCK]:
                st[L.S_BLOCK] = first  # bars the first player only, no freeze
            break
    ei = log_nb(S, L.EV_DEAL, st[L.S_DEALER], hs, st[L.S_PILE_N], st[L.S_STOCK_N], st[L.S_HANDNO])
    if ei >= 0:
        S.ev[ei, L.EV_E] = st[L.S_EXACT]
        for p in range(n):
            # hands as dealt, in the order the cards came off the deck
            for j in range(hs):
                logc_nb(S, ei, S.stock[base - 1 - (p * hs + j)])
        for j in range(st[L.S_PILE_N]):
            logc_nb(S, ei, S.pile[j])
        for j in range(st[L.S_STOCK_N] - 1, -1, -1):
            logc_nb(S, ei, S.stock[j])
        for q in range(npk):
            lo = packet_lo_nb(R, S, q)
            for j in range(foot):
                logc_nb(S, ei, S.stock[lo + j])
    st[L.S_CUR] = first
    if threes_plain_nb(R):
        return  # Buraco: threes are ordinary cards (§3.10 setup 6)
    for q in range(n):
        p = (first + q) % n
        for k in (L.RED3_H, L.RED3_D):
            while S.hand[p, k] > 0:
                hdel_nb(S, p, k)
                expose_nb(R, S, p, k, np.bool_(False))
