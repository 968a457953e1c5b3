"""The going-out search (§1.9): can every card of a hand, given as counts by rank class, be melded
onto the side's open melds, given as counts too, so that the side reaches its canastas, with at most
one final discard? It works on plain arrays (the work area below and the rules array) and reads no
state: goout.py loads the work area from the state, and the heuristic strategy from its observation.
Each rule it needs it asks the rule's owner (meldtable.py, gorules.py).

The search is exact for rank-meld rules without a size cap: every hand card must end in a meld
except at most one final discard; singles need a meld of their rank, pairs need a wild, wilds need
room (meldtable.wild_room_nb per meld), black threes form one going-out meld (R-37), and the side must
reach the canasta count (R-17). It tries each possible discard and places wilds greedily (smallest
canasta deficits first), which is optimal because every wild fits any meld that still has room. Where
wild melds exist (Boat, R-35) the side's wild meld, or a new one of three, takes every wild the rank
melds do not, so each count of rank deficits filled is tried with the rest there. Where melds close at
a cap (Pennies, Railroad, R-92) a second search, a dynamic programme over the ranks, places the cards
(tests/engine/test_goout.py checks all of it against a brute force on random positions). It runs
only near the end of a hand or under a "yes": goout.step_ok_nb decides the common case inline.
"""

import numpy as np

from .cards import is_natural_meld_rank_nb, value_nb
from .gorules import go_out_discard_nb, kinds_to_go_out_nb
from .jit import engine_jit
from .layout import CK_MIXED, CK_NATURAL, CK_SEVENS, CK_WILD, MIN_MELD, NR, RK_2, RK_3, RK_7, RK_JK
from .meldtable import (
    black3_close_bonus_nb,
    black3_meld_ok_nb,
    canasta_size_nb,
    completed_kind_nb,
    meld_cap_nb,
    min_naturals_nb,
    sevens_banned_last_nb,
    sevens_kind_nb,
    wild_melds_nb,
    wild_room_nb,
)

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


@engine_jit(inline="always")
def _black3_value_ok_nb(R, w, value_needed, discarded):
    """The tests that need no placement: the hand's black threes form one valid going-out meld (R-37), not
    closed before a final discard (`discarded`), and its cards are worth `value_needed` at least. A step of
    _all_melded_nb, inlined (small: docs/engine.md)."""
    b3 = w[W_TH + RK_3]
    if b3 > 0 and (not black3_meld_ok_nb(R, b3) or (discarded and black3_close_bonus_nb(R) > 0)):
        return False
    if value_needed > 0:
        v = 0
        for r in range(NR):
            v += w[W_TH + r] * value_nb(R, r)
        if v < value_needed:
            return False
    return True


@engine_jit
def _rank_melds_nb(R, w):
    """Every natural rank class of the hand in a meld: its side's open meld, or a new one of its own. Writes
    the deficits of the melds that a canasta is within reach of, wilds allowing, to w[W_DEF:] and returns
    (possible, wilds a new meld must have to reach three cards, room for wilds in all, canastas completed
    without wilds, deficits written); not possible when a single card, or too few naturals, has no meld to
    go to. A step of _all_melded_nb, called at its one place, not inlined (docs/engine.md)."""
    minnat = min_naturals_nb(R)
    csize = canasta_size_nb(R)
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
                return False, mandatory, capacity, newcan, nd
            if h < MIN_MELD or h < minnat:
                # a pair (or too few naturals) needs wilds to reach three cards
                need_w = MIN_MELD - h
                if h < minnat:
                    return False, mandatory, capacity, newcan, nd
                mandatory += need_w
                size = MIN_MELD
                cap = wild_room_nb(R, r, h, need_w)
            else:
                size = h
                cap = wild_room_nb(R, r, h, 0)
            if cap < 0:
                return False, mandatory, capacity, newcan, nd
            capacity += cap
            if size >= csize:
                newcan += 1
            elif csize - size <= cap:
                w[W_DEF + nd] = csize - size
                nd += 1
    return True, mandatory, capacity, newcan, nd


@engine_jit(inline="always")
def _sort_deficits_nb(w, nd):
    """The nd canasta deficits at w[W_DEF:] in increasing order (an insertion sort: a handful of ranks), so
    that the wilds fill the smallest first. A step of _all_melded_nb, inlined (small: docs/engine.md)."""
    for i in range(1, nd):
        x = w[W_DEF + i]
        j = i - 1
        while j >= 0 and w[W_DEF + j] > x:
            w[W_DEF + j + 1] = w[W_DEF + j]
            j -= 1
        w[W_DEF + j + 1] = x


@engine_jit
def _wild_meld_reach_nb(R, w, nd, free, short):
    """R-35: the side's one wild meld (or a new one, of three or more) takes every wild the rank melds do
    not, without a cap; it is a canasta once it reaches the size. Fills the k smallest deficits of the rank
    melds, the rest to the wild meld, for every k. Returns 1 when `short` more canastas are reached, 0 when
    they never are (with a wild meld on the table every placement was among those tried), -1 when a new
    wild meld did not reach them and the search goes on without one. A step of _all_melded_nb, called at
    its one place, not inlined (docs/engine.md)."""
    csize = canasta_size_nb(R)
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
            return 1
    if w[W_MEX + RK_JK] != 0:
        return 0
    return -1


@engine_jit(inline="always")
def _fill_deficits_nb(w, nd, free, short):
    """Whether the `free` wilds, the smallest deficits first (at w[W_DEF:], sorted), complete the `short`
    canastas still missing. A step of _all_melded_nb, inlined (small: docs/engine.md)."""
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
def _all_melded_nb(R, w, ncan, need, value_needed, discarded):
    """Can every card in w[W_TH:] be melded so that the side reaches `need` canastas? (`discarded`: a
    final discard follows, which a black-three close forbids, R-37.) The steps are the helpers above: the
    larger (_rank_melds_nb, _wild_meld_reach_nb) plain calls, the small ones inlined (docs/engine.md)."""
    if not _black3_value_ok_nb(R, w, value_needed, discarded):
        return False
    if meld_cap_nb(R) > 0:
        return _capped_all_melded_nb(R, w, ncan, need)
    wilds = w[W_TH + RK_2] + w[W_TH + RK_JK]
    ok, mandatory, capacity, newcan, nd = _rank_melds_nb(R, w)
    if not ok or wilds < mandatory:
        return False
    free = wilds - mandatory
    short = need - ncan - newcan
    _sort_deficits_nb(w, nd)
    if wild_melds_nb(R) and (w[W_MEX + RK_JK] != 0 or free >= MIN_MELD):
        reach = _wild_meld_reach_nb(R, w, nd, free, short)
        if reach >= 0:
            return reach == 1
    if free > capacity:
        return False
    if short <= 0:
        return True
    return _fill_deficits_nb(w, nd, free, short)


@engine_jit
def can_go_out_w_nb(R, w, ncan, need, value_needed):
    """Search over the final discard (none where the rules let the last card be melded, or one card
    of any rank class held). The card taken by a top-card draw may not be the discard (R-54): its rank
    can be discarded only while another card of that rank is held, the taken one melded; a seven never
    is the last discard where `sevens_discard_ban` (R-97). W_FORBID < 0: no going out this turn."""
    if w[W_FORBID] < 0:
        return False
    if go_out_discard_nb(R) == 0 and _all_melded_nb(R, w, ncan, need, value_needed, np.bool_(False)):
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
