"""Taking the discard pile (§1.6): the legal takes (enumerate), the take itself (apply), the pickup,
and the pending opening of a side that has not melded (snapshot and rollback, §1.7). This module
reads the pile rules: `pile_methods_*`, `untakeable_top`, `one_card_pile_rule` (R-20)."""

import numpy as np

from . import layout as L
from .cards import card_class_nb, is_natural_meld_rank_nb, is_red3_nb, rank_of_nb, side_of_nb, threes_plain_nb, value_nb
from .decide import add_opt_nb
from .goout import take_ok_nb
from .jit import engine_jit
from .log import log_nb, logc_nb
from .meldtable import (
    canasta_size_nb,
    canastas_nb,
    capped_take_split_nb,
    lay_from_hand_nb,
    meld_cap_nb,
    meld_new_nb,
    meld_put_nb,
    min_naturals_nb,
    msize_nb,
    seven_discardable_nb,
    sevens_banned_last_nb,
    truncate_melds_nb,
    wild_room_nb,
)
from .opening import max_meld_value_nb
from .table import hadd_nb, lay_red3_nb


@engine_jit
def premeld_take_ok_nb(R, S, p, s, r, nat_used, wild_r, tmeld, best, h_after):
    """A take by an unmelded side: T and its method cards (worth `tmeld`) plus other hand melds
    (at most `best` in all) must reach the minimum, and the hand left after the pickup must be
    playable. When T's meld alone suffices the pile is picked up at once, so the going-out check
    of a melded side applies; otherwise at least one more hand card must be melded before the
    pickup, which must still leave two (the meld phase enforces the exact rule and rolls the take
    back to a stock draw if the player stops short)."""
    req = S.side[s, L.SD_REQ]
    if best < req:
        return False
    if tmeld >= req:
        if h_after >= 2:
            return True
        return take_ok_nb(R, S, p, s, r, nat_used, wild_r, h_after, canastas_nb(S, s))
    return h_after >= L.MIN_MELD  # T's meld was short: one more hand meld, and two cards kept


@engine_jit
def take_leaves_sevens_nb(R, S, p, s, r, nat_used, wild_used, closes):
    """Pennies (§3.8 turn step 8; the seed: "you are not allowed to meld all your other cards, leaving
    yourself only with sevens; you must keep at least one legal discard"): a take that lays T with
    `nat_used` naturals of its rank and `wild_used` wilds from the hand would leave a hand, the rest of
    the pile included, of sevens only (not none) while no seven may be discarded (R-97). Such a take is
    never offered, even to a hand that already is all sevens: the player draws instead. Not so when T is
    a seven whose meld `closes` the side's sevens canasta and every other side has one (sevens free)."""
    if not sevens_banned_last_nb(R) or seven_discardable_nb(R, S.side):
        return False
    n = S.hand[p, L.HC_N] - nat_used - wild_used
    sev = S.hand[p, L.HC_R + L.RK_7] - (nat_used if r == L.RK_7 else 0)
    for i in range(S.st[L.S_PILE_N] - 1):
        c = S.pile[i]
        if not is_red3_nb(c):
            n += 1
            if rank_of_nb(c) == L.RK_7:
                sev += 1
    if n == 0 or sev != n:
        return False
    if r != L.RK_7 or not closes:
        return True
    for t in range(R[L.R_NSIDES]):
        if t != s and S.side[t, L.SD_CAN + L.CK_SEVENS] == 0:
            return True
    return False


@engine_jit(inline="always")
def top_untakeable_nb(R, k):
    """Card k on top of the pile can never be taken, with the pile or alone (`untakeable_top`, R-56)."""
    return (card_class_nb(k) & R[L.R_UNTAKE]) != 0


@engine_jit(inline="always")
def take_playable_nb(R, S, p, s, r, melded, nat_used, wr, extra, h_after, nc, tv):
    """Whether the hand a take leaves can still be played, for a take that lays T (its rank class r worth tv)
    with `nat_used` naturals and a wild of rank class wr (-1 none), `extra` more naturals from the hand
    where melds close at a cap (R-92), h_after cards left besides those: an unmelded side must still reach
    its opening (premeld_take_ok_nb, with the best melds the rest of the hand makes), a melded side keep a
    way to go out (take_ok_nb, nc canastas after the take). The same test for M1 and M2, inlined at each:
    their copies were the same code but for the cards they lay."""
    if not melded:
        w = S.st[L.S_WORK:]
        for x in range(L.NR):
            w[x] = S.hand[p, L.HC_R + x]
        w[r] -= nat_used
        wilds = 0
        tmeld = (1 + nat_used) * tv
        if wr >= 0:
            w[wr] -= 1
            wilds = 1
            tmeld += value_nb(R, wr)
        room = wild_room_nb(R, r, 1 + nat_used + w[r], wilds)  # T, its cards, and the rank's other naturals
        best = tmeld + max_meld_value_nb(R, w[0:L.NR], r, room, w[L.NR:2 * L.NR])
        return premeld_take_ok_nb(R, S, p, s, r, nat_used, wr, tmeld, best, h_after)
    return take_ok_nb(R, S, p, s, r, nat_used, wr, h_after - extra, nc)


