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

import numpy as np

from .cards import is_natural_meld_rank_nb, is_red3_nb, rank_of_nb, side_of_nb, value_nb
from .jit import engine_jit
from .layout import (
    ANSWER_NO,
    ANSWER_YES,
    CK_MIXED,
    CK_NATURAL,
    CK_SEVENS,
    CK_WILD,
    END_OUT,
    ERR_INVARIANT,
    EV_GOOUT,
    F_JOK,
    F_KIND,
    F_NAT,
    F_PLAYER,
    F_TURN,
    F_TWO,
    FOOT_DUE,
    FOOT_NONE,
    HC_N,
    HC_PACKET,
    HC_R,
    INV_GOING_OUT,
    MIN_MELD,
    MK_BLACK3,
    MK_RANK,
    MK_WILD,
    NCK,
    NR,
    R_CONC_PARTNER_UNMELDED,
    R_GO_CANASTAS,
    R_GO_DISCARD,
    R_GO_KINDS,
    R_KEEP_LAST,
    R_NSIDES,
    RK_2,
    RK_3,
    RK_7,
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
    S_FOOT_DUE,
    S_LAID0,
    S_LASTR3,
    S_OUT_PLAYER,
    S_PEND,
    S_PILE_N,
    S_PRE,
    S_TOP_BAN,
    S_TURN,
    S_WORK,
    SD_CAN,
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
    capped_take_split_nb,
    completed_kind_nb,
    foot_kinds_nb,
    meld_cap_nb,
    min_naturals_nb,
    msize_nb,
    seven_discardable_nb,
    sevens_banned_last_nb,
    sevens_kind_nb,
    wild_melds_nb,
    wild_room_nb,
)
from .opening import opening_still_needed_nb
from .score import concealed_bonus_nb
from .state import table_nb

# work layout in st[S_WORK:]: hand by rank, naturals of the side's open meld of the rank, wilds in it,
# the meld exists, scratch for the canasta deficits (or the capped search's tables), then the rank of a
# card that may not be discarded, the canasta kinds the side has (bits 1 << CK_*), and the kinds the
# player may not complete if it is to go out (its foot still face down, R-95; -1: no going out this turn)
W_TH, W_MN, W_MW, W_MEX, W_DEF, W_BAN = 0, NR, 2 * NR, 3 * NR, 4 * NR, 5 * NR
W_HAVE, W_FORBID = W_BAN + 1, W_BAN + 2
W_LEN = W_BAN + 3  # words of one work area
# the capped search's tables in the W_DEF block: by the kinds of this turn's rank canastas (none,
# natural, mixed, both), a bit set over the wilds the rank melds use
W_DP, W_NXT, W_F = W_DEF, W_DEF + 4, W_DEF + 8
KS_NONE, KS_NAT, KS_MIX, KS_BOTH = 0, 1, 2, 3  # kind sets: bit 0 natural (sevens for sevens), bit 1 mixed
KINDSETS = 4
MAXBITS = 62  # wilds the capped search places in rank melds, at most (a bit set in one int64)


@engine_jit(inline="always")
def canastas_to_go_out_nb(R):
    """Canastas a side needs before one of its players may go out (`going_out_canastas`, R-17)."""
    return R[R_GO_CANASTAS]


@engine_jit(inline="always")
def kinds_to_go_out_nb(R):
    """Canasta kinds (bits 1 << CK_*) a side needs one of each of to go out (`going_out_kinds`:
    Pennies and Railroad, all four)."""
    return R[R_GO_KINDS]


@engine_jit(inline="always")
def side_kinds_nb(S, s):
    """The canasta kinds side s has completed, as bits 1 << CK_*."""
    k = 0
    for c in range(NCK):
        if S.side[s, SD_CAN + c] > 0:
            k |= 1 << c
    return k


@engine_jit
def final_wild_cap_nb(R, r, f):
    """Most wilds in a meld of f cards of rank class r that keeps its naturals (§1.4); -1 if none fits."""
    best = -1
    for x in range(f + 1):
        if f - x >= min_naturals_nb(R) and wild_room_nb(R, r, f - x, x) >= 0:
            best = x
    return best


