"""The heuristic family at Buraco (VARIANTS.md 6.2, BU-D1 to BU-D6): the same strategies (`baseline` and
its relatives) decide a Buraco game here, with the knobs that only Buraco reads.

* BU-D1 take the whole pile (`bu_pile`, `bu_take`): when its cards are worth enough to the side (laid at
  once, joining what is held, kept from an opponent's melds, less what a useless card costs if held at the
  end), or it holds at least N cards, or its top card fits a meld of the side or two cards of the hand;
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
Reads only the observation, through the contract's accessors (sim.engine.contract), as every strategy
does. The four bu_ knobs are declared below (KNOBS); `wilds` and `go_out` are the heuristic's own
(strategies/heuristic.py), whose kernel hands their values to buraco_decide_nb."""

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
    NK,
    NR,
    O_ADD,
    O_EXTEND,
    O_NEW,
    O_SEQ,
    O_STOP,
    O_TAKE,
    OB_CANASTAS,
    OB_DP,
    OB_FEET,
    OB_HN,
    OB_NM,
    OB_NSIDES,
    OB_PILE_N,
    OB_PILE_TOP,
    OB_PILEK,
    OB_PLAYERS,
    OB_SCORE,
    OB_SEAT,
    OB_SIDE,
    OB_STOCK_N,
    POS_ACE_HIGH,
    POS_ACE_LOW,
    R_CANASTA,
    R_CARDVAL,
    R_SEAT_SIDE,
    RK_2,
    RK_A,
    RK_JK,
    SUITS,
    add_row,
    add_wild,
    card_rank,
    card_suit,
    extend_row,
    extend_wild,
    hand_card_count,
    hand_count,
    meld_row,
    new_wild,
    ob_known,
    option_card,
    option_kind,
    seq_wild_place,
    strategy_jit,
)

from .knobs import PILE, KnobTable

KNOCK_DIRECT, KNOCK_INDIRECT = 0.0, 1.0
TAKE_OFF = PILE + 1  # bu_take=off: no pile is taken for its size alone
WILD_WORTH = 30.0  # a wild taken: it completes a canasta or starts a meld later (BU-D1's pile value)
LAID_BONUS = 10.0  # a card laid at once: its points, and one card fewer held
CLEAN_OFF = -1.0
GO_ASAP = -1.0  # the heuristic's go_out=asap
BURACO = ("buraco",)  # where these knobs act (strategies.FEATURES)

# The knobs only Buraco's decisions read, declared here and listed after the heuristic's (strategies/heuristic.py
# continues this table); every one counts cards or points, so whole numbers only.
KNOBS = KnobTable(whole=True)
K_BU_TAKE = KNOBS.knob(
    "bu_take", 2, PILE, 2,
    "Buraco (BU-D1): off, or N: take every pile of at least N cards whatever its cards are worth (a pile of one "
    "card only when it is laid at once: else two such players would pass it to and fro)",
    (("off", TAKE_OFF),), needs=BURACO)
K_BU_PILE = KNOBS.knob(
    "bu_pile", -100, 500, 30,
    "Buraco (BU-D1): take the whole pile when its cards are worth at least V points to the side: a card laid at "
    "once or a wild its value and more, a card that joins a pair or a run held part of it, a card an opponent's "
    "meld would take half its value (kept from them), a card of no use its value against (it may stay in hand "
    "at the end); or when its top card is laid at once", needs=BURACO)
K_BU_SEQ = KNOBS.knob(
    "bu_seq", -50, 50, -20,
    "Buraco (BU-D2): points a new sequence is preferred by over a new set (negative: sets first)", needs=BURACO)
K_BU_KNOCK = KNOBS.knob(
    "bu_knock", 0, 1, KNOCK_DIRECT,
    "Buraco (BU-D3): reach the morto by a direct knock (meld the last cards, play on with it) or an "
    "indirect one (keep a card to discard, play the morto from the next turn; R-140's risk)",
    (("direct", KNOCK_DIRECT), ("indirect", KNOCK_INDIRECT)), needs=BURACO)