@engine_jit(inline="always")
def wild_take_ok_nb(R, S, p, s, r, wr, melded, nat, mn, mw, grow, h_after, nc, tv):
    """M2 with a wild of rank class wr: T, one natural and the wild fit the side's meld of T's rank (mn
    naturals, mw wilds), closing it at the cap first where melds close (R-92); the take does not leave
    sevens only (Pennies); and the hand left can be played (take_playable_nb). A step of enum_take_nb,
    inlined in its loop over the wild ranks."""
    one = np.int64(1)  # an int64, not the constant: the called checks would compile a copy for it
    extra = 0
    if meld_cap_nb(R) > 0:
        _a, _b, _nn, _nw, extra = capped_take_split_nb(R, r, mn, mw, one, wr)
        if extra < 0 or nat < 1 + extra:
            return False
    elif wild_room_nb(R, r, mn + 2, mw) < 1:
        return False
    if sevens_banned_last_nb(R) and take_leaves_sevens_nb(R, S, p, s, r, one + extra, one, grow):
        return False
    return take_playable_nb(R, S, p, s, r, melded, one, wr, extra, h_after, nc, tv)


@engine_jit(inline="always")
def take_mask_nb(R, S, s):
    """The methods (MASK_M*) the rules give side s for the pile as it is (`pile_methods_*`): for a frozen
    pile, a side that has not melded, or a melded side's unfrozen pile; frozen and unmelded, both hold
    (R-157). A step of enum_take_nb, inlined at its one call."""
    melded = S.side[s, L.SD_MELDED] != 0
    if S.st[L.S_FROZEN] != 0:
        mask = R[L.R_PM_FROZEN]
        if not melded:
            mask &= R[L.R_PM_PREMELD]
    elif not melded:
        mask = R[L.R_PM_PREMELD]
    else:
        mask = R[L.R_PM_UNFROZEN]
    return mask


@engine_jit(inline="always")
def enum_take_nb(R, S, p, n):
    """Append to S.opts the legal ways for p to take the pile (O_TAKE, method, wild rank). Each method's
    tests are in its helper above, inlined, so that this reads as the three methods of §1.6."""
    # the counts handed to the called checks, as int64 values: constants would compile a copy of each
    zero, two, no_wild = np.int64(0), np.int64(2), np.int64(-1)
    sevens = sevens_banned_last_nb(R)  # the Pennies check is called only where it can refuse
    st = S.st
    pn = st[L.S_PILE_N]
    if pn == 0 or st[L.S_BLOCK] == p:
        return n
    top = S.pile[pn - 1]
    if top_untakeable_nb(R, top):
        return n
    r = rank_of_nb(top)
    if not is_natural_meld_rank_nb(r):
        return n  # T must start or join a rank meld
    h = S.hand[p, L.HC_N]
    if R[L.R_ONE_CARD] != 0 and h == 1 and pn == 1:
        return n
    s = side_of_nb(R, p)
    melded = S.side[s, L.SD_MELDED] != 0
    mask = take_mask_nb(R, S, s)
    nat = S.hand[p, L.HC_R + r]
    incoming = pn - 1 - st[L.S_PILE_R3]
    h_after = h - 2 + incoming  # M1 and M2: the hand less the two cards laid with T, the pile's cards in
    m = S.side[s, L.SD_MOR + r]
    msz = 0
    mw = 0
    mn = 0
    if m >= 0:
        msz = msize_nb(S, s, m)
        mw = S.melds[s, m, L.F_TWO] + S.melds[s, m, L.F_JOK]
        mn = S.melds[s, m, L.F_NAT]
    ncan = canastas_nb(S, s)
    csize = canasta_size_nb(R)
    grow = msz < csize and msz + L.MIN_MELD >= csize  # T and two cards complete the meld's canasta
    nc = ncan + (1 if grow else 0)
    tv = value_nb(R, r)
    # M1: T with two naturals of its rank
    extra = 0
    if meld_cap_nb(R) > 0:
        _a, _b, _nn, _nw, extra = capped_take_split_nb(R, r, mn, mw, two, no_wild)
    if (mask & L.MASK_M1) and extra >= 0 and nat >= 2 + extra \
            and not (sevens and take_leaves_sevens_nb(R, S, p, s, r, two + extra, zero, grow)) \
            and take_playable_nb(R, S, p, s, r, melded, two, no_wild, extra, h_after, nc, tv):
        n = add_opt_nb(S, n, L.O_TAKE, L.TAKE_M1, -1, 0)
    # M2: T with one natural and one wild
    if (mask & L.MASK_M2) and nat >= 1 and min_naturals_nb(R) <= 2:
        for wr in L.WILD_RANKS:
            if S.hand[p, L.HC_R + wr] != 0 and wild_take_ok_nb(R, S, p, s, r, wr, melded, nat, mn, mw, grow,
                                                                h_after, nc, tv):
                n = add_opt_nb(S, n, L.O_TAKE, L.TAKE_M2, wr, 0)
    # M3: T laid off on the side's meld of its rank
    grow1 = msz < csize and msz + 1 >= csize
    if (mask & L.MASK_M3) and melded and m >= 0 \
            and not (sevens and take_leaves_sevens_nb(R, S, p, s, r, zero, zero, grow1)) \
            and take_ok_nb(R, S, p, s, r, zero, no_wild, h + incoming, ncan + (1 if grow1 else 0)):
        n = add_opt_nb(S, n, L.O_TAKE, L.TAKE_M3, -1, 0)
    return n


