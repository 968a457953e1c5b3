"""One turn (§3.1 turn): draw step, ask partner, meld phase, go out or discard, as a straight
sequence of phases. Each phase enumerates its legal options and asks the seat's strategy only
where more than one is legal. The same sequence can be entered at any of its decisions with the
choice already made (resume_turn_nb, a search's rollout): one compiled turn serves both."""

import numpy as np

from .ask import apply_answer_nb, apply_ask_nb, enum_ask_nb
from .decide import choose_nb
from .discard import apply_discard_nb, enum_discard_nb
from .draw import apply_draw_step_nb, end_pending_take_nb, enum_draw_step_nb
from .goout import go_out_nb
from .gorules import keeps_last_card_nb, sevens_stuck_nb
from .invariants import check_nb
from .jit import engine_jit
from .layout import (
    ANSWER_NONE,
    CHECK_BETWEEN_TURNS,
    CHECK_IN_TURN,
    DP_ANSWER,
    DP_ASK,
    DP_DISCARD,
    DP_DRAW,
    DP_MELD,
    END_SEVENS,
    END_STOCK,
    ERR_STUCK,
    FOOT_NONE,
    HC_LAID,
    HC_N,
    HC_TURNS,
    KNOCK_NONE,
    MELD_OUT,
    OPT_A,
    S_ADDED_OLD,
    S_ANSWER,
    S_ASKER,
    S_BLOCK,
    S_CUR,
    S_ENDED,
    S_ERR,
    S_FOOT_DUE,
    S_INCOMING,
    S_LAID0,
    S_LAIDT,
    S_LASTR3,
    S_PEND,
    S_PRE,
    S_TOOK,
    S_TOP_BAN,
    S_TURN,
    TURN_START,
)
from .link import separate
from .meld import meld_phase_from_nb
from .packet import foot_due_nb, pick_up_foot_nb
from .stockend import end_at_stock_nb, end_last_red3_nb, last_red3_nb, take_ends_hand_nb


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
    st[S_TOP_BAN] = -1
    st[S_FOOT_DUE] = FOOT_NONE


@engine_jit(inline="always")
def play_turn_nb(R, S, F, p):
    """Seat p's turn; it may end the hand (out, or the end of the stock)."""
    # int64 values, not constants: numba would compile turn_nb a second time for literal arguments
    turn_nb(R, S, F, p, p, np.int64(TURN_START), np.int64(0))


@engine_jit(inline="always")
def resume_turn_nb(R, S, F, seat, dp, i):
    """The turn in progress carried on from a decision already asked: `seat` chose option i of S.opts
    at decision point dp (a search's rollout on a sampled state, sample.py)."""
    turn_nb(R, S, F, S.st[S_CUR], seat, dp, i)


# The small steps below keep turn_nb's branches few (complexity 25) without moving its large calls (the
# enumerations, the strategy's choice, the meld phase) into helpers: numba inlines each step by translating and
# typing it again inside turn_nb, which costs the first compile in proportion to what the step holds.
@engine_jit(inline="always")
def stock_ended_nb(st):
    """No draw step is possible: the stock is empty and no take either (E-CLASSIC step 2), unless an error
    stopped the enumeration."""
    if st[S_ERR] == 0:
        st[S_ENDED] = END_STOCK


@engine_jit(inline="always")
def mark_laid_nb(S, p):
    """A card laid this turn makes p's later going out not concealed (R-13)."""
    if S.st[S_LAIDT] != 0:
        S.hand[p, HC_LAID] = 1


@engine_jit(inline="always")
def stuck_nb(R, S, p):
    """No card may be discarded: sevens only, none discardable, end the hand (§3.8 step 8); else an error."""
    if sevens_stuck_nb(R, S, p):
        S.st[S_ENDED] = END_SEVENS
    else:
        S.st[S_ERR] = ERR_STUCK


@engine_jit(inline="always")
def after_discard_nb(R, S, p):
    """The foot earned this turn (R-95, R-114), or going out by discarding the last card (§1.9). Returns True
    when p went out."""
    if foot_due_nb(S):
        pick_up_foot_nb(R, S, p, np.int64(KNOCK_NONE))
    elif S.hand[p, HC_N] == 0:
        go_out_nb(R, S, p)
        return True
    return False


@engine_jit(inline="always")
def lapse_block_nb(st, p):
    """block_next lasts for the blocked player's turn only."""
    if st[S_BLOCK] == p:
        st[S_BLOCK] = -1


@separate
@engine_jit
def turn_nb(R, S, F, p, seat, at, i):
    """Seat p's turn from its start (at == TURN_START), or entered at decision point `at`, where `seat`
    chose option i. Every phase appears once; an entry skips the phases before its decision. A meld
    decision belongs to the meld phase it was asked in: a pending take's opening (the draw step,
    §1.6-1.7), the last red three's melds (R-05), or the turn's own meld phase."""
    st = S.st
    # the draw step (D1, D2, D14)
    if at == TURN_START:
        begin_turn_nb(S, p)
        n = enum_draw_step_nb(R, S, p)
        if n == 0:
            stock_ended_nb(st)
            return
        i = choose_nb(R, S, F, p, DP_DRAW, n)
        if st[S_ERR] != 0:
            return
        at = DP_DRAW
    drawn = at == DP_DRAW or (at == DP_MELD and st[S_PRE] != 0)  # the draw step ends in this call
    if at == DP_DRAW:
        apply_draw_step_nb(R, S, F, p, i)
    elif drawn:
        end_pending_take_nb(R, S, p, meld_phase_from_nb(R, S, F, p, i))
    elif at == DP_MELD and st[S_LASTR3] != 0:
        meld_phase_from_nb(R, S, F, p, i)
        end_last_red3_nb(S, p)
        return
    # ask partner (D10, D11)
    ask = -1
    if drawn:
        if st[S_ERR] != 0 or st[S_ENDED] != 0:
            return
        check_nb(R, S, CHECK_IN_TURN)
        if st[S_LASTR3] != 0:
            last_red3_nb(R, S, F, p)
            return
        if take_ends_hand_nb(R, S):
            end_at_stock_nb(S, p)  # R-06 read literally
            return
        n = enum_ask_nb(R, S, p)
        if n > 1:
            ask = choose_nb(R, S, F, p, DP_ASK, n)
            if st[S_ERR] != 0:
                return
    elif at == DP_ASK:
        ask = i
    if ask >= 0:
        apply_ask_nb(R, S, F, p, ask)
        if st[S_ERR] != 0:
            return
    elif at == DP_ANSWER:
        apply_answer_nb(R, S, p, seat, i)
    # meld phase (D3-D6, D12, D13, D15), then going out with an empty hand or the discard (D7-D9)
    if at == DP_DISCARD:
        k = S.opts[i, OPT_A]
    else:
        res = meld_phase_from_nb(R, S, F, p, i if at == DP_MELD and not drawn else -1)
        if st[S_ERR] != 0:
            return
        mark_laid_nb(S, p)
        if res == MELD_OUT:
            go_out_nb(R, S, p)
            return
        k = -1
        if not keeps_last_card_nb(R, S, p):  # a last card that may not go out is kept, not discarded
            n = enum_discard_nb(R, S, p)
            if n == 0:
                stuck_nb(R, S, p)
                return
            j = choose_nb(R, S, F, p, DP_DISCARD, n)
            if st[S_ERR] != 0:
                return
            k = S.opts[j, OPT_A]
    if k >= 0:
        apply_discard_nb(R, S, p, k)
        if after_discard_nb(R, S, p):
            return
    lapse_block_nb(st, p)
    check_nb(R, S, CHECK_BETWEEN_TURNS)
