"""Elementary state operations: hands, stock, pile, melds, the event log, requirements, canastas."""

from .cards import rank_of_nb
from .jit import engine_jit
from .layout import (
    ERR_LOG_FULL,
    EV_RED3,
    F_JOK,
    F_KIND,
    F_NAT,
    F_PLAYER,
    F_RANK,
    F_TURN,
    F_TWO,
    F_VAL,
    HC_N,
    HC_R,
    JOKER,
    MK_RANK,
    MK_WILD,
    NMF,
    R_CARDVAL,
    R_MTAB_N,
    R_MTAB_REQ,
    R_MTAB_THR,
    S_ERR,
    S_EV_N,
    S_EVC_N,
    S_LOG,
    S_STOCK_N,
    S_TURN,
    SD_MOR,
    SD_NM,
    SD_RED3,
)

# Event log ------------------------------------------------------------------------------------


@engine_jit(inline="always")
def log_nb(S, t, p, a, b, c, d):
    """Append an event; returns its row (or -1 when not logging). Inlined so that the common case,
    logging off, costs one load and a branch."""
    if S.st[S_LOG] == 0:
        return -1
    return log_write_nb(S, t, p, a, b, c, d)


@engine_jit
def log_write_nb(S, t, p, a, b, c, d):
    st = S.st
    if st[S_ERR] != 0:
        return -1
    i = st[S_EV_N]
    if i >= S.ev.shape[0]:
        st[S_ERR] = ERR_LOG_FULL
        return -1
    e = S.ev[i]
    e[0] = t
    e[1] = p
    e[2] = a
    e[3] = b
    e[4] = c
    e[5] = st[S_EVC_N]
    e[6] = 0
    e[7] = d
    st[S_EV_N] = i + 1
    return i


@engine_jit(inline="always")
def logc_nb(S, ei, k):
    """Append a card to event row ei (cards of one event are contiguous)."""
    if ei >= 0:
        logc_write_nb(S, ei, k)


@engine_jit
def logc_write_nb(S, ei, k):
    st = S.st
    if st[S_ERR] != 0:
        return
    j = st[S_EVC_N]
    if j >= S.evc.shape[0]:
        st[S_ERR] = ERR_LOG_FULL
        return
    S.evc[j] = k
    st[S_EVC_N] = j + 1
    S.ev[ei, 6] += 1


# Hands ----------------------------------------------------------------------------------------


@engine_jit(inline="always")
def hadd_nb(S, p, k):
    S.hand[p, k] += 1
    S.hand[p, HC_R + rank_of_nb(k)] += 1
    S.hand[p, HC_N] += 1


@engine_jit(inline="always")
def hdel_nb(S, p, k):
    S.hand[p, k] -= 1
    S.hand[p, HC_R + rank_of_nb(k)] -= 1
    S.hand[p, HC_N] -= 1


@engine_jit(inline="always")
def htake_rank_nb(S, p, r):
    """Remove one card of rank class r from the hand (suits in S H D C order) and return its kind."""
    if r == 13:
        k = JOKER
    else:
        k = r * 4
        for s in range(4):
            if S.hand[p, r * 4 + s] > 0:
                k = r * 4 + s
                break
    hdel_nb(S, p, k)
    return k


@engine_jit(inline="always")
def hand_value_nb(R, S, p):
    v = 0
    for r in range(14):
        v += S.hand[p, HC_R + r] * R[R_CARDVAL + r]
    return v


@engine_jit(inline="always")
def pop_stock_nb(S):
    n = S.st[S_STOCK_N] - 1
    S.st[S_STOCK_N] = n
    return S.stock[n]


# Melds ----------------------------------------------------------------------------------------


@engine_jit(inline="always")
def msize_nb(S, s, m):
    row = S.melds[s, m]
    return row[F_NAT] + row[F_TWO] + row[F_JOK]


@engine_jit
def meld_new_nb(S, p, s, kind, rank):
    m = S.side[s, SD_NM]
    S.side[s, SD_NM] = m + 1
    row = S.melds[s, m]
    for f in range(NMF):
        row[f] = 0
    row[F_KIND] = kind
    row[F_RANK] = rank
    row[F_TURN] = S.st[S_TURN]
    row[F_PLAYER] = p
    if kind == MK_RANK or kind == MK_WILD:
        S.side[s, SD_MOR + rank] = m
    return m


@engine_jit(inline="always")
def meld_put_nb(R, S, s, m, k):
    """Put card k (already out of any hand or pile) into meld m of side s."""
    r = rank_of_nb(k)
    row = S.melds[s, m]
    if r == 1:
        row[F_TWO] += 1
    elif r == 13:
        row[F_JOK] += 1
    else:
        row[F_NAT] += 1
    row[F_VAL] += R[R_CARDVAL + r]


@engine_jit(inline="always")
def canastas_nb(S, s):
    c = 0
    for m in range(S.side[s, SD_NM]):
        if S.melds[s, m, F_KIND] != 3 and msize_nb(S, s, m) >= 7:
            c += 1
    return c


# Rules lookups --------------------------------------------------------------------------------


@engine_jit
def requirement_nb(R, score):
    """Initial-meld minimum for a side whose cumulative score at the start of the hand is `score`."""
    req = R[R_MTAB_REQ]
    for i in range(R[R_MTAB_N]):
        if score >= R[R_MTAB_THR + i]:
            req = R[R_MTAB_REQ + i]
    return req


@engine_jit
def lay_red3_nb(S, p, k, s):
    """A red three reaching the table (from the deal, a draw, or the pile)."""
    S.side[s, SD_RED3] += 1
    return log_nb(S, EV_RED3, p, k, -1, 0, 0)
