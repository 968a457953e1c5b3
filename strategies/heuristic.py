"""The heuristic family: `baseline` and its named relatives share this kernel and differ in knobs.

A club player's rules of thumb, each one a knob, declared below (KNOBS: name, range, default, meaning
and where it acts; strategies/library.py sets other defaults for the named relatives). It reads only the
observation, through the contract's accessors (sim.engine.contract), like any strategy, and asks the
rules through sim.engine.rulehelp.
Options are scored and the best one wins; ties go to the first option, so play is deterministic.

Two plans sit above the scores, so that no legal going out and no chosen opening is lost to greedy
play: when the player wants to go out and the hand can go out this turn (the engine's exact
going-out search, run on the observation), only actions that keep that possible are taken; while an
opening is being laid, only actions after which the minimum can still be reached are taken.
"""

import numpy as np

from sim.engine.contract import (
    ANSWER_YES,
    CK_MIXED,
    CK_WILD,
    DP_ANSWER,
    DP_ASK,
    DP_DISCARD,
    DP_DRAW,
    DP_MELD,
    F_JOK,
    F_KIND,
    F_NAT,
    F_RANK,
    F_TWO,
    F_VAL,
    FOOT_DUE,
    MIN_MELD,
    MK_RANK,
    MK_WILD,
    NCK,
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
    O_TOP,
    O_WILD,
    O_YES,
    OB_ANSWER,
    OB_CANASTAS,
    OB_CANK,
    OB_DP,
    OB_FEET,
    OB_FOOT_DUE,
    OB_FROZEN,
    OB_HANDS,
    OB_HN,
    OB_MELDED,
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
    OB_SEAT,
    OB_SIDE,
    OB_SMELDED,
    OB_STOCK_N,
    OB_TOOK,
    OB_TOP_TAKEN,
    OB_TURN,
    R_B3_CLOSE,
    R_CANASTA,
    R_CANBONUS,
    R_CARDVAL,
    R_CONC_WAIVE,
    R_FOOT,
    R_GO_CANASTAS,
    R_GO_KINDS,
    R_RED3TAB,
    R_SEAT_SIDE,
    R_SEQ,
    R_SEVENS,
    R_WILD_SPLIT,
    RED3_D,
    RED3_H,
    RK_2,
    RK_3,
    RK_7,
    RK_JK,
    SUITS,
    TAKE_FREE,
    TAKE_M2,
    TAKE_M3,
    add_row,
    add_wild,
    black3_count,
    card_rank,
    hand_card_count,
    hand_count,
    meld_row,
    new_naturals,
    new_rank,
    new_wild,
    ob_known,
    option_card,
    option_kind,
    option_seat,
    strategy_jit,
    take_method,
    take_wild,
    wild_jokers,
    wild_twos,
)
from sim.engine.rulehelp import (
    W_BAN,
    W_FORBID,
    W_HAVE,
    W_LEN,
    W_MEX,
    W_MN,
    W_MW,
    W_TH,
    can_go_out_w_nb,
    close_at_cap_nb,
    completed_kind_nb,
    foot_kinds_nb,
    is_black3_nb,
    is_natural_meld_rank_nb,
    is_red3_nb,
    is_wild_rank_nb,
    kinds_to_go_out_nb,
    max_meld_value_nb,
    wild_room_nb,
)

from . import buraco as B
from .buraco import buraco_decide_nb
from .knobs import PILE, KnobTable

FREEZE_NEVER, FREEZE_ALWAYS = -1.0, -2.0
MELD_ALL, MELD_THREE, MELD_PAIRS = 0.0, 1.0, 2.0
NATURAL_OFF = -1.0
TOP_NEVER, TOP_USEFUL, TOP_ALWAYS = -1.0, 0.0, 1.0
WILD_MELD_NEVER = -1.0
SEVENS_FREE, SEVENS_BUILD = 0.0, 1.0
SAVE_WILD = 200.0  # a wild kept out of rank melds for the side's wild canasta (Pennies, Railroad)
THREAT_CARDS = 3  # an opponent with the canastas to go out and this few cards threatens to go out

# Where each knob acts (strategies.FEATURES): a game with sequences (Buraco) goes to strategies/buraco.py,
# which reads wilds, go_out and its own bu_ knobs; the Canasta decisions read the rest.
CANASTA = ("canasta",)
ASKING = ("canasta", "partners")  # asking and answering (DP_ASK, DP_ANSWER): the engine offers them with partners
WILDS = ("wilds_in_melds",)  # wilds: the Canasta games' and Buraco's meld scores both read it

# The knobs, in the order `canasta-lab strategies` lists them; each takes the next slot after Buraco's
# (strategies/buraco.py). Every one counts cards or points: whole numbers only (min_pile=3.5 is refused,
# not rounded).
KNOBS = KnobTable(after=B.KNOBS, whole=True)
K_MIN_PILE = KNOBS.knob(
    "min_pile", 0, PILE, 3, "smallest pile (cards) worth taking once the side has melded", needs=CANASTA)
K_FREEZE = KNOBS.knob(
    "freeze", 0, PILE, FREEZE_NEVER,
    "freeze the pile with a wild: never, always when able, or N: once an opponent side has "
    "melded and the pile holds at least N cards",
    (("never", FREEZE_NEVER), ("always", FREEZE_ALWAYS)), needs=CANASTA)
K_HOLD_B3 = KNOBS.knob(
    "hold_black3", 0, PILE, 4,
    "black threes: throw at once, keep for a going-out meld, or N: throw only on piles of at "
    "least N cards",
    (("throw", 0.0), ("keep", -1.0)), needs=CANASTA)
K_ASK = KNOBS.knob(
    "ask", 0, 30, 0,
    "ask the partner 'may I go out?': never, always, or N: when the partner holds at least N cards",
    (("never", -1.0), ("always", 0.0)), needs=ASKING)
K_ANSWER_MAX = KNOBS.knob(
    "answer_max", 0, 10000, 100,
    "answer yes unless the own hand holds at least P points (yes: always yes, no: always no)",
    (("yes", 1e9), ("no", 0.0)), needs=ASKING)
K_MELD = KNOBS.knob(
    "meld", 0, 2, MELD_ALL,
    "all: lay everything; three: lay three-card melds and hold extra cards back until they make "
    "a canasta; pairs: as three, and never meld a natural pair with a wild (keep it for the pile)",
    (("all", MELD_ALL), ("three", MELD_THREE), ("pairs", MELD_PAIRS)), needs=CANASTA)
K_WILDS = KNOBS.knob(
    "wilds", 0, 1, 0,
    "save: wilds only complete a canasta, reach the minimum or go out; free: add them anywhere",
    (("save", 0.0), ("free", 1.0)), needs=WILDS)
K_GO_OUT = KNOBS.knob(
    "go_out", 0, 20000, -1,
    "go out as soon as legal, or M: only when ahead by at least M points (scores plus table) or "
    f"when an opponent with at most {THREAT_CARDS} cards has the canastas to go out",
    (("asap", -1.0),))
