"""`baseline-v1`: the heuristic kernel as it was before issue 10, frozen so that every change to
`baseline` can be measured against it head to head:

    canasta-lab compare classic-4p -s baseline -s baseline-v1 --load benchmarks/baseline_v1.py

It is a user strategy over `baseline` that never defers, so it takes baseline's knobs (those it
knows: min_pile, answer_max, ask, hold_black3, freeze, meld, wilds, go_out). Its text is the old
kernel's, unchanged apart from this docstring, the knob slots (taken by name from strategies/heuristic.py,
which assigns them in the order of declaration) and the registration at the end.

The old docstring: the heuristic family: `baseline` and its named relatives share this kernel and differ in knobs.

A club player's rules of thumb, each one a knob (slots below; names, ranges and meanings in
strategies/library.py). It reads only the observation (sim.engine.observe), like any strategy.
Options are scored and the best one wins; ties go to the first option, so play is deterministic.
"""

from numba import njit

from sim.engine.cards import is_black3_nb, is_wild_rank_nb, rank_of_nb
from sim.engine.contract import (
    ANSWER_YES,
    DP_ANSWER,
    DP_ASK,
    DP_DISCARD,
    DP_DRAW,
    DP_MELD,
    F_JOK,
    F_NAT,
    F_RANK,
    F_TWO,
    F_VAL,
    NCK,
    NMF,
    NR,
    O_ADD,
    O_ASK,
    O_BLACK3,
    O_DISCARD,
    O_DRAW,
    O_END,
    O_NEW,
    O_NO,
    O_NOASK,
    O_STOP,
    O_TAKE,
    O_YES,
    OB_ANSWER,
    OB_CANASTAS,
    OB_CANK,
    OB_DP,
    OB_FROZEN,
    OB_HANDS,
    OB_HN,
    OB_HR,
    OB_MAXM,
    OB_MELDED,
    OB_MELDS,
    OB_MOR,
    OB_NM,
    OB_NSIDES,
    OB_PEND,
    OB_PILE_N,
    OB_PILEK,
    OB_PLAYERS,
    OB_PRE,
    OB_RED3,
    OB_REQ,
    OB_SCORE,
    OB_SCRATCH,
    OB_SIDE,
    OB_SMELDED,
    R_CANASTA,
    R_CANBONUS,
    R_CARDVAL,
    R_GO_CANASTAS,
    R_RED3TAB,
    R_SEAT_SIDE,
    RK_JK,
    TAKE_M2,
    TAKE_M3,
)
from sim.engine.opening import max_meld_value_nb

# knob slots: baseline's, as strategies/heuristic.py declares them (the slots are assigned in the order
# the knobs are declared there, so they are taken by name, never by number)
from strategies.heuristic import (
    K_ANSWER_MAX,  # answer "no" when the own hand holds at least this many points
    K_ASK,  # -1 never; N >= 0: ask when the partner holds at least N cards (0 = always)
    K_FREEZE,  # -1 never; -2 always when able; N >= 0: when an opponent side has melded and pile >= N
    K_GO_OUT,  # -1 as soon as legal; M >= 0: only when ahead by M points or the opponents threaten
    K_HOLD_B3,  # -1 keep for a going-out meld; N >= 0: throw only on piles of at least N cards
    K_MELD,  # 0 lay everything; 1 hold back to three cards; 2 also keep natural pairs for the pile
    K_MIN_PILE,  # smallest pile worth taking once the side has melded
    K_WILDS,  # 0 only to complete a canasta, reach the minimum or go out; 1 freely
)
from strategies.user import user_strategy

FREEZE_NEVER, FREEZE_ALWAYS = -1.0, -2.0
MELD_ALL, MELD_THREE, MELD_PAIRS = 0.0, 1.0, 2.0
THREAT_CARDS = 3  # an opponent with the canastas to go out and this few cards threatens to go out

TIER = 1000.0  # discard scores: one tier per kind of card, ranked within the tier


@njit(cache=True, inline="always")
def _meld_base_nb(obs, s, m):
    return OB_MELDS + (s * obs[OB_MAXM] + m) * NMF


@njit(cache=True)
def table_value_nb(R, obs, t):
    """Side t's score this hand so far as anyone can count it: melded cards, canasta bonuses and
    red threes (the cards still in hands are unknown)."""
    v = 0
    for m in range(obs[OB_NM + t]):
        v += obs[_meld_base_nb(obs, t, m) + F_VAL]
    for k in range(NCK):
        v += obs[OB_CANK + t * NCK + k] * R[R_CANBONUS + k]
    v += R[R_RED3TAB + obs[OB_RED3 + t]]
    return v


