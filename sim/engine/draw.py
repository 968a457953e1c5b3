"""The draw step (§1.5, D1, D2, D14): draw from the stock, take the top discard alone (House-001,
`top_card_draw`, R-54), or take the pile (pile.py), or at an empty stock what the end-of-stock rule
allows (stockend.py); enumerate, then apply the choice. DRAW(k) reads `draw_count`: fewer cards left
than k is a complete draw (R-08), and each red three drawn is laid out and replaced (§1.2)."""

from .cards import is_red3_nb, side_of_nb, threes_plain_nb
from .deal import expose_nb
from .decide import add_opt_nb
from .jit import engine_jit
from .layout import (
    END_STOCK,
    EV_DRAW,
    EV_TOP,
    MELD_ROLLED_BACK,
    O_DRAW,
    O_END,
    O_TOP,
    OPT_A,
    OPT_B,
    OPT_KIND,
    R_DRAW,
    R_TOP_CARD,
    S_BLOCK,
    S_ENDED,
    S_ERR,
    S_FROZEN,
    S_LASTR3,
    S_PILE_N,
    S_PILE_R3,
    S_STOCK_N,
    S_TOP_BAN,
    SC_TOPS,
    SD_COUNT,
    TAKE_PENDING,
)
from .log import log_nb, logc_nb
from .meld import meld_phase_nb
from .opening import opening_round_nb
from .pile import apply_take_nb, enum_take_nb, from_pile_nb, top_untakeable_nb
from .stockend import empty_stock_options_nb, reshuffles_nb
from .table import hadd_nb, pop_stock_nb, reshuffle_nb


@engine_jit
def draw_nb(R, S, p):
    """DRAW(k) from the stock; from an empty stock only where the pile becomes the stock (E-RESHUFFLE,
    offered by stockend.empty_stock_options_nb). Buraco's draw too (buraco.py)."""
    st = S.st
    refill = reshuffles_nb(R)
    plain = threes_plain_nb(R)  # Buraco: a red three is an ordinary card
    if st[S_STOCK_N] == 0:
        reshuffle_nb(S, p)
    ei = log_nb(S, EV_DRAW, p, 0, 0, 0, 0)
    for _i in range(R[R_DRAW]):
        if st[S_STOCK_N] == 0:
            break  # fewer than k cards left is a complete draw
        c = pop_stock_nb(S)
        logc_nb(S, ei, c)
        if is_red3_nb(c) and not plain:
            if expose_nb(R, S, p, c, refill) != 0:
                if refill:
                    st[S_ENDED] = END_STOCK  # no card left in stock or pile for the replacement
                else:
                    st[S_LASTR3] = 1  # no replacement for the last card
                break
        else:
            hadd_nb(S, p, c)


@engine_jit(inline="always")
def top_card_ok_nb(R, S, p):
    """R-54: the top discard alone may be taken where the rules allow it, while the stock lasts, when it
    is not a card that can never be taken (a wild or black three) and p is not barred from the pile."""
    st = S.st
    pn = st[S_PILE_N]
    if R[R_TOP_CARD] == 0 or pn == 0 or st[S_STOCK_N] == 0 or st[S_BLOCK] == p:
        return False
    return not top_untakeable_nb(R, S.pile[pn - 1])


@engine_jit
def take_top_nb(R, S, p):
    """R-54, R-156: the top discard goes into the hand alone (a red three surfaced from under it is laid
    out without replacement); the pile stays as it is, frozen or not, unless it is now empty. If p held no
    copy of that card, it may not be discarded this turn."""
    st = S.st
    pn = st[S_PILE_N] - 1
    k = S.pile[pn]
    st[S_PILE_N] = pn
    log_nb(S, EV_TOP, p, k, 0, 0, 0)
    s = side_of_nb(R, p)
    S.side[s, SD_COUNT + SC_TOPS] += 1
    if is_red3_nb(k):
        st[S_PILE_R3] -= 1
    elif S.hand[p, k] == 0:
        st[S_TOP_BAN] = k
    from_pile_nb(R, S, p, s, k)
    if pn == 0:
        st[S_FROZEN] = 0


@engine_jit(inline="always")
def enum_draw_step_nb(R, S, p):
    """O_DRAW, the top card alone where allowed, and the legal takes; at an empty stock, the
    end-of-stock options (0: the hand ends)."""
    opening = opening_round_nb(R, S, p)  # Boat's opening rounds: draw only
    stock = S.st[S_STOCK_N] > 0
    n = 0
    if stock:
        n = add_opt_nb(S, n, O_DRAW, 0, 0, 0)
        if not opening and top_card_ok_nb(R, S, p):
            n = add_opt_nb(S, n, O_TOP, S.pile[S.st[S_PILE_N] - 1], 0, 0)
    if not opening:
        n = enum_take_nb(R, S, p, n)  # one call site: the takes are inlined once
    return n if stock else empty_stock_options_nb(R, S, n)


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
    if t == O_TOP:
        take_top_nb(R, S, p)
        return
    if apply_take_nb(R, S, p, S.opts[i, OPT_A], S.opts[i, OPT_B]) == TAKE_PENDING:
        end_pending_take_nb(R, S, p, meld_phase_nb(R, S, F, p))


@engine_jit(inline="always")
def end_pending_take_nb(R, S, p, res):
    """After the meld phase of a pending take (§1.6-1.7), which ended with `res`: a take given back
    becomes a stock draw, or ends the hand at an empty stock (E-RESHUFFLE: once the pile is empty too)."""
    st = S.st
    if st[S_ERR] != 0 or res != MELD_ROLLED_BACK:
        return
    if st[S_STOCK_N] == 0 and not (reshuffles_nb(R) and st[S_PILE_N] > 0):
        st[S_ENDED] = END_STOCK
        return
    draw_nb(R, S, p)  # (from the pile made the stock again, E-RESHUFFLE, if the stock is empty)
