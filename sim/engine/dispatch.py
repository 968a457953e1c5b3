"""Routes a decision to the seat's built-in strategy by integer id (no recompilation per strategy)."""

from numba import njit

from strategies.baseline import baseline_decide_nb
from strategies.random_ import random_decide_nb

SID_RANDOM = 0
SID_BASELINE = 1


@njit(cache=True)
def decide_nb(R, S, p, dp, n):
    sid = S.sids[p]
    if sid == SID_BASELINE:
        return baseline_decide_nb(R, S, p, dp, n)
    return random_decide_nb(R, S, p, dp, n)
