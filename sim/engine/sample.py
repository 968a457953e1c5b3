"""A determinization (§6): a full state rebuilt from one seat's observation, with the cards that seat
cannot see dealt again at random. It is what a search strategy plays forward (strategies/search.py).

The sample never contradicts the observation: the seat's own hand card for card, every meld row,
the red threes laid, the pile (by card kind, with the same top card), every hand's size, the stock's
size, the frozen and blocked flags, scores, requirements, turn counters, who has laid cards, what the
player in turn has done this turn, and the cards every seat saw go into a hand with the pile
(HC_KNOWN). observe_nb of the sample for that seat gives the same observation but for the random word
(tests/engine/test_sample.py).

The hidden pool is the pack less everything seen. Suits matter only for red and black threes, so
meld rows take the first kinds of their rank left in the pool, black threes for a black-three meld;
red threes can only be in the stock or a face-down foot. In Buraco a sequence row shows its very cards,
which leave the pool; a set's suits are not shown, so it takes the first of its rank; threes are plain
cards, dealt like any other; the mortos lie where the deal put them (one per side). The cards known to be in a hand go to it first; the rest are
shuffled with the engine's generator (rng.py), seeded from `seed`, and fill the other hands to
their sizes, the feet still face down and the stock. At an answer (D11) the asker has asked, which it may only do when it
could go out: its hand is dealt again until it could (rejection sampling). A pending opening (§1.7) gets its snapshot back: the hand before this
turn's melds, and for a pending pile take the taken top card under the pile, so a rollback works
as in the game. Only the table's shape is read from the rules; the pack comes from deal.py."""

import numpy as np

from .cards import is_red3_nb, rank_of_nb, side_of_nb, threes_plain_nb
from .deal import pack_count_nb
from .goout import can_go_out_nb
from .jit import engine_jit
from .layout import (
    DP_ANSWER,
    ERR_SAMPLE,
    F_HI,
    F_JOK,
    F_KIND,
    F_LO,
    F_NAT,
    F_PLAYER,
    F_RANK,
    F_TURN,
    F_TWO,
    HC_INDIRECT,
    HC_KNOWN,
    HC_LAID,
    HC_N,
    HC_PACKET,
    HC_R,
    HC_TURNS,
    JOKER,
    MAXP,
    MAXS,
    MK_BLACK3,
    MK_SEQ,
    NCK,
    NK,
    NMF,
    NR,
    OB_ADDED_OLD,
    OB_ANSWER,
    OB_ASKER,
    OB_BLOCKED,
    OB_CANASTAS,
    OB_CANK,
    OB_DEALER,
    OB_DP,
    OB_FEET,
    OB_FOOT_DUE,
    OB_FROZEN,
    OB_HAND,
    OB_HANDNO,
    OB_HANDS,
    OB_INDIRECT,
    OB_LAID,
    OB_LAID_NOW,
    OB_LAST_RED3,
    OB_MAXM,
    OB_MELDS,
    OB_MOR,
    OB_NM,
    OB_PEND,
    OB_PILE_N,
    OB_PILE_TOP,
    OB_PILEK,
    OB_PRE,
    OB_RED3,
    OB_SCORE,
    OB_SEAT,
    OB_SEAT_LAID,
    OB_SEAT_TURNS,
    OB_SMELDED,
    OB_SREQ,
    OB_STOCK_N,
    OB_TOOK,
    OB_TOP_TAKEN,
    OB_TURN,
    R_NSIDES,
    R_PLAYERS,
    RED3_D,
    RED3_H,
    RK_2,
    RK_3,
    RK_JK,
    S_ADDED_OLD,
    S_ANSWER,
    S_ASKER,
    S_B3_OUT,
    S_BLOCK,
    S_CUR,
    S_DEALER,
    S_DRNG,
    S_ERR,
    S_FOOT_DUE,
    S_FROZEN,
    S_HANDNO,
    S_INCOMING,
    S_LAID0,
    S_LAIDT,
    S_LASTR3,
    S_OUT_PLAYER,
    S_PEND,
    S_PILE_N,
    S_PILE_R3,
    S_PRE,
    S_RNG,
    S_SNAP_FROZEN,
    S_SNAP_NM,
    S_SNAP_PILE,
    S_SNAP_PILE_R3,
    S_STOCK_N,
    S_TOOK,
    S_TOP_BAN,
    S_TURN,
    S_WINNER,
    S_WORK,
    SD_CAN,
    SD_CUM,
    SD_CUM0,
    SD_MELDED,
    SD_MOR,
    SD_NCAN,
    SD_NM,
    SD_RED3,
    SD_REQ,
    SUITS,
    ob_known,
)
from .rng import seed_rng_nb
from .seqtable import seq_card_nb
from .table import hadd_nb, packet_lo_nb, packets_nb, shuffle_stock_nb

