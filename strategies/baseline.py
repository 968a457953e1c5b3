"""`baseline`: a heuristic a club player would recognise.

Takes the pile when it can and the pile is worth it (pairs before wilds), reaches the initial
minimum with the cards of highest value, adds to its side's melds and completes canastas (using a
wild only to finish one), discards what the opponents are least likely to use (black threes on a
growing pile, cards already in the pile, singletons, low cards; never a card the opponents can lay
off), asks the partner before going out and goes out whenever it may.
"""

from numba import njit

from sim.engine.cards import is_black3_nb, rank_of_nb, side_of_nb
from sim.engine.layout import (
    DP_ANSWER,
    DP_ASK,
    DP_DISCARD,
    DP_DRAW,
    DP_MELD,
    F_JOK,
    F_NAT,
    F_RANK,
    F_TWO,
    MAXS,
    NR,
    O_ADD,
    O_ASK,
    O_BLACK3,
    O_DRAW,
    O_END,
    O_NEW,
    O_STOP,
    O_YES,
    R_CARDVAL,
    R_NSIDES,
    S_FROZEN,
    S_PEND,
    S_PILE_N,
    S_PRE,
)
from sim.engine.opening import max_meld_value_nb
from sim.engine.ops import hand_value_nb

# knob slots (documented with ranges and defaults in strategies/__init__.py)
K_MIN_PILE = 0
K_ANSWER_MAX = 1
K_ASK = 2
K_B3_PILE = 3


@njit(cache=True)
def _score_draw_nb(R, S, p, i, prm):
    t = S.opts[i, 0]
    if t == O_DRAW:
        return 0.0
    if t == O_END:
        return -5.0
    pn = S.st[S_PILE_N]
    s = side_of_nb(R, p)
    if S.melded[s] != 0 and pn < prm[K_MIN_PILE]:
        return -1.0
    v = 10.0 + 3.0 * pn
    method = S.opts[i, 1]
    if method == 3:
        v += 4.0
    elif method == 2:
        v -= 15.0 + (30.0 if S.opts[i, 2] == 13 else 0.0)
    return v


@njit(cache=True)
def _score_meld_nb(R, S, p, i, reachable):
    s = side_of_nb(R, p)
    t = S.opts[i, 0]
    a = S.opts[i, 1]
    b = S.opts[i, 2]
    c = S.opts[i, 3]
    h = S.hn[p]
    opening = S.melded[s] == 0
    if t == O_STOP:
        if opening and S.st[S_PRE] == 0 and S.st[S_PEND] == 0:
            return 0.0
        return 0.0 if not opening else -1000.0
    if opening:
        # reach the minimum with the most value per action; prefer naturals to wilds
        if S.st[S_PRE] == 0 and S.st[S_PEND] == 0 and not reachable:
            return -1.0  # the minimum is out of reach this turn: do not start
        if t == O_NEW:
            v = b * R[R_CARDVAL + a] + (R[R_CARDVAL + c] - 5.0 if c >= 0 else 0.0)
        elif t == O_ADD:
            v = R[R_CARDVAL + (S.melds[s, a, F_RANK] if b < 0 else b)] - (5.0 if b >= 0 else 0.0)
        else:
            v = 5.0 * a
        return 1.0 + v
    if t == O_BLACK3:
        return 200.0
    after = h - (3 if t == O_NEW else 1)
    goes_out = 100.0 if after <= 1 else 0.0
    if t == O_NEW:
        if c >= 0:
            return -20.0 + goes_out
        return 30.0 + goes_out
    size = S.melds[s, a, F_NAT] + S.melds[s, a, F_TWO] + S.melds[s, a, F_JOK]
    if b < 0:
        return 40.0 + (300.0 if size == 6 else 0.0) + goes_out
    if size == 6:
        return 150.0 - (10.0 if b == 13 else 0.0) + goes_out
    return -20.0 + goes_out


@njit(cache=True)
def _score_discard_nb(R, S, p, i, prm):
    k = S.opts[i, 1]
    r = rank_of_nb(k)
    s = side_of_nb(R, p)
    pn = S.st[S_PILE_N]
    if r == 1 or r == 13:
        return -200.0 - R[R_CARDVAL + r]
    if is_black3_nb(k):
        return 60.0 if pn >= prm[K_B3_PILE] else -5.0
    v = -1.0 * R[R_CARDVAL + r]
    frozen = S.st[S_FROZEN] != 0
    for o in range(R[R_NSIDES]):
        if o != s and o < MAXS and S.mor[o, r] >= 0 and not frozen:
            v -= 100.0  # the next opponents could lay it off and take the pile
    own = S.mor[s, r]
    if own >= 0:
        v += 5.0  # opponents seldom collect a rank we hold a meld of
    cnt = S.hr[p, r]
    if cnt >= 2:
        v -= 15.0 * (cnt - 1)  # keep pairs for taking the pile
    for j in range(pn):
        if rank_of_nb(S.pile[j]) == r:
            v += 8.0  # cards already seen go in are safer
            break
    return v


@njit(cache=True)
def baseline_decide_nb(R, S, p, dp, n):
    prm = S.prm[p]
    reachable = True
    if dp == DP_MELD and S.melded[side_of_nb(R, p)] == 0 and S.st[S_PRE] == 0 and S.st[S_PEND] == 0:
        # can the hand reach the initial minimum this turn? (once per decision, not per option)
        w = S.work
        for x in range(NR):
            w[x] = S.hr[p, x]
        reachable = max_meld_value_nb(R, w[0:NR], -1, 0, w[NR:2 * NR]) >= S.req[side_of_nb(R, p)]
    best = 0
    bestv = -1e18
    for i in range(n):
        if dp == DP_DRAW:
            v = _score_draw_nb(R, S, p, i, prm)
        elif dp == DP_MELD:
            v = _score_meld_nb(R, S, p, i, reachable)
        elif dp == DP_ASK:
            v = (1.0 if prm[K_ASK] >= 1.0 else -1.0) if S.opts[i, 0] == O_ASK else 0.0
        elif dp == DP_ANSWER:
            if S.opts[i, 0] == O_YES:
                v = 1.0 if hand_value_nb(R, S, p) < prm[K_ANSWER_MAX] else -1.0
            else:
                v = 0.0
        elif dp == DP_DISCARD:
            v = _score_discard_nb(R, S, p, i, prm)
        else:
            v = 0.0
        if v > bestv:
            bestv = v
            best = i
    return best
