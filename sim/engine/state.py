"""The game state: a NamedTuple of fixed-size NumPy arrays (jitclass cannot be cached).

Few arrays on purpose: numba reference-counts every array of the tuple at every call that is not
inlined, and that was most of the engine's time (docs/performance.md). new_state is also callable
from a strategy's compiled code (a search strategy makes states to play forward); the engine's
kernels never allocate, so never call it."""

from typing import NamedTuple

import numpy as np
from numba.extending import register_jitable

from .jit import engine_jit
from .layout import (
    EVF,
    HC_FNB,
    HC_LEN,
    HF,
    MAXOPT,
    MAXP,
    MAXS,
    NMF,
    NPRM,
    NR,
    R_MAX_HANDS,
    R_MAXM,
    R_NSIDES,
    R_PACK,
    S_NST,
    S_TOP_BAN,
    SD_LEN,
    SD_MOR,
    T_OBS,
    obs_len,
    trace_obs_len,
)


class State(NamedTuple):
    st: np.ndarray  # int64[S_NST] scalars (layout.S_*) and the go-out scratch at S_WORK
    hand: np.ndarray  # int64[MAXP + 1, HC_LEN] per seat: cards by kind, by rank class (HC_R), size,
    #                   laid, strategy id (layout.HC_*); row MAXP: the snapshot of a pending opening
    side: np.ndarray  # int64[MAXS, SD_LEN] per side: meld row of each rank, score components, meld
    #                   rows used, red threes, opened, requirement, scores (layout.SD_*)
    stock: np.ndarray  # int64[pack] top is stock[st[S_STOCK_N] - 1]
    pile: np.ndarray  # int64[pack] bottom first
    melds: np.ndarray  # int64[MAXS, maxm, NMF]
    opts: np.ndarray  # int64[MAXOPT, 4] legal options at the current decision point
    prm: np.ndarray  # float64[MAXP, NPRM] knobs per seat
    obs: np.ndarray  # int64[obs_len] the deciding seat's observation, rebuilt at every decision
    uopts: np.ndarray  # int64[MAXOPT, 4] copy of the options handed to a user function
    ru: np.ndarray  # int64[R_LEN] copy of the rules handed to a user function
    ev: np.ndarray  # int64[nev, EVF] transcript events (only when logging)
    evc: np.ndarray  # int64[nevc] cards of the events
    hrec: np.ndarray  # int64[max_hands, HF] per-hand records of the current game
    tr: np.ndarray  # int64[ntrace, T_OBS + trace_obs_len] decision trace rows (only when tracing)
    tro: np.ndarray  # int64[ntrace * 8, 4] the options of the traced decisions


class Table(NamedTuple):
    """The part of a State the going-out search reads (goout.step_search_nb): the scalars (and the
    search's scratch), the hands, the sides, the melds and the pile. A call that is not inlined passes
    every array as several machine words, so the search is handed these five instead of all sixteen;
    the engine's helpers read either by the same names (table_nb makes one)."""

    st: np.ndarray
    hand: np.ndarray
    side: np.ndarray
    melds: np.ndarray
    pile: np.ndarray


@engine_jit(inline="always")
def table_nb(S):
    """The Table of state S (the same arrays, no copy)."""
    return Table(S.st, S.hand, S.side, S.melds, S.pile)


register_jitable(obs_len)  # the sizes new_state reads, in numba code as well
register_jitable(trace_obs_len)


@register_jitable
def new_state(rules: np.ndarray, n_events: int = 0, n_trace: int = 0) -> State:
    """Allocate a state sized for one variant; reused across every game a worker plays."""
    pack = int(rules[R_PACK])
    maxm = int(rules[R_MAXM])
    side = np.zeros((MAXS, SD_LEN), np.int64)
    side[:, SD_MOR:SD_MOR + NR] = -1
    hand = np.zeros((MAXP + 1, HC_LEN), np.int64)
    hand[:, HC_FNB] = -1  # no base strategy until a game seats one
    st = np.zeros(S_NST, np.int64)
    st[S_TOP_BAN] = -1  # no card taken from the top (card kind 0 is the ace of spades)
    return State(
        st=st,
        hand=hand,
        side=side,
        stock=np.zeros(pack, np.int64),
        pile=np.zeros(pack, np.int64),
        melds=np.zeros((MAXS, maxm, NMF), np.int64),
        opts=np.zeros((MAXOPT, 4), np.int64),
        prm=np.zeros((MAXP, NPRM), np.float64),
        obs=np.zeros(obs_len(maxm), np.int64),
        uopts=np.zeros((MAXOPT, 4), np.int64),
        ru=rules.copy(),
        ev=np.zeros((max(n_events, 1), EVF), np.int64),
        evc=np.zeros(max(n_events * 4, 1), np.int64),
        hrec=np.zeros((int(rules[R_MAX_HANDS]) + 1, HF), np.int64),
        tr=np.zeros((max(n_trace, 1), T_OBS + trace_obs_len(maxm, int(rules[R_NSIDES]))), np.int64),
        tro=np.zeros((max(n_trace * 8, 1), 4), np.int64),
    )
