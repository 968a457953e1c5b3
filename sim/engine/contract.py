"""The contract between the engine and the strategies: what a strategy function receives and returns.

Both sides import this module and nothing of each other: the engine (sim/engine) never imports
strategy code, and a strategy reads only the arrays laid out here. A strategy is a numba function

    decide(rules, obs, opts, n, knobs) -> index of the chosen option (or DEFER)

of the signature DECIDE_SIG; built-in and user strategies alike reach the engine as first-class
function values, so the engine's compiled code never contains a strategy (docs/strategies.md).

The codes are IntEnums for the Python layers (names in traces and transcripts) and plain integer
constants for the kernels: numba freezes module-level ints as compile-time constants, so these cost
nothing there and are not "rules in globals" (every rule value lives in the packed rules array).
"""

from enum import IntEnum

from numba import types
from numba.extending import register_jitable

from .decorators import cached_jit, process_jit, strategy_jit  # noqa: F401  (the decorators a strategy is written with)

# Sizes ------------------------------------------------------------------------------------------
MAXP = 8  # seats
MAXS = 8  # sides
NK = 53  # card kinds: rank * 4 + suit for the 52 suited kinds, 52 = joker
NR = 14  # rank classes: 0 = A, 1 = 2, 2 = 3, ..., 12 = K, 13 = joker
JOKER = 52
RK_A, RK_2, RK_3, RK_JK = 0, 1, 2, 13
RK_7 = 6  # sevens: natural only and a canasta kind of their own in Pennies and Railroad
SUIT_S, SUIT_H, SUIT_D, SUIT_C = 0, 1, 2, 3
RED3_H, RED3_D = 9, 10  # 3H, 3D
BLACK3_S, BLACK3_C = 8, 11  # 3S, 3C
WILD_RANKS = (RK_2, RK_JK)  # the rank classes of wild cards, in the order options list them
NPRM = 64  # knob slots per seat: 0-47 the heuristic family (its discard weights among them), 48-63 a user strategy's own (strategies.user)
MAXOPT = 128  # legal options at one decision point
SUITS = 4
SUITED_KINDS = 52  # the card kinds of one 52-card deck (0 .. 51)
MIN_MELD = 3  # cards in the smallest meld (every variant of the family)


# Card classes: what freezes, blocks, covers an upcard or cannot be taken is a set of these (rules data)
class CardClass(IntEnum):
    WILD = 1
    BLACK3 = 2
    RED3 = 4


CC_WILD, CC_BLACK3, CC_RED3 = int(CardClass.WILD), int(CardClass.BLACK3), int(CardClass.RED3)


# Pile-taking methods (§0): M1 natural pair, M2 natural and wild, M3 lay-off
class TakeMethod(IntEnum):
    M1 = 1
    M2 = 2
    M3 = 3
    FREE = 4  # the whole pile into the hand, no condition and no meld (Buraco, R-135)


TAKE_M1, TAKE_M2, TAKE_M3, TAKE_FREE = (int(TakeMethod.M1), int(TakeMethod.M2), int(TakeMethod.M3),
                                        int(TakeMethod.FREE))
MASK_M1, MASK_M2, MASK_M3 = 1 << (TAKE_M1 - 1), 1 << (TAKE_M2 - 1), 1 << (TAKE_M3 - 1)

# Packed rules fields (int64 array): sim/engine/rulearray.py, every name re-exported here ----------
from .rulearray import *  # noqa: E402, F403  (the rules a strategy receives are part of the contract)
from .rulearray import R_CARDVAL  # noqa: E402 (read by card_value below)


class AskMode(IntEnum):
    NONE = 0
    PARTNER = 1  # ask the partner
    CHOOSE = 2  # ask one partner of the asker's choice


ASK_NONE, ASK_PARTNER, ASK_CHOOSE = int(AskMode.NONE), int(AskMode.PARTNER), int(AskMode.CHOOSE)


class EndOfStock(IntEnum):
    CLASSIC = 0  # E-CLASSIC
    RESHUFFLE = 1  # E-RESHUFFLE (Boat): the pile, shuffled, becomes the stock; both empty end the hand
    VOLUNTARY = 2  # E-VOLUNTARY (Pennies, Railroad): at an empty stock take the pile or end the hand
    BURACO = 3  # E-BURACO: the hand ends with the turn in which the last stock card was drawn


EOS_CLASSIC, EOS_RESHUFFLE, EOS_VOLUNTARY, EOS_BURACO = (int(e) for e in EndOfStock)


