"""Going out (§1.9) and the keep-a-card rule (§1.7): can a player still empty the hand this turn,
and the going out itself (concealed or not, R-13; by black threes, R-37). This module reads the
going-out rules (`going_out_canastas`, `going_out_discard`, `keep_last_card`,
`concealed_requires_partner_unmelded`).

The search is exact for rank-meld rules without a size cap: every hand card must end in a meld
except at most one final discard; singles need a meld of their rank, pairs need a wild, wilds need
room (meldtable.wild_room_nb per meld), black threes form one going-out meld, and the side must reach
the canasta count. It tries each possible discard and places wilds greedily (smallest canasta deficits
first), which is optimal because every wild fits any meld that still has room. Where wild melds exist
(Boat) the side's wild meld, or a new one of three, takes every wild the rank melds do not, so each
count of rank deficits filled is tried with the rest there (tests/engine/test_goout.py checks all of it
against a brute force on random positions). It runs only near the end of a hand or under a "yes":
step_ok_nb decides the common case inline.
"""

from .cards import is_natural_meld_rank_nb, is_red3_nb, rank_of_nb, side_of_nb, value_nb
from .jit import engine_jit
from .layout import (
    ANSWER_NO,
    ANSWER_YES,
    END_OUT,
    ERR_INVARIANT,
    EV_GOOUT,
    F_JOK,
    F_KIND,
    F_NAT,
    F_PLAYER,
    F_TURN,
    F_TWO,
    HC_N,
    HC_R,
    INV_GOING_OUT,
    MIN_MELD,
    MK_BLACK3,
    MK_RANK,
    MK_WILD,
    NR,
    R_CONC_PARTNER_UNMELDED,
    R_GO_CANASTAS,
    R_GO_DISCARD,
    R_KEEP_LAST,
    RK_2,
    RK_3,
    RK_JK,
    S_ADDED_OLD,
    S_ANSWER,
    S_B3_OUT,
    S_CHECK,
    S_CONCEALED,
    S_CUR,
    S_ENDED,
    S_ERR,
    S_ERR_A,
    S_LAID0,
    S_LASTR3,
    S_OUT_PLAYER,
    S_PEND,
    S_PILE_N,
    S_PRE,
    S_TOP_BAN,
    S_TURN,
    S_WORK,
    SD_MELDED,
    SD_MOR,
    SD_NM,
    SD_REQ,
)
from .log import log_nb
from .meldtable import (
    black3_close_bonus_nb,
    black3_meld_ok_nb,
    canasta_size_nb,
    canastas_nb,
    min_naturals_nb,
    msize_nb,
    wild_melds_nb,
    wild_room_nb,
)
from .opening import opening_still_needed_nb
from .score import concealed_bonus_nb

# work layout in st[S_WORK:]: hand by rank, naturals of the side's open meld of the rank, wilds in it,
# the meld exists, scratch for the canasta deficits, then the rank of a card that may not be discarded
W_TH, W_MN, W_MW, W_MEX, W_DEF, W_BAN = 0, NR, 2 * NR, 3 * NR, 4 * NR, 5 * NR


@engine_jit(inline="always")
def canastas_to_go_out_nb(R):
    """Canastas a side needs before one of its players may go out (`going_out_canastas`, R-17)."""
    return R[R_GO_CANASTAS]


