"""The engine invariants (docs/rules.md section 6), checked after every action when S.st[S_CHECK] is
set: the fuzz tests play thousands of random games of every preset with them on. A broken invariant
stops the game with ERR_INVARIANT and its number (INV_*) in S_ERR_A."""

import numpy as np

from . import layout as L
from .cards import meld_rank_ok_nb, rank_of_nb, threes_plain_nb
from .jit import engine_jit
from .link import separate
from .meldtable import black3_meld_ok_nb, canasta_kind_nb, meld_cap_nb, rank_meld_ok_nb, wild_melds_nb
from .seqtable import seq_card_nb, seq_row_ok_nb
from .table import foot_size_nb, packet_lo_nb, packets_nb

SUITS = 4


@engine_jit
def _fail_nb(S, which, where):
    """Record the first broken invariant and where it was checked."""
    if S.st[L.S_ERR] == 0:
        S.st[L.S_ERR] = L.ERR_INVARIANT
        S.st[L.S_ERR_A] = which
        S.st[L.S_ERR_B] = where


@engine_jit(inline="always")
def check_nb(R, S, where):
    """The invariants, where the run checks them (S.st[S_CHECK]). where: CHECK_IN_TURN, CHECK_BETWEEN_TURNS, or
    CHECK_SCORED (after the hand was scored). An int64, not the constant: numba would compile the checker once
    per constant (docs/engine.md, compile time)."""
    if S.st[L.S_CHECK] != 0:
        check_state_nb(R, S, np.int64(where))


@engine_jit(inline="always")
def count_hand_nb(R, S, p, cnt, where):
    """Invariant 1 for seat p: its counts by kind, by rank class and in all agree, the cards the table knows
    it holds are among them, and a packet still face down (a foot, kitty or morto, table.py) has its size
    and place. Adds the seat's cards, packet included, to cnt by rank class and returns how many. A step
    of check_cards_nb, inlined (small: docs/engine.md)."""
    st = S.st
    hs = 0
    for k in range(L.NK):
        c = S.hand[p, k]
        if c < 0:
            _fail_nb(S, np.int64(L.INV_CARDS), where)
        cnt[rank_of_nb(k)] += c
        hs += c
    if hs != S.hand[p, L.HC_N]:
        _fail_nb(S, np.int64(L.INV_CARDS), where)
    for r in range(L.NR):
        h = 0
        if r == L.RK_JK:
            h = S.hand[p, L.JOKER]
        else:
            for suit in range(SUITS):
                h += S.hand[p, r * SUITS + suit]
        if h != S.hand[p, L.HC_R + r]:
            _fail_nb(S, np.int64(L.INV_CARDS), where)
        # the cards the table knows a seat holds (taken with the pile) are in its hand
        if S.hand[p, L.HC_KNOWN + r] < 0 or S.hand[p, L.HC_KNOWN + r] > h:
            _fail_nb(S, np.int64(L.INV_CARDS), where)
    total = S.hand[p, L.HC_N]
    if p < packets_nb(R) and S.hand[p, L.HC_PACKET] > 0:  # a foot, kitty or morto still face down (table.py)
        lo = packet_lo_nb(R, S, p)
        if S.hand[p, L.HC_PACKET] != foot_size_nb(R) or lo < st[L.S_STOCK_N]:
            _fail_nb(S, np.int64(L.INV_CARDS), where)
        for i in range(S.hand[p, L.HC_PACKET]):
            cnt[rank_of_nb(S.stock[lo + i])] += 1
        total += S.hand[p, L.HC_PACKET]
    return total


@engine_jit(inline="always")
def count_table_nb(R, S, cnt):
    """The cards on the table, by rank class into cnt: the red threes laid out and every meld row (a
    sequence by its very cards, Buraco). Returns how many. A step of check_cards_nb, inlined (small:
    docs/engine.md)."""
    total = 0
    for s in range(R[L.R_NSIDES]):
        cnt[L.RK_3] += S.side[s, L.SD_RED3]
        total += S.side[s, L.SD_RED3]
        for m in range(S.side[s, L.SD_NM]):
            row = S.melds[s, m]
            if row[L.F_KIND] == L.MK_SEQ:
                for pos in range(row[L.F_LO], row[L.F_HI] + 1):
                    cnt[rank_of_nb(seq_card_nb(row, pos))] += 1
            else:
                cnt[row[L.F_RANK]] += row[L.F_NAT]
                cnt[L.RK_2] += row[L.F_TWO]
                cnt[L.RK_JK] += row[L.F_JOK]
            total += row[L.F_NAT] + row[L.F_TWO] + row[L.F_JOK]
    return total