@engine_jit
def snapshot_nb(R, S, p):
    """Remember what a pending initial meld may have to give back (§1.6-1.7, rolled back if short)."""
    st = S.st
    for k in range(L.NK):
        S.hand[L.MAXP, k] = S.hand[p, k]
    st[L.S_SNAP_EV] = st[L.S_EV_N]
    st[L.S_SNAP_EVC] = st[L.S_EVC_N]
    st[L.S_SNAP_PILE] = st[L.S_PILE_N]
    st[L.S_SNAP_FROZEN] = st[L.S_FROZEN]
    st[L.S_SNAP_PILE_R3] = st[L.S_PILE_R3]
    st[L.S_SNAP_NM] = S.side[side_of_nb(R, p), L.SD_NM]


@engine_jit
def rollback_nb(R, S, p):
    """Give a pending opening back: the hand, the side's melds, the pile and the log as they were."""
    st = S.st
    s = side_of_nb(R, p)
    hn = 0
    for r in range(L.NR):
        S.hand[p, L.HC_R + r] = 0
    for k in range(L.NK):
        c = S.hand[L.MAXP, k]
        S.hand[p, k] = c
        S.hand[p, L.HC_R + rank_of_nb(k)] += c
        hn += c
    S.hand[p, L.HC_N] = hn
    truncate_melds_nb(R, S, s, st[L.S_SNAP_NM])
    st[L.S_EV_N] = st[L.S_SNAP_EV]
    st[L.S_EVC_N] = st[L.S_SNAP_EVC]
    st[L.S_PILE_N] = st[L.S_SNAP_PILE]
    st[L.S_FROZEN] = st[L.S_SNAP_FROZEN]
    st[L.S_PILE_R3] = st[L.S_SNAP_PILE_R3]
    st[L.S_PEND] = -1
    st[L.S_PRE] = 0
    st[L.S_INCOMING] = 0
    st[L.S_TOOK] = 0
    st[L.S_LAIDT] = 0
    st[L.S_FOOT_DUE] = L.FOOT_NONE  # nothing laid this turn stays, so no canasta brought the foot


@engine_jit(inline="always")
def from_pile_nb(R, S, p, s, c):
    """Card c of the pile reaches p's hand in view of every seat (HC_KNOWN); a red three goes to side s's
    red threes without replacement (§1.2), where threes are not plain cards (Buraco). Shared by the pickup and
    House-001's top card alone."""
    if is_red3_nb(c) and not threes_plain_nb(R):
        lay_red3_nb(S, p, c, s)
    else:
        hadd_nb(S, p, c)
        S.hand[p, L.HC_KNOWN + rank_of_nb(c)] += 1  # every seat saw it go into this hand


