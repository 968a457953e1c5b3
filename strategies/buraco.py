"""The heuristic family at Buraco (VARIANTS.md 6.2, BU-D1 to BU-D6): the same strategies (`baseline` and
its relatives) decide a Buraco game here, with the knobs that only Buraco reads.

* BU-D1 take the whole pile (`bu_take`): when it holds at least N cards, or its top card fits a meld
  of the side or two cards of the hand;
* BU-D2 sequence or set (`bu_seq`): points a sequence is preferred by over a set of the same cards;
  where the one wild goes: only to complete a canasta or to start a meld that needs it, unless
  `wilds=free` (shared with the Canasta games);
* BU-D3 direct or indirect knock (`bu_knock`): meld the last cards to take the morto at once and play
  on, or keep one to discard and play the morto from the next turn (which risks R-140's penalty);
* BU-D4 clean canastas (`bu_clean`): no wild onto a meld of N naturals or more, unless it completes a
  canasta that the stock may not leave time to finish clean;
* BU-D4, BU-D6 the final knock-out (`go_out`, shared): as soon as legal, or when ahead by M points;
  with the stock nearly gone the side goes out whenever it can;
* BU-D5 the discard: the card least useful to the own hand and melds, never a wild while another
  card can go, and not a card that extends an opponent's meld when another can go.
Reads only the observation (sim.engine.contract), as every strategy does."""

from sim.engine.contract import (
    DP_DISCARD,
    DP_DRAW,
    F_HI,
    F_JOK,
    F_KIND,
    F_LO,
    F_NAT,
    F_RANK,
    F_SUIT,
    F_TWO,
    F_VAL,
    JOKER,
    MIN_MELD,
    MK_RANK,
    MK_SEQ,
    NMF,
    O_ADD,
    O_EXTEND,
    O_NEW,
    O_SEQ,
    O_STOP,
    O_TAKE,
    OB_CANASTAS,
    OB_DP,
    OB_FEET,
    OB_HAND,
    OB_HN,
    OB_HR,
    OB_MAXM,
    OB_MELDS,
    OB_NM,
    OB_NSIDES,
    OB_PILE_N,
    OB_PILE_TOP,
    OB_SCORE,
    OB_SIDE,
    OB_STOCK_N,
    POS_ACE_HIGH,
    POS_ACE_LOW,
    R_CANASTA,
    R_CARDVAL,
    RK_2,
    RK_A,
    RK_JK,
    SUITS,
    seq_wild_pos,
    strategy_jit,
)

# knob slots (strategies.library.HEURISTIC_KNOBS) this module reads; K_WILDS and K_GO_OUT are the
# heuristic's own
K_WILDS = 6
K_GO_OUT = 7
K_BU_TAKE = 14
K_BU_SEQ = 15
K_BU_KNOCK = 16
K_BU_CLEAN = 17
KNOCK_DIRECT, KNOCK_INDIRECT = 0.0, 1.0
CLEAN_OFF = -1.0
GO_ASAP = -1.0
LATE_STOCK = 6  # this few stock cards left: the hand may end at any turn (E-BURACO), so go out when able
NO = -1e9  # an action the strategy never takes while another is open


@strategy_jit(inline="always")
def _row(obs, s, m):
    return OB_MELDS + (s * obs[OB_MAXM] + m) * NMF


@strategy_jit(inline="always")
def _pos_rank(pos):
    return RK_A if pos == POS_ACE_LOW or pos == POS_ACE_HIGH else pos - 1


@strategy_jit
def fits_side_nb(obs, s, k):
    """Card k extends a sequence of side s at an end, or joins its set of k's rank."""
    if k == JOKER:
        return False
    r = k // SUITS
    suit = k % SUITS
    for m in range(obs[OB_NM + s]):
        b = _row(obs, s, m)
        if obs[b + F_KIND] == MK_RANK and obs[b + F_RANK] == r:
            return True
        if obs[b + F_KIND] == MK_SEQ and obs[b + F_SUIT] == suit:
            lo = obs[b + F_LO]
            hi = obs[b + F_HI]
            if hi - lo + 1 < 13 and ((lo > POS_ACE_LOW and _pos_rank(lo - 1) == r)
                                     or (hi < POS_ACE_HIGH and _pos_rank(hi + 1) == r)):
                return True
    return False


