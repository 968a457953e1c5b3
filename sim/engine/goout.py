"""Going out (§1.9) on the state: the going-out search (gosearch.py) run for the hand as it stands
or as a meld action or a pile take would leave it (the keep-a-card rule, §1.7: an action that leaves
at most one card must leave a way to go out), and the going out itself (concealed or not, R-13; by
black threes, R-37). The rules it applies are gorules.py's.
"""

import numpy as np

from .cards import is_red3_nb, rank_of_nb, side_of_nb
from .gorules import (
    banned_rank_nb,
    black3_laid_nb,
    canastas_to_go_out_nb,
    cards_kept_nb,
    conc_partner_unmelded_nb,
    foot_forbid_nb,
    go_out_discard_nb,
    has_kinds_to_go_out_nb,
    kinds_to_go_out_nb,
    sevens_left_nb,
    sevens_stuck_nb,
    side_kinds_nb,
)
from .gosearch import (
    W_BAN,
    W_FORBID,
    W_HAVE,
    W_MEX,
    W_MN,
    W_MW,
    W_TH,
    can_go_out_w_nb,
    close_at_cap_nb,
)
from .jit import engine_jit
from .layout import (
    ANSWER_NO,
    ANSWER_YES,
    END_OUT,
    ERR_INVARIANT,
    EV_GOOUT,
    F_JOK,
    F_KIND,
    F_NAT,
    F_PLAYER,
    F_TURN,
    F_TWO,
    FOOT_DUE,
    FOOT_NONE,
    HC_R,
    INV_GOING_OUT,
    MK_BLACK3,
    MK_RANK,
    MK_WILD,
    NR,
    RK_3,
    S_ADDED_OLD,
    S_ANSWER,
    S_B3_OUT,
    S_CHECK,
    S_CONCEALED,
    S_ENDED,
    S_ERR,
    S_ERR_A,
    S_FOOT_DUE,
    S_LAID0,
    S_LASTR3,
    S_OUT_PLAYER,
    S_PEND,
    S_PILE_N,
    S_PRE,
    S_TURN,
    S_WORK,
    SD_MELDED,
    SD_MOR,
    SD_NM,
    SD_REQ,
)
from .log import log_nb
from .meldtable import (
    black3_close_bonus_nb,
    canasta_size_nb,
    canastas_nb,
    capped_take_split_nb,
    meld_cap_nb,
    msize_nb,
    sevens_banned_last_nb,
)
from .opening import opening_still_needed_nb
from .score import concealed_bonus_nb
from .state import table_nb


@engine_jit(inline="always")
def load_goout_nb(R, S, p):
    """Copy p's hand and p's side's open rank melds into the search's work area."""
    w = S.st[S_WORK:]
    s = side_of_nb(R, p)
    w[W_BAN] = banned_rank_nb(S, p)
    w[W_HAVE] = side_kinds_nb(S, s) if kinds_to_go_out_nb(R) != 0 else 0
    w[W_FORBID] = foot_forbid_nb(R, S, p)
    for r in range(NR):
        w[W_TH + r] = S.hand[p, HC_R + r]
        m = S.side[s, SD_MOR + r]
        if m >= 0 and S.melds[s, m, F_KIND] == MK_RANK:
            w[W_MEX + r] = 1
            w[W_MN + r] = S.melds[s, m, F_NAT]
            w[W_MW + r] = S.melds[s, m, F_TWO] + S.melds[s, m, F_JOK]
        elif m >= 0 and S.melds[s, m, F_KIND] == MK_WILD:  # the wild meld, at RK_JK: its jokers and twos
            w[W_MEX + r] = 1
            w[W_MN + r] = S.melds[s, m, F_JOK]
            w[W_MW + r] = S.melds[s, m, F_TWO]
        else:
            w[W_MEX + r] = 0
            w[W_MN + r] = 0
            w[W_MW + r] = 0
    return w


@engine_jit(inline="always")
def can_go_out_nb(R, S, p):
    """The player could empty the hand this turn with the side's melds as they stand (§1.9)."""
    s = side_of_nb(R, p)
    w = load_goout_nb(R, S, p)
    pend = S.st[S_PEND] if S.st[S_PEND] > 0 else 0
    return can_go_out_w_nb(R, w, canastas_nb(S, s), canastas_to_go_out_nb(R), opening_still_needed_nb(R, S, s, pend))