K_CANASTAS = KNOBS.knob(
    "canastas", 0, 20, 0,
    "go out only once the side holds at least N canastas (0: the rules' minimum); a partner's "
    "'yes' or an opponent threatening to go out brings it back to the rules' minimum", needs=CANASTA)
K_NATURAL = KNOBS.knob(
    "natural", 0, 20, NATURAL_OFF,
    "off, or N: add no wild to a wild-free meld of at least N naturals, so that it can become "
    "a natural canasta (a wild may still go there to go out)",
    (("off", NATURAL_OFF),), needs=CANASTA + WILDS)
K_TOP = KNOBS.knob(
    "take_top", -1, 1, TOP_USEFUL,
    "where the rules offer the top discard alone as a draw (House-001): never, useful (once the side "
    "has opened, when it makes a meld with two cards held or, under meld=all, joins an own meld) or "
    "always; a red three "
    "on top is always taken",
    (("never", TOP_NEVER), ("useful", TOP_USEFUL), ("always", TOP_ALWAYS)),
    needs=CANASTA + ("top_card_draw",))
K_WILD_MELD = KNOBS.knob(
    "wild_meld", 3, 12, 4,
    "where the rules have wild melds (Boat, Pennies, Railroad): never (but to go out), or N: start the "
    "side's wild meld once holding at least N wild cards (jokers first), then feed it, completing its "
    "canasta first and never adding a two that would tie a big wild canasta; where going out needs a wild "
    "canasta, wilds stay out of rank melds once the side has its mixed canasta",
    (("never", WILD_MELD_NEVER),), needs=CANASTA + ("wild_melds",))
K_FOOT = KNOBS.knob(
    "foot", 0, 1000, 300,
    "where players have a foot or kitty (Pennies, Railroad), racing to pick it up: points added to the meld "
    "that completes the canasta bringing the player's own foot, half of them to a wild spent to complete one "
    "this turn, and as many taken off a wild that would complete a canasta that does not bring it "
    "(Railroad's black canasta); 0: no race", needs=CANASTA + ("feet",))
K_SEVENS = KNOBS.knob(
    "sevens", 0, 1, SEVENS_BUILD,
    "where sevens make a canasta of their own (Pennies, Railroad): build (keep sevens, never discard one, "
    "lay them towards the sevens canasta) or free (ordinary cards)",
    (("free", SEVENS_FREE), ("build", SEVENS_BUILD)), needs=CANASTA + ("sevens",))

# The discard scorer. An ordinary card (not a wild, a black three or a seven kept for the sevens canasta) is
# scored by a linear sum of the features below, each with its weight a knob (d_*), so that the weights can be
# tuned like any knob or learned from the choices of the lookahead player (`canasta-lab learn`,
# sim.analysis.learn). The defaults are the rules of thumb baseline has always played: the card's value
# against it, a card an opponent could lay off on an unfrozen pile far down, pairs kept, a card of an own
# meld and one already seen going in a little up. discard_features_nb computes them for the kernel and for
# the learner alike.
DF_VALUE, DF_DANGER, DF_OWN, DF_PAIRS, DF_SEEN, DF_NEXT_DANGER, DF_NEXT_HOLDS, DF_NEXT_PAIR, DF_PILE_RISK, \
    DF_DEAD, DF_SINGLE, DF_LATE = range(12)
N_DFEAT = 12
LATE_STOCK = 10  # a hand with this few stock cards left is near its end: what is held will count against
DISCARD_FEATURES = ("value", "danger", "own", "pairs", "seen", "next_danger", "next_holds", "next_pair", "pile_risk",
                    "dead", "single", "late")
_D = "discard scorer (an ordinary card): weight of "
K_D0 = KNOBS.knob("d_value", -1000, 1000, -1, _D + "the card's point value", whole=False, needs=CANASTA)
KNOBS.knob("d_danger", -1000, 1000, -100, _D + "the opponent sides with a meld of its rank while the pile is not "
           "frozen", whole=False, needs=CANASTA)
KNOBS.knob("d_own", -1000, 1000, 5, _D + "'the own side has a meld of its rank'", whole=False, needs=CANASTA)
KNOBS.knob("d_pairs", -1000, 1000, -15, _D + "the other cards of its rank in hand (0 for a single card)",
           whole=False, needs=CANASTA)
KNOBS.knob("d_seen", -1000, 1000, 8, _D + "'a card of its kind has gone into the pile since it was last taken'",
           whole=False, needs=CANASTA)
# the next player is the one who may take the pile with this card on top
KNOBS.knob("d_next_danger", -1000, 1000, 0, _D + "'the next player's side has a meld of its rank and the pile is not "
           "frozen' (the next player could lay it off and take the pile)", whole=False, needs=CANASTA)
KNOBS.knob("d_next_holds", -1000, 1000, 0, _D + "'the next player is known to hold a card of its rank' (taken with "
           "a pile and not seen leave)", whole=False, needs=CANASTA)
KNOBS.knob("d_next_pair", -1000, 1000, 0, _D + "'the next player is known to hold two or more of its rank' (a "
           "natural pair takes even a frozen pile)", whole=False, needs=CANASTA)
KNOBS.knob("d_pile_risk", -1000, 1000, 0, _D + "the pile's size where the next player could take it with the card "
           "(next_danger or next_pair)", whole=False, needs=CANASTA)
KNOBS.knob("d_dead", -1000, 1000, 0, _D + "the cards of its rank seen going into the pile", whole=False,
           needs=CANASTA)
KNOBS.knob("d_single", -1000, 1000, 0, _D + "'it is the only card of its rank in hand'", whole=False,
           needs=CANASTA)
KNOBS.knob("d_late", -1000, 1000, 0, _D + f"the card's point value late in the hand (at most {LATE_STOCK} stock "
           f"cards left, or an opponent threatening to go out)", whole=False, needs=CANASTA)
FAMILY_KNOBS = KNOBS.knobs + B.KNOBS.knobs  # the knobs of baseline and its relatives, in this order
# a hand this long is one no stock end will finish (Boat turns the pile into the stock again): go out when
# able, take any pile and lay everything, whatever the knobs say (a Classic hand is over long before)
LONG_HAND = 200

# Boat's four-black-three close: the hand closes by melding exactly these four black threes, and a hand
# keeps its size from turn to turn (a card drawn, a card discarded), so only a hand of at least these many cards
# after its melds can ever become them
B3_CLOSE_CARDS = 4
HOLD_BACK = -100.0  # a meld scored below stopping (0): its cards stay in hand

TIER = 1000.0  # discard scores: one tier per kind of card, ranked within the tier
WITHIN_TIER = 0.45 * TIER  # an ordinary card's score stays within its tier whatever the discard weights
PLAN = 1e6  # added to an action that keeps a wanted going out (or a started opening) possible
WORK = W_LEN  # slots of one going-out work area (sim.engine.goout)
KEEP_CARDS = 2  # an opening that does not go out leaves at least this many cards (one to discard, §1.7)


