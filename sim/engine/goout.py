"""Can a player still empty the hand this turn? (ASK-PARTNER legality and a binding "yes", §1.9).

Exact for rank-meld rules without a size cap: every hand card must end in a meld except at most one
final discard; singles need a meld of their rank, pairs need a wild, wilds need room (max_wild per
meld), black threes form one going-out meld of b3min..b3max, and the side must reach the canasta
count. The search tries each possible discard and places wilds greedily (smallest canasta deficits
first), which is optimal because every wild fits any meld that still has room.
"""

from .jit import engine_jit
from .layout import R_B3MAX, R_B3MIN, R_CARDVAL, R_MAX_WILD, R_MIN_NAT

# work layout: th[0:14] hand by rank, mn[14:28] naturals of the side's open meld of the rank,
# mw[28:42] wilds in it, mex[42:56] the meld exists, 56.. deficits scratch
W_TH, W_MN, W_MW, W_MEX, W_DEF = 0, 14, 28, 42, 56


@engine_jit
def _all_melded_nb(R, w, ncan, need, value_needed):
    """Can every card in w[W_TH:] be melded (no discard) so that the side reaches `need` canastas?"""
    b3 = w[W_TH + 2]
    if b3 > 0 and (R[R_B3MAX] == 0 or b3 < R[R_B3MIN] or b3 > R[R_B3MAX]):
        return False
    if value_needed > 0:
        v = 0
        for r in range(14):
            v += w[W_TH + r] * R[R_CARDVAL + r]
        if v < value_needed:
            return False
    maxw = R[R_MAX_WILD]
    wilds = w[W_TH + 1] + w[W_TH + 13]
    mandatory = 0
    capacity = 0
    newcan = 0
    nd = 0
    for r in range(14):
        if r == 1 or r == 2 or r == 13:
            continue
        h = w[W_TH + r]
        if w[W_MEX + r] != 0:
            before = w[W_MN + r] + w[W_MW + r]
            size = before + h
            cap = maxw - w[W_MW + r]
            if cap < 0:
                cap = 0
            capacity += cap
            if before < 7:
                if size >= 7:
                    newcan += 1
                elif 7 - size <= cap:
                    w[W_DEF + nd] = 7 - size
                    nd += 1
        elif h > 0:
            if h < R[R_MIN_NAT] and h + maxw < 3:
                return False
            if h == 1:
                return False
            if h < 3 or h < R[R_MIN_NAT]:
                # a pair (or too few naturals) needs wilds to reach three cards
                need_w = 3 - h
                if h < R[R_MIN_NAT]:
                    return False
                mandatory += need_w
                size = 3
                cap = maxw - need_w
            else:
                size = h
                cap = maxw
            if cap < 0:
                return False
            capacity += cap
            if size >= 7:
                newcan += 1
            elif 7 - size <= cap:
                w[W_DEF + nd] = 7 - size
                nd += 1
    if wilds < mandatory:
        return False
    free = wilds - mandatory
    if free > capacity:
        return False
    short = need - ncan - newcan
    if short <= 0:
        return True
    # insertion sort of the deficits, then fill the smallest first
    for i in range(1, nd):
        x = w[W_DEF + i]
        j = i - 1
        while j >= 0 and w[W_DEF + j] > x:
            w[W_DEF + j + 1] = w[W_DEF + j]
            j -= 1
        w[W_DEF + j + 1] = x
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
    """Search over the final discard (none, or one card of any rank class held)."""
    if _all_melded_nb(R, w, ncan, need, value_needed):
        return True
    for d in range(14):
        if w[W_TH + d] == 0:
            continue
        w[W_TH + d] -= 1
        ok = _all_melded_nb(R, w, ncan, need, value_needed)
        w[W_TH + d] += 1
        if ok:
            return True
    return False
