"""The draw step (§1.5, D1, D2, D14): draw from the stock, or take the pile (pile.py), or at an empty
stock what the end-of-stock rule allows (stockend.py); enumerate, then apply the choice. DRAW(k)
reads `draw_count`: fewer cards left than k is a complete draw (R-08), and each red three drawn is
laid out and replaced (§1.2)."""

from .cards import is_red3_nb
from .deal import expose_nb
from .decide import add_opt_nb
from .jit import engine_jit
from .layout import (
    END_STOCK,
    EV_DRAW,
    MELD_ROLLED_BACK,
    O_DRAW,
    O_END,
    OPT_A,
    OPT_B,
    OPT_KIND,
    R_DRAW,
    S_ENDED,
    S_ERR,
    S_LASTR3,
    S_STOCK_N,
    TAKE_PENDING,
)
from .log import log_nb, logc_nb
from .meld import meld_phase_nb
from .pile import apply_take_nb, enum_take_nb
from .stockend import empty_stock_options_nb
from .table import hadd_nb, pop_stock_nb


@engine_jit
def draw_nb(R, S, p):
    """DRAW(k) from the stock."""
    st = S.st
    ei = log_nb(S, EV_DRAW, p, 0, 0, 0, 0)
    for _i in range(R[R_DRAW]):
        if st[S_STOCK_N] == 0:
            break  # fewer than k cards left is a complete draw
        c = pop_stock_nb(S)
        logc_nb(S, ei, c)
        if is_red3_nb(c):
            if expose_nb(R, S, p, c) != 0:
                st[S_LASTR3] = 1  # no replacement for the last card
                break
        else:
            hadd_nb(S, p, c)


@engine_jit(inline="always")
def enum_draw_step_nb(R, S, p):
    """O_DRAW and the legal takes; at an empty stock, the end-of-stock options (0: the hand ends)."""
    if S.st[S_STOCK_N] > 0:
        n = add_opt_nb(S, 0, O_DRAW, 0, 0, 0)
        return enum_take_nb(R, S, p, n)
    return empty_stock_options_nb(R, S, enum_take_nb(R, S, p, 0))


@engine_jit(inline="always")
def apply_draw_step_nb(R, S, F, p, i):
    """Draw, take the pile, or end the hand (O_END). A take by a side that has not melded first
    completes the opening from hand (the meld phase, pending); stopping short gives it back and the
    player draws from the stock instead, or the hand ends if the stock is empty."""
    st = S.st
    t = S.opts[i, OPT_KIND]
    if t == O_END:
        st[S_ENDED] = END_STOCK
        return
    if t == O_DRAW:
        draw_nb(R, S, p)
        return
    if apply_take_nb(R, S, p, S.opts[i, OPT_A], S.opts[i, OPT_B]) == TAKE_PENDING:
        end_pending_take_nb(R, S, p, meld_phase_nb(R, S, F, p))


@engine_jit(inline="always")
def end_pending_take_nb(R, S, p, res):
    """After the meld phase of a pending take (§1.6-1.7), which ended with `res`: a take given back
    becomes a stock draw, or ends the hand at an empty stock."""
    st = S.st
    if st[S_ERR] != 0 or res != MELD_ROLLED_BACK:
        return
    if st[S_STOCK_N] == 0:
        st[S_ENDED] = END_STOCK
        return
    draw_nb(R, S, p)
