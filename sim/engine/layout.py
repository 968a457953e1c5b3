"""The engine's own index layout: state arrays, events, result rows, errors; and, re-exported, the
contract that strategies see (sim/engine/contract.py: rules, observation, decision points, options).

Plain integers for the kernels (numba freezes them as constants), IntEnums where the Python layers
show the names. Few arrays, many columns: docs/performance.md says why.
"""

from enum import IntEnum

from .contract import *  # noqa: F403  (one namespace for the engine: layout.X is contract.X or the engine's own)
from .contract import MAXS, NCK, NK, NMF, NR, OB_KNOWN_LEN, OB_MELDS, CanastaKind

NCKR = len(CanastaKind)  # canasta kinds the hand rows record per side (the kinds some variant plays)

# strategy functions in one run (built-in and user, each counted once). The table travels by value
# through every call of the turn loop: 8 slots cost about 2% of baseline's speed against 4
MAXF = 4

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
S_ENDED = 9  # 0 playing, else the hand-end reason END_*
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
S_ANSWER = 26  # the partner's answer this turn: ANSWER_NONE, ANSWER_YES, ANSWER_NO
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
S_EXACT = 39  # the dealer's side earns the exact-deal bonus this hand
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
S_WORK = 64  # 128 words of scratch for the go-out search (gosearch.W_*)
S_CHK = S_WORK + 128  # 2 * NR words of scratch for the invariant checks (kernels allocate nothing)
S_TOP_BAN = S_CHK + 2 * NR  # card kind taken by a top-card-only draw that may not be discarded this turn, -1
S_B3_OUT = S_TOP_BAN + 1  # the player went out by melding black threes (Boat, R-37)
S_FOOT_DUE = S_B3_OUT + 1  # contract.FOOT_NONE, FOOT_DUE (pick the foot up after the discard), FOOT_TAKEN
S_NST = S_FOOT_DUE + 1

# Seat table (hand[p, c]): one row per seat, row MAXP is the snapshot of a pending opening --------
# Few arrays, many columns: every array of the state costs reference counting on every kernel call
# (docs/performance.md), so related per-seat and per-side values share one array.
HC_R = NK  # [NR] cards held by rank class (columns 0 .. NK-1: by card kind)
HC_N = HC_R + NR  # hand size
HC_LAID = HC_N + 1  # the seat laid something on the table this hand (red threes aside)
HC_FN = HC_N + 2  # the seat's strategy: its slot in the run's function table (MAXF)
HC_FNB = HC_N + 3  # the slot of the strategy that decides where HC_FN returns DEFER, -1 none
HC_TURNS = HC_N + 4  # turns the seat has played in this hand
HC_PACKET = HC_N + 5  # cards in the seat's foot, kitty or morto still face down (no Classic preset has one)
HC_KNOWN = HC_N + 6  # [NR] cards of each rank class every seat saw go into this hand (a pile pickup) and
#                      not yet seen leave it (melded or discarded): a lower bound on the hand, reset each hand
HC_INDIRECT = HC_KNOWN + NR  # 1: the seat took its side's morto by an indirect knock and has not begun a turn
#                              since
HC_LEN = HC_INDIRECT + 1

# What a side's seats did in a hand (side[s, SD_COUNT + SC_*]; the hand rows' per-side counts) ----
class SideCount(IntEnum):
    PICKUPS = 0  # piles picked up (a take rolled back for a failed opening is no pick-up)
    FREEZES = 1  # wild cards discarded
    B3DISC = 2  # black threes discarded
    ASKS = 3  # "may I go out?" asked by a seat of the side
    YES = 4  # ... and answered yes by its partner
    TOPS = 5  # top discards taken alone (House-001, R-54)
    FEET = 6  # feet or kitties picked up (Pennies, Railroad); mortos (Buraco)
    SEQS = 7  # sequences started (Buraco)


SC_PICKUPS, SC_FREEZES, SC_B3DISC, SC_ASKS, SC_YES, SC_TOPS, SC_FEET, SC_SEQS = (int(c) for c in SideCount)
NSC = len(SideCount)
SIDE_COUNTS = ("pile_pickups", "freezes", "black3_discards", "asks", "yes_answers", "top_takes",
               "feet_taken", "sequences")  # hands-table names