@njit(cache=True)
def may_go_out_nb(R, obs, prm):
    """The go_out knob: going out now is wanted (as soon as legal, or ahead by M, or threatened)."""
    m = prm[K_GO_OUT]
    if m < 0 or obs[OB_ANSWER] == ANSWER_YES:
        return True
    s = obs[OB_SIDE]
    mine = obs[OB_SCORE + s] + table_value_nb(R, obs, s)
    best = -(1 << 40)
    for t in range(obs[OB_NSIDES]):
        if t == s:
            continue
        v = obs[OB_SCORE + t] + table_value_nb(R, obs, t)
        if v > best:
            best = v
        if obs[OB_CANASTAS + t] >= R[R_GO_CANASTAS]:
            for q in range(obs[OB_PLAYERS]):
                if R[R_SEAT_SIDE + q] == t and obs[OB_HANDS + q] <= THREAT_CARDS:
                    return True
    return mine - best >= m


@njit(cache=True)
def hand_points_nb(R, obs):
    v = 0
    for r in range(NR):
        v += obs[OB_HR + r] * R[R_CARDVAL + r]
    return v


@njit(cache=True, inline="always")
def _draw_score_nb(R, obs, o, prm):
    t = o[0]
    if t == O_DRAW:
        return 0.0
    if t == O_END:
        return -5.0
    pn = obs[OB_PILE_N]
    if obs[OB_MELDED] != 0 and pn < prm[K_MIN_PILE]:
        return -1.0
    v = 10.0 + 3.0 * pn
    if o[1] == TAKE_M3:
        v += 4.0
    elif o[1] == TAKE_M2:
        v -= 15.0 + (30.0 if o[2] == RK_JK else 0.0)
    return v


@njit(cache=True, inline="always")
def _meld_score_nb(R, obs, o, prm, reachable, go_ok):
    s = obs[OB_SIDE]
    t = o[0]
    a = o[1]
    b = o[2]
    c = o[3]
    opening = obs[OB_MELDED] == 0
    fresh = obs[OB_PRE] == 0 and obs[OB_PEND] == 0  # opening, nothing laid yet this turn
    if t == O_STOP:
        return -1000.0 if opening and not fresh else 0.0
    if opening:
        # reach the minimum with the most value per action; naturals before wilds
        if fresh and not reachable:
            return -1.0  # the minimum is out of reach this turn: do not start
        if t == O_NEW:
            v = b * R[R_CARDVAL + a] + (R[R_CARDVAL + c] - 5.0 if c >= 0 else 0.0)
        elif t == O_ADD:
            rank = obs[_meld_base_nb(obs, s, a) + F_RANK]
            v = R[R_CARDVAL + (rank if b < 0 else b)] - (5.0 if b >= 0 else 0.0)
        else:
            v = 5.0 * a
        return 1.0 + v
    after = obs[OB_HN] - (3 if t == O_NEW else (a if t == O_BLACK3 else 1))
    out = 0.0
    if after <= 1:
        out = 100.0 if go_ok else -500.0
    if t == O_BLACK3:
        return 200.0 + out
    style = prm[K_MELD]
    free = prm[K_WILDS] >= 1.0
    if t == O_NEW:
        if c < 0:
            return 30.0 + out
        if style == MELD_PAIRS:
            return -40.0 + out  # a natural pair stays in hand to take the pile
        return (25.0 if free else -20.0) + out
    mb = _meld_base_nb(obs, s, a)
    size = obs[mb + F_NAT] + obs[mb + F_TWO] + obs[mb + F_JOK]
    if b < 0:
        if size == R[R_CANASTA] - 1:
            return 340.0 + out
        if style == MELD_ALL or size + obs[OB_HR + obs[mb + F_RANK]] >= R[R_CANASTA]:
            return 40.0 + out
        return -10.0 + out  # hold the card back (three-card melds)
    if size == R[R_CANASTA] - 1:
        return 150.0 - (10.0 if b == RK_JK else 0.0) + out
    if free:
        return 20.0 - (10.0 if b == RK_JK else 0.0) + out
    return -20.0 + out