@engine_jit
def _all_melded_nb(R, w, ncan, need, value_needed, discarded):
    """Can every card in w[W_TH:] be melded so that the side reaches `need` canastas? (`discarded`: a
    final discard follows, which a black-three close forbids, R-37.)"""
    b3 = w[W_TH + RK_3]
    if b3 > 0 and (not black3_meld_ok_nb(R, b3) or (discarded and black3_close_bonus_nb(R) > 0)):
        return False
    if value_needed > 0:
        v = 0
        for r in range(NR):
            v += w[W_TH + r] * value_nb(R, r)
        if v < value_needed:
            return False
    minnat = min_naturals_nb(R)
    csize = canasta_size_nb(R)
    wilds = w[W_TH + RK_2] + w[W_TH + RK_JK]
    mandatory = 0
    capacity = 0
    newcan = 0
    nd = 0
    for r in range(NR):
        if not is_natural_meld_rank_nb(r):
            continue
        h = w[W_TH + r]
        if w[W_MEX + r] != 0:
            before = w[W_MN + r] + w[W_MW + r]
            size = before + h
            cap = wild_room_nb(R, w[W_MN + r] + h, w[W_MW + r])
            if cap < 0:
                cap = 0
            capacity += cap
            if before < csize:
                if size >= csize:
                    newcan += 1
                elif csize - size <= cap:
                    w[W_DEF + nd] = csize - size
                    nd += 1
        elif h > 0:
            if h == 1:
                return False
            if h < MIN_MELD or h < minnat:
                # a pair (or too few naturals) needs wilds to reach three cards
                need_w = MIN_MELD - h
                if h < minnat:
                    return False
                mandatory += need_w
                size = MIN_MELD
                cap = wild_room_nb(R, h, need_w)
            else:
                size = h
                cap = wild_room_nb(R, h, 0)
            if cap < 0:
                return False
            capacity += cap
            if size >= csize:
                newcan += 1
            elif csize - size <= cap:
                w[W_DEF + nd] = csize - size
                nd += 1
    if wilds < mandatory:
        return False
    free = wilds - mandatory
    short = need - ncan - newcan
    # insertion sort of the deficits, then fill the smallest first
    for i in range(1, nd):
        x = w[W_DEF + i]
        j = i - 1
        while j >= 0 and w[W_DEF + j] > x:
            w[W_DEF + j + 1] = w[W_DEF + j]
            j -= 1
        w[W_DEF + j + 1] = x
    if wild_melds_nb(R) and (w[W_MEX + RK_JK] != 0 or free >= MIN_MELD):
        # the side's one wild meld (or a new one, of three or more) takes every wild the rank melds
        # do not, without a cap; it is a canasta once it reaches the size. Fill the k smallest deficits
        # of the rank melds, the rest to the wild meld, for every k.
        least = 0 if w[W_MEX + RK_JK] != 0 else MIN_MELD
        wsize = w[W_MN + RK_JK] + w[W_MW + RK_JK] if w[W_MEX + RK_JK] != 0 else 0
        used = 0
        for k in range(nd + 1):
            if k > 0:
                used += w[W_DEF + k - 1]
            rest = free - used
            if rest < least:
                break
            got = k + (1 if wsize < csize <= wsize + rest else 0)
            if got >= short:
                return True
        if w[W_MEX + RK_JK] != 0:
            return False  # with a wild meld on the table every placement was among those tried
    if free > capacity:
        return False
    if short <= 0:
        return True
    used = 0
    for i in range(nd):
        if short == 0:
            break
        used += w[W_DEF + i]
        if used > free:
            return False
        short -= 1
    return short <= 0


@engine_jit
def can_go_out_w_nb(R, w, ncan, need, value_needed):
    """Search over the final discard (none where the rules let the last card be melded, or one card
    of any rank class held). The card taken by a top-card draw may not be the discard (R-54): its rank
    can be discarded only while another card of that rank is held, the taken one melded."""
    if R[R_GO_DISCARD] == 0 and _all_melded_nb(R, w, ncan, need, value_needed, False):
        return True
    for d in range(NR):
        if w[W_TH + d] == 0 or (d == w[W_BAN] and w[W_TH + d] < 2):
            continue
        w[W_TH + d] -= 1
        ok = _all_melded_nb(R, w, ncan, need, value_needed, True)
        w[W_TH + d] += 1
        if ok:
            return True
    return False


@engine_jit(inline="always")
def banned_rank_nb(S, p):
    """Rank class of the card p took by a top-card draw and may not discard this turn (R-54), -1 none."""
    k = S.st[S_TOP_BAN]
    if k >= 0 and S.hand[p, k] > 0:
        return rank_of_nb(k)
    return -1