@strategy_jit
def table_value_nb(R, obs, t):
    """Side t's score this hand so far as anyone can count it: melded cards, canasta bonuses and
    red threes (the cards still in hands are unknown)."""
    v = 0
    for m in range(obs[OB_NM + t]):
        v += obs[meld_row(obs, t, m) + F_VAL]
    for k in range(NCK):
        v += obs[OB_CANK + t * NCK + k] * R[R_CANBONUS + k]
    v += R[R_RED3TAB + obs[OB_RED3 + t]]
    return v


@strategy_jit
def threatened_nb(R, obs):
    """An opponent side has the canastas to go out and one of its players few enough cards."""
    s = obs[OB_SIDE]
    for t in range(obs[OB_NSIDES]):
        if t != s and obs[OB_CANASTAS + t] >= R[R_GO_CANASTAS]:
            for q in range(obs[OB_PLAYERS]):
                if R[R_SEAT_SIDE + q] == t and obs[OB_HANDS + q] <= THREAT_CARDS:
                    return True
    return False


@strategy_jit(inline="always")
def long_hand_nb(obs):
    """A hand of LONG_HAND turns: play to end it (go out when able, take any pile, lay everything)."""
    return obs[OB_TURN] >= LONG_HAND


@strategy_jit
def may_go_out_nb(R, obs, prm):
    """The go_out knob: going out now is wanted (as soon as legal, or ahead by M, or threatened)."""
    m = prm[K_GO_OUT]
    if m < 0 or obs[OB_ANSWER] == ANSWER_YES or long_hand_nb(obs):
        return True
    if threatened_nb(R, obs):
        return True
    s = obs[OB_SIDE]
    mine = obs[OB_SCORE + s] + table_value_nb(R, obs, s)
    best = -(1 << 40)
    for t in range(obs[OB_NSIDES]):
        if t != s:
            v = obs[OB_SCORE + t] + table_value_nb(R, obs, t)
            if v > best:
                best = v
    return mine - best >= m


@strategy_jit
def canastas_wanted_nb(R, obs, prm):
    """Canastas the side wants before going out: the canastas knob, or the rules' minimum when a
    "yes" binds the player or an opponent threatens to go out."""
    need = R[R_GO_CANASTAS]
    if obs[OB_ANSWER] == ANSWER_YES or threatened_nb(R, obs):
        return need
    k = int(prm[K_CANASTAS])
    return k if k > need else need


@strategy_jit
def kinds_ok_nb(R, obs):
    """The side has a canasta of every kind going out needs (Pennies, Railroad: goout.kinds_to_go_out_nb)."""
    req = kinds_to_go_out_nb(R)
    s = obs[OB_SIDE]
    for c in range(NCK):
        if (req >> c) & 1 and obs[OB_CANK + s * NCK + c] == 0:
            return False
    return True


@strategy_jit
def brings_foot_nb(R, obs, opts, i):
    """Meld action o completes a canasta that brings the player's own face-down foot (Pennies R-95,
    Railroad R-114)."""
    if option_kind(opts, i) != O_ADD or obs[OB_FOOT_DUE] != 0 or obs[OB_FEET + obs[OB_SEAT]] == 0:
        return False
    mb = meld_row(obs, obs[OB_SIDE], add_row(opts, i))
    size = obs[mb + F_NAT] + obs[mb + F_TWO] + obs[mb + F_JOK]
    if size + 1 != R[R_CANASTA]:
        return False
    r = obs[mb + F_RANK]
    wr = add_wild(opts, i)
    wild = 1 if wr >= 0 else 0
    if obs[mb + F_KIND] == MK_WILD:
        kind = completed_kind_nb(R, RK_JK, 0, size + 1, obs[mb + F_JOK] + (1 if wr == RK_JK else 0))
    else:
        kind = completed_kind_nb(R, r, obs[mb + F_NAT] + 1 - wild, obs[mb + F_TWO] + obs[mb + F_JOK] + wild, 0)
    return (foot_kinds_nb(R) >> kind) & 1 != 0


@strategy_jit(inline="always")
def lacks_kind_nb(R, obs, kind):
    """Going out needs a canasta of `kind` (Pennies, Railroad) and the own side has none yet."""
    return (kinds_to_go_out_nb(R) >> kind) & 1 != 0 and obs[OB_CANK + obs[OB_SIDE] * NCK + kind] == 0


@strategy_jit
def wild_completion_nb(R, obs, opts, i):
    """Where melds close at seven (Pennies, Railroad): the kind of canasta that wild action o (a wild
    added to a rank meld) leads to this turn, the meld completed with the naturals and wilds still
    held; -1 when the hand cannot complete it now."""
    if option_kind(opts, i) != O_ADD or add_wild(opts, i) < 0:
        return -1
    mb = meld_row(obs, obs[OB_SIDE], add_row(opts, i))
    if obs[mb + F_KIND] != MK_RANK:
        return -1
    r = obs[mb + F_RANK]
    nat = obs[mb + F_NAT]
    wl = obs[mb + F_TWO] + obs[mb + F_JOK] + 1
    short = R[R_CANASTA] - nat - wl
    if short < 0:
        return -1
    room = wild_room_nb(R, r, nat, wl)
    more = hand_count(obs, RK_JK) + hand_count(obs, RK_2) - 1
    if more > room:
        more = room
    if more < 0:
        more = 0
    if hand_count(obs, r) + more < short:
        return -1
    return completed_kind_nb(R, r, R[R_CANASTA] - wl, wl, 0)


@strategy_jit
def kinds_score_nb(R, obs, opts, i, prm):
    """Where going out needs one canasta of each of several kinds (Pennies, Railroad) and players have a
    face-down foot or kitty: once the side has its mixed canasta, the wild canasta is built from wilds
    kept out of rank melds (`wild_meld`, P-D3), and the race for the foot (`foot`, P-D1, RR-D1) spends
    wilds on a canasta that brings the foot this turn and none on one that would not (Railroad: a black
    canasta leaves the kitty down)."""
    t = option_kind(opts, i)
    if t != O_ADD and t != O_NEW:
        return 0.0
    wild = new_wild(opts, i) >= 0 if t == O_NEW else add_wild(opts, i) >= 0
    if not wild:
        return 0.0
    if t == O_ADD and obs[meld_row(obs, obs[OB_SIDE], add_row(opts, i)) + F_KIND] == MK_WILD:
        return 0.0
    v = 0.0
    kind = wild_completion_nb(R, obs, opts, i)
    if prm[K_WILD_MELD] != WILD_MELD_NEVER and lacks_kind_nb(R, obs, CK_WILD) \
            and not lacks_kind_nb(R, obs, CK_MIXED):
        v -= SAVE_WILD  # the side has its mixed canasta: the wild waits for the side's wild meld
    if obs[OB_FOOT_DUE] == 0 and obs[OB_FEET + obs[OB_SEAT]] > 0 and kind >= 0:
        if (foot_kinds_nb(R) >> kind) & 1:
            v += prm[K_FOOT] / 2.0  # completes this turn the canasta that brings the foot
        else:
            v -= prm[K_FOOT]  # would complete a canasta that leaves the foot face down
    return v