@njit(cache=True, inline="always")
def _discard_score_nb(R, obs, k, prm, freeze_now):
    """Tiers: 3 freeze, 2 a black three on a big enough pile, 1 an ordinary card, 0 a held black
    three, -1 a wild that is not meant to freeze. Within a tier, the least useful card to others."""
    r = rank_of_nb(k)
    pn = obs[OB_PILE_N]
    if is_wild_rank_nb(r):
        if freeze_now:
            return 3 * TIER - R[R_CARDVAL + r]
        return -TIER - R[R_CARDVAL + r]
    if is_black3_nb(k):
        h = prm[K_HOLD_B3]
        if h >= 0 and pn >= h:
            return 2 * TIER
        return 0.0
    s = obs[OB_SIDE]
    v = -1.0 * R[R_CARDVAL + r]
    if obs[OB_FROZEN] == 0:
        for t in range(obs[OB_NSIDES]):
            if t != s and obs[OB_MOR + t * NR + r] >= 0:
                v -= 100.0  # the opponents could lay it off and take the pile
    if obs[OB_MOR + s * NR + r] >= 0:
        v += 5.0  # opponents seldom collect a rank we hold a meld of
    cnt = obs[OB_HR + r]
    if cnt >= 2:
        v -= 15.0 * (cnt - 1)  # keep pairs for taking the pile
    if obs[OB_PILEK + k] > 0:
        v += 8.0  # a card already seen going in is safer
    return TIER + v


@njit(cache=True, inline="always")
def known_option_nb(dp, t):
    """The option kinds this strategy knows at each decision point; anything else is an error."""
    if dp == DP_DRAW:
        return t == O_DRAW or t == O_TAKE or t == O_END
    if dp == DP_MELD:
        return t == O_NEW or t == O_ADD or t == O_BLACK3 or t == O_STOP
    if dp == DP_ASK:
        return t == O_NOASK or t == O_ASK
    if dp == DP_ANSWER:
        return t == O_YES or t == O_NO
    if dp == DP_DISCARD:
        return t == O_DISCARD
    return False


def heuristic_decide_v1(R, obs, opts, n, prm):
    dp = obs[OB_DP]
    for i in range(n):
        if not known_option_nb(dp, opts[i, 0]):
            raise ValueError("heuristic strategy: unknown option kind at this decision point")
    best = 0
    bestv = -1e18
    reachable = True
    go_ok = True
    freeze_now = False
    if dp == DP_MELD:
        go_ok = may_go_out_nb(R, obs, prm)
        if obs[OB_MELDED] == 0 and obs[OB_PRE] == 0 and obs[OB_PEND] == 0:
            # can the hand reach the initial minimum this turn? (once per decision)
            w = obs[obs.shape[0] - OB_SCRATCH:]
            for x in range(NR):
                w[x] = obs[OB_HR + x]
            reachable = max_meld_value_nb(R, w[0:NR], -1, 0, w[NR:2 * NR]) >= obs[OB_REQ]
    elif dp == DP_DISCARD:
        f = prm[K_FREEZE]
        if obs[OB_FROZEN] == 0 and f != FREEZE_NEVER:
            if f == FREEZE_ALWAYS:
                freeze_now = True
            elif obs[OB_PILE_N] >= f:
                s = obs[OB_SIDE]
                for t in range(obs[OB_NSIDES]):
                    if t != s and obs[OB_SMELDED + t] != 0:
                        freeze_now = True
    elif dp == DP_ASK:
        go_ok = may_go_out_nb(R, obs, prm)
    for i in range(n):
        o = opts[i]
        if dp == DP_DRAW:
            v = _draw_score_nb(R, obs, o, prm)
        elif dp == DP_MELD:
            v = _meld_score_nb(R, obs, o, prm, reachable, go_ok)
        elif dp == DP_ASK:
            v = 0.0
            if o[0] == O_ASK:
                a = prm[K_ASK]
                v = 1.0 if go_ok and a >= 0 and obs[OB_HANDS + o[1]] >= a else -1.0
        elif dp == DP_ANSWER:
            v = 0.0
            if o[0] == O_YES:
                v = 1.0 if hand_points_nb(R, obs) < prm[K_ANSWER_MAX] else -1.0
        elif dp == DP_DISCARD:
            v = _discard_score_nb(R, obs, o[1], prm, freeze_now)
        else:
            v = 0.0
        if v > bestv:
            bestv = v
            best = i
    return best


BASELINE_V1 = user_strategy("baseline-v1", base="baseline",
                            description="baseline as it was before issue 10 (frozen for head-to-head "
                                        "measurements)")(heuristic_decide_v1)