@engine_jit(inline="always")
def load_goout_nb(R, S, p):
    """Copy p's hand and p's side's open rank melds into the search's work area."""
    w = S.st[S_WORK:]
    s = side_of_nb(R, p)
    w[W_BAN] = banned_rank_nb(S, p)
    for r in range(NR):
        w[W_TH + r] = S.hand[p, HC_R + r]
        m = S.side[s, SD_MOR + r]
        if m >= 0 and S.melds[s, m, F_KIND] == MK_RANK:
            w[W_MEX + r] = 1
            w[W_MN + r] = S.melds[s, m, F_NAT]
            w[W_MW + r] = S.melds[s, m, F_TWO] + S.melds[s, m, F_JOK]
        elif m >= 0 and S.melds[s, m, F_KIND] == MK_WILD:  # the wild meld, at RK_JK: its jokers and twos
            w[W_MEX + r] = 1
            w[W_MN + r] = S.melds[s, m, F_JOK]
            w[W_MW + r] = S.melds[s, m, F_TWO]
        else:
            w[W_MEX + r] = 0
            w[W_MN + r] = 0
            w[W_MW + r] = 0
    return w


@engine_jit
def can_go_out_nb(R, S, p):
    """The player could empty the hand this turn with the side's melds as they stand (§1.9)."""
    s = side_of_nb(R, p)
    w = load_goout_nb(R, S, p)
    pend = S.st[S_PEND] if S.st[S_PEND] > 0 else 0
    return can_go_out_w_nb(R, w, canastas_nb(S, s), canastas_to_go_out_nb(R), opening_still_needed_nb(R, S, s, pend))


@engine_jit(inline="always")
def step_ok_nb(R, S, p, s, h_after, ncan_after, pend_after, dr, dnat, dwild, dnew, dhand_r, dhand_n):
    """Keep-a-card, going-out and binding-answer checks for one meld action (§1.7, §1.9, R-07).
    dr/dnat/dwild/dnew describe the change to the meld of rank dr; dhand_r/dhand_n a further
    change to the hand. An action that leaves at most one card is legal only if the player can
    still go out after it (the last card may be discarded or melded). The common case is
    decided here, inlined; the search runs only near the end of a hand or under a "yes"."""
    st = S.st
    if st[S_LASTR3] != 0:
        return h_after >= 1
    if h_after >= cards_kept_nb(R) and st[S_ANSWER] != ANSWER_YES:
        return True
    return step_search_nb(R, S, p, s, h_after, ncan_after, pend_after, dr, dnat, dwild, dnew, dhand_r, dhand_n)


@engine_jit
def step_search_nb(R, S, p, s, h_after, ncan_after, pend_after, dr, dnat, dwild, dnew, dhand_r, dhand_n):
    """The exact check behind step_ok_nb: after the action, can the player still go out (§1.9)?"""
    st = S.st
    if h_after <= 1:
        if st[S_ANSWER] == ANSWER_NO:
            return False
        if st[S_PRE] != 0 and pend_after < S.side[s, SD_REQ]:
            return False
    w = load_goout_nb(R, S, p)
    w[W_TH + dr] -= dnat
    if dnat > 0 and dr == w[W_BAN]:
        w[W_BAN] = -1  # a card taken alone from the top is the first of its rank to be melded
    if dhand_n > 0:
        w[W_TH + dhand_r] -= dhand_n
    if dnew != 0:
        w[W_MEX + dr] = 1
    w[W_MN + dr] += dnat
    w[W_MW + dr] += dwild
    return can_go_out_w_nb(R, w, ncan_after, canastas_to_go_out_nb(R), opening_still_needed_nb(R, S, s, pend_after))


