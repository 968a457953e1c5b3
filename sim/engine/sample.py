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

from . import layout as L
from .cards import is_red3_nb, rank_of_nb, side_of_nb, threes_plain_nb
from .deal import pack_count_nb
from .goout import can_go_out_nb
from .jit import engine_jit
from .layout import ob_known
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
    if r == L.RK_JK:
        if w[L.JOKER] > 0:
            w[L.JOKER] -= 1
            return L.JOKER
        return -1
    for s in range(L.SUITS):
        k = r * L.SUITS + s
        if w[k] > 0 and (plain or not is_red3_nb(k)):
            w[k] -= 1
            return k
    return -1


@engine_jit(inline="always")
def hback_nb(S, p, k):
    """Card k taken back out of p's hand by the sampler (a rejected deal): what the table knows of
    the hand is untouched, unlike a card the player lays (table.hdel_nb)."""
    S.hand[p, k] -= 1
    S.hand[p, L.HC_R + rank_of_nb(k)] -= 1
    S.hand[p, L.HC_N] -= 1


@engine_jit
def sample_table_nb(R, obs, S):
    """Everything in the observation but the cards: the scalars, the seats' and sides' tables and the
    meld rows. The strategy slots of the seats (HC_FN, HC_FNB) are left as the caller set them."""
    st = S.st
    for i in range(L.S_WORK):
        st[i] = 0
    p = obs[L.OB_SEAT]
    st[L.S_DEALER] = obs[L.OB_DEALER]
    st[L.S_CUR] = obs[L.OB_ASKER] if obs[L.OB_DP] == L.DP_ANSWER else p
    st[L.S_TURN] = obs[L.OB_TURN]
    st[L.S_HANDNO] = obs[L.OB_HANDNO]
    st[L.S_FROZEN] = obs[L.OB_FROZEN]
    # only the player in turn can be barred from the pile during a turn (an asker: already drawn)
    st[L.S_BLOCK] = p if obs[L.OB_BLOCKED] != 0 else -1
    st[L.S_OUT_PLAYER] = -1
    st[L.S_WINNER] = -1
    st[L.S_ANSWER] = obs[L.OB_ANSWER]
    st[L.S_ASKER] = obs[L.OB_ASKER]
    st[L.S_PEND] = obs[L.OB_PEND]
    st[L.S_PRE] = obs[L.OB_PRE]
    st[L.S_TOOK] = obs[L.OB_TOOK]
    st[L.S_LAID0] = obs[L.OB_LAID]
    st[L.S_LAIDT] = obs[L.OB_LAID_NOW]
    st[L.S_ADDED_OLD] = obs[L.OB_ADDED_OLD]
    st[L.S_LASTR3] = obs[L.OB_LAST_RED3]
    # the card the player in turn took alone from the top and may not discard: only its taker
    # sees the restriction (whether it held a copy already is private), so an answer's sample has none
    st[L.S_TOP_BAN] = obs[L.OB_TOP_TAKEN] if obs[L.OB_DP] != L.DP_ANSWER else -1
    st[L.S_B3_OUT] = 0
    st[L.S_FOOT_DUE] = obs[L.OB_FOOT_DUE]
    kb = ob_known(obs)
    for q in range(L.MAXP + 1):
        for c in range(L.HC_N + 1):
            S.hand[q, c] = 0  # cards by kind, by rank class, the size
        S.hand[q, L.HC_LAID] = 0
        S.hand[q, L.HC_TURNS] = 0
        S.hand[q, L.HC_PACKET] = 0
        for r in range(L.NR):
            S.hand[q, L.HC_KNOWN + r] = 0
        S.hand[q, L.HC_INDIRECT] = 0
        if q < L.MAXP:
            S.hand[q, L.HC_INDIRECT] = obs[L.OB_INDIRECT + q]
            S.hand[q, L.HC_LAID] = obs[L.OB_SEAT_LAID + q]
            S.hand[q, L.HC_TURNS] = obs[L.OB_SEAT_TURNS + q]
            S.hand[q, L.HC_PACKET] = obs[L.OB_FEET + q]
            for r in range(L.NR):
                S.hand[q, L.HC_KNOWN + r] = obs[kb + q * L.NR + r]
    nsides = R[L.R_NSIDES]
    maxm = obs[L.OB_MAXM]
    for s in range(L.MAXS):
        for c in range(S.side.shape[1]):
            S.side[s, c] = 0
        for r in range(L.NR):
            S.side[s, L.SD_MOR + r] = -1
        if s >= nsides:
            continue
        for r in range(L.NR):
            S.side[s, L.SD_MOR + r] = obs[L.OB_MOR + s * L.NR + r]
        for c in range(L.NCK):
            S.side[s, L.SD_CAN + c] = obs[L.OB_CANK + s * L.NCK + c]
        S.side[s, L.SD_NCAN] = obs[L.OB_CANASTAS + s]
        S.side[s, L.SD_NM] = obs[L.OB_NM + s]
        S.side[s, L.SD_RED3] = obs[L.OB_RED3 + s]
        S.side[s, L.SD_MELDED] = obs[L.OB_SMELDED + s]
        S.side[s, L.SD_REQ] = obs[L.OB_SREQ + s]
        S.side[s, L.SD_CUM] = obs[L.OB_SCORE + s]
        S.side[s, L.SD_CUM0] = obs[L.OB_SCORE + s]
        for m in range(obs[L.OB_NM + s]):
            base = L.OB_MELDS + (s * maxm + m) * L.NMF
            for f in range(L.NMF):
                S.melds[s, m, f] = obs[base + f]


