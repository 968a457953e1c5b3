"""The contract between the engine and the strategies: what a strategy function receives and returns.

Both sides import this module and nothing of each other: the engine (sim/engine) never imports
strategy code, and a strategy reads only the arrays laid out here. A strategy is a numba function

    decide(rules, obs, opts, n, knobs) -> index of the chosen option (or DEFER)

of the signature DECIDE_SIG; built-in and user strategies alike reach the engine as first-class
function values, so the engine's compiled code never contains a strategy (docs/strategies.md).

Plain integers: numba freezes module-level ints as compile-time constants, so these cost nothing in
the kernels and are not "rules in globals" (every rule value lives in the packed rules array).
"""

from numba import types

# Sizes ------------------------------------------------------------------------------------------
MAXP = 8  # seats
MAXS = 8  # sides
NK = 53  # card kinds: rank * 4 + suit for the 52 suited kinds, 52 = joker
NR = 14  # rank classes: 0 = A, 1 = 2, 2 = 3, ..., 12 = K, 13 = joker
JOKER = 52
RK_A, RK_2, RK_3, RK_JK = 0, 1, 2, 13
SUIT_S, SUIT_H, SUIT_D, SUIT_C = 0, 1, 2, 3
RED3_H, RED3_D = 9, 10  # 3H, 3D
BLACK3_S, BLACK3_C = 8, 11  # 3S, 3C
NPRM = 16  # knob slots per seat
MAXOPT = 128  # legal options at one decision point

# Packed rules fields (int64 array) ---------------------------------------------------------------
R_PLAYERS = 0
R_NSIDES = 1
R_HAND = 2
R_PACK = 3
R_DECKS = 4
R_JOKERS = 5  # jokers in the whole pack
R_DRAW = 6
R_UPCARD = 7
R_GO_CANASTAS = 8
R_GO_BONUS = 9
R_CONC_BONUS = 10  # 0 = no concealed bonus
R_CONC_WAIVE = 11  # concealed going out after a stock draw waives the minimum
R_B3MIN = 12
R_B3MAX = 13  # 0 = black-three melds never allowed
R_MIN_NAT = 14
R_MAX_WILD = 15
R_NAT_BONUS = 16
R_MIX_BONUS = 17
R_ASK = 18  # 0 none, 1 ask the partner, 2 ask one partner of the asker's choice
R_ONE_CARD = 19
R_EOS = 20  # end-of-stock rule: 0 = E-CLASSIC
R_LAST_R3_MELD = 21  # R-05 option last_red3_may_meld
R_TARGET = 22
R_TARGET_STRICT = 23  # 1: game ends when a score exceeds the target (House-003)
R_MAX_TURNS = 24  # simulator safeguard per hand
R_MAX_HANDS = 25  # simulator safeguard per game
R_PM_UNFROZEN = 26  # bitmask of pile methods: 1 = M1, 2 = M2, 4 = M3
R_PM_FROZEN = 27
R_PM_PREMELD = 28
R_UNTAKE = 29  # bitmask of untakeable top cards: 1 wild, 2 black three
R_RED3_NEG = 30  # 1: red threes count negative when the side has no meld
R_DEALER_DIR = 31  # +1 left, -1 right
R_MAXM = 32  # meld rows per side
R_MTAB_N = 33
R_CONC_PARTNER_UNMELDED = 34  # R-13 option concealed_requires_partner_unmelded
R_CARDVAL = 40  # 14 values, by rank class
R_RED3TAB = 56  # red-three points for 0..8 threes held by a side (magnitude)
R_MTAB_THR = 66  # up to 8 thresholds (ascending), first is "minus infinity"
R_MTAB_REQ = 74
R_SEAT_SIDE = 82  # side of each seat
R_LEN = 96

MASK_M1, MASK_M2, MASK_M3 = 1, 2, 4
UNTAKE_WILD, UNTAKE_BLACK3 = 1, 2

# Meld row fields -----------------------------------------------------------------------------------
F_KIND = 0  # 0 empty, 1 rank meld, 2 wild meld, 3 black-three meld, 4 sequence
F_RANK = 1
F_NAT = 2
F_TWO = 3
F_JOK = 4
F_VAL = 5  # card value of the meld
F_TURN = 6  # turn of the hand in which the meld was started
F_PLAYER = 7  # seat that started it
NMF = 8
MK_RANK, MK_WILD, MK_BLACK3, MK_SEQ = 1, 2, 3, 4

# Observation (obs, int64): what seat p sees at one decision (docs/strategies.md) -----------------
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
OB_ANSWER = 13  # partner's answer this turn: 0 none, 1 yes (must go out), 2 no (may not)
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
OB_HANDS = 32  # [MAXP] hand size of every seat
OB_FEET = 40  # [MAXP] foot size of every seat (0 in variants without a foot)
OB_SCORE = 48  # [MAXS] cumulative score of every side before this hand
OB_SMELDED = 56  # [MAXS] side has made its initial meld
OB_SREQ = 64  # [MAXS] side's initial-meld requirement
OB_RED3 = 72  # [MAXS] red threes laid out by the side
OB_CANASTAS = 80  # [MAXS] completed canastas of the side
OB_NM = 88  # [MAXS] meld rows used by the side
OB_HAND = 96  # [NK] own hand by card kind
OB_HR = OB_HAND + NK  # [NR] own hand by rank class
OB_PILEK = OB_HR + NR  # [NK] the pile by card kind: every card seen going in since it was last taken
OB_MOR = OB_PILEK + NK  # [MAXS * NR] row of the side's meld of each rank class, -1 none
OB_MELDS = OB_MOR + MAXS * NR  # [MAXS * maxm * NMF] meld rows, see F_*
OB_SCRATCH = 64  # free int64 slots after the melds, for a strategy's own working space


def obs_len(maxm: int) -> int:
    return OB_MELDS + MAXS * maxm * NMF + OB_SCRATCH

# Decision points (VARIANTS.md 6.1) ----------------------------------------------------------------
DP_DRAW = 1  # D1, D2, D14: draw or take the pile (and by which method), or end the hand at empty stock
DP_MELD = 2  # D3-D6, D13, D15: one meld action at a time, or stop
DP_ASK = 3  # D10: ask a partner "may I go out?"
DP_ANSWER = 4  # D11: answer the partner
DP_DISCARD = 5  # D7-D9, D12: which card to discard (wild = freeze, black three = block)
DP_NAMES = {DP_DRAW: "draw-or-take", DP_MELD: "meld", DP_ASK: "ask-partner", DP_ANSWER: "answer-partner",
            DP_DISCARD: "discard"}

# Option rows (opts[i, 0..3]) --------------------------------------------------------------------
O_DRAW = 1  # draw from the stock
O_TAKE = 2  # a = method (1 M1, 2 M2, 3 M3), b = wild rank class used by M2 (1 two, 13 joker)
O_END = 3  # end the hand instead of taking the pile at empty stock (E-CLASSIC step 2)
O_NEW = 4  # new meld: a = rank, b = naturals (2 or 3), c = wild rank class or -1
O_ADD = 5  # add to meld row a: b = -1 one natural, else the wild rank class added
O_BLACK3 = 6  # meld a black threes (only when going out)
O_STOP = 7  # end the meld phase
O_NOASK = 8
O_ASK = 9  # a = partner seat
O_YES = 10
O_NO = 11
O_DISCARD = 12  # a = card kind


# The strategy function ---------------------------------------------------------------------------
# decide(rules, obs, opts, n, knobs) -> index of the chosen option, or DEFER to let the base decide
DECIDE_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64[:, ::1], types.int64,
                         types.float64[::1])
DEFER = -1
