"""Index layout shared by the packed rules, the state arrays and the Python layers.

Plain integers: numba freezes module-level ints as compile-time constants, so these cost nothing in
the kernels and are not "rules in globals" (every rule value lives in the packed rules array).
"""

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

# State scalars (st, int64) -----------------------------------------------------------------------
S_DEALER = 0
S_CUR = 1
S_TURN = 2  # turns played in this hand
S_HANDNO = 3
S_STOCK_N = 4
S_PILE_N = 5
S_FROZEN = 6
S_BLOCK = 7  # seat barred from the pile by a black three (block_next), -1 none
S_PILE_R3 = 8  # red threes buried in the pile (upcards)
S_ENDED = 9  # 0 playing, else the hand-end reason
S_OUT_PLAYER = 10
S_CONCEALED = 11
S_ERR = 12
S_EV_N = 13
S_EVC_N = 14
S_LOG = 15
S_CHECK = 16
S_DECISIONS = 17
S_PICKUPS = 18
S_FREEZES = 19
S_B3DISC = 20
S_ASKS = 21
S_YES = 22
S_NHANDS = 23
S_CAPPED_HANDS = 24
S_LASTR3 = 25  # the last stock card was a red three: meld, no discard, hand ends
S_ANSWER = 26  # 0 none, 1 yes (must go out), 2 no (may not go out)
S_PEND = 27  # value of the pending initial meld this turn, -1 when none is pending
S_PRE = 28  # 1 while melding from hand before picking up the pile (side unmelded)
S_INCOMING = 29  # cards that will reach the hand when the pending pile is picked up
S_ADDED_OLD = 30  # this turn the player added to a meld that existed before the turn
S_TOOK = 31  # this turn the player took the pile
S_ERR_A = 32  # details of an error: seat, decision point, choice
S_ERR_B = 33
S_ERR_C = 34
S_GAME = 35
S_SEED = 36
S_DEAL = 37
S_TURNS_TOTAL = 38
S_TOPV = 39  # value of T in the pending opening (for logging)
S_RNG = 40  # 4 words: play stream (strategies)
S_DRNG = 44  # 4 words: deal stream (shuffles, first dealer)
S_WINNER = 48
S_CAPPED_GAME = 49
S_SNAP_EV = 50
S_SNAP_EVC = 51
S_SNAP_NM = 52
S_SNAP_PILE = 53
S_SNAP_FROZEN = 54
S_SNAP_PILE_R3 = 55
S_LAID0 = 56  # the seat had laid something before this turn (concealed going out, R-13)
S_LAIDT = 57  # the seat laid something this turn
S_ASKER = 58  # seat that asked "may I go out?" (for the answer's observation), -1 none
S_TRACE = 59  # decision trace: bitmask of the seats being traced in this game, 0 off
S_TRACE_BASE = 60  # decision trace: bitmask of the base strategies to trace (set from Python)
S_TRACE_N = 61  # decision trace: rows written (may exceed the buffer: rows needed)
S_TRACE_ON = 62  # decision trace: options written
S_TRACE_DPM = 63  # decision trace: bitmask of the decision points traced (bit DP_*)
S_WORK = 64  # 128 words of scratch for the go-out search (goout.W_*)
S_NST = S_WORK + 128

# Seat table (hand[p, c]): one row per seat, row MAXP is the snapshot of a pending opening --------
# Few arrays, many columns: every array of the state costs reference counting on every kernel call
# (docs/performance.md), so related per-seat and per-side values share one array.
HC_R = NK  # [NR] cards held by rank class (columns 0 .. NK-1: by card kind)
HC_N = HC_R + NR  # hand size
HC_LAID = HC_N + 1  # the seat laid something on the table this hand (red threes aside)
HC_SID = HC_N + 2  # strategy id
HC_LEN = HC_N + 3

# Side table (side[s, c]) --------------------------------------------------------------------------
SD_MOR = 0  # [NR] row of the side's open meld of a rank class, -1 none
SD_COMP = SD_MOR + NR  # [NC] score components of the last hand
SD_NM = SD_COMP + 7  # meld rows used
SD_RED3 = SD_NM + 1  # red threes laid out
SD_MELDED = SD_NM + 2  # initial meld made this hand
SD_REQ = SD_NM + 3  # initial-meld requirement this hand
SD_CUM = SD_NM + 4  # cumulative score
SD_CUM0 = SD_NM + 5  # cumulative score at the start of the hand (invariant 7)
SD_LEN = SD_NM + 6

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

# Strategy ids (sids[p]) ---------------------------------------------------------------------------
SID_RANDOM = 0
SID_HEURISTIC = 1  # baseline and its named relatives: one kernel, different knob defaults
SID_BUILTIN_MASK = 15  # low bits: the built-in kernel that decides (or that a user function defers to)
SID_USER_SHIFT = 4  # high bits: 1 + index of the seat's user function in the engine's function tuple
MAXU = 4  # user functions in one run

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


def trace_obs_len(maxm: int, nsides: int) -> int:
    """The part of the observation a trace row keeps: everything up to the last side's melds."""
    return OB_MELDS + nsides * maxm * NMF


# Decision trace rows (tr[i, 0..]) ----------------------------------------------------------------
T_GAME, T_SEAT, T_DP, T_N, T_CHOICE, T_OPT0 = range(6)  # T_OPT0: first of the n option rows in tro
T_ROW = T_OPT0 + 4  # the chosen option's 4 fields
T_OBS = T_ROW + 4  # the observation


# Score components (per side, per hand) ----------------------------------------------------------
C_MELDED, C_CANASTAS, C_RED3, C_GOING_OUT, C_IN_HAND, C_OTHER, C_TOTAL = 0, 1, 2, 3, 4, 5, 6
NC = 7
assert SD_NM - SD_COMP == NC
COMPONENTS = ("melded", "canastas", "red_threes", "going_out", "in_hand", "other", "total")

# Hand-end reasons -------------------------------------------------------------------------------
END_OUT, END_STOCK, END_CAP = 1, 2, 3
END_NAMES = {END_OUT: "out", END_STOCK: "stock", END_CAP: "cap"}

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

# Errors -----------------------------------------------------------------------------------------
ERR_CHOICE = 1  # a strategy returned an index outside the legal options
ERR_INVARIANT = 2  # S_ERR_A holds the invariant number
ERR_LOG_FULL = 3
ERR_STUCK = 4  # no legal continuation (engine bug guard)

# Events (transcript) ----------------------------------------------------------------------------
EV_DEAL, EV_RED3, EV_DRAW, EV_TAKE, EV_MELD, EV_ASK, EV_DISCARD, EV_GOOUT, EV_HANDEND, EV_GAMEEND = range(1, 11)
EVF = 8  # type, player, a, b, c, card offset, card count, d

# Per-game result row -----------------------------------------------------------------------------
G_GAME, G_DEAL, G_WINNER, G_NHANDS, G_CAPPED_HANDS, G_CAPPED_GAME, G_DECISIONS, G_TURNS = range(8)
G_SCORE = 8
GF = G_SCORE + MAXS

# Per-hand result row ------------------------------------------------------------------------------
(H_GAME, H_HAND, H_DEALER, H_REASON, H_OUT, H_CONCEALED, H_TURNS, H_PICKUPS, H_FREEZES, H_B3DISC,
 H_ASKS, H_YES) = range(12)
H_COMP = 12
H_CUM = H_COMP + MAXS * NC
HF = H_CUM + MAXS