@engine_jit
def pool_less_seen_nb(R, obs, S, w, plain):
    """The hidden pool w: the pack less what the seat sees, each dealt to its place on the way: its own
    hand, the pile (by kind, its top card last) and the red threes laid out. One step of sample_nb, apart
    so that the sampler reads as the order of its deal; called at its one place, not inlined (docs/engine.md)."""
    st = S.st
    p = obs[L.OB_SEAT]
    for k in range(L.NK):
        w[k] = pack_count_nb(R, k)
    # the seat's own hand
    for k in range(L.NK):
        for _ in range(obs[L.OB_HAND + k]):
            hadd_nb(S, p, k)
        w[k] -= obs[L.OB_HAND + k]
    # the pile, its top card last
    pn = obs[L.OB_PILE_N]
    top = obs[L.OB_PILE_TOP]
    j = 0
    for k in range(L.NK):
        c = obs[L.OB_PILEK + k]
        w[k] -= c
        if k == top:
            c -= 1
        for _ in range(c):
            S.pile[j] = k
            j += 1
    if pn > 0:
        S.pile[pn - 1] = top
    st[L.S_PILE_N] = pn
    st[L.S_PILE_R3] = 0 if plain else obs[L.OB_PILEK + L.RED3_H] + obs[L.OB_PILEK + L.RED3_D]  # upcards only
    # red threes laid out
    for s in range(R[L.R_NSIDES]):
        for _ in range(obs[L.OB_RED3 + s]):
            k = L.RED3_H if w[L.RED3_H] > 0 else L.RED3_D
            w[k] -= 1


@engine_jit
def pending_snapshot_nb(obs, S, cur, s0, top_back):
    """A pending opening (§1.7): the rows player `cur` laid this turn go back to its hand (and a taken top
    card to the pile, `top_back`) if it stops short, so its snapshot is the hand before them (set_rows_nb
    adds their cards as it deals them) with the pile's counts a rollback restores. Returns the first row of
    side s0 laid this turn. Apart from sample_nb, which it would make longer by a branch of its own."""
    st = S.st
    pn = obs[L.OB_PILE_N]
    for k in range(L.NK):
        S.hand[L.MAXP, k] = obs[L.OB_HAND + k]
    snap_nm = 0
    for m in range(obs[L.OB_NM + s0]):
        if S.melds[s0, m, L.F_TURN] != st[L.S_TURN] or S.melds[s0, m, L.F_PLAYER] != cur:
            snap_nm = m + 1
    st[L.S_SNAP_NM] = snap_nm
    st[L.S_SNAP_PILE] = pn + (1 if top_back else 0)
    st[L.S_SNAP_FROZEN] = st[L.S_FROZEN]
    st[L.S_SNAP_PILE_R3] = st[L.S_PILE_R3]
    if top_back:
        st[L.S_INCOMING] = pn - st[L.S_PILE_R3]
    return snap_nm


@engine_jit
def seq_rows_nb(R, obs, S, w):
    """A sequence row shows its very cards (Buraco): they leave the pool w before any set row takes the
    first kind of its rank, which could be one of them. Returns False when the pool lacks one (no state
    matches the observation). One step of sample_nb, called at its one place, not inlined (docs/engine.md)."""
    for s in range(R[L.R_NSIDES]):
        for m in range(obs[L.OB_NM + s]):
            row = S.melds[s, m]
            if row[L.F_KIND] == L.MK_SEQ:
                for pos in range(row[L.F_LO], row[L.F_HI] + 1):
                    k = seq_card_nb(row, pos)
                    w[k] -= 1
                    if w[k] < 0:
                        return False
    return True


