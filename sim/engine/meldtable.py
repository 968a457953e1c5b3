"""The meld table and the meld rules (§1.4): composition, wild melds (Boat), the canasta size, canastas
by kind, the black-three meld.

A side's melds are rows of melds[side] (F_* fields); several melds of one rank may be rows, and
side[s, SD_MOR + r] points at the open one, the meld of rank class r that takes more cards (in Classic
every meld stays open: one per rank, R-16; where melds close at `meld_cap`, Pennies and Railroad, a
meld that reaches it leaves the index and the next cards of its rank start a new row, R-92). Canastas are counted by kind (side[s, SD_CAN + CK_*]) as
cards arrive, so no phase recounts the table. This module is the one that reads the composition rules
(`min_naturals`, `max_wilds`, `wilds_below_naturals`, `wild_melds`, `wild_tie_big`, black-three meld
sizes and `black3_close_bonus`, `meld_cap`, `sevens_natural_only`, `sevens_discard_ban`,
`wild_canasta_small_big`) and `canasta_size`, and which canastas bring a player's foot
(`foot_canastas`, R-95, R-114); the meld phase, the searches and the scoring ask it."""

import numpy as np

from . import layout as L
from .cards import rank_of_nb, value_nb
from .jit import engine_jit
from .log import logc_nb
from .table import htake_rank_nb

# The rules of meld composition -------------------------------------------------------------------


@engine_jit(inline="always")
def min_naturals_nb(R):
    """Fewest naturals in a rank meld (`min_naturals`, R-14)."""
    return R[L.R_MIN_NAT]


@engine_jit(inline="always")
def max_wilds_nb(R):
    """Most wilds in a rank meld (`max_wilds`, R-14)."""
    return R[L.R_MAX_WILD]


@engine_jit(inline="always")
def canasta_size_nb(R):
    """Cards that make a canasta (`canasta_size`)."""
    return R[L.R_CANASTA]


@engine_jit(inline="always")
def black3_meld_min_nb(R):
    """Fewest black threes in a going-out meld (R-15)."""
    return R[L.R_B3MIN]


@engine_jit(inline="always")
def black3_meld_max_nb(R):
    """Most black threes in a going-out meld; 0 when the variant has none (R-15)."""
    return R[L.R_B3MAX]


@engine_jit(inline="always")
def black3_close_bonus_nb(R):
    """Where not 0 (Boat, R-37), black threes are melded only as the last cards of the hand, and going
    out so earns this bonus in place of the going-out bonus."""
    return R[L.R_B3_CLOSE]


@engine_jit(inline="always")
def wild_melds_nb(R):
    """Melds of wild cards only, one per side, are allowed (Boat, R-35)."""
    return R[L.R_WILD_MELDS] != 0


@engine_jit(inline="always")
def black3_meld_ok_nb(R, count):
    """`count` black threes make a legal going-out meld (R-15)."""
    return R[L.R_B3MAX] > 0 and R[L.R_B3MIN] <= count <= R[L.R_B3MAX]


@engine_jit(inline="always")
def meld_cap_nb(R):
    """Cards that close a meld (`meld_cap`, Pennies and Railroad: 7, R-92); 0 where melds grow without end."""
    return R[L.R_MELD_CAP]


@engine_jit(inline="always")
def wild_room_nb(R, r, naturals, wilds):
    """How many more wilds a rank meld of rank class r with `naturals` naturals and `wilds` wilds may
    take: up to `max_wilds` (R-14), below its naturals where `wilds_below_naturals` (House-001 R-65),
    none in sevens where `sevens_natural_only` (R-97, R-118), and never past `meld_cap` (R-92). Wilds
    are interchangeable between melds, so the searches count this room per meld."""
    room = R[L.R_MAX_WILD] - wilds
    if R[L.R_WILD_LT_NAT] != 0 and naturals - 1 - wilds < room:
        room = naturals - 1 - wilds
    if R[L.R_SEVENS] != 0 and r == L.RK_7:
        room = -wilds
    cap = R[L.R_MELD_CAP]
    if cap > 0 and cap - naturals - wilds < room:
        room = cap - naturals - wilds
    return room


@engine_jit(inline="always")
def rank_meld_ok_nb(R, r, naturals, wilds):
    """A rank meld of rank class r with `naturals` natural cards and `wilds` wild cards is valid (§1.4,
    R-14, R-65, R-92, R-97)."""
    return naturals + wilds >= L.MIN_MELD and naturals >= R[L.R_MIN_NAT] and wild_room_nb(R, r, naturals, wilds) >= 0


