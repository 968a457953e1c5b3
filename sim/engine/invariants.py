"""The engine invariants (docs/rules.md section 6), checked after every action when S.st[S_CHECK] is
set: the fuzz tests play thousands of random games of every preset with them on. A broken invariant
stops the game with ERR_INVARIANT and its number (INV_*) in S_ERR_A."""

import numpy as np

from .cards import meld_rank_ok_nb, rank_of_nb, threes_plain_nb
from .jit import engine_jit
from .layout import (
    C_TOTAL,
    CHECK_IN_TURN,
    CHECK_SCORED,
    END_OUT,
    ERR_INVARIANT,
    F_HI,
    F_JOK,
    F_KIND,
    F_LO,
    F_NAT,
    F_RANK,
    F_TWO,
    HC_KNOWN,
    HC_N,
    HC_PACKET,
    HC_R,
    INV_CARDS,
    INV_EMPTY_HAND,
    INV_MELD_VALID,
    INV_ONE_MELD_PER_RANK,
    INV_PILE_FLAGS,
    INV_RED3,
    INV_SCORES,
    JOKER,
    MAXP,
    MIN_MELD,
    MK_BLACK3,
    MK_RANK,
    MK_SEQ,
    MK_WILD,
    NCK,
    NK,
    NR,
    R_DECKS,
    R_JOKERS,
    R_NSIDES,
    R_PACK,
    R_PLAYERS,
    RED3_D,
    RED3_H,
    RK_2,
    RK_3,
    RK_JK,
    S_BLOCK,
    S_CHK,
    S_CUR,
    S_ENDED,
    S_ERR,
    S_ERR_A,
    S_ERR_B,
    S_FROZEN,
    S_OUT_PLAYER,
    S_PILE_N,
    S_STOCK_N,
    SD_CAN,
    SD_COMP,
    SD_CUM,
    SD_CUM0,
    SD_MELDED,
    SD_MOR,
    SD_NCAN,
    SD_NM,
    SD_RED3,
)
from .link import separate
from .meldtable import black3_meld_ok_nb, canasta_kind_nb, meld_cap_nb, rank_meld_ok_nb, wild_melds_nb
from .seqtable import seq_card_nb, seq_row_ok_nb
from .table import foot_size_nb, packet_lo_nb, packets_nb

SUITS = 4


@engine_jit
def _fail_nb(S, which, where):
    """Record the first broken invariant and where it was checked."""
    if S.st[S_ERR] == 0:
        S.st[S_ERR] = ERR_INVARIANT
        S.st[S_ERR_A] = which
        S.st[S_ERR_B] = where


@engine_jit(inline="always")
def check_nb(R, S, where):
    """where: CHECK_IN_TURN, CHECK_BETWEEN_TURNS, or CHECK_SCORED (after the hand was scored). An int64,
    not the constant: numba would compile the checker once per constant (docs/engine.md, compile time)."""
    check_state_nb(R, S, np.int64(where))