@engine_jit
def set_rows_nb(R, obs, S, w, plain, pending, s0, snap_nm, top_back):
    """The cards of every other meld row, the first kinds of their rank left in the pool w (pool_take_nb).
    The rows of a pending opening (side s0 from row snap_nm) also go to its snapshot hand, but for one
    natural that goes back under the pile while the pending take's top card is still to place
    (`top_back`). Returns False when the pool lacks a card or the top card found no row: no state
    matches. One step of sample_nb, called at its one place, not inlined (docs/engine.md)."""
    pn = obs[L.OB_PILE_N]
    for s in range(R[L.R_NSIDES]):
        for m in range(obs[L.OB_NM + s]):
            row = S.melds[s, m]
            if row[L.F_KIND] == L.MK_SEQ:
                continue
            r = L.RK_3 if row[L.F_KIND] == L.MK_BLACK3 else row[L.F_RANK]
            mine = pending and s == s0 and m >= snap_nm
            for f in (L.F_NAT, L.F_TWO, L.F_JOK):
                rr = L.RK_2 if f == L.F_TWO else (L.RK_JK if f == L.F_JOK else r)
                for _ in range(row[f]):
                    k = pool_take_nb(w, rr, plain)
                    if k < 0:
                        return False
                    if mine:
                        if top_back and f == L.F_NAT:
                            S.pile[pn] = k  # the pending take's top card
                            top_back = False
                        else:
                            S.hand[L.MAXP, k] += 1
    return not top_back


@engine_jit
def known_cards_nb(obs, S, w, plain, n):
    """The cards every seat saw go into another seat's hand with the pile (HC_KNOWN) go to that hand first,
    the first kinds of their rank left in the pool w. Returns the cards the other hands still lack, or -1
    when no state matches (the pool lacks one, or a hand would be too big). One step of sample_nb, called
    at its one place, not inlined (docs/engine.md)."""
    p = obs[L.OB_SEAT]
    need = 0
    for q in range(n):
        if q == p:
            continue
        for r in range(L.NR):
            for _ in range(S.hand[q, L.HC_KNOWN + r]):
                k = pool_take_nb(w, r, plain)
                if k < 0:
                    return -1
                hadd_nb(S, q, k)
        if S.hand[q, L.HC_N] > obs[L.OB_HANDS + q]:
            return -1
        need += obs[L.OB_HANDS + q] - S.hand[q, L.HC_N]
    return need


@engine_jit
def pool_to_stock_nb(S, w, plain):
    """What is left of the pool w, by kind, into the stock's array, to be shuffled into the other hands and
    the stock; red threes stay out (they can only be in the stock or a face-down foot) unless threes are
    plain cards. Returns the cards laid, or -1 when a kind's count went below zero (the observation shows
    more of it than the pack holds). One step of sample_nb, called at its one place, not inlined (docs/engine.md)."""
    m = 0
    for k in range(L.NK):
        if w[k] < 0:
            return -1
        if is_red3_nb(k) and not plain:
            continue
        for _ in range(w[k]):
            S.stock[m] = k
            m += 1
    return m


@engine_jit
def deal_current_nb(R, obs, S, cur, first, m):
    """The hidden cards of the player in turn, `cur`: stock[first:m] of the shuffled pool. At an answer the
    asker has asked, so it could go out (§1.9): rejection sampling deals it hands until one could, uniform
    among the deals where it can (ASK_TRIES). Returns False when none could. One step of sample_nb, called
    at its one place, not inlined (docs/engine.md)."""
    tries = ASK_TRIES if obs[L.OB_DP] == L.DP_ANSWER else 1
    for _ in range(tries):
        shuffle_stock_nb(S, m)
        for j in range(first, m):
            hadd_nb(S, cur, S.stock[j])
        if obs[L.OB_DP] != L.DP_ANSWER or can_go_out_nb(R, S, cur):
            return True
        for j in range(first, m):
            hback_nb(S, cur, S.stock[j])
    return False