# Meld rows (melds[side, row, F_*]) and meld kinds -------------------------------------------------
class MeldKind(IntEnum):
    RANK = 1
    WILD = 2
    BLACK3 = 3
    SEQUENCE = 4


MK_RANK, MK_WILD, MK_BLACK3, MK_SEQ = (int(MeldKind.RANK), int(MeldKind.WILD), int(MeldKind.BLACK3),
                                       int(MeldKind.SEQUENCE))
F_KIND = 0  # MK_*, 0 empty
F_RANK = 1  # rank class (RK_JK for a wild meld, RK_3 for black threes)
F_NAT = 2
F_TWO = 3
F_JOK = 4
F_VAL = 5  # card value of the meld
F_TURN = 6  # turn of the hand in which the meld was started
F_PLAYER = 7  # seat that started it
# a sequence (Buraco): F_RANK is -1 and these say where it lies. Positions run 1 (ace low), 2 .. 13 (two to
# king), 14 (ace high); a two of the suit at position 2 is natural, counted in F_NAT
F_SUIT = 8
F_LO = 9  # lowest position
F_HI = 10  # highest position
F_WPOS = 11  # position the sequence's one wild stands for, 0 without a wild (R-131, R-143: it never moves)
F_WCARD = 12  # card kind of that wild
NMF = 13
POS_ACE_LOW, POS_ACE_HIGH = 1, 14  # sequence positions of an ace
MAX_SEQ = 13  # cards in a sequence: ace low or high, never both


# Canasta kinds: a side's canastas are counted by kind (the bonus and the going-out rules read them)
class CanastaKind(IntEnum):
    NATURAL = 0
    MIXED = 1
    SMALL_WILD = 2  # all wild, more twos than jokers (a tie too, R-35)
    BIG_WILD = 3  # all wild, more jokers than twos
    WILD = 4  # all wild, one kind (Pennies, Railroad: 1000)
    SEVENS = 5  # seven sevens (Pennies, Railroad: 1500)


CK_NATURAL, CK_MIXED, CK_SMALL_WILD, CK_BIG_WILD, CK_WILD, CK_SEVENS = (int(k) for k in CanastaKind)
NCK = 8  # room for the family's kinds (wild, sevens, small and big wild, ...)


# Decision points (docs/strategies.md: D1-D15) ------------------------------------------------------
class DecisionPoint(IntEnum):
    DRAW = 1  # D1, D2, D14: draw or take the pile (and by which method), or end the hand at empty stock
    MELD = 2  # D3-D6, D12, D13, D15: one meld action at a time, or stop
    ASK = 3  # D10: ask a partner "may I go out?"
    ANSWER = 4  # D11: answer the partner
    DISCARD = 5  # D7-D9: which card to discard (wild = freeze, black three = block)


DP_DRAW, DP_MELD, DP_ASK, DP_ANSWER, DP_DISCARD = (int(d) for d in DecisionPoint)
DP_NAMES = {DP_DRAW: "draw-or-take", DP_MELD: "meld", DP_ASK: "ask-partner", DP_ANSWER: "answer-partner",
            DP_DISCARD: "discard"}


# Option rows (opts[i, 0..3]: kind, a, b, c) --------------------------------------------------------
class Option(IntEnum):
    DRAW = 1  # draw from the stock
    TAKE = 2  # a = TAKE_M1 / TAKE_M2 / TAKE_M3, b = wild rank class used by M2 (RK_2 or RK_JK), else -1
    END = 3  # end the hand instead of taking the pile at empty stock (E-CLASSIC step 2)
    NEW = 4  # new meld: a = rank class, b = naturals (2 or 3), c = wild rank class or -1
    ADD = 5  # add to meld row a: b = -1 one natural, else the wild rank class added
    BLACK3 = 6  # meld a black threes (only when going out)
    STOP = 7  # end the meld phase
    NOASK = 8
    ASK = 9  # a = partner seat
    YES = 10
    NO = 11
    DISCARD = 12  # a = card kind
    TOP = 13  # take the top discard alone into the hand (House-001, R-54): a = its card kind
    WILD = 14  # new wild meld (Boat, R-35): a = jokers, b = twos (three cards in all)
    SEQ = 15  # new sequence of three (Buraco): a = suit, b = lowest position, c = -1, or seq_wild(position
    #           of the wild, its rank class RK_2 or RK_JK)
    EXTEND = 16  # extend sequence row a (Buraco): b = 0 at its low end, 1 at its high end; c = -1 a natural,
    #              else the wild rank class