@strategy_jit
def opening_needed_nb(R, obs):
    """Initial-meld value a going out must still lay (as the engine's opening_still_needed_nb)."""
    if obs[OB_MELDED] != 0:
        return 0
    pend = obs[OB_PEND] if obs[OB_PEND] > 0 else 0
    if pend >= obs[OB_REQ] or (R[R_CONC_WAIVE] != 0 and obs[OB_TOOK] == 0):
        return 0
    return obs[OB_REQ] - pend


@strategy_jit
def load_goout_nb(R, obs, w):
    """The engine's going-out work area from the observation: own hand and own open rank melds, the
    card taken from the top this turn that may not be the discard (R-54), the side's canasta kinds and
    what the player's foot forbids (goout.foot_forbid_nb)."""
    s = obs[OB_SIDE]
    k = obs[OB_TOP_TAKEN]
    w[W_BAN] = card_rank(k) if k >= 0 and hand_card_count(obs, k) > 0 else -1
    have = 0
    for c in range(NCK):
        if obs[OB_CANK + s * NCK + c] > 0:
            have |= 1 << c
    w[W_HAVE] = have
    if obs[OB_FOOT_DUE] != 0:
        w[W_FORBID] = -1
    elif obs[OB_FEET + obs[OB_SEAT]] > 0:
        w[W_FORBID] = foot_kinds_nb(R)
    else:
        w[W_FORBID] = 0
    for r in range(NR):
        w[W_TH + r] = hand_count(obs, r)
        m = obs[OB_MOR + s * NR + r]
        w[W_MEX + r] = 0
        w[W_MN + r] = 0
        w[W_MW + r] = 0
        if m >= 0:
            mb = meld_row(obs, s, m)
            if obs[mb + F_KIND] == MK_RANK:
                w[W_MEX + r] = 1
                w[W_MN + r] = obs[mb + F_NAT]
                w[W_MW + r] = obs[mb + F_TWO] + obs[mb + F_JOK]
            elif obs[mb + F_KIND] == MK_WILD:  # the wild meld, at RK_JK (Boat)
                w[W_MEX + r] = 1
                w[W_MN + r] = obs[mb + F_JOK]
                w[W_MW + r] = obs[mb + F_TWO]


@strategy_jit
def lone_cards_nb(obs):
    """Natural ranks held once with no own meld to lay them on: each must be the final discard, so
    two of them rule out going out this turn (a cheap exact test before the search)."""
    s = obs[OB_SIDE]
    lone = 0
    for r in range(NR):
        if is_natural_meld_rank_nb(r) and hand_count(obs, r) == 1 and obs[OB_MOR + s * NR + r] < 0:
            lone += 1
    return lone


@strategy_jit(inline="always")
def cards_laid_nb(opts, i):
    """Cards a meld action takes from the hand."""
    t = option_kind(opts, i)
    if t == O_NEW:
        return new_naturals(opts, i) + (1 if new_wild(opts, i) >= 0 else 0)
    if t == O_BLACK3:
        return black3_count(opts, i)
    if t == O_ADD:
        return 1
    return 0


@strategy_jit(inline="always")
def hand_cards_laid_nb(opts, i):
    """Cards any meld action takes from the hand, a new wild meld's too (cards_laid_nb, which the opening plan
    reads, leaves that one out)."""
    if option_kind(opts, i) == O_WILD:
        return wild_jokers(opts, i) + wild_twos(opts, i)
    return cards_laid_nb(opts, i)


@strategy_jit
def action_value_nb(R, obs, opts, i):
    """Card value a meld action lays (it counts towards an opening)."""
    t = option_kind(opts, i)
    if t == O_NEW:
        wr = new_wild(opts, i)
        return new_naturals(opts, i) * R[R_CARDVAL + new_rank(opts, i)] + (R[R_CARDVAL + wr] if wr >= 0 else 0)
    if t == O_ADD:
        wr = add_wild(opts, i)
        if wr >= 0:
            return R[R_CARDVAL + wr]
        return R[R_CARDVAL + obs[meld_row(obs, obs[OB_SIDE], add_row(opts, i)) + F_RANK]]
    if t == O_BLACK3:
        return black3_count(opts, i) * R[R_CARDVAL + RK_3]
    return 0


@strategy_jit
def keeps_going_out_nb(R, obs, opts, i, w, w2, need, needed):
    """After meld action o, can the hand still go out this turn with `need` canastas? (w holds the
    position before the action; w2 is work space.)"""
    t = option_kind(opts, i)
    h = obs[OB_HN]
    if t == O_STOP:
        return h <= 1  # stopping with one card left discards it: that is going out
    for x in range(WORK):
        w2[x] = w[x]
    s = obs[OB_SIDE]
    ncan = obs[OB_CANASTAS + s]
    used = 0
    if t == O_NEW:
        r = new_rank(opts, i)
        nat = new_naturals(opts, i)
        wr = new_wild(opts, i)
        w2[W_TH + r] -= nat
        if r == w2[W_BAN]:
            w2[W_BAN] = -1  # the card taken alone from the top is melded first
        w2[W_MEX + r] = 1
        w2[W_MN + r] += nat
        used = nat
        if wr >= 0:
            w2[W_TH + wr] -= 1
            w2[W_MW + r] += 1
            used += 1
    elif t == O_ADD:
        mb = meld_row(obs, s, add_row(opts, i))
        wr = add_wild(opts, i)
        r = obs[mb + F_RANK]
        size = obs[mb + F_NAT] + obs[mb + F_TWO] + obs[mb + F_JOK]
        if wr < 0:
            w2[W_TH + r] -= 1
            w2[W_MN + r] += 1
            if r == w2[W_BAN]:
                w2[W_BAN] = -1
        elif r == RK_JK and wr == RK_JK:  # the wild meld: jokers at W_MN, twos at W_MW (goout.load_goout_nb)
            w2[W_TH + RK_JK] -= 1
            w2[W_MN + r] += 1
        else:
            w2[W_TH + wr] -= 1
            w2[W_MW + r] += 1
        used = 1
        if size + 1 == R[R_CANASTA]:
            ncan += 1
    elif t == O_WILD:  # the wild meld sits at RK_JK: its jokers and twos (sim.engine.goout)
        jokers = wild_jokers(opts, i)
        twos = wild_twos(opts, i)
        w2[W_TH + RK_JK] -= jokers
        w2[W_TH + RK_2] -= twos
        w2[W_MEX + RK_JK] = 1
        w2[W_MN + RK_JK] += jokers
        w2[W_MW + RK_JK] += twos
        used = jokers + twos
    else:  # O_BLACK3
        used = black3_count(opts, i)
        w2[W_TH + RK_3] -= used
    if t == O_NEW or t == O_ADD:
        close_at_cap_nb(R, w2, r)  # Pennies, Railroad: a meld closed at seven
    elif t == O_WILD:
        close_at_cap_nb(R, w2, np.int64(RK_JK))  # an int64: a constant would compile a second copy
    left = needed - action_value_nb(R, obs, opts, i)
    if left < 0:
        left = 0
    if h - used == 0:
        req = kinds_to_go_out_nb(R)
        return ncan >= need and left == 0 and w2[W_FORBID] >= 0 and (w2[W_HAVE] & req) == req
    return can_go_out_w_nb(R, w2, ncan, need, left)


