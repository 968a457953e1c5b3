"""The meld phase (§1.4, §1.7): one meld action at a time (enumerate, apply), until the player stops.

Melds laid while the side has not met its minimum are pending; the side has melded the moment they
reach the requirement, and they are given back if the player stops short (rules-notes.md). Every
action keeps a card to discard unless the player can go out after it (goout.step_ok_nb). Black
threes are melded only when going out (R-15)."""

import numpy as np

from . import layout as L
from .cards import is_natural_meld_rank_nb, side_of_nb, value_nb
from .decide import add_opt_nb, choose_nb
from .goout import step_ok_nb
from .gorules import cards_kept_nb, may_empty_hand_nb, sevens_stuck_nb
from .invariants import check_nb
from .jit import engine_jit
from .link import separate
from .log import log_nb
from .meldtable import (
    black3_close_bonus_nb,
    black3_meld_max_nb,
    black3_meld_min_nb,
    canasta_size_nb,
    canastas_nb,
    lay_from_hand_nb,
    meld_new_nb,
    min_naturals_nb,
    wild_melds_nb,
    wild_room_nb,
)
from .opening import opening_round_nb
from .packet import foot_due_nb, pick_up_foot_nb
from .pile import pickup_nb, rollback_nb, snapshot_nb


@engine_jit
def enum_wild_meld_nb(R, S, p, s, h, ncan, pend, n):
    """Boat's wild meld (R-35): add a joker or a two to the side's wild meld, or start it with three
    wild cards (every mix of jokers and twos held); never a natural card."""
    hand = S.hand
    jk = hand[p, L.HC_R + L.RK_JK]
    tw = hand[p, L.HC_R + L.RK_2]
    vj = value_nb(R, L.RK_JK)
    vt = value_nb(R, L.RK_2)
    m = S.side[s, L.SD_MOR + L.RK_JK]
    if m >= 0:
        size = S.melds[s, m, L.F_JOK] + S.melds[s, m, L.F_TWO]
        grows = 1 if size == canasta_size_nb(R) - 1 else 0
        if jk >= 1 and step_ok_nb(R, S, p, s, h - 1, ncan + grows, pend + vj, L.RK_JK, 1, 0, 0, 0, 0):
            n = add_opt_nb(S, n, L.O_ADD, m, L.RK_JK, 0)
        if tw >= 1 and step_ok_nb(R, S, p, s, h - 1, ncan + grows, pend + vt, L.RK_JK, 0, 1, 0, L.RK_2, 1):
            n = add_opt_nb(S, n, L.O_ADD, m, L.RK_2, 0)
        return n
    for j in range(L.MIN_MELD + 1):
        t = L.MIN_MELD - j
        if j <= jk and t <= tw and step_ok_nb(R, S, p, s, h - L.MIN_MELD, ncan, pend + j * vj + t * vt,
                                             L.RK_JK, j, t, 1, L.RK_2, t):
            n = add_opt_nb(S, n, L.O_WILD, j, t, 0)
    return n