@engine_jit
def capped_take_split_nb(R, r, mn, mw, nat_used, wr):
    """Capped melds (§1.4, R-92): T and `nat_used` naturals (and a wild of rank class wr, or -1) laid
    at once on the side's open meld of T's rank (mn naturals, mw wilds; 0 and 0 for none) close it at the
    cap first, naturals before the wild, and what overflows starts a new meld, which must be valid.
    Returns (naturals and wilds into the open meld, naturals and wilds of the new one, the naturals of
    the rank the player must add from hand to make it valid), the last -1 if the take cannot be."""
    cap = R[L.R_MELD_CAP]
    nats = 1 + nat_used
    wilds = 1 if wr >= 0 else 0
    room = cap - mn - mw
    a = nats if nats < room else room
    b = wilds if wilds < room - a else room - a
    nn = nats - a
    nw = wilds - b
    if wild_room_nb(R, r, mn + a, mw + b) < 0:
        return a, b, nn, nw, -1
    if nn + nw == 0:
        return a, b, nn, nw, 0
    extra = L.MIN_MELD - nn - nw if nn + nw < L.MIN_MELD else 0
    if nn + extra < R[L.R_MIN_NAT]:
        extra = R[L.R_MIN_NAT] - nn
    if wild_room_nb(R, r, nn + extra, nw) < 0:
        return a, b, nn, nw, -1
    return a, b, nn, nw, extra


@engine_jit(inline="always")
def sevens_kind_nb(R):
    """Sevens meld without wilds and make a canasta kind of their own (Pennies R-97, Railroad R-118)."""
    return R[L.R_SEVENS] != 0


@engine_jit
def seven_discardable_nb(R, side):
    """A seven may be discarded: always, but where `sevens_discard_ban` (Pennies, R-97) only once every
    side has completed a sevens canasta (a going-out discard never is one: discard.py, goout.py)."""
    if R[L.R_SEVENS_BAN] == 0:
        return True
    for s in range(R[L.R_NSIDES]):
        if side[s, L.SD_CAN + L.CK_SEVENS] == 0:
            return False
    return True


@engine_jit(inline="always")
def sevens_banned_last_nb(R):
    """A seven is never the going-out discard (`sevens_discard_ban`, Pennies, R-97)."""
    return R[L.R_SEVENS_BAN] != 0


@engine_jit(inline="always")
def foot_kinds_nb(R):
    """The canasta kinds (bits 1 << CK_*) whose first personal completion brings the foot (R-95, R-114)."""
    return R[L.R_FOOT_KINDS]


@engine_jit(inline="always")
def completed_kind_nb(R, r, naturals, wilds, jokers):
    """The kind of the canasta a meld of rank class r (RK_JK: a wild meld, `jokers` of its wilds
    jokers) becomes at this composition, -1 short of a canasta."""
    if naturals + wilds < R[L.R_CANASTA]:
        return -1
    if r == L.RK_JK:
        if R[L.R_WILD_SPLIT] == 0:
            return L.CK_WILD
        # decided by the final composition; more jokers than twos is big, a tie small (or big)
        twos = wilds - jokers
        if jokers > twos or (jokers == twos and R[L.R_WILD_TIE_BIG] != 0):
            return L.CK_BIG_WILD
        return L.CK_SMALL_WILD
    if r == L.RK_7 and R[L.R_SEVENS] != 0:
        return L.CK_SEVENS
    return L.CK_NATURAL if wilds == 0 else L.CK_MIXED


# Rows ------------------------------------------------------------------------------------------


@engine_jit(inline="always")
def msize_nb(S, s, m):
    """Cards in meld m of side s."""
    row = S.melds[s, m]
    return row[L.F_NAT] + row[L.F_TWO] + row[L.F_JOK]


@engine_jit(inline="always")
def canasta_kind_nb(R, S, s, m):
    """The canasta kind of meld m of side s (CK_*), or -1 if it is no canasta."""
    row = S.melds[s, m]
    if row[L.F_KIND] == L.MK_BLACK3:
        return -1
    r = L.RK_JK if row[L.F_KIND] == L.MK_WILD else row[L.F_RANK]
    return completed_kind_nb(R, r, row[L.F_NAT], row[L.F_TWO] + row[L.F_JOK], row[L.F_JOK])


@engine_jit(inline="always")
def canastas_nb(S, s):
    """Completed canastas of side s, all kinds."""
    return S.side[s, L.SD_NCAN]