(O_DRAW, O_TAKE, O_END, O_NEW, O_ADD, O_BLACK3, O_STOP, O_NOASK, O_ASK, O_YES, O_NO,
 O_DISCARD, O_TOP, O_WILD, O_SEQ, O_EXTEND) = (int(o) for o in Option)
END_LOW, END_HIGH = 0, 1  # O_EXTEND's b
SEQ_WILD_STEP = 16  # O_SEQ's c packs the wild's position and rank class: position * 16 + rank class


@register_jitable
def seq_wild(pos, wr):
    """O_SEQ's c for a wild of rank class wr (RK_2 or RK_JK) standing at position pos."""
    return pos * SEQ_WILD_STEP + wr


@register_jitable
def seq_wild_pos(c):
    """The position of O_SEQ's wild (0 without one)."""
    return c // SEQ_WILD_STEP if c >= 0 else 0


@register_jitable
def seq_wild_rank(c):
    """The rank class of O_SEQ's wild (-1 without one)."""
    return c % SEQ_WILD_STEP if c >= 0 else -1
OPT_KIND, OPT_A, OPT_B, OPT_C = 0, 1, 2, 3  # the fields of an option row
OPT_FIELDS = 4
OPTION_NAMES = {int(o): o.name.lower().replace("noask", "no-ask") for o in Option}


def option_name(kind: int) -> str:
    """The name of an option kind; an unknown kind is an error, never a guess."""
    if kind not in OPTION_NAMES:
        raise ValueError(f"unknown option kind {kind}; known: {sorted(OPTION_NAMES)}")
    return OPTION_NAMES[kind]


class Answer(IntEnum):
    NONE = 0
    YES = 1  # the player must go out this turn
    NO = 2  # the player may not go out this turn


ANSWER_NONE, ANSWER_YES, ANSWER_NO = int(Answer.NONE), int(Answer.YES), int(Answer.NO)

# Observation (obs, int64): what seat p sees at one decision (docs/strategies.md) -----------------
# Named blocks at fixed places; later variants fill the blocks reserved for them (or the spare room)
# so that nothing a strategy reads ever moves. The meld rows come last: their length is per variant.
OB_DP = 0  # decision point, DP_*
OB_SEAT = 1
OB_SIDE = 2
OB_PLAYERS = 3
OB_NSIDES = 4
OB_N = 5  # legal options
OB_TURN = 6  # turns played in this hand, this one included
OB_HANDNO = 7
OB_STOCK_N = 8
OB_PILE_N = 9
OB_PILE_TOP = 10  # card kind on top of the pile, -1 when empty
OB_FROZEN = 11
OB_BLOCKED = 12  # 1: this seat may not take the pile this turn (black three, block_next)
OB_ANSWER = 13  # partner's answer this turn: ANSWER_NONE, ANSWER_YES (must go out), ANSWER_NO (may not)
OB_ASKER = 14  # at DP_ANSWER: the seat asking; else -1
OB_PEND = 15  # value laid towards the initial meld this turn, -1 when the side is open
OB_PRE = 16  # 1 while melding from hand before picking up the pile (opening via the pile)
OB_TOOK = 17  # 1 once this seat has taken the pile this turn
OB_LAID = 18  # 1 if this seat has laid a meld card this hand before this turn (concealed, R-13)
OB_RAND = 19  # 32 random bits drawn for this decision (for randomised strategies)
OB_REQ = 20  # own side's initial-meld requirement this hand
OB_MELDED = 21  # own side has made its initial meld
OB_HN = 22  # own hand size
OB_DEALER = 23
OB_MAXM = 24  # meld rows per side in OB_MELDS
OB_TOP_TAKEN = 25  # the card this seat took by a top-card-only draw this turn and may not discard (R-54,
#                   R-156: -1 when none, or when it already held a copy of that card); only House-001 has one
OB_LAID_NOW = 26  # 1 once the player in turn has laid a card on the table this turn (a take included)
OB_ADDED_OLD = 27  # 1 once the player in turn has added to a meld that existed before this turn
OB_LAST_RED3 = 28  # 1: the player in turn drew a red three as the stock's last card: meld, no discard
OB_FOOT_DUE = 29  # the player in turn: FOOT_DUE once it has completed the canasta that brings its foot or
#                  kitty after this turn's discard, FOOT_TAKEN once it picked it up this turn
FOOT_NONE, FOOT_DUE, FOOT_TAKEN = 0, 1, 2  # OB_FOOT_DUE (and the engine's S_FOOT_DUE)


class Knock(IntEnum):
    """How a Buraco morto was reached (R-137, R-140): the `foot` event's `knock`."""
    NONE = 0  # a foot or kitty (Pennies, Railroad)
    DIRECT = 1  # the hand emptied by melding: the player goes on with the morto
    INDIRECT = 2  # the hand emptied by the discard: the morto is played from the next turn