@engine_jit(inline="always")
def enum_meld_nb(R, S, p):
    """The legal meld actions of seat p now: start a rank meld (three naturals, or two and a wild),
    add a natural or a wild to an open meld of the side, meld black threes when going out, or stop."""
    st = S.st
    hand = S.hand
    side = S.side
    melds = S.melds
    s = side_of_nb(R, p)
    h = S.hand[p, L.HC_N] + (st[L.S_INCOMING] if st[L.S_PRE] != 0 else 0)
    ncan = canastas_nb(S, s)
    minnat = min_naturals_nb(R)
    last = canasta_size_nb(R) - 1  # one card short of a canasta
    pend = st[L.S_PEND]
    n = 0
    for r in range(L.NR):
        if not is_natural_meld_rank_nb(r):
            continue
        nat = hand[p, L.HC_R + r]
        v = value_nb(R, r)
        m = side[s, L.SD_MOR + r]
        if m >= 0:
            mw = melds[s, m, L.F_TWO] + melds[s, m, L.F_JOK]
            size = melds[s, m, L.F_NAT] + mw
            grows = 1 if size == last else 0
            if nat >= 1 and step_ok_nb(R, S, p, s, h - 1, ncan + grows, pend + v, r, 1, 0, 0, 0, 0):
                n = add_opt_nb(S, n, L.O_ADD, m, -1, 0)
            if wild_room_nb(R, r, melds[s, m, L.F_NAT], mw) >= 1:
                for wr in L.WILD_RANKS:
                    if hand[p, L.HC_R + wr] >= 1 and step_ok_nb(R, S, p, s, h - 1, ncan + grows,
                                                       pend + value_nb(R, wr), r, 0, 1, 0, wr, 1):
                        n = add_opt_nb(S, n, L.O_ADD, m, wr, 0)
        else:
            if nat >= L.MIN_MELD and minnat <= L.MIN_MELD:  # a natural meld
                if step_ok_nb(R, S, p, s, h - L.MIN_MELD, ncan, pend + L.MIN_MELD * v, r, L.MIN_MELD, 0, 1, 0, 0):
                    n = add_opt_nb(S, n, L.O_NEW, r, L.MIN_MELD, -1)
            if nat >= 2 and minnat <= 2 and wild_room_nb(R, r, 2, 0) >= 1:
                for wr in L.WILD_RANKS:
                    if hand[p, L.HC_R + wr] >= 1 and step_ok_nb(R, S, p, s, h - L.MIN_MELD, ncan,
                                                       pend + 2 * v + value_nb(R, wr), r, 2, 1, 1, wr, 1):
                        n = add_opt_nb(S, n, L.O_NEW, r, 2, wr)
    if wild_melds_nb(R):
        n = enum_wild_meld_nb(R, S, p, s, h, ncan, pend, np.int64(n))
    b3 = hand[p, L.HC_R + L.RK_3]
    b3max = black3_meld_max_nb(R)
    # never on a turn ended by a red three drawn as the last stock card: no discard follows, so the
    # player is not going out
    if b3max > 0 and b3 >= black3_meld_min_nb(R) and st[L.S_PRE] == 0 and st[L.S_LASTR3] == 0:
        top = b3 if b3 < b3max else b3max
        left = 0 if black3_close_bonus_nb(R) > 0 else 1  # a black-three close melds the last cards
        for c in range(black3_meld_min_nb(R), top + 1):
            # only as part of going out: nothing but a final discard may remain
            if h - c <= left and step_ok_nb(R, S, p, s, h - c, ncan, pend + c * value_nb(R, L.RK_3),
                                            L.RK_3, 0, 0, 0, L.RK_3, c):
                n = add_opt_nb(S, n, L.O_BLACK3, c, 0, 0)
    if st[L.S_LASTR3] != 0:
        n = add_opt_nb(S, n, L.O_STOP, 0, 0, 0)
    elif h <= 1 and st[L.S_PRE] == 0:
        # stopping here means discarding the last card: that is going out, so it must be legal now, or
        # it brings the foot; or keeping it without a discard where the rules allow; or a
        # seven that may not be discarded, which ends a Pennies hand (§3.8 turn step 8)
        if may_empty_hand_nb(R, S, s, pend) or (cards_kept_nb(R) <= h and st[L.S_ANSWER] != L.ANSWER_YES) \
                or (foot_due_nb(S) and st[L.S_ANSWER] != L.ANSWER_YES) or sevens_stuck_nb(R, S, p):
            n = add_opt_nb(S, n, L.O_STOP, 0, 0, 0)
    elif st[L.S_ANSWER] != L.ANSWER_YES:
        n = add_opt_nb(S, n, L.O_STOP, 0, 0, 0)
    return n


@engine_jit(inline="always")
def apply_meld_nb(R, S, p, i):
    """Lay the meld action S.opts[i] (not O_STOP); the side has melded once the pending value
    reaches its minimum."""
    st = S.st
    s = side_of_nb(R, p)
    t = S.opts[i, L.OPT_KIND]
    a = S.opts[i, L.OPT_A]
    b = S.opts[i, L.OPT_B]
    c = S.opts[i, L.OPT_C]
    # which meld row takes which cards: (r1, n1), then (r2, n2); one copy of each inlined call
    r2 = 0
    n2 = 0
    if t == L.O_ADD:
        m = a
        if S.melds[s, m, L.F_TURN] != st[L.S_TURN] or S.melds[s, m, L.F_PLAYER] != p:
            st[L.S_ADDED_OLD] = 1
        kind = S.melds[s, m, L.F_KIND]
        r1 = S.melds[s, m, L.F_RANK] if b < 0 else b
        n1 = 1
    else:
        if t == L.O_NEW:
            kind, rank, r1, n1 = L.MK_RANK, a, a, b
            if c >= 0:
                r2, n2 = c, 1
        elif t == L.O_WILD:
            kind, rank, r1, n1, r2, n2 = L.MK_WILD, L.RK_JK, L.RK_JK, a, L.RK_2, b
        else:  # O_BLACK3
            kind, rank, r1, n1 = L.MK_BLACK3, L.RK_3, L.RK_3, a
        m = meld_new_nb(S, p, s, np.int64(kind), np.int64(rank))
    ei = log_nb(S, L.EV_MELD, p, m, 0 if t == L.O_ADD else 1, kind, 0)
    value = lay_from_hand_nb(R, S, p, s, m, ei, r1, n1)
    if n2 > 0:
        value += lay_from_hand_nb(R, S, p, s, m, ei, r2, n2)
    st[L.S_LAIDT] = 1
    if st[L.S_PEND] >= 0:
        st[L.S_PEND] += value
        if st[L.S_PEND] >= S.side[s, L.SD_REQ]:
            S.side[s, L.SD_MELDED] = 1
            st[L.S_PEND] = -1