@strategy_jit
def opening_reach_nb(R, obs, opts, i, h, scratch, free):
    """Most value the hand can still lay this turn after opening action o, laying at most `free`
    more cards, counting the melds already pending (every own meld is pending while the side has
    not opened). h and scratch are work space."""
    s = obs[OB_SIDE]
    for r in range(NR):
        h[r] = hand_count(obs, r)
    t = option_kind(opts, i)
    newr = -1
    neww = 0
    if t == O_NEW:
        newr = new_rank(opts, i)
        h[newr] -= new_naturals(opts, i)
        if new_wild(opts, i) >= 0:
            h[new_wild(opts, i)] -= 1
            neww = 1
    elif t == O_ADD:
        mb = meld_row(obs, s, add_row(opts, i))
        if add_wild(opts, i) < 0:
            h[obs[mb + F_RANK]] -= 1
        else:
            h[add_wild(opts, i)] -= 1
            newr = obs[mb + F_RANK]
            neww = 1
    # the room for wilds in the melds laid so far (an int64 from the start: numba types a variable first set to a
    # constant as that constant in its first pass, and the calls below would compile a copy of their callee for it)
    slots = np.int64(0)
    for r in range(NR):
        m = obs[OB_MOR + s * NR + r]
        if m < 0 and r != newr:
            continue
        wilds = neww if r == newr else 0
        nats = 0
        if r == newr and t == O_NEW:
            nats = new_naturals(opts, i)
        if m >= 0:
            mb = meld_row(obs, s, m)
            wilds += obs[mb + F_TWO] + obs[mb + F_JOK]
            nats += obs[mb + F_NAT]
        room = wild_room_nb(R, r, nats + h[r], wilds)  # the rank's naturals still in hand join this meld
        slots += room if room > 0 else 0
    if free < MIN_MELD:
        return _best_singles_nb(R, obs, h, newr, slots, free)
    # naturals of a rank already (or just) melded are laid on it; wilds fill the melds' room
    extra = 0
    trank = np.int64(-1)
    for r in range(NR):
        if obs[OB_MOR + s * NR + r] >= 0 or r == newr:
            extra += h[r] * R[R_CARDVAL + r]
            h[r] = 0
            if trank < 0:
                trank = r
    if trank < 0:
        return max_meld_value_nb(R, h, trank, np.int64(0), scratch)
    return extra + max_meld_value_nb(R, h, trank, slots, scratch)


@strategy_jit
def _best_singles_nb(R, obs, h, newr, slots, free):
    """Most value of at most `free` cards laid one at a time onto the melds (too few for a new
    meld): naturals of their ranks, and wilds while the melds have room. Consumes h."""
    s = obs[OB_SIDE]
    total = 0
    room = slots
    for _k in range(free):
        bestr = -1
        bestv = 0
        for r in range(NR):
            if h[r] <= 0:
                continue
            if is_wild_rank_nb(r):
                ok = room > 0
            else:
                ok = r == newr or obs[OB_MOR + s * NR + r] >= 0
            if ok and R[R_CARDVAL + r] > bestv:
                bestv = R[R_CARDVAL + r]
                bestr = r
        if bestr < 0:
            break
        total += bestv
        h[bestr] -= 1
        if is_wild_rank_nb(bestr):
            room -= 1
    return total


@strategy_jit
def hand_points_nb(R, obs):
    v = 0
    for r in range(NR):
        v += hand_count(obs, r) * R[R_CARDVAL + r]
    return v


@strategy_jit(inline="always")
def _top_score_nb(obs, k, mode, meld_mode):
    """Taking the top discard alone instead of drawing (R-54): a known card against an unknown one, worth
    it (`useful`) once the side has opened, when the card joins an own meld or makes a meld with two
    held, so that it is laid at once; a card kept in hand would only pass to and fro between players
    (nobody drawing, the stock never running out). A red three is a hundred points at once."""
    if is_red3_nb(k):
        return 50.0
    if mode == TOP_NEVER:
        return -2.0
    if mode == TOP_ALWAYS:
        return 5.0
    r = card_rank(k)
    if obs[OB_MELDED] == 0:
        return -2.0
    h = obs[OB_HN]  # laid at once, it must still leave two cards: one to discard, one to keep
    if obs[OB_MOR + obs[OB_SIDE] * NR + r] >= 0 and h >= KEEP_CARDS and meld_mode == MELD_ALL:
        return 5.0  # laid off at once (`meld=three` and `pairs` hold such a card back)
    if hand_count(obs, r) >= 2 and h + 1 - MIN_MELD >= KEEP_CARDS:
        return 5.0
    return -2.0


@strategy_jit(inline="always")
def take_gain_nb(obs, opts, i):
    """Cards an O_TAKE option adds to the hand: the pile, less its top card and, but for a lay-off (M3), the
    two hand cards melded with it (M1, M2); the whole pile where it goes to the hand as it is (FREE)."""
    method = take_method(opts, i)
    if method == TAKE_FREE:
        return obs[OB_PILE_N]
    if method == TAKE_M3:
        return obs[OB_PILE_N] - 1
    return obs[OB_PILE_N] - MIN_MELD


@strategy_jit(inline="always")
def _draw_score_nb(R, obs, opts, i, prm):
    t = option_kind(opts, i)
    if t == O_DRAW:
        return 0.0
    if t == O_END:
        return -5.0
    if t == O_TOP:
        return _top_score_nb(obs, option_card(opts, i), prm[K_TOP], prm[K_MELD])
    pn = obs[OB_PILE_N]
    if obs[OB_MELDED] != 0 and pn < prm[K_MIN_PILE] and not long_hand_nb(obs):
        return -1.0
    v = 10.0 + 3.0 * pn
    method = take_method(opts, i)
    if method == TAKE_M3:
        v += 4.0
    elif method == TAKE_M2:
        v -= 15.0 + (30.0 if take_wild(opts, i) == RK_JK else 0.0)
    return v


@strategy_jit(inline="always")
def _wild_meld_score_nb(obs, jokers, mode):
    """Starting the side's wild meld (Boat, R-35): once holding `wild_meld` wild cards, jokers first
    (a big wild canasta needs more jokers than twos)."""
    held = hand_count(obs, RK_JK) + hand_count(obs, RK_2)
    if mode == WILD_MELD_NEVER or held < mode:
        return -30.0
    return 60.0 + 5.0 * jokers


@strategy_jit(inline="always")
def _wild_add_score_nb(R, obs, mb, size, wr, mode):
    """Adding to the wild meld: completing its canasta first; never a two that would tie the jokers of a
    big wild canasta (R-35: a tie is small)."""
    if mode == WILD_MELD_NEVER:
        return -20.0
    jok = obs[mb + F_JOK]
    two = obs[mb + F_TWO]
    if R[R_WILD_SPLIT] != 0 and wr == RK_2 and jok == two + 1 and size + 1 >= R[R_CANASTA]:
        return -50.0
    if size == R[R_CANASTA] - 1:
        return 400.0
    return 60.0 + (5.0 if wr == RK_JK else 0.0)