K_BU_CLEAN = KNOBS.knob(
    "bu_clean", 3, 13, CLEAN_OFF,
    "Buraco (BU-D4): off, or N: no wild onto a wild-free meld of N naturals or more, so that it can become a "
    "clean canasta (200 against 100), unless it completes a canasta with the stock nearly gone",
    (("off", CLEAN_OFF),), needs=BURACO)
# The discard scorer (BU-D5): every card the player may discard scores a linear sum of these features, its
# weights the knobs bd_* (tuned like any knob, or learned from the lookahead's ranked discards by `canasta-lab learn`,
# sim.analysis.learn), the highest discarded. The defaults are the rule this kernel always played: the card's use to
# the hand, a card that could still be melded and one that extends an opponent's meld held back, the higher value
# thrown first among equals.
BF_USE, BF_OWN, BF_OPP, BF_VALUE, BF_NEXT, BF_NEXT_HOLDS, BF_PILE_RISK, BF_WILD, BF_LATE = range(9)
N_BFEAT = 9
BURACO_DISCARD_FEATURES = ("use", "own", "opp", "value", "next", "next_holds", "pile_risk", "wild", "late")
_BD = "Buraco's discard scorer (BU-D5): weight of "
K_BD0 = KNOBS.knob("bd_use", -1000, 1000, -10, _BD + "the card's use to the hand (two for each other card of its rank, "
                   "three for each card of its suit beside it, one two places away; 100 a wild)", whole=False,
                   needs=BURACO)
KNOBS.knob("bd_own", -1000, 1000, -40, _BD + "'it extends a meld of the own side or joins its set'", whole=False,
           needs=BURACO)
KNOBS.knob("bd_opp", -1000, 1000, -60, _BD + "the opponent sides whose melds it extends or joins (the next player "
           "takes the whole pile freely)", whole=False, needs=BURACO)
KNOBS.knob("bd_value", -1000, 1000, 0.1, _BD + "the card's point value", whole=False, needs=BURACO)
KNOBS.knob("bd_next", -1000, 1000, 0, _BD + "'it extends or joins a meld of the next player's side'", whole=False,
           needs=BURACO)
KNOBS.knob("bd_next_holds", -1000, 1000, 0, _BD + "'the next player is known to hold a card of its rank'",
           whole=False, needs=BURACO)
KNOBS.knob("bd_pile_risk", -1000, 1000, 0, _BD + "the pile's size where it fits the next player's side", whole=False,
           needs=BURACO)
KNOBS.knob("bd_wild", -1000, 1000, 0, _BD + "'it is a wild (a joker or a two)'", whole=False, needs=BURACO)
LATE_STOCK = 6  # this few stock cards left: the hand may end at any turn (E-BURACO), so go out when able
LATE_DISCARD = 20  # stock cards left: the last third of a Buraco stock, where a card held may soon count against
KNOBS.knob("bd_late", -1000, 1000, 0, _BD + f"the card's point value with at most {LATE_DISCARD} stock cards left",
           whole=False, needs=BURACO)
NO = -1e9  # an action the strategy never takes while another is open


@strategy_jit(inline="always")
def _pos_rank(pos):
    return RK_A if pos == POS_ACE_LOW or pos == POS_ACE_HIGH else pos - 1


@strategy_jit
def fits_side_nb(obs, s, k):
    """Card k extends a sequence of side s at an end, or joins its set of k's rank."""
    if k == JOKER:
        return False
    r = card_rank(k)
    suit = card_suit(k)
    for m in range(obs[OB_NM + s]):
        b = meld_row(obs, s, m)
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
    r = card_rank(k)
    if r == RK_JK or r == RK_2:
        return 100  # a wild: kept
    suit = card_suit(k)
    u = 2 * (hand_count(obs, r) - 1)
    for base in (r + 1, POS_ACE_HIGH if r == RK_A else -10):
        for d in (-2, -1, 1, 2):
            q = base + d
            if POS_ACE_LOW <= q <= POS_ACE_HIGH and hand_card_count(obs, _pos_rank(q) * SUITS + suit) > 0:
                u += 3 if d == -1 or d == 1 else 1
    return u