@engine_jit(inline="always")
def step_ok_nb(R, S, p, s, h_after, ncan_after, pend_after, dr, dnat, dwild, dnew, dhand_r, dhand_n):
    """Keep-a-card, going-out and binding-answer checks for one meld action (§1.7, §1.9, R-07).
    dr/dnat/dwild/dnew describe the change to the meld of rank dr; dhand_r/dhand_n a further
    change to the hand. An action that leaves at most one card is legal only if the player can
    still go out after it (the last card may be discarded or melded). The common case is
    decided here, inlined at every option of the meld phase, so it stays this small: the rest,
    a variant's further checks (Pennies' sevens) included, is step_search_nb, called (compiled once,
    not copied into every option) with the five arrays it reads and int64 values (a constant would
    compile a copy of it per value)."""
    st = S.st
    if st[S_LASTR3] != 0:
        return h_after >= 1
    if h_after >= cards_kept_nb(R) and st[S_ANSWER] != ANSWER_YES and not sevens_banned_last_nb(R):
        return True
    return step_search_nb(R, table_nb(S), np.int64(p), np.int64(s), np.int64(h_after), np.int64(ncan_after),
                          np.int64(pend_after), np.int64(dr), np.int64(dnat), np.int64(dwild), np.int64(dnew),
                          np.int64(dhand_r), np.int64(dhand_n))


STEP_NO, STEP_YES, STEP_SEARCH = 0, 1, 2  # sevens_step_nb: the action is illegal, legal, or needs the search


@engine_jit
def sevens_step_nb(R, S, p, s, h_after, dr, dnat, dhand_r, dhand_n):
    """step_ok_nb's common case where a seven may not always be discarded (Pennies, §3.8 turn step 8):
    no meld may leave a hand of undiscardable sevens ("if possible, you must play to avoid this"),
    but a hand that already is one may meld all but one of its sevens."""
    if sevens_left_nb(R, S, p, s, h_after, dr, dnat, dhand_r, dhand_n):
        if not sevens_stuck_nb(R, S, p):
            return STEP_NO
        return STEP_YES if S.st[S_ANSWER] != ANSWER_YES else STEP_SEARCH
    if h_after >= cards_kept_nb(R) and S.st[S_ANSWER] != ANSWER_YES:
        return STEP_YES
    return STEP_SEARCH


@engine_jit
def step_search_nb(R, S, p, s, h_after, ncan_after, pend_after, dr, dnat, dwild, dnew, dhand_r, dhand_n):
    """The exact check behind step_ok_nb: after the action, can the player still go out (§1.9)? With
    the foot due, the action is fine while a card is left to discard, or (where the last card may be
    melded) the hand empties and the foot comes at once (R-95). S: a state.Table (table_nb)."""
    st = S.st
    if sevens_banned_last_nb(R):
        step = sevens_step_nb(R, S, p, s, h_after, dr, dnat, dhand_r, dhand_n)
        if step != STEP_SEARCH:
            return step == STEP_YES
    if h_after <= 1 and st[S_PRE] != 0 and pend_after < S.side[s, SD_REQ]:
        return False
    w = load_goout_nb(R, S, p)
    w[W_TH + dr] -= dnat
    if dnat > 0 and dr == w[W_BAN]:
        w[W_BAN] = -1  # a card taken alone from the top is the first of its rank to be melded
    if dhand_n > 0:
        w[W_TH + dhand_r] -= dhand_n
    if dnew != 0:
        w[W_MEX + dr] = 1
    w[W_MN + dr] += dnat
    w[W_MW + dr] += dwild
    due_now = close_at_cap_nb(R, w, dr)
    needed = opening_still_needed_nb(R, S, s, pend_after)
    if (due_now or st[S_FOOT_DUE] == FOOT_DUE) and st[S_ANSWER] != ANSWER_YES \
            and dr != RK_3 and not black3_laid_nb(S, s):
        # the foot comes after the discard (or at once, the hand emptied by melding: R-95); black threes
        # are melded only by a player going out, which a player picking up its foot is not
        if h_after >= 1:
            return True
        return go_out_discard_nb(R) == 0 and needed <= 0
    if h_after <= 1 and st[S_ANSWER] == ANSWER_NO:
        return False
    return can_go_out_w_nb(R, w, ncan_after, canastas_to_go_out_nb(R), needed)


