"""The initial meld (§0, §1.6 step 2, §1.7): the minimum by the side's score (`initial_meld_table`,
R-10), what a hand can reach this turn, the concealed waiver of the minimum (R-13), and Boat's opening
rounds before any meld (`opening_rounds`, R-32)."""

from .cards import is_natural_meld_rank_nb, value_nb
from .jit import engine_jit
from .layout import (
    HC_TURNS,
    MIN_MELD,
    NR,
    R_CONC_WAIVE,
    R_MTAB_N,
    R_MTAB_REQ,
    R_MTAB_THR,
    R_OPEN_ROUNDS,
    RK_2,
    RK_A,
    RK_JK,
    S_TOOK,
    SD_MELDED,
    SD_REQ,
)
from .meldtable import meld_cap_nb, min_naturals_nb, wild_melds_nb, wild_room_nb


@engine_jit(inline="always")
def opening_round_nb(R, S, p):
    """Seat p is in its first `opening_rounds` turns of the hand (Boat, R-32): it draws from the stock and
    discards, and neither melds, takes the pile nor goes out."""
    return R[R_OPEN_ROUNDS] > 0 and S.hand[p, HC_TURNS] <= R[R_OPEN_ROUNDS]


@engine_jit
def requirement_nb(R, score):
    """Initial-meld minimum for a side whose cumulative score at the start of the hand is `score`."""
    req = R[R_MTAB_REQ]
    for i in range(R[R_MTAB_N]):
        if score >= R[R_MTAB_THR + i]:
            req = R[R_MTAB_REQ + i]
    return req


@engine_jit(inline="always")
def opening_still_needed_nb(R, S, s, pend_after):
    """Initial-meld value a going out must still lay: 0 once the side has melded, or when a player
    goes out concealed after a stock draw (the R-13 waiver, `concealed_waives_minimum`)."""
    if S.side[s, SD_MELDED] != 0 or pend_after >= S.side[s, SD_REQ]:
        return 0
    if R[R_CONC_WAIVE] != 0 and S.st[S_TOOK] == 0:
        return 0
    return S.side[s, SD_REQ] - pend_after


@engine_jit
def max_meld_value_nb(R, h, trank, troom, scratch):
    """Most value meldable from rank counts h, given an already started meld of rank `trank` (or -1)
    that has room for `troom` more wilds (meldtable.wild_room_nb, with h[trank] more naturals in it),
    by a side with no wild meld yet (three wilds or more may make one where the rules allow, R-35). Exact for rank-meld rules without a cap (with `meld_cap` an upper bound: the meld phase gives
a short opening back): wilds are placed jokers first,
    pairs are opened best first, and every k (number of pairs opened) is tried."""
    minnat = min_naturals_nb(R)
    pair_room = wild_room_nb(R, RK_A, 2, 0)  # an opened pair takes one wild, and at most this many
    base = 0
    slots = 0
    npairs = 0
    for r in range(NR):
        if not is_natural_meld_rank_nb(r):
            continue
        n = h[r]
        v = value_nb(R, r)
        if r == trank:
            base += n * v
            slots += troom
        elif n >= MIN_MELD and n >= minnat:
            base += n * v
            slots += wild_room_nb(R, r, n, 0)
        elif n == 2 and minnat <= 2 and pair_room >= 1 and wild_room_nb(R, r, 2, 0) >= 1:
            # insert 2v into scratch, kept in descending order
            x = 2 * v
            j = npairs - 1
            while j >= 0 and scratch[j] < x:
                scratch[j + 1] = scratch[j]
                j -= 1
            scratch[j + 1] = x
            npairs += 1
    jok = h[RK_JK]
    two = h[RK_2]
    wilds = jok + two
    if meld_cap_nb(R) > 0:
        slots = wilds  # closed melds and new rows of a rank: a bound that counts every wild
    every_wild = jok * value_nb(R, RK_JK) + two * value_nb(R, RK_2)
    best = -1
    pairsum = 0
    kmax = npairs if npairs < wilds else wilds
    for k in range(kmax + 1):
        if k > 0:
            pairsum += scratch[k - 1]
        s = slots + k * pair_room
        if wild_melds_nb(R) and wilds - k >= MIN_MELD:
            tot = base + pairsum + every_wild  # the wilds the pairs leave make a wild meld (Boat, R-35)
        elif s <= 0:
            tot = base + pairsum
        else:
            nw = wilds if wilds < s else s
            nj = jok if jok < nw else nw
            nt = nw - nj
            tot = base + pairsum + nj * value_nb(R, RK_JK) + nt * value_nb(R, RK_2)
        if tot > best:
            best = tot
    return best
