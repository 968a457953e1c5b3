"""The most card value a hand can lay this turn (feasibility of an initial meld, §1.6 step 2)."""

from .jit import engine_jit
from .layout import R_CARDVAL, R_MAX_WILD, R_MIN_NAT


@engine_jit
def max_meld_value_nb(R, h, trank, twilds, scratch):
    """Most value meldable from rank counts h, given an already started meld of rank `trank` (or -1)
    holding `twilds` wilds. Exact for rank-meld rules without a cap: wilds are placed jokers first,
    pairs are opened best first, and every k (number of pairs opened) is tried."""
    maxw = R[R_MAX_WILD]
    base = 0
    slots = 0
    npairs = 0
    for r in range(14):
        if r == 1 or r == 2 or r == 13:
            continue
        n = h[r]
        v = R[R_CARDVAL + r]
        if r == trank:
            base += n * v
            slots += maxw - twilds
        elif n >= 3 and n >= R[R_MIN_NAT]:
            base += n * v
            slots += maxw
        elif n == 2 and R[R_MIN_NAT] <= 2 and maxw >= 1:
            # insert 2v into scratch, kept in descending order
            x = 2 * v
            j = npairs - 1
            while j >= 0 and scratch[j] < x:
                scratch[j + 1] = scratch[j]
                j -= 1
            scratch[j + 1] = x
            npairs += 1
    jok = h[13]
    two = h[1]
    wilds = jok + two
    best = -1
    pairsum = 0
    kmax = npairs if npairs < wilds else wilds
    for k in range(kmax + 1):
        if k > 0:
            pairsum += scratch[k - 1]
        s = slots + k * maxw
        if s <= 0:
            tot = base + pairsum
        else:
            nw = wilds if wilds < s else s
            nj = jok if jok < nw else nw
            nt = nw - nj
            tot = base + pairsum + nj * R[R_CARDVAL + 13] + nt * R[R_CARDVAL + 1]
        if tot > best:
            best = tot
    return best