@engine_jit
def check_cards_nb(R, S, where):
    """Invariant 1, card conservation per rank class: stock + pile + hands + melds + red-three areas = the
    pack. Counted in the state's own scratch (S_CHK): kernels allocate nothing. Apart from check_state_nb
    so that each invariant reads as one step; called at its one place, not inlined (docs/engine.md)."""
    st = S.st
    cnt = st[L.S_CHK:L.S_CHK + L.NR]
    cnt[:] = 0
    total = st[L.S_STOCK_N] + st[L.S_PILE_N]
    for i in range(st[L.S_STOCK_N]):
        cnt[rank_of_nb(S.stock[i])] += 1
    for i in range(st[L.S_PILE_N]):
        cnt[rank_of_nb(S.pile[i])] += 1
    for p in range(L.MAXP):
        total += count_hand_nb(R, S, p, cnt, where)
    total += count_table_nb(R, S, cnt)
    if total != R[L.R_PACK]:
        _fail_nb(S, np.int64(L.INV_CARDS), where)
    for r in range(L.NR):
        if r != L.RK_JK and cnt[r] != SUITS * R[L.R_DECKS]:
            _fail_nb(S, np.int64(L.INV_CARDS), where)
    if cnt[L.RK_JK] != R[L.R_JOKERS]:
        _fail_nb(S, np.int64(L.INV_CARDS), where)


@engine_jit(inline="always")
def check_row_nb(R, S, s, m, cap, where):
    """Invariants 2 and 3 for meld row m of side s: valid for its kind, and a rank meld (or the wild meld)
    is its side's open meld of the rank exactly while it is open (R-16; R-92: a closed meld leaves the
    index). A step of check_melds_nb, inlined (small: docs/engine.md)."""
    row = S.melds[s, m]
    w = row[L.F_TWO] + row[L.F_JOK]
    closed = cap > 0 and row[L.F_NAT] + w >= cap  # a closed meld leaves the open-meld index
    if row[L.F_KIND] == L.MK_RANK:
        if not rank_meld_ok_nb(R, row[L.F_RANK], row[L.F_NAT], w) or not meld_rank_ok_nb(R, row[L.F_RANK]):
            _fail_nb(S, np.int64(L.INV_MELD_VALID), where)
        if (S.side[s, L.SD_MOR + row[L.F_RANK]] == m) == closed:
            _fail_nb(S, np.int64(L.INV_ONE_MELD_PER_RANK), where)
    elif row[L.F_KIND] == L.MK_SEQ:
        if not seq_row_ok_nb(row):  # Buraco
            _fail_nb(S, np.int64(L.INV_MELD_VALID), where)
    elif row[L.F_KIND] == L.MK_BLACK3:
        if w != 0 or not black3_meld_ok_nb(R, row[L.F_NAT]) or row[L.F_RANK] != L.RK_3:
            _fail_nb(S, np.int64(L.INV_MELD_VALID), where)
    elif row[L.F_KIND] == L.MK_WILD:
        # Boat: three or more wilds, never a natural; the side's one wild meld
        if not wild_melds_nb(R) or row[L.F_NAT] != 0 or w < L.MIN_MELD or row[L.F_RANK] != L.RK_JK \
                or (cap > 0 and w > cap):
            _fail_nb(S, np.int64(L.INV_MELD_VALID), where)
        if (S.side[s, L.SD_MOR + L.RK_JK] == m) == closed:
            _fail_nb(S, np.int64(L.INV_ONE_MELD_PER_RANK), where)
    else:
        _fail_nb(S, np.int64(L.INV_MELD_VALID), where)