@strategy_jit
def hand_use_nb(obs, k):
    """What card k is worth to the hand: copies of its rank and cards of its suit within two places."""
    if k == JOKER or k // SUITS == RK_2:
        return 100  # a wild: kept
    r = k // SUITS
    suit = k % SUITS
    u = 2 * (obs[OB_HR + r] - 1)
    for base in (r + 1, POS_ACE_HIGH if r == RK_A else -10):
        for d in (-2, -1, 1, 2):
            q = base + d
            if POS_ACE_LOW <= q <= POS_ACE_HIGH and obs[OB_HAND + _pos_rank(q) * SUITS + suit] > 0:
                u += 3 if d == -1 or d == 1 else 1
    return u


@strategy_jit
def wild_fits_nb(obs):
    """A wild taken from the pile would start a meld at once: the hand holds a natural pair, or two cards
    of a suit within two places. (Onto a meld it waits for a canasta, or for nothing under `bu_clean`: a
    wild taken into a hand of wilds would only go back on the pile, and two such hands would pass it to
    and fro for ever, nobody drawing.)"""
    for r in range(RK_A, RK_JK):
        if r != RK_2 and obs[OB_HR + r] >= 2:
            return True
    for k in range(SUITS * RK_JK):
        r = k // SUITS
        if obs[OB_HAND + k] > 0 and r != RK_2 and hand_use_nb(obs, k) > 2 * (obs[OB_HR + r] - 1):
            return True  # a neighbour of its suit within two places
    return False


@strategy_jit
def melds_with_hand_nb(obs, k):
    """Card k makes a new meld with cards held: two of its rank (a set), or two of its suit beside it
    (a sequence of three)."""
    if k == JOKER or k // SUITS == RK_2:
        return wild_fits_nb(obs)
    r = k // SUITS
    suit = k % SUITS
    if obs[OB_HR + r] >= 2:
        return True
    for base in (r + 1, POS_ACE_HIGH if r == RK_A else -10):
        near = 0
        for d in (-2, -1, 1, 2):
            q = base + d
            held = POS_ACE_LOW <= q <= POS_ACE_HIGH and obs[OB_HAND + _pos_rank(q) * SUITS + suit] > 0
            if held and (d == -1 or d == 1 or near > 0):
                near += 1
        if near >= 2:
            return True
    return False


@strategy_jit
def _draw_nb(obs, opts, n, prm):
    """BU-D1: take the pile when it is big enough, or when its top card is laid at once (it fits a meld of
    the side, or makes one with the hand); else draw, so that the stock keeps running down."""
    take = -1
    for i in range(n):
        if opts[i, 0] == O_TAKE:
            take = i
    if take < 0:
        return 0
    top = obs[OB_PILE_TOP]
    s = obs[OB_SIDE]
    if obs[OB_PILE_N] >= prm[K_BU_TAKE]:
        return take
    # the top card must be laid this turn: with the morto gone and no canasta, a meld may not leave fewer than
    # two cards, and a card taken but not laid would pass to and fro (nobody drawing, the stock
    # never running out)
    free = obs[OB_FEET + s] > 0 or obs[OB_CANASTAS + s] > 0
    after = obs[OB_HN] + obs[OB_PILE_N]
    if fits_side_nb(obs, s, top) and (free or after - 1 >= 2):
        return take
    if melds_with_hand_nb(obs, top) and (free or after - MIN_MELD >= 2):
        return take
    return 1 - take


@strategy_jit
def _lead_nb(obs):
    """Own score minus the best other side's, before this hand."""
    s = obs[OB_SIDE]
    best = -1 << 40
    for t in range(obs[OB_NSIDES]):
        if t != s and obs[OB_SCORE + t] > best:
            best = obs[OB_SCORE + t]
    return obs[OB_SCORE + s] - best


@strategy_jit
def _table_lead_nb(obs):
    """Own table (melded points) minus the best other side's this hand."""
    s = obs[OB_SIDE]
    own = 0
    best = -1 << 40
    for t in range(obs[OB_NSIDES]):
        v = 0
        for m in range(obs[OB_NM + t]):
            v += obs[_row(obs, t, m) + F_VAL]
        if t == s:
            own = v
        elif v > best:
            best = v
    return own - best