@engine_jit
def pickup_nb(R, S, p):
    """Steps 4-5 of TAKE-PILE: the rest of the pile goes to the hand, where every seat now knows
    those cards to be (HC_KNOWN); red threes are laid out without replacement (§1.2); the pile
    starts afresh, unfrozen and unblocked."""
    st = S.st
    s = side_of_nb(R, p)
    for i in range(st[L.S_PILE_N]):
        from_pile_nb(R, S, p, s, S.pile[i])
    st[L.S_PILE_N] = 0
    st[L.S_FROZEN] = 0
    st[L.S_BLOCK] = -1
    st[L.S_PILE_R3] = 0
    st[L.S_PRE] = 0
    st[L.S_INCOMING] = 0
    st[L.S_PICKUPS] += 1
    S.side[s, L.SD_COUNT + L.SC_PICKUPS] += 1


@engine_jit
def capped_take_lay_nb(R, S, p, s, r, m, em, nat_used, wr):
    """Lay a take's method cards where melds close at the cap (R-92): onto meld m (T's, logged in
    event em) until it closes, the rest and the naturals meldtable.capped_take_split_nb asks for into a new
    meld. Returns their value."""
    value = 0
    for j in range(nat_used + (1 if wr >= 0 else 0)):
        if S.side[s, L.SD_MOR + r] != m:  # m closed at the cap: the rest starts a new meld
            m = meld_new_nb(S, p, s, np.int64(L.MK_RANK), r)
            em = log_nb(S, L.EV_MELD, p, m, 1, L.MK_RANK, 0)
        value += lay_from_hand_nb(R, S, p, s, m, em, r if j < nat_used else wr, 1)
    while msize_nb(S, s, m) < L.MIN_MELD or S.melds[s, m, L.F_NAT] < min_naturals_nb(R):
        value += lay_from_hand_nb(R, S, p, s, m, em, r, 1)
    return value


@engine_jit
def apply_take_nb(R, S, p, method, wr):
    """Meld T by the chosen method (step 3). Returns TAKE_PENDING when the side must still complete
    its initial meld from hand before the pile may be picked up, else TAKE_DONE."""
    st = S.st
    s = side_of_nb(R, p)
    melded = S.side[s, L.SD_MELDED] != 0
    if not melded:
        snapshot_nb(R, S, p)
    pn = st[L.S_PILE_N]
    ei = log_nb(S, L.EV_TAKE, p, method, 0, 0, 0)
    for i in range(pn):
        logc_nb(S, ei, S.pile[i])
    top = S.pile[pn - 1]
    st[L.S_PILE_N] = pn - 1
    r = rank_of_nb(top)
    m = S.side[s, L.SD_MOR + r]
    new = 0
    if m < 0:
        m = meld_new_nb(S, p, s, np.int64(L.MK_RANK), r)
        new = 1
    elif S.melds[s, m, L.F_TURN] != st[L.S_TURN] or S.melds[s, m, L.F_PLAYER] != p:
        st[L.S_ADDED_OLD] = 1
    em = log_nb(S, L.EV_MELD, p, m, new, L.MK_RANK, 0)
    meld_put_nb(R, S, s, m, top)
    logc_nb(S, em, top)
    value = value_nb(R, r)
    if meld_cap_nb(R) > 0:
        if method != L.TAKE_M3:
            value += capped_take_lay_nb(R, S, p, s, r, m, em, 2 if method == L.TAKE_M1 else 1,
                                        wr if method == L.TAKE_M2 else -1)
    elif method == L.TAKE_M1:
        value += lay_from_hand_nb(R, S, p, s, m, em, r, 2)
    elif method == L.TAKE_M2:
        value += lay_from_hand_nb(R, S, p, s, m, em, r, 1) + lay_from_hand_nb(R, S, p, s, m, em, wr, 1)
    st[L.S_TOOK] = 1
    st[L.S_LAIDT] = 1
    if not melded:
        st[L.S_PEND] = value
        if value >= S.side[s, L.SD_REQ]:
            S.side[s, L.SD_MELDED] = 1
            st[L.S_PEND] = -1
            pickup_nb(R, S, p)
            return L.TAKE_DONE
        st[L.S_PRE] = 1
        st[L.S_INCOMING] = st[L.S_PILE_N] - st[L.S_PILE_R3]
        return L.TAKE_PENDING
    pickup_nb(R, S, p)
    return L.TAKE_DONE