@engine_jit
def check_melds_nb(R, S, where):
    """Invariants 2 and 3 for every side: each meld row as check_row_nb says, melds short of the minimum
    gone by the end of the turn, and the canasta counts by kind and in all as the table keeps them. Apart
    from check_state_nb so that each invariant reads as one step; called at its one place, not inlined
    (docs/engine.md)."""
    st = S.st
    cap = meld_cap_nb(R)
    for s in range(R[L.R_NSIDES]):
        kinds = st[L.S_CHK + L.NR:L.S_CHK + L.NR + L.NCK]
        kinds[:] = 0
        for m in range(S.side[s, L.SD_NM]):
            check_row_nb(R, S, s, m, cap, where)
            c = canasta_kind_nb(R, S, s, m)
            if c >= 0:
                kinds[c] += 1
        if where != L.CHECK_IN_TURN and S.side[s, L.SD_NM] > 0 and S.side[s, L.SD_MELDED] == 0:
            _fail_nb(S, np.int64(L.INV_MELD_VALID), where)  # melds short of the minimum never outlast the turn
        ncan = 0
        for c in range(L.NCK):
            ncan += kinds[c]
            if kinds[c] != S.side[s, L.SD_CAN + c]:
                _fail_nb(S, np.int64(L.INV_MELD_VALID), where)
        if ncan != S.side[s, L.SD_NCAN]:
            _fail_nb(S, np.int64(L.INV_MELD_VALID), where)


@engine_jit
def check_seats_nb(R, S, where):
    """Invariants 4 to 6: an empty hand only for the player who went out; an empty pile is not frozen and
    block_next bars the player in turn or the next one; red threes never in a hand (nor in a meld: rank
    melds of threes fail check_row_nb) but where threes are plain cards. Apart from check_state_nb so that
    each invariant reads as one step; called at its one place, not inlined (docs/engine.md)."""
    st = S.st
    n = R[L.R_PLAYERS]
    # 4. an empty hand only for the player who went out
    if where != L.CHECK_IN_TURN:
        for p in range(n):
            if S.hand[p, L.HC_N] == 0 and not (st[L.S_ENDED] == L.END_OUT and st[L.S_OUT_PLAYER] == p):
                _fail_nb(S, np.int64(L.INV_EMPTY_HAND), where)
    # 5. pile flags: an empty pile is not frozen; block_next bars the player in turn or the next one
    if st[L.S_PILE_N] == 0 and st[L.S_FROZEN] != 0:
        _fail_nb(S, np.int64(L.INV_PILE_FLAGS), where)
    b = st[L.S_BLOCK]
    if b >= 0 and b != st[L.S_CUR] and b != (st[L.S_CUR] + 1) % n:
        _fail_nb(S, np.int64(L.INV_PILE_FLAGS), where)
    # 6. red threes never in a hand
    for p in range(n):
        if (S.hand[p, L.RED3_H] != 0 or S.hand[p, L.RED3_D] != 0) and not threes_plain_nb(R):
            _fail_nb(S, np.int64(L.INV_RED3), where)


@engine_jit
def check_scores_nb(R, S, where):
    """Invariant 7: the score components add up to their total, and cumulative scores move only when the
    hand is scored. Apart from check_state_nb so that each invariant reads as one step; called at its one
    place, not inlined (docs/engine.md)."""
    for s in range(R[L.R_NSIDES]):
        if where == L.CHECK_SCORED:
            t = 0
            for c in range(L.C_TOTAL):
                t += S.side[s, L.SD_COMP + c]
            if t != S.side[s, L.SD_COMP + L.C_TOTAL] or S.side[s, L.SD_CUM] != S.side[s, L.SD_CUM0] + t:
                _fail_nb(S, np.int64(L.INV_SCORES), where)
        elif S.side[s, L.SD_CUM] != S.side[s, L.SD_CUM0]:
            _fail_nb(S, np.int64(L.INV_SCORES), where)


@separate
@engine_jit
def check_state_nb(R, S, where):
    """check_nb's checks; `where` as check_nb says. One step per group of invariants, in the order
    of docs/rules.md section 6, each a plain call; compiled once (link.separate)."""
    check_cards_nb(R, S, where)  # 1
    check_melds_nb(R, S, where)  # 2, 3
    check_seats_nb(R, S, where)  # 4, 5, 6
    check_scores_nb(R, S, where)  # 7