@engine_jit
def chain_kinds_nb(R, r, hn, y, wc):
    """Capped melds (R-92): `hn` naturals of rank class r and y wilds laid as new melds, each closed
    at the cap before the next starts, the last one 3 to cap cards. Returns a bit set over the kind
    sets (KINDSETS) the closed ones can be, 0 if the cards cannot be laid so. wc: most wilds in a
    closed meld of r."""
    cap = meld_cap_nb(R)
    if hn == 0:
        return 1 if y == 0 else 0
    t = hn + y
    if t < MIN_MELD:
        return 0
    q = (t - MIN_MELD) // cap
    f = t - q * cap
    if f > cap:
        return 0  # a last meld of one or two cards: never valid
    if f == cap:
        cc = q + 1
        total = (q + 1) * wc
        fc = wc
    else:
        cc = q
        fc = final_wild_cap_nb(R, r, f)
        total = q * wc + fc
    if fc < 0 or y > total:
        return 0
    if cc == 0:
        return 1
    out = 0
    if (f < cap and y <= fc) or y == 0:
        out |= 1 << KS_NAT  # every closed meld natural
    if y >= cc:
        out |= 1 << KS_MIX  # every closed meld mixed
    if cc >= 2 and 1 <= y <= total - wc:
        out |= 1 << KS_BOTH  # some of each
    return out


@engine_jit
def rank_options_nb(R, w, r, wmax, out):
    """For rank class r, out[k] = the bit set over the wilds x its hand cards can be laid with (the
    open meld closed first, R-92) completing kind set k this turn."""
    cap = meld_cap_nb(R)
    for k in range(KINDSETS):
        out[k] = 0
    h = w[W_TH + r]
    wc = final_wild_cap_nb(R, r, cap)
    if w[W_MEX + r] == 0:
        for y in range(wmax + 1):
            ks = chain_kinds_nb(R, r, h, y, wc)
            for k in range(KINDSETS):
                if (ks >> k) & 1:
                    out[k] |= 1 << y
        return
    n0 = w[W_MN + r]
    w0 = w[W_MW + r]
    c0 = cap - n0 - w0
    for a in range(min(h, c0) + 1):
        for b in range(c0 - a + 1):
            if b > wmax or wild_room_nb(R, r, n0 + a, w0 + b) < 0:
                continue
            if a + b < c0:
                if a == h:
                    out[0] |= 1 << b  # the open meld takes every natural and stays open
                continue
            k0 = KS_NAT if w0 + b == 0 else KS_MIX  # the open meld closes, natural or mixed
            for y in range(wmax - b + 1):
                ks = chain_kinds_nb(R, r, h - a, y, wc)
                for k in range(KINDSETS):
                    if (ks >> k) & 1:
                        out[k | k0] |= 1 << (b + y)