@strategy_jit(inline="always")
def sevens_action_nb(obs, opts, i):
    """Meld action i lays sevens."""
    t = option_kind(opts, i)
    if t == O_NEW:
        return new_rank(opts, i) == RK_7
    if t == O_ADD and add_wild(opts, i) < 0:
        return obs[meld_row(obs, obs[OB_SIDE], add_row(opts, i)) + F_RANK] == RK_7
    return False


@strategy_jit(inline="always")
def _meld_score_nb(R, obs, opts, i, prm, go_ok):
    """The greedy score of one meld action (the plans of heuristic_decide_nb come on top)."""
    s = obs[OB_SIDE]
    t = option_kind(opts, i)
    opening = obs[OB_MELDED] == 0
    fresh = obs[OB_PRE] == 0 and obs[OB_PEND] == 0  # opening, nothing laid yet this turn
    if t == O_STOP:
        return -1000.0 if opening and not fresh else 0.0
    if opening:
        # the most value per action; naturals before wilds
        if t == O_NEW:
            wr = new_wild(opts, i)
            v = new_naturals(opts, i) * R[R_CARDVAL + new_rank(opts, i)] + (R[R_CARDVAL + wr] - 5.0 if wr >= 0 else 0.0)
        elif t == O_WILD:
            if prm[K_WILD_MELD] == WILD_MELD_NEVER:
                return -1.0  # (still laid when it is the way to go out: the plan comes on top)
            v = wild_jokers(opts, i) * R[R_CARDVAL + RK_JK] + wild_twos(opts, i) * R[R_CARDVAL + RK_2] - 5.0
        elif t == O_ADD:
            wr = add_wild(opts, i)
            rank = obs[meld_row(obs, s, add_row(opts, i)) + F_RANK]
            v = R[R_CARDVAL + (rank if wr < 0 else wr)] - (5.0 if wr >= 0 else 0.0)
        else:
            v = 5.0 * black3_count(opts, i)
        return 1.0 + v
    after = obs[OB_HN] - (3 if t == O_NEW or t == O_WILD else (black3_count(opts, i) if t == O_BLACK3 else 1))
    out = 0.0
    foot = R[R_FOOT] > 0 and brings_foot_nb(R, obs, opts, i)
    if foot:
        out += prm[K_FOOT]  # racing for the foot (P-D1, RR-D1)
    if after <= 1:
        if obs[OB_FOOT_DUE] == FOOT_DUE or foot:
            out += 50.0  # the foot refills the hand (the engine offers this only where it is legal)
        else:
            out += 100.0 if go_ok else -500.0
    if prm[K_SEVENS] == SEVENS_BUILD and R[R_SEVENS] != 0 and sevens_action_nb(obs, opts, i):
        out += 25.0  # a seven on the table goes towards the side's sevens canasta
    if R[R_GO_KINDS] != 0:
        out += kinds_score_nb(R, obs, opts, i, prm)
    if t == O_BLACK3:
        return 200.0 + out
    style = MELD_ALL if long_hand_nb(obs) else prm[K_MELD]
    free = prm[K_WILDS] >= 1.0
    if t == O_NEW:
        if new_wild(opts, i) < 0:
            return 30.0 + out
        if style == MELD_PAIRS:
            return -40.0 + out  # a natural pair stays in hand to take the pile
        return (25.0 if free else -20.0) + out
    if t == O_WILD:
        return _wild_meld_score_nb(obs, wild_jokers(opts, i), prm[K_WILD_MELD]) + out
    b = add_wild(opts, i)  # O_ADD: the wild's rank class, -1 a natural
    mb = meld_row(obs, s, add_row(opts, i))
    size = obs[mb + F_NAT] + obs[mb + F_TWO] + obs[mb + F_JOK]
    if obs[mb + F_KIND] == MK_WILD:
        return _wild_add_score_nb(R, obs, mb, size, b, prm[K_WILD_MELD]) + out
    if b < 0:
        if size == R[R_CANASTA] - 1:
            return 340.0 + out
        if style == MELD_ALL or size + hand_count(obs, obs[mb + F_RANK]) >= R[R_CANASTA]:
            return 40.0 + out
        return -10.0 + out  # hold the card back (three-card melds)
    nat = prm[K_NATURAL]
    if nat != NATURAL_OFF and obs[mb + F_TWO] + obs[mb + F_JOK] == 0 and obs[mb + F_NAT] >= nat:
        return -60.0 + out  # keep it natural: a natural canasta is worth more than a mixed one
    if size == R[R_CANASTA] - 1:
        return 150.0 - (10.0 if b == RK_JK else 0.0) + out
    if free:
        return 20.0 - (10.0 if b == RK_JK else 0.0) + out
    return -20.0 + out


@strategy_jit(inline="always")
def kept_seven_nb(R, r, prm):
    """Rank class r is a seven kept for the sevens canasta (sevens=build where sevens make a canasta of their own)."""
    return r == RK_7 and R[R_SEVENS] != 0 and prm[K_SEVENS] == SEVENS_BUILD


@strategy_jit
def ordinary_discard_nb(R, k, prm):
    """Discarding card kind k is scored by the discard scorer: not a wild, a black three, nor a kept seven."""
    r = card_rank(k)
    return not (is_wild_rank_nb(r) or is_black3_nb(k) or kept_seven_nb(R, r, prm))


@strategy_jit
def discard_features_nb(R, obs, k, f):
    """The features of discarding ordinary card kind k (DF_*), written into f (int64[N_DFEAT])."""
    r = card_rank(k)
    s = obs[OB_SIDE]
    pn = obs[OB_PILE_N]
    nxt = (obs[OB_SEAT] + 1) % obs[OB_PLAYERS]  # play passes to the left (seat + 1)
    ns = R[R_SEAT_SIDE + nxt]
    open_pile = obs[OB_FROZEN] == 0
    danger = 0
    if open_pile:
        for t in range(obs[OB_NSIDES]):
            if t != s and obs[OB_MOR + t * NR + r] >= 0:
                danger += 1
    next_danger = 1 if open_pile and ns != s and obs[OB_MOR + ns * NR + r] >= 0 else 0
    holds = obs[ob_known(obs) + nxt * NR + r]
    cnt = hand_count(obs, r)
    dead = 0
    for su in range(SUITS):
        dead += obs[OB_PILEK + r * SUITS + su]
    late = obs[OB_STOCK_N] <= LATE_STOCK or threatened_nb(R, obs)
    f[DF_VALUE] = R[R_CARDVAL + r]
    f[DF_DANGER] = danger
    f[DF_OWN] = 1 if obs[OB_MOR + s * NR + r] >= 0 else 0
    f[DF_PAIRS] = cnt - 1 if cnt >= 2 else 0
    f[DF_SEEN] = 1 if obs[OB_PILEK + k] > 0 else 0
    f[DF_NEXT_DANGER] = next_danger
    f[DF_NEXT_HOLDS] = 1 if holds >= 1 else 0
    f[DF_NEXT_PAIR] = 1 if holds >= 2 else 0
    f[DF_PILE_RISK] = pn if next_danger == 1 or holds >= 2 else 0
    f[DF_DEAD] = dead
    f[DF_SINGLE] = 1 if cnt == 1 else 0
    f[DF_LATE] = R[R_CARDVAL + r] if late else 0


