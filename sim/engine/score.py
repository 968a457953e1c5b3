"""Scoring a hand (§1.11, §3.1 scoring): every component in points, per side (docs/rules.md 2.7).
This module reads the bonus and red-three rules (`canasta_bonus_*`, `red3_points`,
`red3_negative_if_no_meld`, `red3_negative_without_sevens`, `table_negative_without_canasta`,
`going_out_bonus`, `concealed_total`, `exact_deal_bonus`, `unpicked_foot_red3`, `morto_penalty`): feet never
picked up count against their side in `other` (R-96, R-115, R-154), and Buraco's mortos never taken or
reached too late by an indirect knock cost `morto_penalty` there (R-140)."""

from .cards import side_of_nb
from .jit import engine_jit
from .layout import (
    C_CANASTAS,
    C_GOING_OUT,
    C_IN_HAND,
    C_MELDED,
    C_OTHER,
    C_RED3,
    C_TOTAL,
    CK_SEVENS,
    END_OUT,
    F_VAL,
    HC_INDIRECT,
    HC_PACKET,
    NCK,
    R_CANBONUS,
    R_CONC_BONUS,
    R_EXACT_BONUS,
    R_FOOT_R3,
    R_GO_BONUS,
    R_MORTO_PEN,
    R_NSIDES,
    R_PLAYERS,
    R_RED3_NEG,
    R_RED3_NEG_SEVENS,
    R_RED3TAB,
    R_TABLE_NEG,
    S_B3_OUT,
    S_CONCEALED,
    S_DEALER,
    S_ENDED,
    S_EXACT,
    S_OUT_PLAYER,
    SD_CAN,
    SD_COMP,
    SD_CUM,
    SD_NCAN,
    SD_NM,
    SD_RED3,
)
from .meldtable import black3_close_bonus_nb
from .table import hand_value_nb, packet_side_nb, packet_value_nb, packets_nb

RED3_TABLE = 9  # red-three points for 0 .. 8 threes; each one more adds the table's last step


@engine_jit(inline="always")
def concealed_bonus_nb(R):
    """The whole bonus for going out concealed (200 in Classic, R-13), 0 where there is none."""
    return R[R_CONC_BONUS]


@engine_jit(inline="always")
def table_negative_nb(R, S, s):
    """Boat (R-34): a side without a canasta scores its whole table, melds and red threes, negative."""
    return R[R_TABLE_NEG] != 0 and S.side[s, SD_NCAN] == 0


@engine_jit(inline="always")
def red3_points_nb(R, S, s):
    """Side s's red threes (`red3_points`): negative when it has melded nothing (R-12, R-19), or in
    Boat when it has no canasta (R-34)."""
    k = S.side[s, SD_RED3]
    if k < RED3_TABLE:
        v = R[R_RED3TAB + k]
    else:  # Railroad's packs hold more than 8: each further one adds the last step
        last = R[R_RED3TAB + RED3_TABLE - 1]
        v = last + (k - RED3_TABLE + 1) * (last - R[R_RED3TAB + RED3_TABLE - 2])
    if S.side[s, SD_NM] == 0 and R[R_RED3_NEG] != 0:
        return -v  # a side that has melded nothing pays for its red threes
    if R[R_RED3_NEG_SEVENS] != 0 and S.side[s, SD_CAN + CK_SEVENS] == 0:
        return -v  # Pennies: without a sevens canasta they count against the side (§3.8 scoring 3)
    if table_negative_nb(R, S, s):
        return -v
    return v


@engine_jit
def score_hand_nb(R, S):
    """Each side's components for the hand just ended, and its cumulative score."""
    st = S.st
    out = st[S_OUT_PLAYER] if st[S_ENDED] == END_OUT else -1
    dealer_side = side_of_nb(R, st[S_DEALER])
    for s in range(R[R_NSIDES]):
        melded = 0
        for m in range(S.side[s, SD_NM]):
            melded += S.melds[s, m, F_VAL]
        if table_negative_nb(R, S, s):
            melded = -melded
        can = 0
        for k in range(NCK):
            can += S.side[s, SD_CAN + k] * R[R_CANBONUS + k]
        go = 0
        if out >= 0 and side_of_nb(R, out) == s:
            go = R[R_CONC_BONUS] if st[S_CONCEALED] != 0 else R[R_GO_BONUS]
            if st[S_B3_OUT] != 0:
                go = black3_close_bonus_nb(R)  # in place of the going-out bonus
        inh = 0
        feet = 0
        for p in range(R[R_PLAYERS]):
            if side_of_nb(R, p) == s:
                if S.hand[p, HC_INDIRECT] != 0:
                    feet -= R[R_MORTO_PEN]  # a morto reached indirectly and never played, as if not taken
                else:
                    inh -= hand_value_nb(R, S, p)
        for q in range(packets_nb(R)):
            if packet_side_nb(R, q) == s and S.hand[q, HC_PACKET] > 0:
                if R[R_MORTO_PEN] > 0:
                    feet -= R[R_MORTO_PEN]  # Buraco: a morto never taken (§3.10 scoring 5)
                else:
                    feet -= packet_value_nb(R, S, q, -R[R_FOOT_R3])
        c = S.side[s, SD_COMP:SD_COMP + C_TOTAL + 1]
        c[C_MELDED] = melded
        c[C_CANASTAS] = can
        c[C_RED3] = red3_points_nb(R, S, s)
        c[C_GOING_OUT] = go
        c[C_IN_HAND] = inh
        c[C_OTHER] = feet + (R[R_EXACT_BONUS] if st[S_EXACT] != 0 and s == dealer_side else 0)
        c[C_TOTAL] = melded + can + c[C_RED3] + go + inh + c[C_OTHER]
        S.side[s, SD_CUM] += c[C_TOTAL]
