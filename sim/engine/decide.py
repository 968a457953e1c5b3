"""Asking a strategy (§6): the options a phase enumerated go to the seat's strategy function, from the
run's function table F, with the observation; the engine asks only when more than one option is
legal. The chosen index is checked, and traced when a trace asked for it."""

import numpy as np

from .jit import engine_jit
from .layout import (
    DEFER,
    ERR_CHOICE,
    HC_FN,
    HC_FNB,
    OPT_A,
    OPT_B,
    OPT_C,
    OPT_FIELDS,
    OPT_KIND,
    S_DECISIONS,
    S_ERR,
    S_ERR_A,
    S_ERR_B,
    S_ERR_C,
    S_TRACE,
    S_TRACE_DPM,
)
from .log import trace_nb
from .observe import observe_nb


@engine_jit(inline="always")
def add_opt_nb(S, n, t, a, b, c):
    """Append option (t, a, b, c) to the list being enumerated; returns the new count."""
    o = S.opts[n]
    o[OPT_KIND] = t
    o[OPT_A] = a
    o[OPT_B] = b
    o[OPT_C] = c
    return n + 1


@engine_jit(inline="always")
def choose_nb(R, S, F, p, dp, n):
    """Ask seat p's strategy to pick one of the n legal options in S.opts; forced when n == 1.
    The strategy is a function value from the run's table F (built-in or user alike); it sees
    S.obs and copies of the options and the rules, never the state."""
    if n == 1:
        return 0
    st = S.st
    st[S_DECISIONS] += 1
    observe_nb(R, S, p, dp, n)
    i = ask_fn_nb(S, F, S.hand[p, HC_FN], p, n)
    if i == DEFER:
        b = S.hand[p, HC_FNB]
        if b >= 0:
            i = ask_fn_nb(S, F, b, p, n)
    if i < 0 or i >= n:
        st[S_ERR] = ERR_CHOICE
        st[S_ERR_A] = p
        st[S_ERR_B] = dp
        st[S_ERR_C] = i
        return 0
    if st[S_TRACE] != 0 and (st[S_TRACE] >> p) & 1 and (st[S_TRACE_DPM] >> dp) & 1:
        trace_nb(S, np.int64(p), np.int64(dp), np.int64(n), np.int64(i))  # one compiled copy (log.py)
    return i


@engine_jit(inline="always")
def ask_fn_nb(S, F, f, p, n):
    """Call strategy function F[f] on a fresh copy of the options (it may scribble on its copy)."""
    uo = S.uopts
    for j in range(n):
        for c in range(OPT_FIELDS):
            uo[j, c] = S.opts[j, c]
    return F[f](S.ru, S.obs, uo, n, S.prm[p])