@strategy_jit
def black3_close_way_nb(R, obs, prm, cards):
    """In a hand of LONG_HAND turns where the rules have the four-black-three close (Boat, R-37), the black
    threes a player holds are the hand's way out once its side has the canastas the player wants to go out
    with and the hand is big enough to become the four threes: every other card the hand could meld is
    usually on the table by then, black threes are melded only in that close, and thrown they come back
    through the reshuffled stock (R-39) for ever. Such a hand keeps them, and melds down no further than the
    four threes' worth of cards (`cards`: the hand's size after this turn's draw). Only in a long hand: before,
    the close is a long shot that costs 100 points a three held when another player goes out (keeping them at
    once in every hand of four or five cards cost baseline 1.3 points of win rate against reference at
    boat-4p)."""
    if R[R_B3_CLOSE] <= 0 or not long_hand_nb(obs) or hand_count(obs, RK_3) == 0 or cards < B3_CLOSE_CARDS:
        return False
    return obs[OB_CANASTAS + obs[OB_SIDE]] >= canastas_wanted_nb(R, obs, prm) and kinds_ok_nb(R, obs)


@strategy_jit(inline="always")
def _discard_score_nb(R, obs, k, prm, freeze_now, keep_b3, f):
    """Tiers: 3 freeze, 2 a black three on a big enough pile, 1 an ordinary card, 0 a held black
    three (always, where they are the way to close: keep_b3), -1 a wild that is not meant to freeze. Within a
    tier, the least useful card to others; an ordinary card by the discard scorer (its features in f, scratch
    space), kept within its tier."""
    r = card_rank(k)
    pn = obs[OB_PILE_N]
    if is_wild_rank_nb(r):
        if freeze_now:
            return 3 * TIER - R[R_CARDVAL + r]
        return -TIER - R[R_CARDVAL + r]
    if is_black3_nb(k):
        h = prm[K_HOLD_B3]
        if h >= 0 and pn >= h and not keep_b3:
            return 2 * TIER
        return 0.0
    if kept_seven_nb(R, r, prm):
        return 0.0  # kept for the sevens canasta (Railroad; Pennies forbids the discard anyway)
    discard_features_nb(R, obs, k, f)
    v = 0.0
    for j in range(N_DFEAT):
        v += prm[K_D0 + j] * f[j]
    return TIER + max(-WITHIN_TIER, min(WITHIN_TIER, v))


@strategy_jit(inline="always")
def known_option_nb(dp, t):
    """The option kinds this strategy knows at each decision point; anything else is an error."""
    if dp == DP_DRAW:
        return t == O_DRAW or t == O_TAKE or t == O_END or t == O_TOP
    if dp == DP_MELD:
        return t == O_NEW or t == O_ADD or t == O_BLACK3 or t == O_STOP or t == O_WILD
    if dp == DP_ASK:
        return t == O_NOASK or t == O_ASK
    if dp == DP_ANSWER:
        return t == O_YES or t == O_NO
    if dp == DP_DISCARD:
        return t == O_DISCARD
    return False


# The observation's scratch slots (OB_SCRATCH of them, at its end), as heuristic_decide_nb lays them out
SC_GOOUT = 0  # the going-out work area as the position stands (WORK slots; load_goout_nb)
SC_GOOUT_AFTER = SC_GOOUT + WORK  # the same after one meld action (keeps_going_out_nb)
SC_HAND_LEFT = SC_GOOUT_AFTER + WORK  # the hand by rank class after an opening action (NR slots; opening_reach_nb)
SC_REACH = SC_HAND_LEFT + NR  # opening_reach_nb's search of the melds still to lay (NR slots)
SC_FEATURES = OB_SCRATCH - N_DFEAT  # the discard features of one card (N_DFEAT slots, the last; discard_features_nb)


@strategy_jit(inline="always")
def _check_options_nb(dp, opts, n):
    """Every option is of a kind this strategy knows at the decision point, or the call fails."""
    for i in range(n):
        if not known_option_nb(dp, option_kind(opts, i)):
            raise ValueError("heuristic strategy: unknown option kind at this decision point")


@strategy_jit(inline="always")
def _going_out_plan_nb(R, obs, prm, goout):
    """At the meld step and the ask: whether going out is allowed by the knobs and the table (go_ok: the
    `go_out` knob wants it, the side has the canastas wanted and every kind going out needs), and whether the
    hand can go out this turn (plan_out: the engine's exact going-out search on the work area `goout`, loaded
    from the observation; not run when two lone cards rule it out). Also the canastas wanted and the opening
    value a going out must still lay, which keeps_going_out_nb reads."""
    side = obs[OB_SIDE]
    wanted = may_go_out_nb(R, obs, prm)
    need = canastas_wanted_nb(R, obs, prm)
    go_ok = wanted and obs[OB_CANASTAS + side] >= need and kinds_ok_nb(R, obs)
    needed = 0
    plan_out = False
    if wanted and obs[OB_PRE] == 0 and lone_cards_nb(obs) <= 1:
        # the hand can go out this turn and the player wants to: plan it (go_out=asap never misses one)
        load_goout_nb(R, obs, goout)
        needed = opening_needed_nb(R, obs)
        plan_out = can_go_out_w_nb(R, goout, obs[OB_CANASTAS + side], need, needed)
    return go_ok, plan_out, need, needed


@strategy_jit(inline="always")
def _pile_incoming_nb(obs):
    """While opening via the pile: the pile's cards that reach the hand once the minimum is met (its red threes go
    to the table)."""
    if obs[OB_PRE] == 0:
        return 0
    return obs[OB_PILE_N] - obs[OB_PILEK + RED3_H] - obs[OB_PILEK + RED3_D]


@strategy_jit(inline="always")
def _keep_black3_nb(R, obs, prm, dp):
    """Whether the black threes are kept for the four-black-three close at this decision point (at the draw, by
    the hand's size after drawing); never at the ask or the answer."""
    if dp == DP_DRAW:
        return black3_close_way_nb(R, obs, prm, obs[OB_HN] + 1)
    if dp == DP_MELD or dp == DP_DISCARD:
        return black3_close_way_nb(R, obs, prm, obs[OB_HN])
    return False


@strategy_jit(inline="always")
def _freeze_now_nb(obs, prm):
    """The `freeze` knob: freeze the pile with a wild now (never; always while it is not frozen; or N: once an
    opponent side has melded and the pile holds at least N cards)."""
    freeze = prm[K_FREEZE]
    if obs[OB_FROZEN] != 0 or freeze == FREEZE_NEVER:
        return False
    if freeze == FREEZE_ALWAYS:
        return True
    if obs[OB_PILE_N] < freeze:
        return False
    side = obs[OB_SIDE]
    for t in range(obs[OB_NSIDES]):
        if t != side and obs[OB_SMELDED + t] != 0:
            return True
    return False


