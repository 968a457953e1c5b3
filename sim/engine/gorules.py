"""The going-out rules (§1.9) and the keep-a-card rule (§1.7): what a side needs before one of its
players may go out (its canastas, R-17; one canasta of each kind, Pennies and Railroad), whether the
last card must be discarded (R-58), the cards a player who does not go out keeps (R-38), the card
just taken from the top that may not be the discard (R-54), what a face-down foot forbids (R-95),
Pennies' sevens (R-97), black threes melded only by a player going out (R-15), and when stopping the
meld phase is going out. This module reads the going-out rules (`going_out_canastas`,
`going_out_kinds`, `going_out_discard`, `keep_last_card`, `concealed_requires_partner_unmelded`):
the search (gosearch.py) and the going out (goout.py) ask it.
"""

from .cards import rank_of_nb, side_of_nb
from .jit import engine_jit
from .layout import (
    ANSWER_NO,
    CK_SEVENS,
    F_KIND,
    FOOT_DUE,
    FOOT_NONE,
    HC_N,
    HC_PACKET,
    HC_R,
    MK_BLACK3,
    NCK,
    R_CONC_PARTNER_UNMELDED,
    R_GO_CANASTAS,
    R_GO_DISCARD,
    R_GO_KINDS,
    R_KEEP_LAST,
    R_NSIDES,
    RK_7,
    S_ANSWER,
    S_CUR,
    S_FOOT_DUE,
    S_PEND,
    S_PILE_N,
    S_PRE,
    S_TOP_BAN,
    SD_CAN,
    SD_MOR,
    SD_NM,
)
from .meldtable import (
    canasta_size_nb,
    canastas_nb,
    foot_kinds_nb,
    msize_nb,
    seven_discardable_nb,
    sevens_banned_last_nb,
)
from .opening import opening_still_needed_nb


@engine_jit(inline="always")
def canastas_to_go_out_nb(R):
    """Canastas a side needs before one of its players may go out (`going_out_canastas`, R-17)."""
    return R[R_GO_CANASTAS]


@engine_jit(inline="always")
def kinds_to_go_out_nb(R):
    """Canasta kinds (bits 1 << CK_*) a side needs one of each of to go out (`going_out_kinds`:
    Pennies and Railroad, all four)."""
    return R[R_GO_KINDS]


@engine_jit(inline="always")
def go_out_discard_nb(R):
    """Not 0 where going out needs a final discard: the last card may never be melded
    (`going_out_discard`, House-001 R-58)."""
    return R[R_GO_DISCARD]


@engine_jit(inline="always")
def conc_partner_unmelded_nb(R):
    """Not 0 where going out is concealed only while the partners have laid nothing either: every meld
    of the side started this turn (`concealed_requires_partner_unmelded`, R-13)."""
    return R[R_CONC_PARTNER_UNMELDED]


@engine_jit(inline="always")
def cards_kept_nb(R):
    """Cards a player who does not go out keeps after melding: one to discard and one to keep, or the
    last card alone, kept without a discard, where `keep_last_card` (Boat, R-38)."""
    return 1 if R[R_KEEP_LAST] != 0 else 2


@engine_jit(inline="always")
def side_kinds_nb(S, s):
    """The canasta kinds side s has completed, as bits 1 << CK_*."""
    k = 0
    for c in range(NCK):
        if S.side[s, SD_CAN + c] > 0:
            k |= 1 << c
    return k


@engine_jit(inline="always")
def has_kinds_to_go_out_nb(R, S, s):
    """Side s has one canasta of each kind `going_out_kinds` names."""
    req = kinds_to_go_out_nb(R)
    return req == 0 or (side_kinds_nb(S, s) & req) == req


@engine_jit(inline="always")
def banned_rank_nb(S, p):
    """Rank class of the card p took by a top-card draw and may not discard this turn (R-54), -1 none."""
    k = S.st[S_TOP_BAN]
    if k >= 0 and S.hand[p, k] > 0:
        return rank_of_nb(k)
    return -1


