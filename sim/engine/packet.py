"""The foot or kitty (Pennies §3.8 turn step 6, R-95, R-159; Railroad §3.9 turn step 5, R-114, R-152):
picked up after the discard on the turn its player first completes a canasta of a kind that brings
it (meldtable.canasta_completed_nb marks it due), or at once when the hand empties by melding while it
is due (Pennies). Its red threes are laid out and replaced from the stock (§1.2; none at an empty
stock, R-05). A hand that ends without that discard leaves it face down (R-153)."""

import numpy as np

from .cards import is_red3_nb, side_of_nb, threes_plain_nb
from .deal import expose_nb
from .jit import engine_jit
from .layout import EV_FOOT, FOOT_DUE, FOOT_NONE, FOOT_TAKEN, HC_PACKET, KNOCK_NONE, S_FOOT_DUE, SC_FEET, SD_COUNT
from .log import log_nb, logc_nb
from .table import hadd_nb, packet_lo_nb, packet_seat_nb


@engine_jit(inline="always")
def foot_due_nb(S):
    """The player in turn has earned its foot this turn and not yet picked it up."""
    return S.st[S_FOOT_DUE] == FOOT_DUE


@engine_jit
def pick_up_foot_nb(R, S, p, knock):
    """Seat p takes its face-down packet (Buraco: its side's morto, reached by a `knock`, KNOCK_*) into
    the hand (a `foot` event), its red threes laid out and replaced in the order they lie; the foot is
    no longer due this turn."""
    st = S.st
    q = packet_seat_nb(R, p)
    lo = packet_lo_nb(R, S, q)
    n = S.hand[q, HC_PACKET]
    S.hand[q, HC_PACKET] = 0
    # a foot picked up this turn rules out going out this turn; a Buraco knock does not (§3.10 step 3)
    st[S_FOOT_DUE] = FOOT_TAKEN if knock == KNOCK_NONE else FOOT_NONE
    S.side[side_of_nb(R, p), SD_COUNT + SC_FEET] += 1
    ei = log_nb(S, EV_FOOT, p, knock, 0, 0, 0)
    for i in range(n):
        logc_nb(S, ei, S.stock[lo + i])
    plain = threes_plain_nb(R)
    for i in range(n):
        k = S.stock[lo + i]
        if is_red3_nb(k) and not plain:
            expose_nb(R, S, p, k, np.bool_(False))
        else:
            hadd_nb(S, p, k)