@strategy_jit
def wild_fits_nb(obs):
    """A wild taken from the pile would start a meld at once: the hand holds a natural pair, or two cards
    of a suit within two places. (Onto a meld it waits for a canasta, or for nothing under `bu_clean`: a
    wild taken into a hand of wilds would only go back on the pile, and two such hands would pass it to
    and fro for ever, nobody drawing.)"""
    for r in range(RK_A, RK_JK):
        if r != RK_2 and hand_count(obs, r) >= 2:
            return True
    for k in range(SUITS * RK_JK):
        r = card_rank(k)
        if hand_card_count(obs, k) > 0 and r != RK_2 and hand_use_nb(obs, k) > 2 * (hand_count(obs, r) - 1):
            return True  # a neighbour of its suit within two places
    return False


@strategy_jit
def melds_with_hand_nb(obs, k):
    """Card k makes a new meld with cards held: two of its rank (a set), or two of its suit beside it
    (a sequence of three)."""
    r = card_rank(k)
    if r == RK_JK or r == RK_2:
        return wild_fits_nb(obs)
    suit = card_suit(k)
    if hand_count(obs, r) >= 2:
        return True
    for base in (r + 1, POS_ACE_HIGH if r == RK_A else -10):
        near = 0
        for d in (-2, -1, 1, 2):
            q = base + d
            held = POS_ACE_LOW <= q <= POS_ACE_HIGH and hand_card_count(obs, _pos_rank(q) * SUITS + suit) > 0
            if held and (d == -1 or d == 1 or near > 0):
                near += 1
        if near >= 2:
            return True
    return False


@strategy_jit
def pile_value_nb(R, obs):
    """BU-D1: what the pile's cards are worth to the side, in points: a wild WILD_WORTH; a card that fits a
    meld of the side or makes one with cards held its value and LAID_BONUS; a card joining a pair or a run
    held a part of its value by how near it is; a card an opponent's meld would take half its value more
    (taking it keeps it from them); a card of no use its value against (it may be held at the end)."""
    s = obs[OB_SIDE]
    total = 0.0
    for k in range(NK):
        c = obs[OB_PILEK + k]
        if c == 0:
            continue
        r = card_rank(k)
        pts = float(R[R_CARDVAL + r])
        if r == RK_JK or r == RK_2:
            v = WILD_WORTH
        elif fits_side_nb(obs, s, k) or melds_with_hand_nb(obs, k):
            v = pts + LAID_BONUS
        else:
            use = hand_use_nb(obs, k)
            v = pts * min(use, 6) / 6.0 if use > 0 else -pts
        for t in range(obs[OB_NSIDES]):
            if t != s and fits_side_nb(obs, t, k):
                v += pts / 2.0
                break
        total += v * c
    return total


@strategy_jit
def _draw_nb(R, obs, opts, n, prm):
    """BU-D1: take the pile when its cards are worth enough to the side (pile_value_nb), or it is big enough
    (bu_take), or its top card is laid at once (it fits a meld of the side, or makes one with the hand);
    else draw, so that the stock keeps running down. A pile of one card is taken only to be laid: a card
    taken and thrown back would pass to and fro, nobody drawing, the stock never running out."""
    take = -1
    for i in range(n):
        if option_kind(opts, i) == O_TAKE:
            take = i
    if take < 0:
        return 0
    top = obs[OB_PILE_TOP]
    s = obs[OB_SIDE]
    if obs[OB_PILE_N] >= 2 and (obs[OB_PILE_N] >= prm[K_BU_TAKE] or pile_value_nb(R, obs) >= prm[K_BU_PILE]):
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
            v += obs[meld_row(obs, t, m) + F_VAL]
        if t == s:
            own = v
        elif v > best:
            best = v
    return own - best