@engine_jit
def take_ok_nb(R, S, p, s, r, nat_used, wild_r, h_after, ncan_after):
    """A pile take that leaves fewer cards than a player keeps must leave a way to go out (melded side)."""
    if h_after >= cards_kept_nb(R):
        return True
    if meld_cap_nb(R) > 0:
        return capped_take_ok_nb(R, S, p, s, r, nat_used, wild_r, h_after, ncan_after)
    w = load_goout_nb(R, S, p)
    w[W_TH + r] -= nat_used
    if wild_r >= 0:
        w[W_TH + wild_r] -= 1
    pn = S.st[S_PILE_N]
    for i in range(pn - 1):
        c = S.pile[i]
        if not is_red3_nb(c):
            w[W_TH + rank_of_nb(c)] += 1
    w[W_MEX + r] = 1
    w[W_MN + r] += 1 + nat_used
    if wild_r >= 0:
        w[W_MW + r] += 1
    return can_go_out_w_nb(R, w, ncan_after, canastas_to_go_out_nb(R), np.int64(0))


@engine_jit
def capped_take_ok_nb(R, S, p, s, r, nat_used, wild_r, h_after, ncan_after):
    """take_ok_nb where melds close at the cap (R-92): the take laid as pile.capped_take_lay_nb lays it
    (the open meld closed first, the rest and the extra naturals a new meld), the pile in the hand;
    then the player must be able to go out, or the take brings its foot (R-95: one card left to
    discard, or none where the last card may be melded)."""
    w = load_goout_nb(R, S, p)
    mn = w[W_MN + r] if w[W_MEX + r] != 0 else 0
    mw = w[W_MW + r] if w[W_MEX + r] != 0 else 0
    a, b, nn, nw, extra = capped_take_split_nb(R, r, mn, mw, nat_used, wild_r)
    if extra < 0:
        return False
    w[W_TH + r] -= nat_used + extra
    if wild_r >= 0:
        w[W_TH + wild_r] -= 1
    pn = S.st[S_PILE_N]
    for i in range(pn - 1):
        c = S.pile[i]
        if not is_red3_nb(c):
            w[W_TH + rank_of_nb(c)] += 1
    w[W_MEX + r] = 1
    w[W_MN + r] = mn + a
    w[W_MW + r] = mw + b
    due = close_at_cap_nb(R, w, r)
    if nn + nw > 0:
        w[W_MEX + r] = 1
        w[W_MN + r] = nn + extra
        w[W_MW + r] = nw
    if due or S.st[S_FOOT_DUE] == FOOT_DUE:
        return h_after >= 1 or go_out_discard_nb(R) == 0
    return can_go_out_w_nb(R, w, ncan_after, canastas_to_go_out_nb(R), np.int64(0))


@engine_jit
def go_out_nb(R, S, p):
    """The player has emptied the hand: the hand ends (reason out). Concealed (R-13): the player had
    laid nothing but red threes before this turn, added nothing this turn to a meld that existed
    before it, and started a canasta this turn."""
    st = S.st
    s = side_of_nb(R, p)
    st[S_ENDED] = END_OUT
    st[S_OUT_PLAYER] = p
    if st[S_CHECK] != 0 and (canastas_nb(S, s) < canastas_to_go_out_nb(R) or st[S_ANSWER] == ANSWER_NO
                             or not has_kinds_to_go_out_nb(R, S, s) or st[S_FOOT_DUE] != FOOT_NONE):
        st[S_ERR] = ERR_INVARIANT  # going out needs the canastas and no "no" answer
        st[S_ERR_A] = INV_GOING_OUT
    if S.side[s, SD_MELDED] == 0:
        S.side[s, SD_MELDED] = 1  # a concealed going out opens the side (waiver, R-13)
    conc = 0
    if concealed_bonus_nb(R) > 0 and st[S_LAID0] == 0 and st[S_ADDED_OLD] == 0:
        for m in range(S.side[s, SD_NM]):
            row = S.melds[s, m]
            if row[F_TURN] == st[S_TURN] and row[F_PLAYER] == p and row[F_KIND] == MK_RANK \
                    and msize_nb(S, s, m) >= canasta_size_nb(R):
                conc = 1
        if conc_partner_unmelded_nb(R) != 0:
            for m in range(S.side[s, SD_NM]):
                if S.melds[s, m, F_TURN] != st[S_TURN]:
                    conc = 0
    st[S_CONCEALED] = conc
    if black3_close_bonus_nb(R) > 0:
        for m in range(S.side[s, SD_NM]):
            row = S.melds[s, m]
            if row[F_KIND] == MK_BLACK3 and row[F_TURN] == st[S_TURN] and row[F_PLAYER] == p:
                st[S_B3_OUT] = 1  # closed by melding the black threes
    log_nb(S, EV_GOOUT, p, conc, 0, 0, 0)
