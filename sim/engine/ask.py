"""ASK-PARTNER (§1.9, R-07): "may I go out?", asked at most once, after the draw step and before
any meld action, only when the player could go out; the answer binds both ways. This module reads
`ask_partner` (none, the partner, or one partner of the asker's choice)."""

from .cards import side_of_nb
from .decide import add_opt_nb, choose_nb
from .goout import can_go_out_nb
from .jit import engine_jit
from .layout import (
    ANSWER_NO,
    ANSWER_YES,
    ASK_NONE,
    ASK_PARTNER,
    DP_ANSWER,
    EV_ASK,
    HC_N,
    O_ASK,
    O_NO,
    O_NOASK,
    O_YES,
    OPT_A,
    OPT_KIND,
    R_ASK,
    R_PLAYERS,
    S_ANSWER,
    S_ASKER,
    S_ASKS,
    S_ERR,
    S_LASTR3,
    S_YES,
    SC_ASKS,
    SC_YES,
    SD_COUNT,
)
from .log import log_nb
from .opening import opening_round_nb


@engine_jit(inline="always")
def enum_ask_nb(R, S, p):
    """Not asking, or asking a partner (every partner under choose_one_partner); 0 options when
    asking is not possible: no partner to ask, going out forced (at most one card) or impossible
    (Boat's opening rounds included)."""
    st = S.st
    if R[R_ASK] == ASK_NONE or st[S_LASTR3] != 0 or S.hand[p, HC_N] < 2 or opening_round_nb(R, S, p):
        return 0  # (no going out in Boat's opening rounds, R-32)
    if not can_go_out_nb(R, S, p):
        return 0
    s = side_of_nb(R, p)
    n = add_opt_nb(S, 0, O_NOASK, 0, 0, 0)
    for q in range(R[R_PLAYERS]):
        if q != p and side_of_nb(R, q) == s:
            n = add_opt_nb(S, n, O_ASK, q, 0, 0)
            if R[R_ASK] == ASK_PARTNER:
                break
    return n


@engine_jit(inline="always")
def apply_ask_nb(R, S, F, p, i):
    """D10 and D11: p's choice S.opts[i] (enum_ask_nb), not asking or asking the partner in it, who
    answers; the answer binds p this turn."""
    st = S.st
    if S.opts[i, OPT_KIND] == O_NOASK:
        return
    q = S.opts[i, OPT_A]
    st[S_ASKS] += 1
    S.side[side_of_nb(R, p), SD_COUNT + SC_ASKS] += 1
    n = add_opt_nb(S, 0, O_YES, p, 0, 0)
    n = add_opt_nb(S, n, O_NO, p, 0, 0)
    st[S_ASKER] = p
    j = choose_nb(R, S, F, q, DP_ANSWER, n)
    if st[S_ERR] != 0:
        return
    apply_answer_nb(R, S, p, q, j)


@engine_jit(inline="always")
def apply_answer_nb(R, S, p, q, j):
    """Partner q's answer S.opts[j] to p: a yes binds p to go out this turn, a no forbids it (R-07)."""
    st = S.st
    st[S_ASKER] = -1
    yes = S.opts[j, OPT_KIND] == O_YES
    st[S_ANSWER] = ANSWER_YES if yes else ANSWER_NO
    if yes:
        st[S_YES] += 1
        S.side[side_of_nb(R, p), SD_COUNT + SC_YES] += 1
    log_nb(S, EV_ASK, p, q, 1 if yes else 0, 0, 0)