@strategy_jit
def _meld_score_nb(R, obs, opts, i, prm):
    """BU-D2 to BU-D4: what one meld action is worth; <= 0: rather stop."""
    s = obs[OB_SIDE]
    t = opts[i, 0]
    a = opts[i, 1]
    b = opts[i, 2]
    c = opts[i, 3]
    h = obs[OB_HN]
    canasta = R[R_CANASTA]
    morto = obs[OB_FEET + s] > 0
    used = MIN_MELD if t == O_SEQ or t == O_NEW else 1
    h_after = h - used
    wild = False
    size_after = used
    naturals = 0
    clean_before = True
    if t == O_SEQ:
        wild = c >= 0 and seq_wild_pos(c) > 0
        v = 30.0 + prm[K_BU_SEQ]
    elif t == O_NEW:
        wild = c >= 0
        v = 30.0
    else:
        base = _row(obs, s, a)
        wild = (t == O_ADD and b >= 0) or (t == O_EXTEND and c >= 0)
        size_after = obs[base + F_NAT] + obs[base + F_TWO] + obs[base + F_JOK] + 1
        naturals = obs[base + F_NAT]
        clean_before = obs[base + F_TWO] + obs[base + F_JOK] == 0
        v = 12.0
    if wild:
        late = obs[OB_STOCK_N] <= LATE_STOCK
        completes = size_after == canasta
        clean = prm[K_BU_CLEAN]
        if t == O_ADD or t == O_EXTEND:
            if clean != CLEAN_OFF and clean_before and naturals >= clean and not (completes and late):
                return NO  # BU-D4: this meld may still become a clean canasta
            if not completes and prm[K_WILDS] == 0.0 and h_after > 1:
                return -5.0  # the one wild waits for a canasta
        elif prm[K_WILDS] == 0.0 and h_after > 1:
            v -= 22.0  # a meld started with its wild: only when nothing better is open
    if size_after == canasta:
        v += 100.0 if clean_before and not wild else 60.0
    elif size_after > canasta and wild and clean_before:
        return NO  # a clean canasta would turn dirty (200 to 100)
    if h_after == 0:
        if morto:
            v += 50.0 if prm[K_BU_KNOCK] == KNOCK_DIRECT else NO  # BU-D3
        else:
            g = prm[K_GO_OUT]
            ok = g == GO_ASAP or obs[OB_STOCK_N] <= LATE_STOCK or _lead_nb(obs) + _table_lead_nb(obs) >= g
            v += 500.0 if ok else NO
    return v


@strategy_jit
def _discard_nb(R, obs, opts, n, prm):
    """BU-D5: the card least useful to the hand, never a wild or a card that extends an opponent's meld
    while another can go; higher values first among equals (cards held at the end count against)."""
    s = obs[OB_SIDE]
    best = 0
    bestv = 1e18
    for i in range(n):
        k = opts[i, 1]
        v = float(hand_use_nb(obs, k)) * 10.0
        if fits_side_nb(obs, s, k):
            v += 40.0  # it could still be melded
        for t in range(obs[OB_NSIDES]):
            if t != s and fits_side_nb(obs, t, k):
                v += 60.0  # it feeds the next player, who takes the whole pile freely
        r = RK_JK if k == JOKER else k // SUITS
        v -= R[R_CARDVAL + r] / 10.0
        if v < bestv:
            bestv = v
            best = i
    return best


@strategy_jit
def buraco_decide_nb(R, obs, opts, n, prm):
    """The heuristic's decision at a Buraco decision point."""
    dp = obs[OB_DP]
    if dp == DP_DRAW:
        return _draw_nb(obs, opts, n, prm)
    if dp == DP_DISCARD:
        return _discard_nb(R, obs, opts, n, prm)
    best = n - 1
    bestv = 0.0
    for i in range(n):
        if opts[i, 0] == O_STOP:
            continue
        v = _meld_score_nb(R, obs, opts, i, prm)
        if v > bestv:
            bestv = v
            best = i
    return best