@engine_jit(inline="always")
def foot_forbid_nb(R, S, p):
    """W_FORBID for seat p in turn: -1 once its foot is due or was picked up this turn (the pickup comes
    first and the player is not out, R-95, R-159); while its foot is face down, the canasta kinds that
    would bring it (going out must complete none, R-95, R-114); else 0."""
    if S.st[S_FOOT_DUE] != FOOT_NONE:
        return -1
    if S.hand[p, HC_PACKET] > 0:
        return foot_kinds_nb(R)
    return 0


@engine_jit(inline="always")
def may_empty_hand_nb(R, S, s, pend):
    """Stopping the meld phase with one card (to discard it) is going out: allowed only now that
    the side has its canastas, its initial meld, and no "no" answer binds the player."""
    p = S.st[S_CUR]
    if S.hand[p, HC_N] == 1 and S.hand[p, HC_R + RK_7] == 1 and sevens_banned_last_nb(R):
        return False  # never a seven as the going-out discard
    return (S.st[S_ANSWER] != ANSWER_NO and canastas_nb(S, s) >= canastas_to_go_out_nb(R)
            and has_kinds_to_go_out_nb(R, S, s) and S.st[S_FOOT_DUE] == FOOT_NONE
            and opening_still_needed_nb(R, S, s, pend) <= 0
            and (S.hand[p, HC_N] != 1 or banned_rank_nb(S, p) < 0))  # not the card just taken


@engine_jit(inline="always")
def keeps_last_card_nb(R, S, p):
    """R-38: a player left with one card who may not go out keeps it, and the turn ends with no discard."""
    if R[R_KEEP_LAST] == 0 or S.hand[p, HC_N] != 1:
        return False
    pend = S.st[S_PEND] if S.st[S_PEND] > 0 else 0
    return not may_empty_hand_nb(R, S, side_of_nb(R, p), pend)


@engine_jit(inline="always")
def sevens_left_nb(R, S, p, s, h_after, dr, dnat, dhand_r, dhand_n):
    """Pennies (§3.8 turn step 8): no meld may leave a hand of sevens only while no seven may be
    discarded, counting the sevens canasta this very meld completes, and while a taken pile waits for
    the opening (S_PRE) the sevens in it, which h_after counts too."""
    if not sevens_banned_last_nb(R) or h_after == 0:
        return False
    sev = S.hand[p, HC_R + RK_7] - (dnat if dr == RK_7 else 0) - (dhand_n if dhand_r == RK_7 else 0)
    if S.st[S_PRE] != 0:
        for i in range(S.st[S_PILE_N]):
            if rank_of_nb(S.pile[i]) == RK_7:
                sev += 1
    if sev != h_after or seven_discardable_nb(R, S.side):
        return False
    return not (dr == RK_7 and completes_last_sevens_nb(R, S, s, dnat))


@engine_jit
def completes_last_sevens_nb(R, S, s, dnat):
    """Laying `dnat` sevens on side s's open sevens meld completes its sevens canasta, and every other
    side has one already: sevens become discardable (R-97)."""
    m = S.side[s, SD_MOR + RK_7]
    if m < 0 or msize_nb(S, s, m) + dnat < canasta_size_nb(R):
        return False
    for t in range(R[R_NSIDES]):
        if t != s and S.side[t, SD_CAN + CK_SEVENS] == 0:
            return False
    return True


@engine_jit(inline="always")
def sevens_stuck_nb(R, S, p):
    """Seat p holds sevens only and may discard none of them (Pennies: the all-sevens end, §3.8 turn
    step 8; a single seven is never the going-out discard, R-97)."""
    h = S.hand[p, HC_N]
    if not sevens_banned_last_nb(R) or h == 0 or S.hand[p, HC_R + RK_7] != h:
        return False
    return not seven_discardable_nb(R, S.side) or (h == 1 and S.st[S_FOOT_DUE] != FOOT_DUE)


@engine_jit(inline="always")
def black3_laid_nb(S, s):
    """Side s has a black-three meld on the table: one laid this turn by a player who must now go out
    (black threes are melded only as part of going out, R-15, R-121, R-151)."""
    for m in range(S.side[s, SD_NM]):
        if S.melds[s, m, F_KIND] == MK_BLACK3:
            return True
    return False
