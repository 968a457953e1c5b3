"""The end of the stock (§1.10). E-VOLUNTARY (Pennies R-99, Railroad R-120): at an empty stock the
player takes the pile by a legal method or ends the hand. E-RESHUFFLE (Boat, R-39): the pile, shuffled, becomes the stock when a
card is needed, and the hand ends when both are empty. E-CLASSIC (R-05, R-06): once the stock is empty, each player must
take the pile when its top card can be laid off on the side's meld (M3) and may take it by any other
legal method; a player who cannot or will not take it ends the hand. A red three drawn as the last
card, or needing a replacement from an empty stock, ends the hand after the player may meld
(`last_red3_may_meld`). Read literally, R-06 ends the hand as soon as such a take is made
(`empty_stock_take_ends_hand`). This module reads `end_of_stock`, `last_red3_may_meld` and
`empty_stock_take_ends_hand`."""

from .decide import add_opt_nb
from .jit import engine_jit
from .layout import (
    END_STOCK,
    EOS_CLASSIC,
    EOS_RESHUFFLE,
    EOS_VOLUNTARY,
    ERR_RULE,
    HC_LAID,
    O_DRAW,
    O_END,
    OPT_A,
    R_EOS,
    R_EOS_TAKE_ENDS,
    R_LAST_R3_MELD,
    S_ENDED,
    S_ERR,
    S_LAIDT,
    S_PILE_N,
    S_STOCK_N,
    S_TOOK,
    TAKE_M3,
)
from .meld import meld_phase_nb


@engine_jit(inline="always")
def reshuffles_nb(R):
    """E-RESHUFFLE (Boat, R-39): a draw from an empty stock, or a red three's replacement, first makes
    the stock again from the pile."""
    return R[R_EOS] == EOS_RESHUFFLE


@engine_jit(inline="always")
def empty_stock_options_nb(R, S, n):
    """The draw step at an empty stock, given the n legal takes in S.opts. E-CLASSIC: 0 (the hand
    ends), the takes alone when one is forced, or the takes and O_END (decline and end the hand).
    E-RESHUFFLE: the takes, and a draw from the pile turned into the stock while it holds cards; 0 when
    both are empty (the hand ends, R-149). E-VOLUNTARY (Pennies, Railroad): the takes and O_END, a take
    never forced (R-99, R-120)."""
    if R[R_EOS] == EOS_RESHUFFLE:
        if S.st[S_PILE_N] > 0:
            return add_opt_nb(S, n, O_DRAW, 0, 0, 0)
        return n
    if n == 0:
        return 0
    if R[R_EOS] == EOS_VOLUNTARY:
        return add_opt_nb(S, n, O_END, 0, 0, 0)  # a take is never forced
    if R[R_EOS] != EOS_CLASSIC:
        S.st[S_ERR] = ERR_RULE  # rules.validate admits the three rules above only: never reached
        return 0
    for i in range(n):
        if S.opts[i, OPT_A] == TAKE_M3:
            return n  # T can be laid off on the side's meld: the take is forced
    return add_opt_nb(S, n, O_END, 0, 0, 0)


@engine_jit(inline="always")
def last_red3_nb(R, S, F, p):
    """R-05: no discard and no going out; the player may meld (keeping a card) and the hand ends."""
    if R[R_LAST_R3_MELD] != 0:
        meld_phase_nb(R, S, F, p)
    end_last_red3_nb(S, p)


@engine_jit(inline="always")
def end_last_red3_nb(S, p):
    """R-05: after the melds the last red three allows, the hand ends."""
    end_at_stock_nb(S, p)


@engine_jit(inline="always")
def take_ends_hand_nb(R, S):
    """R-06 read literally (`empty_stock_take_ends_hand`): the pile was taken this turn with the stock
    empty, so the hand ends now, the take and its melds made, with no discard and no going out."""
    return R[R_EOS_TAKE_ENDS] != 0 and S.st[S_TOOK] != 0 and S.st[S_STOCK_N] == 0


@engine_jit(inline="always")
def end_at_stock_nb(S, p):
    """The hand ends at the stock (no going-out bonus) after seat p's melds of this turn."""
    S.st[S_ENDED] = END_STOCK
    if S.st[S_LAIDT] != 0:
        S.hand[p, HC_LAID] = 1
