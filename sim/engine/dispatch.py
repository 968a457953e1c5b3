"""Routes a decision to a built-in strategy by integer id, and types the user-function interface.

Built-ins are compiled into the engine; a user function reaches it as a numba first-class function
of the signature DECIDE_SIG, so a new one never recompiles the engine (docs/strategies.md).
"""

import warnings

from numba import njit, types
from numba.core.errors import NumbaExperimentalFeatureWarning

from strategies.heuristic import heuristic_decide_nb
from strategies.random_ import random_decide_nb

from .layout import MAXU, SID_HEURISTIC

# first-class function types are marked experimental; this use (fixed signature, no closures) is
# the documented one and is exercised by the tests
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

# decide(rules, obs, opts, n, knobs) -> index of the chosen option, or -1 to let the base decide
DECIDE_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64[:, ::1], types.int64,
                         types.float64[::1])


@njit(cache=True, inline="always")
def builtin_decide_nb(sid, R, obs, opts, n, prm):
    if sid == SID_HEURISTIC:
        return heuristic_decide_nb(R, obs, opts, n, prm)
    return random_decide_nb(R, obs, opts, n, prm)


@njit(DECIDE_SIG, cache=True)
def defer_nb(R, obs, opts, n, prm):
    """The empty user slot: always leaves the decision to the seat's built-in strategy."""
    return -1


def user_functions(fns: list) -> tuple:
    """The engine's tuple of user functions, padded with defer_nb to MAXU slots."""
    if len(fns) > MAXU:
        raise ValueError(f"at most {MAXU} user strategies in one run, got {len(fns)}")
    return tuple(fns) + (defer_nb,) * (MAXU - len(fns))


NO_USER = user_functions([])
