"""The event log behind transcripts (docs/transcript.md) and the decision trace (sim.analysis.trace).

Both are off in ordinary runs: logging costs one load and a branch per event (log_nb is inlined),
and the writers run only when a transcript or a trace asked for them. The writers take int64
values, never constants: numba compiles a called function once per constant it is given (see
docs/engine.md, "Compile time")."""

import numpy as np

from .jit import engine_jit
from .layout import (
    ERR_LOG_FULL,
    EV_A,
    EV_B,
    EV_C,
    EV_CARDS,
    EV_D,
    EV_E,
    EV_NCARDS,
    EV_PLAYER,
    EV_TYPE,
    OPT_FIELDS,
    S_ERR,
    S_EV_N,
    S_EVC_N,
    S_GAME,
    S_LOG,
    S_TRACE_N,
    S_TRACE_ON,
    T_CHOICE,
    T_DP,
    T_GAME,
    T_N,
    T_OBS,
    T_OPT0,
    T_ROW,
    T_SEAT,
)


@engine_jit(inline="always")
def log_nb(S, t, p, a, b, c, d):
    """Append an event; returns its row (or -1 when not logging)."""
    if S.st[S_LOG] == 0:
        return -1
    return log_write_nb(S, np.int64(t), np.int64(p), np.int64(a), np.int64(b), np.int64(c), np.int64(d))


@engine_jit
def log_write_nb(S, t, p, a, b, c, d):
    """Write an event row (logging on)."""
    st = S.st
    if st[S_ERR] != 0:
        return -1
    i = st[S_EV_N]
    if i >= S.ev.shape[0]:
        st[S_ERR] = ERR_LOG_FULL
        return -1
    e = S.ev[i]
    e[EV_TYPE] = t
    e[EV_PLAYER] = p
    e[EV_A] = a
    e[EV_B] = b
    e[EV_C] = c
    e[EV_CARDS] = st[S_EVC_N]
    e[EV_NCARDS] = 0
    e[EV_D] = d
    e[EV_E] = 0
    st[S_EV_N] = i + 1
    return i


@engine_jit(inline="always")
def logc_nb(S, ei, k):
    """Append a card to event row ei (cards of one event are contiguous)."""
    if ei >= 0:
        logc_write_nb(S, ei, np.int64(k))


@engine_jit
def logc_write_nb(S, ei, k):
    """Write one card of an event (logging on)."""
    st = S.st
    if st[S_ERR] != 0:
        return
    j = st[S_EVC_N]
    if j >= S.evc.shape[0]:
        st[S_ERR] = ERR_LOG_FULL
        return
    S.evc[j] = k
    st[S_EVC_N] = j + 1
    S.ev[ei, EV_NCARDS] += 1


@engine_jit
def trace_nb(S, p, dp, n, i):
    """Record one decision of a traced seat: who, where, the options, the choice, the observation."""
    st = S.st
    k = st[S_TRACE_N]
    on = st[S_TRACE_ON]
    if k < S.tr.shape[0] and on + n <= S.tro.shape[0]:
        row = S.tr[k]
        row[T_GAME] = st[S_GAME]
        row[T_SEAT] = p
        row[T_DP] = dp
        row[T_N] = n
        row[T_CHOICE] = i
        row[T_OPT0] = on
        for f in range(OPT_FIELDS):
            row[T_ROW + f] = S.opts[i, f]
        for j in range(S.tr.shape[1] - T_OBS):
            row[T_OBS + j] = S.obs[j]
        for j in range(n):
            for f in range(OPT_FIELDS):
                S.tro[on + j, f] = S.opts[j, f]
    st[S_TRACE_N] = k + 1
    st[S_TRACE_ON] = on + n
