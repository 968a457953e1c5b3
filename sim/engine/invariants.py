"""VARIANTS.md §5.8 engine invariants, checked after every action when S.st[S_CHECK] is set."""

from .jit import engine_jit
from .layout import (
    END_OUT,
    ERR_INVARIANT,
    F_JOK,
    F_KIND,
    F_NAT,
    F_RANK,
    F_TWO,
    HC_N,
    HC_R,
    MAXP,
    MK_BLACK3,
    MK_RANK,
    NC,
    NK,
    NR,
    R_B3MAX,
    R_B3MIN,
    R_DECKS,
    R_JOKERS,
    R_MAX_WILD,
    R_MIN_NAT,
    R_NSIDES,
    R_PACK,
    R_PLAYERS,
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
    SD_COMP,
    SD_CUM,
    SD_CUM0,
    SD_NM,
    SD_RED3,
)


@engine_jit
def _fail_nb(S, which, where):
    if S.st[S_ERR] == 0:
        S.st[S_ERR] = ERR_INVARIANT
        S.st[S_ERR_A] = which
        S.st[S_ERR_B] = where


@engine_jit
def check_nb(R, S, where):
    """where: 0 inside a turn, 1 between turns, 2 after the hand was scored."""
    st = S.st
    n = R[R_PLAYERS]
    nsides = R[R_NSIDES]
    # 1. card conservation, per rank class
    cnt = st[S_CHK:S_CHK + NR]
    cnt[:] = 0
    total = st[S_STOCK_N] + st[S_PILE_N]
    for i in range(st[S_STOCK_N]):
        k = S.stock[i]
        cnt[13 if k == 52 else k // 4] += 1
    for i in range(st[S_PILE_N]):
        k = S.pile[i]
        cnt[13 if k == 52 else k // 4] += 1
    for p in range(MAXP):
        hs = 0
        for k in range(NK):
            c = S.hand[p, k]
            if c < 0:
                _fail_nb(S, 1, where)
            cnt[13 if k == 52 else k // 4] += c
            hs += c
        if hs != S.hand[p, HC_N]:
            _fail_nb(S, 1, where)
        for r in range(NR):
            h = 0
            for s4 in range(4 if r < 13 else 0):
                h += S.hand[p, r * 4 + s4]
            if r == 13:
                h = S.hand[p, 52]
            if h != S.hand[p, HC_R + r]:
                _fail_nb(S, 1, where)
        total += S.hand[p, HC_N]
    for s in range(nsides):
        cnt[2] += S.side[s, SD_RED3]
        total += S.side[s, SD_RED3]
        for m in range(S.side[s, SD_NM]):
            row = S.melds[s, m]
            cnt[row[F_RANK]] += row[F_NAT]
            cnt[1] += row[F_TWO]
            cnt[13] += row[F_JOK]
            total += row[F_NAT] + row[F_TWO] + row[F_JOK]
    if total != R[R_PACK]:
        _fail_nb(S, 1, where)
    for r in range(13):
        if cnt[r] != 4 * R[R_DECKS]:
            _fail_nb(S, 1, where)
    if cnt[13] != R[R_JOKERS]:
        _fail_nb(S, 1, where)
    # 2. every meld valid; 3. one meld per rank per side
    for s in range(nsides):
        seen = st[S_CHK + NR:S_CHK + 2 * NR]
        seen[:] = 0
        for m in range(S.side[s, SD_NM]):
            row = S.melds[s, m]
            w = row[F_TWO] + row[F_JOK]
            size = row[F_NAT] + w
            if row[F_KIND] == MK_RANK:
                if size < 3 or row[F_NAT] < R[R_MIN_NAT] or w > R[R_MAX_WILD] or row[F_RANK] == 2 \
                        or row[F_RANK] == 1 or row[F_RANK] == 13:
                    _fail_nb(S, 2, where)
                seen[row[F_RANK]] += 1
                if seen[row[F_RANK]] > 1:
                    _fail_nb(S, 3, where)
            elif row[F_KIND] == MK_BLACK3:
                if w != 0 or size < R[R_B3MIN] or size > R[R_B3MAX] or row[F_RANK] != 2:
                    _fail_nb(S, 2, where)
            else:
                _fail_nb(S, 2, where)
    # 4. an empty hand only for the player who went out
    if where != 0:
        for p in range(n):
            if S.hand[p, HC_N] == 0 and not (st[S_ENDED] == END_OUT and st[S_OUT_PLAYER] == p):
                _fail_nb(S, 4, where)
    # 5. pile flags
    if st[S_PILE_N] == 0 and st[S_FROZEN] != 0:
        _fail_nb(S, 5, where)
    b = st[S_BLOCK]
    if b >= 0 and b != st[S_CUR] and b != (st[S_CUR] + 1) % n:
        _fail_nb(S, 5, where)
    # 6. red threes never in a hand (nor in a meld: rank melds of threes are rejected above)
    for p in range(n):
        if S.hand[p, 9] != 0 or S.hand[p, 10] != 0:
            _fail_nb(S, 6, where)
    # 7. components add up; cumulative scores move only at the end of a hand
    for s in range(nsides):
        if where == 2:
            t = 0
            for c in range(NC - 1):
                t += S.side[s, SD_COMP + c]
            if t != S.side[s, SD_COMP + NC - 1] or S.side[s, SD_CUM] != S.side[s, SD_CUM0] + t:
                _fail_nb(S, 7, where)
        elif S.side[s, SD_CUM] != S.side[s, SD_CUM0]:
            _fail_nb(S, 7, where)