KNOCK_NONE, KNOCK_DIRECT, KNOCK_INDIRECT = (int(k) for k in Knock)
# 30 .. 31: spare scalars
OB_HANDS = 32  # [MAXP] hand size of every seat
OB_FEET = 40  # [MAXP] cards in every seat's foot or kitty still face down (0 without packets); Buraco: slot s
#              holds side s's morto (table.packet_seat_nb)
OB_SCORE = 48  # [MAXS] cumulative score of every side before this hand
OB_SMELDED = 56  # [MAXS] side has made its initial meld
OB_SREQ = 64  # [MAXS] side's initial-meld requirement
OB_RED3 = 72  # [MAXS] red threes laid out by the side
OB_CANASTAS = 80  # [MAXS] completed canastas of the side, all kinds
OB_NM = 88  # [MAXS] meld rows used by the side
OB_PACKETS_TAKEN = 96  # [MAXP] 1 once the seat has picked up its packet (0 without packets); Buraco: slot s, side s's
OB_SEAT_TURNS = 104  # [MAXP] turns each seat has played in this hand
OB_CANK = 112  # [MAXS * NCK] completed canastas of each side by kind: OB_CANK + side * NCK + CK_*
OB_SPARE = OB_CANK + MAXS * NCK  # 176 .. 239: room for the blocks later variants need
OB_SEAT_LAID = OB_SPARE  # [MAXP] 1 once the seat has laid a card on the table this hand (concealed, R-13)
OB_INDIRECT = OB_SPARE + MAXP  # [MAXP] 1: the seat took its side's morto by an indirect knock and has not
#                                played since (Buraco, R-140)
OB_HAND = 240  # [NK] own hand by card kind
OB_HR = OB_HAND + NK  # [NR] own hand by rank class
OB_PILEK = OB_HR + NR  # [NK] the pile by card kind: every card seen going in since it was last taken
OB_MOR = OB_PILEK + NK  # [MAXS * NR] row of the side's open meld of each rank class, -1 none
OB_MELDS = OB_MOR + MAXS * NR  # [MAXS * maxm * NMF] meld rows, see F_*
OB_KNOWN_LEN = MAXP * NR  # after the meld rows: per seat and rank class, cards known to be in its hand
OB_SCRATCH = 192  # free int64 slots at the end, for a strategy's own working space


@register_jitable
def ob_known(obs):
    """Where the known-cards block starts in `obs` (it follows the meld rows, whose length is per
    variant): `obs[ob_known(obs) + seat * NR + rank]` counts the cards of that rank class every seat
    saw go into that seat's hand (taken with the pile) and not yet seen leave it (melded or
    discarded), a lower bound on what it holds. Callable from Python and from numba code."""
    return OB_MELDS + MAXS * obs[OB_MAXM] * NMF


def obs_len(maxm: int) -> int:
    return OB_MELDS + MAXS * maxm * NMF + OB_KNOWN_LEN + OB_SCRATCH


# The strategy function ---------------------------------------------------------------------------
# decide(rules, obs, opts, n, knobs) -> index of the chosen option, or DEFER to let the base decide
DECIDE_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64[:, ::1], types.int64,
                         types.float64[::1])
DEFER = -1


# Accessors ---------------------------------------------------------------------------------------
# A strategy reads a card's rank, its hand, a meld row and each option kind's fields by name through
# these rather than by offset. Each is a plain function when Python calls it (traces, tests, notebooks)
# and, in numba code, a one-line function that LLVM inlines into its caller: baseline's hands per
# second are unchanged. numba's own inlining of overloads (`register_jitable(inline="always")`) is left
# out: with it numba warned of a broken SSA assumption (card_rank with a branch) and search's rollouts
# failed in the test suite, while plain calls pass everything at the same speed.
@register_jitable
def card_rank(k):
    """The rank class of card kind k, RK_JK for the joker (the engine's cards.rank_of_nb): the joker's kind
    JOKER = RK_JK * SUITS, so one division serves every kind with no branch (a test checks all 53)."""
    return k // SUITS


@register_jitable
def card_suit(k):
    """The suit of suited card kind k (SUIT_S, SUIT_H, SUIT_D, SUIT_C); meaningless for the joker."""
    return k % SUITS