@strategy_jit
def _meld_score_nb(R, obs, opts, i, prm, wilds, go_out):
    """BU-D2 to BU-D4: what one meld action is worth; <= 0: rather stop. `wilds` and `go_out` are the
    heuristic's knobs of those names."""
    s = obs[OB_SIDE]
    t = option_kind(opts, i)
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
        wild = seq_wild_place(opts, i) > 0
        v = 30.0 + prm[K_BU_SEQ]
    elif t == O_NEW:
        wild = new_wild(opts, i) >= 0
        v = 30.0
    else:
        if t == O_ADD:
            base = meld_row(obs, s, add_row(opts, i))
            wild = add_wild(opts, i) >= 0
        else:
            base = meld_row(obs, s, extend_row(opts, i))
            wild = extend_wild(opts, i) >= 0
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
            if not completes and wilds == 0.0 and h_after > 1:
                return -5.0  # the one wild waits for a canasta
        elif wilds == 0.0 and h_after > 1:
            v -= 22.0  # a meld started with its wild: only when nothing better is open
    if size_after == canasta:
        v += 100.0 if clean_before and not wild else 60.0
    elif size_after > canasta and wild and clean_before:
        return NO  # a clean canasta would turn dirty (200 to 100)
    if h_after == 0:
        if morto:
            v += 50.0 if prm[K_BU_KNOCK] == KNOCK_DIRECT else NO  # BU-D3
        else:
            g = go_out
            ok = g == GO_ASAP or obs[OB_STOCK_N] <= LATE_STOCK or _lead_nb(obs) + _table_lead_nb(obs) >= g
            v += 500.0 if ok else NO
    return v


@strategy_jit
def buraco_discard_features_nb(R, obs, k, f):
    """The features of discarding card kind k (BF_*), written into f (int64[N_BFEAT])."""
    s = obs[OB_SIDE]
    r = card_rank(k)
    nxt = (obs[OB_SEAT] + 1) % obs[OB_PLAYERS]  # play passes to the left (seat + 1)
    ns = R[R_SEAT_SIDE + nxt]
    opp = 0
    for t in range(obs[OB_NSIDES]):
        if t != s and fits_side_nb(obs, t, k):
            opp += 1
    fits_next = 1 if ns != s and fits_side_nb(obs, ns, k) else 0
    f[BF_USE] = hand_use_nb(obs, k)
    f[BF_OWN] = 1 if fits_side_nb(obs, s, k) else 0
    f[BF_OPP] = opp
    f[BF_VALUE] = R[R_CARDVAL + r]
    f[BF_NEXT] = fits_next
    f[BF_NEXT_HOLDS] = 1 if obs[ob_known(obs) + nxt * NR + r] >= 1 else 0
    f[BF_PILE_RISK] = obs[OB_PILE_N] if fits_next == 1 else 0
    f[BF_WILD] = 1 if r == RK_JK or r == RK_2 else 0
    f[BF_LATE] = R[R_CARDVAL + r] if obs[OB_STOCK_N] <= LATE_DISCARD else 0


@strategy_jit
def _discard_nb(R, obs, opts, n, prm):
    """BU-D5: the highest score of the discard scorer (its features in the scratch space's last slots); with the
    default weights the card least useful to the hand, never a wild or a card that extends an opponent's meld
    while another can go, higher values first among equals (cards held at the end count against)."""
    f = obs[obs.shape[0] - N_BFEAT:]
    best = 0
    bestv = -1e18
    for i in range(n):
        buraco_discard_features_nb(R, obs, option_card(opts, i), f)
        v = 0.0
        for j in range(N_BFEAT):
            v += prm[K_BD0 + j] * f[j]
        if v > bestv:
            bestv = v
            best = i
    return best


@strategy_jit
def buraco_decide_nb(R, obs, opts, n, prm, wilds, go_out):
    """The heuristic's decision at a Buraco decision point; `wilds` and `go_out` are the values of the
    heuristic's knobs of those names (declared with the heuristic's kernel, which calls this one)."""
    dp = obs[OB_DP]
    if dp == DP_DRAW:
        return _draw_nb(R, obs, opts, n, prm)
    if dp == DP_DISCARD:
        return _discard_nb(R, obs, opts, n, prm)
    best = n - 1
    bestv = 0.0
    for i in range(n):
        if option_kind(opts, i) == O_STOP:
            continue
        v = _meld_score_nb(R, obs, opts, i, prm, wilds, go_out)
        if v > bestv:
            bestv = v
            best = i
    return best
