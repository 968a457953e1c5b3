"""The observation: what one seat sees at the table when it decides (§6, docs/strategies.md).

A strategy is handed this array, never the state, so it cannot read another hand or the stock. The
array is rebuilt from the state at every decision (tests/engine/test_observe.py proves that hidden
cards do not reach it). Layout: the named blocks of contract.OB_*. It holds everything a seat with a
perfect memory knows, so a full state can be rebuilt from it with only the hidden cards guessed
(sample.py): the cards seen going into each hand with the pile, who has laid cards this hand, and
what the player in turn has done this turn."""

import numpy as np

from .cards import side_of_nb
from .jit import engine_jit
from .layout import (
    HC_INDIRECT,
    HC_KNOWN,
    HC_LAID,
    HC_N,
    HC_PACKET,
    HC_R,
    HC_TURNS,
    MAXP,
    MAXS,
    NCK,
    NK,
    NMF,
    NR,
    OB_ADDED_OLD,
    OB_ANSWER,
    OB_ASKER,
    OB_BLOCKED,
    OB_CANASTAS,
    OB_CANK,
    OB_DEALER,
    OB_DP,
    OB_FEET,
    OB_FOOT_DUE,
    OB_FROZEN,
    OB_HAND,
    OB_HANDNO,
    OB_HANDS,
    OB_HN,
    OB_HR,
    OB_INDIRECT,
    OB_LAID,
    OB_LAID_NOW,
    OB_LAST_RED3,
    OB_MAXM,
    OB_MELDED,
    OB_MELDS,
    OB_MOR,
    OB_N,
    OB_NM,
    OB_NSIDES,
    OB_PACKETS_TAKEN,
    OB_PEND,
    OB_PILE_N,
    OB_PILE_TOP,
    OB_PILEK,
    OB_PLAYERS,
    OB_PRE,
    OB_RAND,
    OB_RED3,
    OB_REQ,
    OB_SCORE,
    OB_SEAT,
    OB_SEAT_LAID,
    OB_SEAT_TURNS,
    OB_SIDE,
    OB_SMELDED,
    OB_SREQ,
    OB_STOCK_N,
    OB_TOOK,
    OB_TOP_TAKEN,
    OB_TURN,
    R_MAXM,
    R_NSIDES,
    R_PLAYERS,
    S_ADDED_OLD,
    S_ANSWER,
    S_ASKER,
    S_BLOCK,
    S_CUR,
    S_DEALER,
    S_FOOT_DUE,
    S_FROZEN,
    S_HANDNO,
    S_LAID0,
    S_LAIDT,
    S_LASTR3,
    S_PEND,
    S_PILE_N,
    S_PRE,
    S_RNG,
    S_STOCK_N,
    S_TOOK,
    S_TOP_BAN,
    S_TURN,
    SD_CAN,
    SD_CUM,
    SD_MELDED,
    SD_MOR,
    SD_NCAN,
    SD_NM,
    SD_RED3,
    SD_REQ,
    ob_known,
)
from .rng import next_u32_nb
from .state import table_nb
from .table import foot_size_nb, packets_nb


@engine_jit(inline="always")
def observe_nb(R, S, p, dp, n):
    """Fill S.obs for seat p at decision point dp with n legal options. The work is called, not
    inlined (it is large, every decision site would hold a copy), with the five arrays it reads and
    int64 values (a constant would compile a copy per value)."""
    observe_table_nb(R, table_nb(S), S.obs, np.int64(p), np.int64(dp), np.int64(n))


