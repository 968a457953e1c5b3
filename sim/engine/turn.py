"""One turn (§3.1 turn): draw step, ask partner, meld phase, go out or discard, as a straight
sequence of phase calls. Each phase enumerates its legal options and asks the seat's strategy only
where more than one is legal."""

from .ask import ask_partner_nb
from .decide import choose_nb
from .discard import discard_nb
from .draw import apply_draw_step_nb, enum_draw_step_nb
from .goout import go_out_nb
from .invariants import check_nb
from .jit import engine_jit
from .layout import (
    ANSWER_NONE,
    CHECK_BETWEEN_TURNS,
    CHECK_IN_TURN,
    DP_DRAW,
    END_STOCK,
    HC_LAID,
    HC_N,
    HC_TURNS,
    MELD_OUT,
    S_ADDED_OLD,
    S_ANSWER,
    S_ASKER,
    S_BLOCK,
    S_CHECK,
    S_CUR,
    S_ENDED,
    S_ERR,
    S_INCOMING,
    S_LAID0,
    S_LAIDT,
    S_LASTR3,
    S_PEND,
    S_PRE,
    S_TOOK,
    S_TURN,
)
from .meld import meld_phase_nb
from .stockend import last_red3_nb


@engine_jit(inline="always")
def begin_turn_nb(S, p):
    """A new turn for seat p: the turn counts, and nothing asked, taken or laid yet this turn."""
    st = S.st
    st[S_CUR] = p
    st[S_TURN] += 1
    S.hand[p, HC_TURNS] += 1
    st[S_ANSWER] = ANSWER_NONE
    st[S_ASKER] = -1
    st[S_PEND] = -1
    st[S_PRE] = 0
    st[S_INCOMING] = 0
    st[S_ADDED_OLD] = 0
    st[S_TOOK] = 0
    st[S_LASTR3] = 0
    st[S_LAID0] = S.hand[p, HC_LAID]
    st[S_LAIDT] = 0


@engine_jit
def play_turn_nb(R, S, F, p):
    """Seat p's turn; it may end the hand (out, or the end of the stock)."""
    st = S.st
    begin_turn_nb(S, p)
    # draw step (D1, D2, D14)
    n = enum_draw_step_nb(R, S, p)
    if n == 0:
        if st[S_ERR] == 0:
            st[S_ENDED] = END_STOCK  # E-CLASSIC step 2: the stock is empty and no take is possible
        return
    i = choose_nb(R, S, F, p, DP_DRAW, n)
    if st[S_ERR] != 0:
        return
    apply_draw_step_nb(R, S, F, p, i)
    if st[S_ERR] != 0 or st[S_ENDED] != 0:
        return
    if st[S_CHECK] != 0:
        check_nb(R, S, CHECK_IN_TURN)
    if st[S_LASTR3] != 0:
        last_red3_nb(R, S, F, p)
        return
    # ask partner (D10, D11)
    ask_partner_nb(R, S, F, p)
    if st[S_ERR] != 0:
        return
    # meld phase (D3-D6, D12, D13, D15)
    res = meld_phase_nb(R, S, F, p)
    if st[S_ERR] != 0:
        return
    if st[S_LAIDT] != 0:
        S.hand[p, HC_LAID] = 1
    if res == MELD_OUT:
        go_out_nb(R, S, p)
        return
    # discard (D7-D9), and going out by discarding the last card
    discard_nb(R, S, F, p)
    if st[S_ERR] != 0:
        return
    if S.hand[p, HC_N] == 0:
        go_out_nb(R, S, p)
        return
    if st[S_BLOCK] == p:
        st[S_BLOCK] = -1  # block_next lasts for the blocked player's turn only
    if st[S_CHECK] != 0:
        check_nb(R, S, CHECK_BETWEEN_TURNS)
