"""The discard step (§1.8): any card held may be discarded (enumerate, apply); what a discard does
to the pile is rules data (`freeze_on_discard`, `block_on_discard`), read only here."""

from .cards import card_class_nb, is_black3_nb, is_wild_rank_nb, rank_of_nb, side_of_nb
from .decide import add_opt_nb
from .jit import engine_jit
from .layout import (
    EV_DISCARD,
    HC_N,
    NK,
    O_DISCARD,
    R_BLOCK_ON,
    R_FREEZE_ON,
    R_PLAYERS,
    RK_7,
    S_B3DISC,
    S_BLOCK,
    S_FREEZES,
    S_FROZEN,
    S_TOP_BAN,
    SC_B3DISC,
    SC_FREEZES,
    SD_COUNT,
)
from .log import log_nb
from .meldtable import seven_discardable_nb, sevens_banned_last_nb
from .packet import foot_due_nb
from .table import hdel_nb, pile_push_nb


@engine_jit(inline="always")
def enum_discard_nb(R, S, p):
    """Every card kind held is a legal discard (§1.8), but the card just taken alone from the top of
    the pile (R-54), and in Pennies a seven while a side lacks a sevens canasta or as the going-out
    discard (R-97); the discard options in card-kind order. None: the all-sevens end (§3.8)."""
    n = 0
    ban = S.st[S_TOP_BAN]
    no7 = False
    if sevens_banned_last_nb(R):
        no7 = not seven_discardable_nb(R, S.side) or (S.hand[p, HC_N] == 1 and not foot_due_nb(S))
    for k in range(NK):
        if S.hand[p, k] > 0 and k != ban and not (no7 and rank_of_nb(k) == RK_7):
            n = add_opt_nb(S, n, O_DISCARD, k, 0, 0)
    return n


@engine_jit(inline="always")
def apply_discard_nb(R, S, p, k):
    """Card k goes on the pile; it may freeze the pile or bar the next player (block_next)."""
    st = S.st
    hdel_nb(S, p, k)
    pile_push_nb(S, k)
    log_nb(S, EV_DISCARD, p, k, 0, 0, 0)
    cls = card_class_nb(k)
    if cls & R[R_FREEZE_ON]:
        st[S_FROZEN] = 1
    if cls & R[R_BLOCK_ON]:
        st[S_BLOCK] = (p + 1) % R[R_PLAYERS]
    # the hand rows count wild and black-three discards (freezes and blocks in Classic), in all and per side
    if is_wild_rank_nb(rank_of_nb(k)):
        st[S_FREEZES] += 1
        S.side[side_of_nb(R, p), SD_COUNT + SC_FREEZES] += 1
    elif is_black3_nb(k):
        st[S_B3DISC] += 1
        S.side[side_of_nb(R, p), SD_COUNT + SC_B3DISC] += 1