@engine_jit
def meld_new_nb(S, p, s, kind, rank):
    """Start a meld row for side s, laid by seat p this turn; it becomes the open meld of its rank."""
    m = S.side[s, L.SD_NM]
    S.side[s, L.SD_NM] = m + 1
    row = S.melds[s, m]
    for f in range(L.NMF):
        row[f] = 0
    row[L.F_KIND] = kind
    row[L.F_RANK] = rank
    row[L.F_TURN] = S.st[L.S_TURN]
    row[L.F_PLAYER] = p
    if kind == L.MK_RANK or kind == L.MK_WILD:
        S.side[s, L.SD_MOR + rank] = m
    return m


@engine_jit
def meld_put_nb(R, S, s, m, k):
    """Put card k (already out of any hand or pile) into meld m of side s, keeping the side's
    canasta counts by kind (a wild added to a natural canasta makes it mixed)."""
    before = canasta_kind_nb(R, S, s, m)
    r = rank_of_nb(k)
    row = S.melds[s, m]
    if r == L.RK_2:
        row[L.F_TWO] += 1
    elif r == L.RK_JK:
        row[L.F_JOK] += 1
    else:
        row[L.F_NAT] += 1
    row[L.F_VAL] += value_nb(R, r)
    recount_nb(R, S, s, m, before)


@engine_jit(inline="always")
def recount_nb(R, S, s, m, before):
    """Meld m of side s has taken a card and was a canasta of kind `before` (-1: none): the side's
    canasta counts follow its kind now."""
    after = canasta_kind_nb(R, S, s, m)
    if after != before:
        if before >= 0:
            S.side[s, L.SD_CAN + before] -= 1
            S.side[s, L.SD_NCAN] -= 1
        S.side[s, L.SD_CAN + after] += 1
        S.side[s, L.SD_NCAN] += 1
        if before < 0:
            canasta_completed_nb(R, S, s, m, after)


@engine_jit(inline="always")
def canasta_completed_nb(R, S, s, m, kind):
    """Meld m of side s has just become a canasta of `kind`: where melds close at `meld_cap` it leaves
    the open-meld index (R-92), and the player in turn, who placed its last card, has earned the foot
    if it is still face down and the kind is one that brings it (R-95, R-114)."""
    cap = R[L.R_MELD_CAP]
    if cap > 0 and msize_nb(S, s, m) >= cap:
        r = S.melds[s, m, L.F_RANK]
        if S.side[s, L.SD_MOR + r] == m:
            S.side[s, L.SD_MOR + r] = -1
    p = S.st[L.S_CUR]
    if (R[L.R_FOOT_KINDS] >> kind) & 1 and S.hand[p, L.HC_PACKET] > 0 and S.st[L.S_FOOT_DUE] == L.FOOT_NONE:
        S.st[L.S_FOOT_DUE] = L.FOOT_DUE


@engine_jit
def clear_side_melds_nb(S, s):
    """A side with no melds (a new hand, §1.1)."""
    S.side[s, L.SD_NM] = 0
    S.side[s, L.SD_NCAN] = 0
    for c in range(L.NCK):
        S.side[s, L.SD_CAN + c] = 0
    for r in range(L.NR):
        S.side[s, L.SD_MOR + r] = -1


@engine_jit
def truncate_melds_nb(R, S, s, nm):
    """Drop the side's meld rows from row nm on (a pending opening given back, §1.7): the open-meld
    index and the canasta counts are rebuilt from the rows that stay."""
    clear_side_melds_nb(S, s)
    S.side[s, L.SD_NM] = nm
    cap = R[L.R_MELD_CAP]
    for m in range(nm):
        row = S.melds[s, m]
        if (row[L.F_KIND] == L.MK_RANK or row[L.F_KIND] == L.MK_WILD) and (cap == 0 or msize_nb(S, s, m) < cap):
            S.side[s, L.SD_MOR + row[L.F_RANK]] = m
        c = canasta_kind_nb(R, S, s, m)
        if c >= 0:
            S.side[s, L.SD_CAN + c] += 1
            S.side[s, L.SD_NCAN] += 1


@engine_jit(inline="always")
def lay_from_hand_nb(R, S, p, s, m, ei, r, count):
    """Move `count` cards of rank class r from p's hand into meld m of side s, logging them in event
    ei; returns their value (it counts towards an initial meld). Called, not inlined at its seven call
    sites, with int64 values (a constant would compile a copy per value)."""
    return lay_cards_nb(R, S, np.int64(p), np.int64(s), np.int64(m), np.int64(ei), np.int64(r), np.int64(count))


@engine_jit
def lay_cards_nb(R, S, p, s, m, ei, r, count):
    """lay_from_hand_nb's work."""
    value = 0
    for _ in range(count):
        k = htake_rank_nb(S, p, r)
        meld_put_nb(R, S, s, m, k)
        logc_nb(S, ei, k)
        value += value_nb(R, r)
    return value