@separate
@engine_jit
def check_state_nb(R, S, where):
    """check_nb's checks; `where` as check_nb says."""
    st = S.st
    n = R[R_PLAYERS]
    nsides = R[R_NSIDES]
    # 1. card conservation, per rank class: stock + pile + hands + melds + red-three areas = the pack
    cnt = st[S_CHK:S_CHK + NR]
    cnt[:] = 0
    total = st[S_STOCK_N] + st[S_PILE_N]
    for i in range(st[S_STOCK_N]):
        cnt[rank_of_nb(S.stock[i])] += 1
    for i in range(st[S_PILE_N]):
        cnt[rank_of_nb(S.pile[i])] += 1
    for p in range(MAXP):
        hs = 0
        for k in range(NK):
            c = S.hand[p, k]
            if c < 0:
                _fail_nb(S, np.int64(INV_CARDS), where)
            cnt[rank_of_nb(k)] += c
            hs += c
        if hs != S.hand[p, HC_N]:
            _fail_nb(S, np.int64(INV_CARDS), where)
        for r in range(NR):
            h = 0
            if r == RK_JK:
                h = S.hand[p, JOKER]
            else:
                for suit in range(SUITS):
                    h += S.hand[p, r * SUITS + suit]
            if h != S.hand[p, HC_R + r]:
                _fail_nb(S, np.int64(INV_CARDS), where)
            # the cards the table knows a seat holds (taken with the pile) are in its hand
            if S.hand[p, HC_KNOWN + r] < 0 or S.hand[p, HC_KNOWN + r] > h:
                _fail_nb(S, np.int64(INV_CARDS), where)
        total += S.hand[p, HC_N]
        if p < packets_nb(R) and S.hand[p, HC_PACKET] > 0:  # a foot, kitty or morto still face down (table.py)
            lo = packet_lo_nb(R, S, p)
            if S.hand[p, HC_PACKET] != foot_size_nb(R) or lo < st[S_STOCK_N]:
                _fail_nb(S, np.int64(INV_CARDS), where)
            for i in range(S.hand[p, HC_PACKET]):
                cnt[rank_of_nb(S.stock[lo + i])] += 1
            total += S.hand[p, HC_PACKET]
    for s in range(nsides):
        cnt[RK_3] += S.side[s, SD_RED3]
        total += S.side[s, SD_RED3]
        for m in range(S.side[s, SD_NM]):
            row = S.melds[s, m]
            if row[F_KIND] == MK_SEQ:
                for pos in range(row[F_LO], row[F_HI] + 1):
                    cnt[rank_of_nb(seq_card_nb(row, pos))] += 1
            else:
                cnt[row[F_RANK]] += row[F_NAT]
                cnt[RK_2] += row[F_TWO]
                cnt[RK_JK] += row[F_JOK]
            total += row[F_NAT] + row[F_TWO] + row[F_JOK]
    if total != R[R_PACK]:
        _fail_nb(S, np.int64(INV_CARDS), where)
    for r in range(NR):
        if r != RK_JK and cnt[r] != SUITS * R[R_DECKS]:
            _fail_nb(S, np.int64(INV_CARDS), where)
    if cnt[RK_JK] != R[R_JOKERS]:
        _fail_nb(S, np.int64(INV_CARDS), where)
    # 2. every meld valid, and the canasta counts by kind agree with the table;
    # 3. a rank meld is its side's open meld of the rank: one per rank while melds never close
    cap = meld_cap_nb(R)
    for s in range(nsides):
        kinds = st[S_CHK + NR:S_CHK + NR + NCK]
        kinds[:] = 0
        for m in range(S.side[s, SD_NM]):
            row = S.melds[s, m]
            w = row[F_TWO] + row[F_JOK]
            closed = cap > 0 and row[F_NAT] + w >= cap  # a closed meld leaves the open-meld index
            if row[F_KIND] == MK_RANK:
                if not rank_meld_ok_nb(R, row[F_RANK], row[F_NAT], w) or not meld_rank_ok_nb(R, row[F_RANK]):
                    _fail_nb(S, np.int64(INV_MELD_VALID), where)
                if (S.side[s, SD_MOR + row[F_RANK]] == m) == closed:
                    _fail_nb(S, np.int64(INV_ONE_MELD_PER_RANK), where)
            elif row[F_KIND] == MK_SEQ:
                if not seq_row_ok_nb(row):  # Buraco
                    _fail_nb(S, np.int64(INV_MELD_VALID), where)
            elif row[F_KIND] == MK_BLACK3:
                if w != 0 or not black3_meld_ok_nb(R, row[F_NAT]) or row[F_RANK] != RK_3:
                    _fail_nb(S, np.int64(INV_MELD_VALID), where)
            elif row[F_KIND] == MK_WILD:
                # Boat: three or more wilds, never a natural; the side's one wild meld
                if not wild_melds_nb(R) or row[F_NAT] != 0 or w < MIN_MELD or row[F_RANK] != RK_JK \
                        or (cap > 0 and w > cap):
                    _fail_nb(S, np.int64(INV_MELD_VALID), where)
                if (S.side[s, SD_MOR + RK_JK] == m) == closed:
                    _fail_nb(S, np.int64(INV_ONE_MELD_PER_RANK), where)
            else:
                _fail_nb(S, np.int64(INV_MELD_VALID), where)
            c = canasta_kind_nb(R, S, s, m)
            if c >= 0:
                kinds[c] += 1
        if where != CHECK_IN_TURN and S.side[s, SD_NM] > 0 and S.side[s, SD_MELDED] == 0:
            _fail_nb(S, np.int64(INV_MELD_VALID), where)  # melds short of the minimum never outlast the turn
        ncan = 0
        for c in range(NCK):
            ncan += kinds[c]
            if kinds[c] != S.side[s, SD_CAN + c]:
                _fail_nb(S, np.int64(INV_MELD_VALID), where)
        if ncan != S.side[s, SD_NCAN]:
            _fail_nb(S, np.int64(INV_MELD_VALID), where)
    # 4. an empty hand only for the player who went out
    if where != CHECK_IN_TURN:
        for p in range(n):
            if S.hand[p, HC_N] == 0 and not (st[S_ENDED] == END_OUT and st[S_OUT_PLAYER] == p):
                _fail_nb(S, np.int64(INV_EMPTY_HAND), where)
    # 5. pile flags: an empty pile is not frozen; block_next bars the player in turn or the next one
    if st[S_PILE_N] == 0 and st[S_FROZEN] != 0:
        _fail_nb(S, np.int64(INV_PILE_FLAGS), where)
    b = st[S_BLOCK]
    if b >= 0 and b != st[S_CUR] and b != (st[S_CUR] + 1) % n:
        _fail_nb(S, np.int64(INV_PILE_FLAGS), where)
    # 6. red threes never in a hand (nor in a meld: rank melds of threes are rejected above)
    for p in range(n):
        if (S.hand[p, RED3_H] != 0 or S.hand[p, RED3_D] != 0) and not threes_plain_nb(R):
            _fail_nb(S, np.int64(INV_RED3), where)
    # 7. components add up; cumulative scores move only at the end of a hand
    for s in range(nsides):
        if where == CHECK_SCORED:
            t = 0
            for c in range(C_TOTAL):
                t += S.side[s, SD_COMP + c]
            if t != S.side[s, SD_COMP + C_TOTAL] or S.side[s, SD_CUM] != S.side[s, SD_CUM0] + t:
                _fail_nb(S, np.int64(INV_SCORES), where)
        elif S.side[s, SD_CUM] != S.side[s, SD_CUM0]:
            _fail_nb(S, np.int64(INV_SCORES), where)