@engine_jit(inline="always")
def meld_step_nb(R, S, p, i):
    """Carry out the meld phase's choice S.opts[i]. Returns MELD_NEXT when the phase asks for the
    next action, else how the phase ends: stopping gives a pending opening short of the minimum back
    (MELD_ROLLED_BACK for a pending pile take), and the melds that complete a pending take's
    opening pick the pile up (MELD_PICKED_UP)."""
    st = S.st
    s = side_of_nb(R, p)
    if S.opts[i, L.OPT_KIND] == L.O_STOP:
        if st[L.S_PRE] != 0:
            rollback_nb(R, S, p)
            return L.MELD_ROLLED_BACK
        if st[L.S_PEND] > 0 and not (S.hand[p, L.HC_N] <= 1 and st[L.S_LASTR3] == 0
                                   and may_empty_hand_nb(R, S, s, st[L.S_PEND])):
            # short of the minimum and not going out (a last card kept, R-38, included): the cards go
            # back to the hand
            rollback_nb(R, S, p)
        st[L.S_PEND] = -1
        return L.MELD_ON
    apply_meld_nb(R, S, p, i)
    check_nb(R, S, L.CHECK_IN_TURN)
    if st[L.S_PRE] != 0 and S.side[s, L.SD_MELDED] != 0:
        pickup_nb(R, S, p)
        return L.MELD_PICKED_UP
    return L.MELD_NEXT


@engine_jit(inline="always")
def meld_phase_nb(R, S, F, p):
    """Meld actions until the player stops. Returns MELD_ON (go on to the discard), MELD_OUT (the
    hand is empty), MELD_ROLLED_BACK (a pending pile take was abandoned) or MELD_PICKED_UP (the
    pending pile was picked up)."""
    return meld_phase_from_nb(R, S, F, p, np.int64(-1))  # an int64, not a constant: one compiled copy


@separate
@engine_jit
def meld_phase_from_nb(R, S, F, p, i):
    """The meld phase from its start (i < 0: a side that has not melded opens pending, with a
    snapshot to give back), or entered at a decision already asked, choice i (a search's rollout,
    turn.turn_nb); then meld actions until it ends, as meld_phase_nb says."""
    st = S.st
    if i < 0:
        if opening_round_nb(R, S, p):
            return L.MELD_ON  # Boat's opening rounds: no melding
        if S.side[side_of_nb(R, p), L.SD_MELDED] == 0 and st[L.S_PRE] == 0:
            snapshot_nb(R, S, p)
            st[L.S_PEND] = 0
    while True:
        if i >= 0:  # the choice made (on entry, or just asked): one copy of the inlined step
            res = meld_step_nb(R, S, p, i)
            if res != L.MELD_NEXT:
                return res
        if S.hand[p, L.HC_N] == 0 and st[L.S_PRE] == 0 and st[L.S_LASTR3] == 0:
            if not foot_due_nb(S):
                return L.MELD_OUT  # e.g. the pile was taken with the last cards of the hand
            # the hand emptied by melding with the foot due: at once
            pick_up_foot_nb(R, S, p, np.int64(L.KNOCK_NONE))
        n = enum_meld_nb(R, S, p)
        if n == 0:
            st[L.S_ERR] = L.ERR_STUCK
            return L.MELD_ON
        i = choose_nb(R, S, F, p, L.DP_MELD, n)
        if st[L.S_ERR] != 0:
            return L.MELD_ON