@register_jitable
def card_value(rules, k):
    """The points card kind k counts under these rules (a strategy's first question about a card, without the
    rules array's layout)."""
    return rules[R_CARDVAL + k // SUITS]


@register_jitable
def is_wild(k):
    """Card kind k is a wild card: a joker or a two."""
    r = k // SUITS
    return r == RK_2 or r == RK_JK


@register_jitable
def decision_point(obs):
    """The decision the seat is asked for: DP_DRAW, DP_MELD, DP_ASK, DP_ANSWER or DP_DISCARD."""
    return obs[OB_DP]


@register_jitable
def hand_count(obs, r):
    """Cards of rank class r in the deciding player's hand."""
    return obs[OB_HR + r]


@register_jitable
def hand_card_count(obs, k):
    """Copies of card kind k in the deciding player's hand."""
    return obs[OB_HAND + k]


@register_jitable
def meld_row(obs, side, row):
    """Where meld row `row` of `side` starts in `obs`: obs[meld_row(obs, side, row) + F_*] is its field F_*.
    Rows at or past obs[OB_NM + side] are undefined."""
    return OB_MELDS + (side * obs[OB_MAXM] + row) * NMF


@register_jitable
def meld_field(obs, side, row, f):
    """Field F_* of meld row `row` of `side`."""
    return obs[meld_row(obs, side, row) + f]


@register_jitable
def option_kind(opts, i):
    """Option i's kind (O_*)."""
    return opts[i, OPT_KIND]


@register_jitable
def option_card(opts, i):
    """The card kind of an O_DISCARD or an O_TOP option."""
    return opts[i, OPT_A]


@register_jitable
def option_seat(opts, i):
    """The partner asked by an O_ASK option; the asking seat of an O_YES or O_NO option."""
    return opts[i, OPT_A]


@register_jitable
def take_method(opts, i):
    """An O_TAKE option's method: TAKE_M1, TAKE_M2, TAKE_M3 or TAKE_FREE."""
    return opts[i, OPT_A]


@register_jitable
def take_wild(opts, i):
    """The rank class of the wild an O_TAKE option spends (RK_2 or RK_JK, by TAKE_M2); -1 for the others."""
    return opts[i, OPT_B]


@register_jitable
def new_rank(opts, i):
    """The rank class of the meld an O_NEW option starts."""
    return opts[i, OPT_A]


@register_jitable
def new_naturals(opts, i):
    """The naturals an O_NEW option lays (2 or 3)."""
    return opts[i, OPT_B]


@register_jitable
def new_wild(opts, i):
    """The rank class of the wild an O_NEW option lays with its naturals; -1 for none."""
    return opts[i, OPT_C]


@register_jitable
def add_row(opts, i):
    """The own side's meld row an O_ADD option adds to."""
    return opts[i, OPT_A]


@register_jitable
def add_wild(opts, i):
    """The rank class of the wild an O_ADD option adds; -1 for a natural of the meld's rank."""
    return opts[i, OPT_B]


@register_jitable
def black3_count(opts, i):
    """The black threes an O_BLACK3 option melds."""
    return opts[i, OPT_A]


@register_jitable
def wild_jokers(opts, i):
    """The jokers of the wild meld an O_WILD option starts (Boat)."""
    return opts[i, OPT_A]


@register_jitable
def wild_twos(opts, i):
    """The twos of the wild meld an O_WILD option starts (Boat)."""
    return opts[i, OPT_B]


@register_jitable
def seq_suit(opts, i):
    """The suit of the sequence an O_SEQ option starts (Buraco)."""
    return opts[i, OPT_A]


@register_jitable
def seq_low(opts, i):
    """The lowest place of the sequence an O_SEQ option starts: 1 the low ace, 2 to 13, 12 for Q-K-A."""
    return opts[i, OPT_B]


@register_jitable
def seq_wild_place(opts, i):
    """The place an O_SEQ option's wild stands for; 0 without a wild (seq_wild_pos of its packed c)."""
    return seq_wild_pos(opts[i, OPT_C])


@register_jitable
def seq_wild_class(opts, i):
    """The rank class of an O_SEQ option's wild (RK_2 or RK_JK); -1 without one (seq_wild_rank of its c)."""
    return seq_wild_rank(opts[i, OPT_C])


@register_jitable
def extend_row(opts, i):
    """The own side's sequence row an O_EXTEND option extends (Buraco)."""
    return opts[i, OPT_A]


@register_jitable
def extend_end(opts, i):
    """The end an O_EXTEND option extends: END_LOW or END_HIGH."""
    return opts[i, OPT_B]


@register_jitable
def extend_wild(opts, i):
    """The rank class of the wild an O_EXTEND option lays; -1 for the natural card of that place."""
    return opts[i, OPT_C]
