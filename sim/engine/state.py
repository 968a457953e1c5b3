"""The game state: a NamedTuple of fixed-size NumPy arrays (jitclass cannot be cached)."""

from typing import NamedTuple

import numpy as np

from .layout import (
    EVF,
    HF,
    MAXOPT,
    MAXP,
    MAXS,
    NC,
    NK,
    NMF,
    NPRM,
    NR,
    R_MAX_HANDS,
    R_MAXM,
    R_NSIDES,
    R_PACK,
    S_NST,
    T_OBS,
    obs_len,
    trace_obs_len,
)


class State(NamedTuple):
    st: np.ndarray  # int64[S_NST] scalars, see layout.S_*
    hand: np.ndarray  # int64[MAXP, NK] cards held, by kind
    hr: np.ndarray  # int64[MAXP, NR] cards held, by rank class
    hn: np.ndarray  # int64[MAXP] hand sizes
    stock: np.ndarray  # int64[pack] top is stock[st[S_STOCK_N] - 1]
    pile: np.ndarray  # int64[pack] bottom first
    melds: np.ndarray  # int64[MAXS, maxm, NMF]
    nm: np.ndarray  # int64[MAXS] meld rows used
    mor: np.ndarray  # int64[MAXS, NR] row of the side's open meld of a rank, -1 none
    red3: np.ndarray  # int64[MAXS] red threes laid out
    melded: np.ndarray  # int64[MAXS] the side has made its initial meld this hand
    laid: np.ndarray  # int64[MAXP] the seat laid something on the table this hand (red threes aside)
    req: np.ndarray  # int64[MAXS] initial-meld requirement this hand
    cum: np.ndarray  # int64[MAXS] cumulative scores
    cum0: np.ndarray  # int64[MAXS] cumulative scores at the start of the hand (invariant 7)
    comp: np.ndarray  # int64[MAXS, NC] score components of the last hand
    opts: np.ndarray  # int64[MAXOPT, 4] legal options at the current decision point
    sids: np.ndarray  # int64[MAXP] strategy id per seat
    prm: np.ndarray  # float64[MAXP, NPRM] knobs per seat
    snap_hand: np.ndarray  # int64[NK] rollback of a pending initial meld
    snap_melds: np.ndarray  # int64[maxm, NMF]
    snap_mor: np.ndarray  # int64[NR]
    ev: np.ndarray  # int64[nev, EVF] transcript events (only when logging)
    evc: np.ndarray  # int64[nevc] cards of the events
    hrec: np.ndarray  # int64[max_hands, HF] per-hand records of the current game
    work: np.ndarray  # int64[128] scratch for the go-out search
    obs: np.ndarray  # int64[obs_len] the deciding seat's observation, rebuilt at every decision
    uopts: np.ndarray  # int64[MAXOPT, 4] copy of the options handed to a user function
    ru: np.ndarray  # int64[R_LEN] copy of the rules handed to a user function
    tr: np.ndarray  # int64[ntrace, T_OBS + obs_len] decision trace rows (only when tracing)
    tro: np.ndarray  # int64[ntrace * 8, 4] the options of the traced decisions


def new_state(rules: np.ndarray, n_events: int = 0, n_trace: int = 0) -> State:
    """Allocate a state sized for one variant; reused across every game a worker plays."""
    pack = int(rules[R_PACK])
    maxm = int(rules[R_MAXM])
    return State(
        st=np.zeros(S_NST, np.int64),
        hand=np.zeros((MAXP, NK), np.int64),
        hr=np.zeros((MAXP, NR), np.int64),
        hn=np.zeros(MAXP, np.int64),
        stock=np.zeros(pack, np.int64),
        pile=np.zeros(pack, np.int64),
        melds=np.zeros((MAXS, maxm, NMF), np.int64),
        nm=np.zeros(MAXS, np.int64),
        mor=np.full((MAXS, NR), -1, np.int64),
        red3=np.zeros(MAXS, np.int64),
        melded=np.zeros(MAXS, np.int64),
        laid=np.zeros(MAXP, np.int64),
        req=np.zeros(MAXS, np.int64),
        cum=np.zeros(MAXS, np.int64),
        cum0=np.zeros(MAXS, np.int64),
        comp=np.zeros((MAXS, NC), np.int64),
        opts=np.zeros((MAXOPT, 4), np.int64),
        sids=np.zeros(MAXP, np.int64),
        prm=np.zeros((MAXP, NPRM), np.float64),
        snap_hand=np.zeros(NK, np.int64),
        snap_melds=np.zeros((maxm, NMF), np.int64),
        snap_mor=np.zeros(NR, np.int64),
        ev=np.zeros((max(n_events, 1), EVF), np.int64),
        evc=np.zeros(max(n_events * 4, 1), np.int64),
        hrec=np.zeros((int(rules[R_MAX_HANDS]) + 1, HF), np.int64),
        work=np.zeros(128, np.int64),
        obs=np.zeros(obs_len(maxm), np.int64),
        uopts=np.zeros((MAXOPT, 4), np.int64),
        ru=rules.copy(),
        tr=np.zeros((max(n_trace, 1), T_OBS + trace_obs_len(maxm, int(rules[R_NSIDES]))), np.int64),
        tro=np.zeros((max(n_trace * 8, 1), 4), np.int64),
    )