@engine_jit
def deal_others_nb(obs, S, n, cur, m, red_h, red_d):
    """The other hidden hands from the top of stock[:m] (what the player in turn left), then the red threes
    back in and the stock shuffled. Returns the stock's size. One step of sample_nb, called at its one
    place, not inlined (docs/engine.md)."""
    p = obs[L.OB_SEAT]
    for q in range(n):
        if q == p or q == cur:
            continue
        while S.hand[q, L.HC_N] < obs[L.OB_HANDS + q]:
            m -= 1
            hadd_nb(S, q, S.stock[m])
    for _ in range(red_h):
        S.stock[m] = L.RED3_H
        m += 1
    for _ in range(red_d):
        S.stock[m] = L.RED3_D
        m += 1
    shuffle_stock_nb(S, m)
    return m


@engine_jit
def place_feet_nb(R, obs, S, n, m, feet):
    """The feet still face down, from the top of the shuffled stock[:m] to their place (table.py). Returns
    the stock's size left, or -1 when the pool would overlap the feet's place (never with a hand of a foot
    or more). One step of sample_nb, called at its one place, not inlined (docs/engine.md)."""
    if feet > 0 and m > packet_lo_nb(R, S, packets_nb(R) - 1):
        return -1
    for q in range(n):
        lo = packet_lo_nb(R, S, q)
        for i in range(obs[L.OB_FEET + q]):
            m -= 1
            S.stock[lo + i] = S.stock[m]
    return m


@engine_jit
def sample_nb(R, obs, S, seed):
    """Fill S with a state that matches the observation `obs` of its seat, the hidden cards dealt at
    random from `seed` (module docstring). S.st[S_ERR] is ERR_SAMPLE if no state can match it. The
    steps, in the order they deal, are the helpers above, each a plain call."""
    st = S.st
    sample_table_nb(R, obs, S)
    seed_rng_nb(st, np.int64(L.S_DRNG), seed, np.int64(SAMPLE_STREAM), np.int64(0))
    seed_rng_nb(st, np.int64(L.S_RNG), seed, np.int64(SAMPLE_PLAY), np.int64(0))
    p = obs[L.OB_SEAT]
    cur = st[L.S_CUR]
    n = R[L.R_PLAYERS]
    w = st[L.S_WORK:L.S_WORK + L.NK]  # the hidden pool, by card kind
    plain = threes_plain_nb(R)  # Buraco: red threes are ordinary cards, in any hand
    pool_less_seen_nb(R, obs, S, w, plain)
    # a pending opening: the rows this player laid this turn go back to the hand (and a taken top
    # card to the pile) if it stops short; its snapshot is the hand before them
    pending = obs[L.OB_PEND] >= 0
    s0 = side_of_nb(R, cur)
    top_back = obs[L.OB_PRE] != 0  # the pending take's top card is still to place
    snap_nm = 0
    if pending:
        snap_nm = pending_snapshot_nb(obs, S, cur, s0, top_back)
    # the meld rows' cards, sequences first; then the cards known to be in other hands
    if not seq_rows_nb(R, obs, S, w):
        st[L.S_ERR] = L.ERR_SAMPLE
        return
    if not set_rows_nb(R, obs, S, w, plain, pending, s0, snap_nm, top_back):
        st[L.S_ERR] = L.ERR_SAMPLE
        return
    need = known_cards_nb(obs, S, w, plain, n)
    if need < 0:
        st[L.S_ERR] = L.ERR_SAMPLE
        return
    # the rest, shuffled: the other hands, then the stock (red threes only there)
    m = pool_to_stock_nb(S, w, plain)
    if m < 0:
        st[L.S_ERR] = L.ERR_SAMPLE
        return
    red_h = 0 if plain else w[L.RED3_H]  # the pool's counts: the go-out search below works in the same scratch
    red_d = 0 if plain else w[L.RED3_D]
    feet = 0
    for q in range(n):
        feet += obs[L.OB_FEET + q]
    if m < need or m - need + red_h + red_d != obs[L.OB_STOCK_N] + feet:
        st[L.S_ERR] = L.ERR_SAMPLE
        return
    first = m - (obs[L.OB_HANDS + cur] - S.hand[cur, L.HC_N]) if cur != p else m
    if not deal_current_nb(R, obs, S, cur, first, m):
        st[L.S_ERR] = L.ERR_SAMPLE
        return
    m = deal_others_nb(obs, S, n, cur, first, red_h, red_d)
    m = place_feet_nb(R, obs, S, n, m, feet)
    if m < 0:
        st[L.S_ERR] = L.ERR_SAMPLE
        return
    st[L.S_STOCK_N] = m