@engine_jit(inline="always")
def wild_chain_nb(R, w, left):
    """`left` wilds laid in wild melds (R-91): the open one closed first, then new ones of 3 to cap.
    Returns -1 if they cannot be, else 1 if a wild canasta is completed this turn, 0 if not."""
    if left == 0:
        return 0
    if not wild_melds_nb(R):
        return -1
    cap = meld_cap_nb(R)
    done = 0
    if w[W_MEX + RK_JK] != 0:
        room = cap - w[W_MN + RK_JK] - w[W_MW + RK_JK]
        if left <= room:
            return 1 if left == room else 0
        left -= room
        done = 1
    if left < MIN_MELD or left - ((left - MIN_MELD) // cap) * cap > cap:
        return -1
    return 1 if done or left >= cap else 0


@engine_jit
def _capped_all_melded_nb(R, w, ncan, need):
    """_all_melded_nb where melds close at `meld_cap` (Pennies, Railroad): every card melded, each
    rank's open meld closed before a new one starts, sevens without wilds, the wilds rank melds do
    not take in wild melds; the side must then have one canasta of each kind `going_out_kinds` names
    and none this turn of a kind that would bring the player's foot (W_FORBID). A dynamic programme
    over the ranks on the wilds used and the kinds completed (exact up to MAXBITS wilds)."""
    wilds = w[W_TH + RK_2] + w[W_TH + RK_JK]
    wmax = wilds if wilds < MAXBITS else MAXBITS
    dp = w[W_DP:W_DP + KINDSETS]
    nxt = w[W_NXT:W_NXT + KINDSETS]
    f = w[W_F:W_F + KINDSETS]
    for k in range(KINDSETS):
        dp[k] = 0
    dp[0] = 1
    full = (1 << (wmax + 1)) - 1
    sevens = 1  # bit set over (0: no sevens canasta this turn, 1: one)
    for r in range(NR):
        if not is_natural_meld_rank_nb(r):
            continue
        rank_options_nb(R, w, r, wmax, f)
        if r == RK_7 and sevens_kind_nb(R):
            sevens = (f[0] & 1) | ((f[1] & 1) << 1)  # sevens take no wild
            if sevens == 0:
                return False
            continue
        for k in range(KINDSETS):
            nxt[k] = 0
        for ka in range(KINDSETS):
            if dp[ka] == 0:
                continue
            for kb in range(KINDSETS):
                fb = f[kb]
                x = 0
                while fb != 0:
                    if fb & 1:
                        nxt[ka | kb] |= (dp[ka] << x) & full
                    fb >>= 1
                    x += 1
        anyk = 0
        for k in range(KINDSETS):
            dp[k] = nxt[k]
            anyk |= nxt[k]
        if anyk == 0:
            return False
    req = kinds_to_go_out_nb(R)
    forbid = w[W_FORBID]
    have = w[W_HAVE]
    for ka in range(KINDSETS):
        bits = dp[ka]
        x = 0
        while bits != 0:
            if bits & 1:
                wc = wild_chain_nb(R, w, wilds - x)
                if wc >= 0:
                    for sv in range(2):
                        if not (sevens >> sv) & 1:
                            continue
                        new = 0
                        if ka & KS_NAT:
                            new |= 1 << CK_NATURAL
                        if ka & KS_MIX:
                            new |= 1 << CK_MIXED
                        if wc == 1:
                            new |= 1 << CK_WILD
                        if sv == 1:
                            new |= 1 << CK_SEVENS
                        if new & forbid == 0 and ((have | new) & req) == req and (
                                need <= 0 or ncan > 0 or new != 0):
                            return True
            bits >>= 1
            x += 1
    return False


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
    if meld_cap_nb(R) > 0:
        return _capped_all_melded_nb(R, w, ncan, need)
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
            cap = wild_room_nb(R, r, w[W_MN + r] + h, w[W_MW + r])
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
                cap = wild_room_nb(R, r, h, need_w)
            else:
                size = h
                cap = wild_room_nb(R, r, h, 0)
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
    can be discarded only while another card of that rank is held, the taken one melded; a seven never
    is the last discard where `sevens_discard_ban` (R-97). W_FORBID < 0: no going out this turn."""
    if w[W_FORBID] < 0:
        return False
    if R[R_GO_DISCARD] == 0 and _all_melded_nb(R, w, ncan, need, value_needed, np.bool_(False)):
        return True
    for d in range(NR):
        if w[W_TH + d] == 0 or (d == w[W_BAN] and w[W_TH + d] < 2):
            continue
        if d == RK_7 and sevens_banned_last_nb(R):
            continue
        w[W_TH + d] -= 1
        ok = _all_melded_nb(R, w, ncan, need, value_needed, np.bool_(True))
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
def foot_forbid_nb(R, S, p):
    """W_FORBID for seat p in turn: -1 once its foot is due or was picked up this turn (the pickup comes
    first and the player is not out, R-95, R-159); while its foot is face down, the canasta kinds that
    would bring it (going out must complete none, R-95, R-114); else 0."""
    if S.st[S_FOOT_DUE] != FOOT_NONE:
        return -1
    if S.hand[p, HC_PACKET] > 0:
        return foot_kinds_nb(R)
    return 0


@engine_jit(inline="always")
def load_goout_nb(R, S, p):
    """Copy p's hand and p's side's open rank melds into the search's work area."""
    w = S.st[S_WORK:]
    s = side_of_nb(R, p)
    w[W_BAN] = banned_rank_nb(S, p)
    w[W_HAVE] = side_kinds_nb(S, s) if kinds_to_go_out_nb(R) != 0 else 0
    w[W_FORBID] = foot_forbid_nb(R, S, p)
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


@engine_jit(inline="always")
def can_go_out_nb(R, S, p):
    """The player could empty the hand this turn with the side's melds as they stand (§1.9)."""
    s = side_of_nb(R, p)
    w = load_goout_nb(R, S, p)
    pend = S.st[S_PEND] if S.st[S_PEND] > 0 else 0
    return can_go_out_w_nb(R, w, canastas_nb(S, s), canastas_to_go_out_nb(R), opening_still_needed_nb(R, S, s, pend))


@engine_jit
def close_at_cap_nb(R, w, r):
    """Where melds close at `meld_cap` (R-92): the meld of rank class r in the work area w (RK_JK: the
    wild meld, jokers at W_MN) that has reached the cap leaves the open melds and its kind joins W_HAVE.
    Returns True when that kind brings the player's foot (W_FORBID becomes -1: no going out this turn,
    R-95, R-114). Shared with the heuristic's planner."""
    cap = meld_cap_nb(R)
    if cap == 0 or w[W_MEX + r] == 0 or w[W_MN + r] + w[W_MW + r] < cap:
        return False
    if r == RK_JK:
        kind = completed_kind_nb(R, r, 0, w[W_MN + r] + w[W_MW + r], w[W_MN + r])
    else:
        kind = completed_kind_nb(R, r, w[W_MN + r], w[W_MW + r], 0)
    w[W_HAVE] |= 1 << kind
    w[W_MEX + r] = 0
    w[W_MN + r] = 0
    w[W_MW + r] = 0
    if w[W_FORBID] > 0 and (w[W_FORBID] >> kind) & 1:
        w[W_FORBID] = -1
        return True
    return False


@engine_jit(inline="always")
def sevens_left_nb(R, S, p, s, h_after, dr, dnat, dhand_r, dhand_n):
    """Pennies (§3.8 turn step 8): no meld may leave a hand of sevens only while no seven may be
    discarded, counting the sevens canasta this very meld completes, and while a taken pile waits for
    the opening (S_PRE) the sevens in it, which h_after counts too."""
    if not sevens_banned_last_nb(R) or h_after == 0:
        return False
    sev = S.hand[p, HC_R + RK_7] - (dnat if dr == RK_7 else 0) - (dhand_n if dhand_r == RK_7 else 0)
    if S.st[S_PRE] != 0:
        for i in range(S.st[S_PILE_N]):
            if rank_of_nb(S.pile[i]) == RK_7:
                sev += 1
    if sev != h_after or seven_discardable_nb(R, S.side):
        return False
    return not (dr == RK_7 and completes_last_sevens_nb(R, S, s, dnat))


@engine_jit
def completes_last_sevens_nb(R, S, s, dnat):
    """Laying `dnat` sevens on side s's open sevens meld completes its sevens canasta, and every other
    side has one already: sevens become discardable (R-97)."""
    m = S.side[s, SD_MOR + RK_7]
    if m < 0 or msize_nb(S, s, m) + dnat < canasta_size_nb(R):
        return False
    for t in range(R[R_NSIDES]):
        if t != s and S.side[t, SD_CAN + CK_SEVENS] == 0:
            return False
    return True


@engine_jit(inline="always")
def sevens_stuck_nb(R, S, p):
    """Seat p holds sevens only and may discard none of them (Pennies: the all-sevens end, §3.8 turn
    step 8; a single seven is never the going-out discard, R-97)."""
    h = S.hand[p, HC_N]
    if not sevens_banned_last_nb(R) or h == 0 or S.hand[p, HC_R + RK_7] != h:
        return False
    return not seven_discardable_nb(R, S.side) or (h == 1 and S.st[S_FOOT_DUE] != FOOT_DUE)


@engine_jit(inline="always")
def step_ok_nb(R, S, p, s, h_after, ncan_after, pend_after, dr, dnat, dwild, dnew, dhand_r, dhand_n):
    """Keep-a-card, going-out and binding-answer checks for one meld action (§1.7, §1.9, R-07).
    dr/dnat/dwild/dnew describe the change to the meld of rank dr; dhand_r/dhand_n a further
    change to the hand. An action that leaves at most one card is legal only if the player can
    still go out after it (the last card may be discarded or melded). The common case is
    decided here, inlined at every option of the meld phase, so it stays this small: the rest,
    a variant's further checks (Pennies' sevens) included, is step_search_nb, called (compiled once,
    not copied into every option) with the five arrays it reads and int64 values (a constant would
    compile a copy of it per value)."""
    st = S.st
    if st[S_LASTR3] != 0:
        return h_after >= 1
    if h_after >= cards_kept_nb(R) and st[S_ANSWER] != ANSWER_YES and not sevens_banned_last_nb(R):
        return True
    return step_search_nb(R, table_nb(S), np.int64(p), np.int64(s), np.int64(h_after), np.int64(ncan_after),
                          np.int64(pend_after), np.int64(dr), np.int64(dnat), np.int64(dwild), np.int64(dnew),
                          np.int64(dhand_r), np.int64(dhand_n))


STEP_NO, STEP_YES, STEP_SEARCH = 0, 1, 2  # sevens_step_nb: the action is illegal, legal, or needs the search


@engine_jit
def sevens_step_nb(R, S, p, s, h_after, dr, dnat, dhand_r, dhand_n):
    """step_ok_nb's common case where a seven may not always be discarded (Pennies, §3.8 turn step 8):
    no meld may leave a hand of undiscardable sevens ("if possible, you must play to avoid this"),
    but a hand that already is one may meld all but one of its sevens."""
    if sevens_left_nb(R, S, p, s, h_after, dr, dnat, dhand_r, dhand_n):
        if not sevens_stuck_nb(R, S, p):
            return STEP_NO
        return STEP_YES if S.st[S_ANSWER] != ANSWER_YES else STEP_SEARCH
    if h_after >= cards_kept_nb(R) and S.st[S_ANSWER] != ANSWER_YES:
        return STEP_YES
    return STEP_SEARCH


@engine_jit(inline="always")
def black3_laid_nb(S, s):
    """Side s has a black-three meld on the table: one laid this turn by a player who must now go out
    (black threes are melded only as part of going out, R-15, R-121, R-151)."""
    for m in range(S.side[s, SD_NM]):
        if S.melds[s, m, F_KIND] == MK_BLACK3:
            return True
    return False


@engine_jit
def step_search_nb(R, S, p, s, h_after, ncan_after, pend_after, dr, dnat, dwild, dnew, dhand_r, dhand_n):
    """The exact check behind step_ok_nb: after the action, can the player still go out (§1.9)? With
    the foot due, the action is fine while a card is left to discard, or (where the last card may be
    melded) the hand empties and the foot comes at once (R-95). S: a state.Table (table_nb)."""
    st = S.st
    if sevens_banned_last_nb(R):
        step = sevens_step_nb(R, S, p, s, h_after, dr, dnat, dhand_r, dhand_n)
        if step != STEP_SEARCH:
            return step == STEP_YES
    if h_after <= 1 and st[S_PRE] != 0 and pend_after < S.side[s, SD_REQ]:
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
    due_now = close_at_cap_nb(R, w, dr)
    needed = opening_still_needed_nb(R, S, s, pend_after)
    if (due_now or st[S_FOOT_DUE] == FOOT_DUE) and st[S_ANSWER] != ANSWER_YES \
            and dr != RK_3 and not black3_laid_nb(S, s):
        # the foot comes after the discard (or at once, the hand emptied by melding: R-95); black threes
        # are melded only by a player going out, which a player picking up its foot is not
        if h_after >= 1:
            return True
        return R[R_GO_DISCARD] == 0 and needed <= 0
    if h_after <= 1 and st[S_ANSWER] == ANSWER_NO:
        return False
    return can_go_out_w_nb(R, w, ncan_after, canastas_to_go_out_nb(R), needed)


@engine_jit
def take_ok_nb(R, S, p, s, r, nat_used, wild_r, h_after, ncan_after):
    """A pile take that leaves fewer cards than a player keeps must leave a way to go out (melded side)."""
    if h_after >= cards_kept_nb(R):
        return True
    if meld_cap_nb(R) > 0:
        return capped_take_ok_nb(R, S, p, s, r, nat_used, wild_r, h_after, ncan_after)
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
    return can_go_out_w_nb(R, w, ncan_after, canastas_to_go_out_nb(R), np.int64(0))


@engine_jit
def capped_take_ok_nb(R, S, p, s, r, nat_used, wild_r, h_after, ncan_after):
    """take_ok_nb where melds close at the cap (R-92): the take laid as pile.capped_take_lay_nb lays it
    (the open meld closed first, the rest and the extra naturals a new meld), the pile in the hand;
    then the player must be able to go out, or the take brings its foot (R-95: one card left to
    discard, or none where the last card may be melded)."""
    w = load_goout_nb(R, S, p)
    mn = w[W_MN + r] if w[W_MEX + r] != 0 else 0
    mw = w[W_MW + r] if w[W_MEX + r] != 0 else 0
    a, b, nn, nw, extra = capped_take_split_nb(R, r, mn, mw, nat_used, wild_r)
    if extra < 0:
        return False
    w[W_TH + r] -= nat_used + extra
    if wild_r >= 0:
        w[W_TH + wild_r] -= 1
    pn = S.st[S_PILE_N]
    for i in range(pn - 1):
        c = S.pile[i]
        if not is_red3_nb(c):
            w[W_TH + rank_of_nb(c)] += 1
    w[W_MEX + r] = 1
    w[W_MN + r] = mn + a
    w[W_MW + r] = mw + b
    due = close_at_cap_nb(R, w, r)
    if nn + nw > 0:
        w[W_MEX + r] = 1
        w[W_MN + r] = nn + extra
        w[W_MW + r] = nw
    if due or S.st[S_FOOT_DUE] == FOOT_DUE:
        return h_after >= 1 or R[R_GO_DISCARD] == 0
    return can_go_out_w_nb(R, w, ncan_after, canastas_to_go_out_nb(R), np.int64(0))


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
    if S.hand[p, HC_N] == 1 and S.hand[p, HC_R + RK_7] == 1 and sevens_banned_last_nb(R):
        return False  # never a seven as the going-out discard
    return (S.st[S_ANSWER] != ANSWER_NO and canastas_nb(S, s) >= canastas_to_go_out_nb(R)
            and has_kinds_to_go_out_nb(R, S, s) and S.st[S_FOOT_DUE] == FOOT_NONE
            and opening_still_needed_nb(R, S, s, pend) <= 0
            and (S.hand[p, HC_N] != 1 or banned_rank_nb(S, p) < 0))  # not the card just taken


@engine_jit(inline="always")
def has_kinds_to_go_out_nb(R, S, s):
    """Side s has one canasta of each kind `going_out_kinds` names."""
    req = kinds_to_go_out_nb(R)
    return req == 0 or (side_kinds_nb(S, s) & req) == req


@engine_jit
def go_out_nb(R, S, p):
    """The player has emptied the hand: the hand ends (reason out). Concealed (R-13): the player had
    laid nothing but red threes before this turn, added nothing this turn to a meld that existed
    before it, and started a canasta this turn."""
    st = S.st
    s = side_of_nb(R, p)
    st[S_ENDED] = END_OUT
    st[S_OUT_PLAYER] = p
    if st[S_CHECK] != 0 and (canastas_nb(S, s) < canastas_to_go_out_nb(R) or st[S_ANSWER] == ANSWER_NO
                             or not has_kinds_to_go_out_nb(R, S, s) or st[S_FOOT_DUE] != FOOT_NONE):
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