# Side table (side[s, c]) --------------------------------------------------------------------------
SD_MOR = 0  # [NR] row of the side's open meld of a rank class (the one that takes cards), -1 none.
#             Several melds of one rank are rows of the table; only the open one is indexed here.
SD_COMP = SD_MOR + NR  # [NC] score components of the last hand
SD_CAN = SD_COMP + 7  # [NCK] completed canastas by kind (CK_*), kept up to date as cards are melded
SD_NM = SD_CAN + NCK  # meld rows used
SD_RED3 = SD_NM + 1  # red threes laid out
SD_MELDED = SD_NM + 2  # initial meld made this hand
SD_REQ = SD_NM + 3  # initial-meld requirement this hand
SD_CUM = SD_NM + 4  # cumulative score
SD_CUM0 = SD_NM + 5  # cumulative score at the start of the hand (invariant 7)
SD_NCAN = SD_NM + 6  # completed canastas of all kinds
SD_COUNT = SD_NM + 7  # [NSC] this hand's counts of what the side's seats did (SC_*), for the hands table
SD_LEN = SD_COUNT + NSC

# Decision trace rows (tr[i, 0..]) ----------------------------------------------------------------
T_GAME, T_SEAT, T_DP, T_N, T_CHOICE, T_OPT0 = range(6)  # T_OPT0: first of the n option rows in tro
T_ROW = T_OPT0 + 4  # the chosen option's 4 fields
T_OBS = T_ROW + 4  # the observation


# Score components (per side, per hand) ----------------------------------------------------------
class Component(IntEnum):
    MELDED = 0
    CANASTAS = 1
    RED_THREES = 2
    GOING_OUT = 3
    IN_HAND = 4
    OTHER = 5
    TOTAL = 6


C_MELDED, C_CANASTAS, C_RED3, C_GOING_OUT, C_IN_HAND, C_OTHER, C_TOTAL = (int(c) for c in Component)
NC = len(Component)
assert SD_CAN - SD_COMP == NC
COMPONENTS = ("melded", "canastas", "red_threes", "going_out", "in_hand", "other", "total")

# Hand-end reasons -------------------------------------------------------------------------------
class EndReason(IntEnum):
    OUT = 1  # a player went out
    STOCK = 2  # the stock ran out (E-CLASSIC), or the last card was a red three
    CAP = 3  # the simulator's turn cap
    SEVENS = 4  # a hand of sevens only that may not discard one (Pennies, §3.8 turn step 8)


END_OUT, END_STOCK, END_CAP, END_SEVENS = (int(e) for e in EndReason)
END_NAMES = {int(e): e.name.lower() for e in EndReason}

# What a phase tells the turn ----------------------------------------------------------------------
MELD_ON, MELD_OUT, MELD_ROLLED_BACK, MELD_PICKED_UP = 0, 1, 2, 3  # meld phase: go on to the discard;
#   the hand is empty (out); a pending pile take was abandoned; the pending pile was picked up
MELD_NEXT = 4  # one meld action laid: the phase asks for the next (meld.meld_step_nb)
TURN_START = 0  # turn.turn_nb entered at the start of a turn rather than at a decision (DP_*)
TAKE_DONE, TAKE_PENDING = 0, 1  # pile taken; or the side must first complete its initial meld

# The invariants of docs/rules.md section 6 (S_ERR_A when one breaks) --------------------------------
(INV_CARDS, INV_MELD_VALID, INV_ONE_MELD_PER_RANK, INV_EMPTY_HAND, INV_PILE_FLAGS, INV_RED3,
 INV_SCORES, INV_GOING_OUT) = range(1, 9)
CHECK_IN_TURN, CHECK_BETWEEN_TURNS, CHECK_SCORED = 0, 1, 2  # where a check runs

# Errors -----------------------------------------------------------------------------------------
ERR_CHOICE = 1  # a strategy returned an index outside the legal options
ERR_INVARIANT = 2  # S_ERR_A holds the invariant number
ERR_LOG_FULL = 3
ERR_STUCK = 4  # no legal continuation (engine bug guard)
ERR_RULE = 5  # a packed rule value the kernels do not play (rules.validate refuses it first)
ERR_SAMPLE = 6  # an observation no state can match (sample.sample_nb): an engine bug

# Events (transcript) ----------------------------------------------------------------------------
(EV_DEAL, EV_RED3, EV_DRAW, EV_TAKE, EV_MELD, EV_ASK, EV_DISCARD, EV_GOOUT, EV_HANDEND, EV_GAMEEND,
 EV_TOP, EV_RESHUFFLE, EV_FOOT) = range(1, 14)