@engine_jit
def take_ok_nb(R, S, p, s, r, nat_used, wild_r, h_after, ncan_after):
    """A pile take that leaves fewer cards than a player keeps must leave a way to go out (melded side)."""
    if h_after >= cards_kept_nb(R):
        return True
    w = load_goout_nb(R, S, p)
    w[W_TH + r] -= nat_used
    if wild_r >= 0:
        w[W_TH + wild_r] -= 1
    pn = S.st[S_PILE_N]
    for i in range(pn - 1):
        c = S.pile[i]
        if not is_red3_nb(c):
            w[W_TH + rank_of_nb(c)] += 1
    w[W_MEX + r] = 1
    w[W_MN + r] += 1 + nat_used
    if wild_r >= 0:
        w[W_MW + r] += 1
    return can_go_out_w_nb(R, w, ncan_after, canastas_to_go_out_nb(R), 0)


@engine_jit(inline="always")
def cards_kept_nb(R):
    """Cards a player who does not go out keeps after melding: one to discard and one to keep, or the
    last card alone, kept without a discard, where `keep_last_card` (Boat, R-38)."""
    return 1 if R[R_KEEP_LAST] != 0 else 2


@engine_jit(inline="always")
def keeps_last_card_nb(R, S, p):
    """R-38: a player left with one card who may not go out keeps it, and the turn ends with no discard."""
    if R[R_KEEP_LAST] == 0 or S.hand[p, HC_N] != 1:
        return False
    pend = S.st[S_PEND] if S.st[S_PEND] > 0 else 0
    return not may_empty_hand_nb(R, S, side_of_nb(R, p), pend)


@engine_jit(inline="always")
def may_empty_hand_nb(R, S, s, pend):
    """Stopping the meld phase with one card (to discard it) is going out: allowed only now that
    the side has its canastas, its initial meld, and no "no" answer binds the player."""
    p = S.st[S_CUR]
    return (S.st[S_ANSWER] != ANSWER_NO and canastas_nb(S, s) >= canastas_to_go_out_nb(R)
            and opening_still_needed_nb(R, S, s, pend) <= 0
            and (S.hand[p, HC_N] != 1 or banned_rank_nb(S, p) < 0))  # not the card just taken


@engine_jit
def go_out_nb(R, S, p):
    """The player has emptied the hand: the hand ends (reason out). Concealed (R-13): the player had
    laid nothing but red threes before this turn, added nothing this turn to a meld that existed
    before it, and started a canasta this turn."""
    st = S.st
    s = side_of_nb(R, p)
    st[S_ENDED] = END_OUT
    st[S_OUT_PLAYER] = p
    if st[S_CHECK] != 0 and (canastas_nb(S, s) < canastas_to_go_out_nb(R) or st[S_ANSWER] == ANSWER_NO):
        st[S_ERR] = ERR_INVARIANT  # going out needs the canastas and no "no" answer
        st[S_ERR_A] = INV_GOING_OUT
    if S.side[s, SD_MELDED] == 0:
        S.side[s, SD_MELDED] = 1  # a concealed going out opens the side (waiver, R-13)
    conc = 0
    if concealed_bonus_nb(R) > 0 and st[S_LAID0] == 0 and st[S_ADDED_OLD] == 0:
        for m in range(S.side[s, SD_NM]):
            row = S.melds[s, m]
            if row[F_TURN] == st[S_TURN] and row[F_PLAYER] == p and row[F_KIND] == MK_RANK \
                    and msize_nb(S, s, m) >= canasta_size_nb(R):
                conc = 1
        if R[R_CONC_PARTNER_UNMELDED] != 0:
            for m in range(S.side[s, SD_NM]):
                if S.melds[s, m, F_TURN] != st[S_TURN]:
                    conc = 0
    st[S_CONCEALED] = conc
    if black3_close_bonus_nb(R) > 0:
        for m in range(S.side[s, SD_NM]):
            row = S.melds[s, m]
            if row[F_KIND] == MK_BLACK3 and row[F_TURN] == st[S_TURN] and row[F_PLAYER] == p:
                st[S_B3_OUT] = 1  # closed by melding the black threes
    log_nb(S, EV_GOOUT, p, conc, 0, 0, 0)