SAMPLE_STREAM = 1 << 41  # key of a sample's shuffle, apart from the deal streams (key 0) and play (1 << 40)
SAMPLE_PLAY = 1 << 42  # key of the sampled state's own play stream (the random words its strategies see)
ASK_TRIES = 1 << 14  # deals tried for an asker who must be able to go out (rejection sampling)


@engine_jit(inline="always")
def pool_take_nb(w, r, plain):
    """One card of rank class r out of the pool w (counts by kind), never a red three unless threes are
    plain cards (Buraco): the first suit left (a black three for rank 3). Returns its kind, or -1 when the
    pool has none."""
    if r == RK_JK:
        if w[JOKER] > 0:
            w[JOKER] -= 1
            return JOKER
        return -1
    for s in range(SUITS):
        k = r * SUITS + s
        if w[k] > 0 and (plain or not is_red3_nb(k)):
            w[k] -= 1
            return k
    return -1


@engine_jit(inline="always")
def hback_nb(S, p, k):
    """Card k taken back out of p's hand by the sampler (a rejected deal): what the table knows of
    the hand is untouched, unlike a card the player lays (table.hdel_nb)."""
    S.hand[p, k] -= 1
    S.hand[p, HC_R + rank_of_nb(k)] -= 1
    S.hand[p, HC_N] -= 1


@engine_jit
def sample_table_nb(R, obs, S):
    """Everything in the observation but the cards: the scalars, the seats' and sides' tables and the
    meld rows. The strategy slots of the seats (HC_FN, HC_FNB) are left as the caller set them."""
    st = S.st
    for i in range(S_WORK):
        st[i] = 0
    p = obs[OB_SEAT]
    st[S_DEALER] = obs[OB_DEALER]
    st[S_CUR] = obs[OB_ASKER] if obs[OB_DP] == DP_ANSWER else p
    st[S_TURN] = obs[OB_TURN]
    st[S_HANDNO] = obs[OB_HANDNO]
    st[S_FROZEN] = obs[OB_FROZEN]
    # only the player in turn can be barred from the pile during a turn (an asker: already drawn)
    st[S_BLOCK] = p if obs[OB_BLOCKED] != 0 else -1
    st[S_OUT_PLAYER] = -1
    st[S_WINNER] = -1
    st[S_ANSWER] = obs[OB_ANSWER]
    st[S_ASKER] = obs[OB_ASKER]
    st[S_PEND] = obs[OB_PEND]
    st[S_PRE] = obs[OB_PRE]
    st[S_TOOK] = obs[OB_TOOK]
    st[S_LAID0] = obs[OB_LAID]
    st[S_LAIDT] = obs[OB_LAID_NOW]
    st[S_ADDED_OLD] = obs[OB_ADDED_OLD]
    st[S_LASTR3] = obs[OB_LAST_RED3]
    # the card the player in turn took alone from the top and may not discard: only its taker
    # sees the restriction (whether it held a copy already is private), so an answer's sample has none
    st[S_TOP_BAN] = obs[OB_TOP_TAKEN] if obs[OB_DP] != DP_ANSWER else -1
    st[S_B3_OUT] = 0
    st[S_FOOT_DUE] = obs[OB_FOOT_DUE]
    kb = ob_known(obs)
    for q in range(MAXP + 1):
        for c in range(HC_N + 1):
            S.hand[q, c] = 0  # cards by kind, by rank class, the size
        S.hand[q, HC_LAID] = 0
        S.hand[q, HC_TURNS] = 0
        S.hand[q, HC_PACKET] = 0
        for r in range(NR):
            S.hand[q, HC_KNOWN + r] = 0
        S.hand[q, HC_INDIRECT] = 0
        if q < MAXP:
            S.hand[q, HC_INDIRECT] = obs[OB_INDIRECT + q]
            S.hand[q, HC_LAID] = obs[OB_SEAT_LAID + q]
            S.hand[q, HC_TURNS] = obs[OB_SEAT_TURNS + q]
            S.hand[q, HC_PACKET] = obs[OB_FEET + q]
            for r in range(NR):
                S.hand[q, HC_KNOWN + r] = obs[kb + q * NR + r]
    nsides = R[R_NSIDES]
    maxm = obs[OB_MAXM]
    for s in range(MAXS):
        for c in range(S.side.shape[1]):
            S.side[s, c] = 0
        for r in range(NR):
            S.side[s, SD_MOR + r] = -1
        if s >= nsides:
            continue
        for r in range(NR):
            S.side[s, SD_MOR + r] = obs[OB_MOR + s * NR + r]
        for c in range(NCK):
            S.side[s, SD_CAN + c] = obs[OB_CANK + s * NCK + c]
        S.side[s, SD_NCAN] = obs[OB_CANASTAS + s]
        S.side[s, SD_NM] = obs[OB_NM + s]
        S.side[s, SD_RED3] = obs[OB_RED3 + s]
        S.side[s, SD_MELDED] = obs[OB_SMELDED + s]
        S.side[s, SD_REQ] = obs[OB_SREQ + s]
        S.side[s, SD_CUM] = obs[OB_SCORE + s]
        S.side[s, SD_CUM0] = obs[OB_SCORE + s]
        for m in range(obs[OB_NM + s]):
            base = OB_MELDS + (s * maxm + m) * NMF
            for f in range(NMF):
                S.melds[s, m, f] = obs[base + f]