EV_TYPE, EV_PLAYER, EV_A, EV_B, EV_C, EV_CARDS, EV_NCARDS, EV_D, EV_E = range(9)  # the fields of an event row
EVF = 9  # EV_E: the deal's exact-deal flag

# Result rows: one schema for the engine's offsets and the results' columns --------------------------
# Each kind of row is built field by field: a field is named by the column of the results table it
# becomes (docs/results.md: add, never rename) and is given the next offset, so the G_*/H_* integers the
# kernels write (plain module-level integers: numba freezes them as constants) and the columns
# sim/run/frames.py reads come from one list. The per-side blocks (G_SCORE, H_COMP, ...) are reserved
# after the fields; their columns follow their own per-side pattern in frames.py.
COL_INT = "int"  # the value as written (int64)
COL_BOOL = "bool"  # a 0/1 flag
COL_REASON = "reason"  # a hand-end reason (END_*), a category of END_NAMES
COL_SIDE = "side"  # the side of the seat in another field, -1 none: a column of its own, not a field


class ResultRow:
    """The layout of one kind of result row. `columns`: the schema, (column, offset, kind) in the order of
    the table's columns; `width`: the row's length once every field and block is placed."""

    def __init__(self) -> None:
        self.columns: tuple[tuple[str, int, str], ...] = ()
        self.width = 0

    def field(self, column: str, kind: str = COL_INT) -> int:
        """A field at the next offset, written out as `column`; returns the offset."""
        self.columns += ((column, self.width, kind),)
        self.width += 1
        return self.width - 1

    def derived(self, column: str, offset: int, kind: str) -> None:
        """A column computed from the field at `offset` (COL_SIDE), with no place of its own in the row."""
        self.columns += ((column, offset, kind),)

    def block(self, size: int) -> int:
        """`size` offsets for per-side values; returns the first."""
        self.width += size
        return self.width - size


# Per-game result row -----------------------------------------------------------------------------
GAME_ROW = ResultRow()
G_GAME = GAME_ROW.field("game")
G_DEAL = GAME_ROW.field("deal")
G_WINNER = GAME_ROW.field("winner_side")
G_NHANDS = GAME_ROW.field("n_hands")
G_CAPPED_HANDS = GAME_ROW.field("capped_hands")
G_CAPPED_GAME = GAME_ROW.field("capped_game", COL_BOOL)
G_DECISIONS = GAME_ROW.field("decisions")
G_TURNS = GAME_ROW.field("turns")
G_SCORE = GAME_ROW.block(MAXS)  # [MAXS] each side's final score (score_{s})
GF = GAME_ROW.width
GAME_COLUMNS = GAME_ROW.columns

# Per-hand result row ------------------------------------------------------------------------------
HAND_ROW = ResultRow()
H_GAME = HAND_ROW.field("game")
H_HAND = HAND_ROW.field("hand")
H_DEALER = HAND_ROW.field("dealer")
H_REASON = HAND_ROW.field("reason", COL_REASON)
H_OUT = HAND_ROW.field("out_seat")
HAND_ROW.derived("out_side", H_OUT, COL_SIDE)
H_CONCEALED = HAND_ROW.field("concealed", COL_BOOL)
H_TURNS = HAND_ROW.field("turns")
H_PICKUPS = HAND_ROW.field("pile_pickups")
H_FREEZES = HAND_ROW.field("freezes")
H_B3DISC = HAND_ROW.field("black3_discards")
H_ASKS = HAND_ROW.field("asks")
H_YES = HAND_ROW.field("yes_answers")
H_COMP = HAND_ROW.block(MAXS * NC)  # [MAXS * NC] each side's score components ({component}_{s})
H_CUM = HAND_ROW.block(MAXS)  # [MAXS] each side's cumulative score (cum_{s})
H_CANK = HAND_ROW.block(MAXS * NCKR)  # [MAXS * NCKR] each side's completed canastas by kind at the end of the hand
H_SCOUNT = HAND_ROW.block(MAXS * NSC)  # [MAXS * NSC] each side's counts (SC_*) in the hand
HF = HAND_ROW.width
HAND_COLUMNS = HAND_ROW.columns

def trace_obs_len(maxm: int, nsides: int) -> int:
    """The part of the observation a trace row keeps: all of it but the strategy's scratch space (the melds of
    every side slot, whatever `nsides`, and the cards known in each hand), so that a strategy's decision can be
    recomputed from a trace row (sim.analysis.overrides)."""
    return OB_MELDS + MAXS * maxm * NMF + OB_KNOWN_LEN