@strategy_jit(inline="always")
def _draw_plan_nb(obs, opts, i, v, keep_b3):
    """Draw option i, scored v by _draw_score_nb: held back when it takes the pile for a meld that leaves the hand
    no bigger than a draw would, while the black threes are kept for the close."""
    if keep_b3 and option_kind(opts, i) == O_TAKE and take_gain_nb(obs, opts, i) < 1:
        return HOLD_BACK  # the take's meld would leave the hand smaller than a draw: too small for the close
    return v


@strategy_jit(inline="always")
def _meld_plans_nb(R, obs, opts, i, v, keep_b3, plan_out, opening, need, needed, incoming, goout, goout_after,
                   hand_left, reach_work):
    """Meld action i, scored v by _meld_score_nb, with the plans on top. While the black threes are kept for
    the close, no action takes the hand below them. When the hand can go out this turn and the player wants to
    (plan_out), PLAN goes to the actions that keep going out possible. While the side has not opened
    (opening), PLAN goes to those after which the minimum can still be reached this turn; the others are
    refused: -1 while nothing is laid (the opening is not started), -500 once it is under way."""
    t = option_kind(opts, i)
    if keep_b3 and t != O_STOP and obs[OB_HN] - hand_cards_laid_nb(opts, i) < B3_CLOSE_CARDS:
        v = HOLD_BACK  # the hand would become too small ever to hold the four black threes
    if plan_out:
        if keeps_going_out_nb(R, obs, opts, i, goout, goout_after, need, needed):
            v += PLAN
    elif opening and t != O_STOP:
        # only start or continue an opening that can still reach the minimum this turn
        pend = obs[OB_PEND] if obs[OB_PEND] > 0 else 0
        free = obs[OB_HN] - cards_laid_nb(opts, i) + incoming - KEEP_CARDS
        after = pend + action_value_nb(R, obs, opts, i)
        if after >= obs[OB_REQ] or after + opening_reach_nb(R, obs, opts, i, hand_left, reach_work,
                                                            free) >= obs[OB_REQ]:
            v += PLAN
        elif obs[OB_PRE] == 0 and obs[OB_PEND] == 0:
            v = -1.0  # not started yet: do not start
        else:
            v = -500.0
    return v


@strategy_jit(inline="always")
def _ask_score_nb(obs, opts, i, prm, plan_out):
    """Asking the partner "may I go out?" (1) only when going out is planned this turn and the partner holds at
    least `ask` cards, else not asking (0) rather than asking (-1)."""
    if option_kind(opts, i) != O_ASK:
        return 0.0
    ask_min = prm[K_ASK]
    return 1.0 if plan_out and ask_min >= 0 and obs[OB_HANDS + option_seat(opts, i)] >= ask_min else -1.0


@strategy_jit(inline="always")
def _answer_score_nb(R, obs, opts, i, prm):
    """Answering the partner: yes (1) unless the own hand holds `answer_max` points or more, then no (0 beats
    -1)."""
    if option_kind(opts, i) != O_YES:
        return 0.0
    return 1.0 if hand_points_nb(R, obs) < prm[K_ANSWER_MAX] else -1.0


@strategy_jit
def heuristic_decide_nb(R, obs, opts, n, prm):
    """The decision of `baseline` and its named relatives, at every decision point of a Canasta game (a game
    with sequences goes to Buraco's kernel, strategies/buraco.py). An option of a kind it does not know is an
    error. The plans of the decision point are worked out first; then every option gets a score and the best
    wins, ties going to the first option, so that play is deterministic.

    - draw: draw from the stock (0), unless taking the pile scores more (_draw_score_nb: 10 points and 3 a
      card, more with a lay-off, less when a wild, a joker most, goes into its meld; never below `min_pile`
      cards once the side has melded), or taking the top discard alone where the rules offer it (`take_top`).
    - meld: each action's greedy score (_meld_score_nb: completing canastas first, and the `meld`, `wilds`,
      `natural`, `wild_meld`, `foot` and `sevens` knobs), then the plans on top (_meld_plans_nb). When the
      player wants to go out (`go_out`, `canastas`) and the engine's exact search says the hand can this
      turn (_going_out_plan_nb), only the actions that keep it possible get PLAN; while the side has not
      opened, only those after which the minimum can still be reached this turn do, and an opening that
      cannot be finished is not started.
    - ask: ask the partner only when going out is planned this turn and the partner holds at least `ask`
      cards. answer: yes unless the own hand holds `answer_max` points or more.
    - discard (_discard_score_nb), by tiers: a wild to freeze the pile (`freeze`: _freeze_now_nb), a black
      three on a pile of at least `hold_black3` cards, an ordinary card by the discard scorer (the d_*
      weights), a black three held, and last a wild.

    A hand that lasts LONG_HAND turns is played to its end; where the rules have Boat's four-black-three close,
    a long hand keeps its black threes for it (black3_close_way_nb: no take or meld shrinks the hand below
    them, and they are not discarded). The observation's scratch slots hold the going-out search's work areas
    and the discard features (SC_*)."""
    if R[R_SEQ] != 0:
        return buraco_decide_nb(R, obs, opts, n, prm, prm[K_WILDS], prm[K_GO_OUT])  # Buraco's (strategies/buraco.py)
    dp = obs[OB_DP]
    _check_options_nb(dp, opts, n)
    scratch = obs[obs.shape[0] - OB_SCRATCH:]
    goout = scratch[SC_GOOUT:SC_GOOUT + WORK]
    goout_after = scratch[SC_GOOUT_AFTER:SC_GOOUT_AFTER + WORK]
    hand_left = scratch[SC_HAND_LEFT:SC_HAND_LEFT + NR]
    reach_work = scratch[SC_REACH:SC_REACH + NR]
    features = scratch[SC_FEATURES:]
    # the plans of this decision point
    go_ok, plan_out, need, needed = True, False, 0, 0
    if dp == DP_MELD or dp == DP_ASK:
        go_ok, plan_out, need, needed = _going_out_plan_nb(R, obs, prm, goout)
    opening = dp == DP_MELD and obs[OB_MELDED] == 0 and not plan_out
    incoming = _pile_incoming_nb(obs) if opening else 0
    keep_b3 = not plan_out and _keep_black3_nb(R, obs, prm, dp)
    freeze_now = dp == DP_DISCARD and _freeze_now_nb(obs, prm)
    # every option scored: the best wins, the first of equals
    best = 0
    best_score = -1e18
    for i in range(n):
        if dp == DP_DRAW:
            v = _draw_plan_nb(obs, opts, i, _draw_score_nb(R, obs, opts, i, prm), keep_b3)
        elif dp == DP_MELD:
            v = _meld_plans_nb(R, obs, opts, i, _meld_score_nb(R, obs, opts, i, prm, go_ok), keep_b3, plan_out, opening,
                               need, needed, incoming, goout, goout_after, hand_left, reach_work)
        elif dp == DP_ASK:
            v = _ask_score_nb(obs, opts, i, prm, plan_out)
        elif dp == DP_ANSWER:
            v = _answer_score_nb(R, obs, opts, i, prm)
        elif dp == DP_DISCARD:
            v = _discard_score_nb(R, obs, option_card(opts, i), prm, freeze_now, keep_b3, features)
        else:
            v = 0.0
        if v > best_score:
            best_score = v
            best = i
    return best