@engine_jit
def sample_nb(R, obs, S, seed):
    """Fill S with a state that matches the observation `obs` of its seat, the hidden cards dealt at
    random from `seed` (module docstring). S.st[S_ERR] is ERR_SAMPLE if no state can match it."""
    st = S.st
    sample_table_nb(R, obs, S)
    seed_rng_nb(st, np.int64(S_DRNG), seed, np.int64(SAMPLE_STREAM), np.int64(0))
    seed_rng_nb(st, np.int64(S_RNG), seed, np.int64(SAMPLE_PLAY), np.int64(0))
    p = obs[OB_SEAT]
    cur = st[S_CUR]
    n = R[R_PLAYERS]
    w = st[S_WORK:S_WORK + NK]  # the hidden pool, by card kind
    plain = threes_plain_nb(R)  # Buraco: red threes are ordinary cards, in any hand
    for k in range(NK):
        w[k] = pack_count_nb(R, k)
    # the seat's own hand
    for k in range(NK):
        for _ in range(obs[OB_HAND + k]):
            hadd_nb(S, p, k)
        w[k] -= obs[OB_HAND + k]
    # the pile, its top card last
    pn = obs[OB_PILE_N]
    top = obs[OB_PILE_TOP]
    j = 0
    for k in range(NK):
        c = obs[OB_PILEK + k]
        w[k] -= c
        if k == top:
            c -= 1
        for _ in range(c):
            S.pile[j] = k
            j += 1
    if pn > 0:
        S.pile[pn - 1] = top
    st[S_PILE_N] = pn
    st[S_PILE_R3] = 0 if plain else obs[OB_PILEK + RED3_H] + obs[OB_PILEK + RED3_D]  # upcards only
    # red threes laid out
    for s in range(R[R_NSIDES]):
        for _ in range(obs[OB_RED3 + s]):
            k = RED3_H if w[RED3_H] > 0 else RED3_D
            w[k] -= 1
    # a pending opening: the rows this player laid this turn go back to the hand (and a taken top
    # card to the pile) if it stops short; its snapshot is the hand before them
    pending = obs[OB_PEND] >= 0
    s0 = side_of_nb(R, cur)
    snap_nm = 0
    top_back = obs[OB_PRE] != 0  # the pending take's top card is still to place
    if pending:
        for k in range(NK):
            S.hand[MAXP, k] = obs[OB_HAND + k]
        for m in range(obs[OB_NM + s0]):
            if S.melds[s0, m, F_TURN] != st[S_TURN] or S.melds[s0, m, F_PLAYER] != cur:
                snap_nm = m + 1
        st[S_SNAP_NM] = snap_nm
        st[S_SNAP_PILE] = pn + (1 if top_back else 0)
        st[S_SNAP_FROZEN] = st[S_FROZEN]
        st[S_SNAP_PILE_R3] = st[S_PILE_R3]
        if top_back:
            st[S_INCOMING] = pn - st[S_PILE_R3]
    # the meld rows' cards
    for s in range(R[R_NSIDES]):  # a sequence shows its very cards (Buraco): they leave the pool first
        for m in range(obs[OB_NM + s]):
            row = S.melds[s, m]
            if row[F_KIND] == MK_SEQ:
                for pos in range(row[F_LO], row[F_HI] + 1):
                    k = seq_card_nb(row, pos)
                    w[k] -= 1
                    if w[k] < 0:
                        st[S_ERR] = ERR_SAMPLE
                        return
    for s in range(R[R_NSIDES]):
        for m in range(obs[OB_NM + s]):
            row = S.melds[s, m]
            if row[F_KIND] == MK_SEQ:
                continue
            r = RK_3 if row[F_KIND] == MK_BLACK3 else row[F_RANK]
            mine = pending and s == s0 and m >= snap_nm
            for f in (F_NAT, F_TWO, F_JOK):
                rr = RK_2 if f == F_TWO else (RK_JK if f == F_JOK else r)
                for _ in range(row[f]):
                    k = pool_take_nb(w, rr, plain)
                    if k < 0:
                        st[S_ERR] = ERR_SAMPLE
                        return
                    if mine:
                        if top_back and f == F_NAT:
                            S.pile[pn] = k  # the pending take's top card
                            top_back = False
                        else:
                            S.hand[MAXP, k] += 1
    if top_back:
        st[S_ERR] = ERR_SAMPLE
        return
    # the cards known to be in other hands
    need = 0
    for q in range(n):
        if q == p:
            continue
        for r in range(NR):
            for _ in range(S.hand[q, HC_KNOWN + r]):
                k = pool_take_nb(w, r, plain)
                if k < 0:
                    st[S_ERR] = ERR_SAMPLE
                    return
                hadd_nb(S, q, k)
        if S.hand[q, HC_N] > obs[OB_HANDS + q]:
            st[S_ERR] = ERR_SAMPLE
            return
        need += obs[OB_HANDS + q] - S.hand[q, HC_N]
    # the rest, shuffled: the other hands, then the stock (red threes only there)
    m = 0
    for k in range(NK):
        if w[k] < 0:
            st[S_ERR] = ERR_SAMPLE
            return
        if is_red3_nb(k) and not plain:
            continue
        for _ in range(w[k]):
            S.stock[m] = k
            m += 1
    red_h = 0 if plain else w[RED3_H]  # the pool's counts: the go-out search below works in the same scratch
    red_d = 0 if plain else w[RED3_D]
    feet = 0
    for q in range(n):
        feet += obs[OB_FEET + q]
    if m < need or m - need + red_h + red_d != obs[OB_STOCK_N] + feet:
        st[S_ERR] = ERR_SAMPLE
        return
    # at an answer the asker has asked, so it could go out (§1.9): rejection sampling deals it
    # hands until one could, uniform among the deals where it can
    tries = ASK_TRIES if obs[OB_DP] == DP_ANSWER else 1
    first = m - (obs[OB_HANDS + cur] - S.hand[cur, HC_N]) if cur != p else m
    ok = False
    for _ in range(tries):
        shuffle_stock_nb(S, m)
        for j in range(first, m):
            hadd_nb(S, cur, S.stock[j])
        if obs[OB_DP] != DP_ANSWER or can_go_out_nb(R, S, cur):
            ok = True
            break
        for j in range(first, m):
            hback_nb(S, cur, S.stock[j])
    if not ok:
        st[S_ERR] = ERR_SAMPLE
        return
    m = first
    for q in range(n):
        if q == p or q == cur:
            continue
        while S.hand[q, HC_N] < obs[OB_HANDS + q]:
            m -= 1
            hadd_nb(S, q, S.stock[m])
    for _ in range(red_h):
        S.stock[m] = RED3_H
        m += 1
    for _ in range(red_d):
        S.stock[m] = RED3_D
        m += 1
    shuffle_stock_nb(S, m)
    # the feet still face down, from the top of the shuffled pool to their place (table.py)
    if feet > 0 and m > packet_lo_nb(R, S, packets_nb(R) - 1):
        st[S_ERR] = ERR_SAMPLE  # the pool would overlap the feet's place: never with a hand of a foot or more
        return
    for q in range(n):
        lo = packet_lo_nb(R, S, q)
        for i in range(obs[OB_FEET + q]):
            m -= 1
            S.stock[lo + i] = S.stock[m]
    st[S_STOCK_N] = m
