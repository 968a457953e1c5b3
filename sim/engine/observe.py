"""The observation: what one seat sees at the table when it decides (§6, docs/strategies.md).

A strategy is handed this array, never the state, so it cannot read another hand or the stock. The
array is rebuilt from the state at every decision (tests/engine/test_observe.py proves that hidden
cards do not reach it). Layout: the named blocks of contract.OB_*. It holds everything a seat with a
perfect memory knows, so a full state can be rebuilt from it with only the hidden cards guessed
(sample.py): the cards seen going into each hand with the pile, who has laid cards this hand, and
what the player in turn has done this turn."""

import numpy as np

from . import layout as L
from .cards import side_of_nb
from .jit import engine_jit
from .layout import ob_known
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
    nsides = R[L.R_NSIDES]
    maxm = R[L.R_MAXM]
    o[L.OB_DP] = dp
    o[L.OB_SEAT] = p
    o[L.OB_SIDE] = s
    o[L.OB_PLAYERS] = R[L.R_PLAYERS]
    o[L.OB_NSIDES] = nsides
    o[L.OB_N] = n
    o[L.OB_TURN] = st[L.S_TURN]
    o[L.OB_HANDNO] = st[L.S_HANDNO]
    o[L.OB_STOCK_N] = st[L.S_STOCK_N]
    pn = st[L.S_PILE_N]
    o[L.OB_PILE_N] = pn
    o[L.OB_PILE_TOP] = S.pile[pn - 1] if pn > 0 else -1
    o[L.OB_FROZEN] = st[L.S_FROZEN]
    o[L.OB_BLOCKED] = 1 if st[L.S_BLOCK] == p else 0
    o[L.OB_ANSWER] = st[L.S_ANSWER]
    o[L.OB_ASKER] = st[L.S_ASKER]
    o[L.OB_PEND] = st[L.S_PEND]
    o[L.OB_PRE] = st[L.S_PRE]
    o[L.OB_TOOK] = st[L.S_TOOK]
    o[L.OB_LAID] = st[L.S_LAID0]
    o[L.OB_RAND] = next_u32_nb(st, np.int64(L.S_RNG))
    o[L.OB_REQ] = S.side[s, L.SD_REQ]
    o[L.OB_MELDED] = S.side[s, L.SD_MELDED]
    o[L.OB_HN] = S.hand[p, L.HC_N]
    o[L.OB_DEALER] = st[L.S_DEALER]
    o[L.OB_MAXM] = maxm
    ban = st[L.S_TOP_BAN]  # the player in turn's own restriction, while it holds that card
    o[L.OB_TOP_TAKEN] = ban if st[L.S_CUR] == p and ban >= 0 and S.hand[p, ban] > 0 else -1
    o[L.OB_LAID_NOW] = st[L.S_LAIDT]
    o[L.OB_ADDED_OLD] = st[L.S_ADDED_OLD]
    o[L.OB_LAST_RED3] = st[L.S_LASTR3]
    o[L.OB_FOOT_DUE] = st[L.S_FOOT_DUE]
    kb = ob_known(o)
    for q in range(L.MAXP):
        o[L.OB_HANDS + q] = S.hand[q, L.HC_N]
        o[L.OB_FEET + q] = S.hand[q, L.HC_PACKET]
        o[L.OB_PACKETS_TAKEN + q] = 1 if (q < packets_nb(R) and foot_size_nb(R) > 0
                                          and S.hand[q, L.HC_PACKET] == 0) else 0
        o[L.OB_SEAT_TURNS + q] = S.hand[q, L.HC_TURNS]
    for q in range(R[L.R_PLAYERS]):  # the slots of absent seats keep the 0 they were made with
        o[L.OB_SEAT_LAID + q] = S.hand[q, L.HC_LAID]
        o[L.OB_INDIRECT + q] = S.hand[q, L.HC_INDIRECT]
        for r in range(L.NR):
            o[kb + q * L.NR + r] = S.hand[q, L.HC_KNOWN + r]
    for k in range(L.NK):
        o[L.OB_HAND + k] = S.hand[p, k]
        o[L.OB_PILEK + k] = 0
    for r in range(L.NR):
        o[L.OB_HR + r] = S.hand[p, L.HC_R + r]
    for j in range(pn):
        o[L.OB_PILEK + S.pile[j]] += 1
    for t in range(L.MAXS):
        if t >= nsides:
            o[L.OB_NM + t] = 0
            continue
        o[L.OB_SCORE + t] = S.side[t, L.SD_CUM]
        o[L.OB_SMELDED + t] = S.side[t, L.SD_MELDED]
        o[L.OB_SREQ + t] = S.side[t, L.SD_REQ]
        o[L.OB_RED3 + t] = S.side[t, L.SD_RED3]
        o[L.OB_CANASTAS + t] = S.side[t, L.SD_NCAN]
        for c in range(L.NCK):
            o[L.OB_CANK + t * L.NCK + c] = S.side[t, L.SD_CAN + c]
        nm = S.side[t, L.SD_NM]
        o[L.OB_NM + t] = nm
        for r in range(L.NR):
            o[L.OB_MOR + t * L.NR + r] = S.side[t, L.SD_MOR + r]
        base = L.OB_MELDS + t * maxm * L.NMF
        for m in range(nm):
            for f in range(L.NMF):
                o[base + m * L.NMF + f] = S.melds[t, m, f]