@engine_jit
def observe_table_nb(R, S, o, p, dp, n):
    """observe_nb's work: S is a state.Table, o the observation array to fill."""
    st = S.st
    s = side_of_nb(R, p)
    nsides = R[R_NSIDES]
    maxm = R[R_MAXM]
    o[OB_DP] = dp
    o[OB_SEAT] = p
    o[OB_SIDE] = s
    o[OB_PLAYERS] = R[R_PLAYERS]
    o[OB_NSIDES] = nsides
    o[OB_N] = n
    o[OB_TURN] = st[S_TURN]
    o[OB_HANDNO] = st[S_HANDNO]
    o[OB_STOCK_N] = st[S_STOCK_N]
    pn = st[S_PILE_N]
    o[OB_PILE_N] = pn
    o[OB_PILE_TOP] = S.pile[pn - 1] if pn > 0 else -1
    o[OB_FROZEN] = st[S_FROZEN]
    o[OB_BLOCKED] = 1 if st[S_BLOCK] == p else 0
    o[OB_ANSWER] = st[S_ANSWER]
    o[OB_ASKER] = st[S_ASKER]
    o[OB_PEND] = st[S_PEND]
    o[OB_PRE] = st[S_PRE]
    o[OB_TOOK] = st[S_TOOK]
    o[OB_LAID] = st[S_LAID0]
    o[OB_RAND] = next_u32_nb(st, np.int64(S_RNG))
    o[OB_REQ] = S.side[s, SD_REQ]
    o[OB_MELDED] = S.side[s, SD_MELDED]
    o[OB_HN] = S.hand[p, HC_N]
    o[OB_DEALER] = st[S_DEALER]
    o[OB_MAXM] = maxm
    ban = st[S_TOP_BAN]  # the player in turn's own restriction, while it holds that card
    o[OB_TOP_TAKEN] = ban if st[S_CUR] == p and ban >= 0 and S.hand[p, ban] > 0 else -1
    o[OB_LAID_NOW] = st[S_LAIDT]
    o[OB_ADDED_OLD] = st[S_ADDED_OLD]
    o[OB_LAST_RED3] = st[S_LASTR3]
    o[OB_FOOT_DUE] = st[S_FOOT_DUE]
    kb = ob_known(o)
    for q in range(MAXP):
        o[OB_HANDS + q] = S.hand[q, HC_N]
        o[OB_FEET + q] = S.hand[q, HC_PACKET]
        o[OB_PACKETS_TAKEN + q] = 1 if q < packets_nb(R) and foot_size_nb(R) > 0 and S.hand[q, HC_PACKET] == 0 else 0
        o[OB_SEAT_TURNS + q] = S.hand[q, HC_TURNS]
    for q in range(R[R_PLAYERS]):  # the slots of absent seats keep the 0 they were made with
        o[OB_SEAT_LAID + q] = S.hand[q, HC_LAID]
        o[OB_INDIRECT + q] = S.hand[q, HC_INDIRECT]
        for r in range(NR):
            o[kb + q * NR + r] = S.hand[q, HC_KNOWN + r]
    for k in range(NK):
        o[OB_HAND + k] = S.hand[p, k]
        o[OB_PILEK + k] = 0
    for r in range(NR):
        o[OB_HR + r] = S.hand[p, HC_R + r]
    for j in range(pn):
        o[OB_PILEK + S.pile[j]] += 1
    for t in range(MAXS):
        if t >= nsides:
            o[OB_NM + t] = 0
            continue
        o[OB_SCORE + t] = S.side[t, SD_CUM]
        o[OB_SMELDED + t] = S.side[t, SD_MELDED]
        o[OB_SREQ + t] = S.side[t, SD_REQ]
        o[OB_RED3 + t] = S.side[t, SD_RED3]
        o[OB_CANASTAS + t] = S.side[t, SD_NCAN]
        for c in range(NCK):
            o[OB_CANK + t * NCK + c] = S.side[t, SD_CAN + c]
        nm = S.side[t, SD_NM]
        o[OB_NM + t] = nm
        for r in range(NR):
            o[OB_MOR + t * NR + r] = S.side[t, SD_MOR + r]
        base = OB_MELDS + t * maxm * NMF
        for m in range(nm):
            for f in range(NMF):
                o[base + m * NMF + f] = S.melds[t, m, f]
