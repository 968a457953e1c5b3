"""Going out (§1.9) and the keep-a-card rule (§1.7): the exact search of sim/engine/gosearch.py against
a brute force written from the rules, on random positions (with House-001's fewer-wilds-than-naturals
melds, its required final discard and the card taken from the top that may not be discarded, R-54,
R-58, R-65; Boat's wild meld and its four-black-three close, R-35, R-37); and the two-player and
black-three cases of the worked examples."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sim import get_variant
from sim.engine import layout as L
from sim.engine.gosearch import W_BAN, W_FORBID, W_HAVE, W_MEX, W_MN, W_MW, W_TH, can_go_out_w_nb
from sim.rules import pack
from sim.rules.cards import parse_card, rank_class
from tests.support import NATURAL_KINGS, NATURAL_QUEENS, Table

NATURAL_RANKS = [r for r in range(L.NR) if r not in (L.RK_2, L.RK_3, L.RK_JK)]


def brute_force(v, th, mex, mn, mw, ncan, need, value_needed, ban=-1) -> bool:
    """Every card but at most one discard melded (exactly one where the final discard is required,
    R-58; never the card of rank `ban` taken from the top unless another of its rank is held, R-54):
    naturals into the meld of their rank (an open one, or a new one of at least min_naturals naturals
    and three cards), black threes into one meld of an allowed size, each wild into some rank meld
    with room; the side then has `need` canastas, and the cards laid are worth `value_needed`."""
    values = v.cards.card_values
    discards = [r for r in range(L.NR) if th[r] > 0 and (r != ban or th[r] >= 2)]
    for d in ([] if v.going_out.going_out_discard else [None]) + discards:
        rem = list(th)
        if d is not None:
            rem[d] -= 1
        b3 = rem[L.RK_3]
        if b3 and not (v.melds.black3_meld_max and v.melds.black3_meld_min <= b3 <= v.melds.black3_meld_max):
            continue
        if b3 and d is not None and v.melds.black3_close_bonus:
            continue  # the black threes are the last cards melded, no discard after them
        if sum(rem[r] * values[r] for r in range(L.NR)) < value_needed:
            continue
        if any(rem[r] and not mex[r] and rem[r] < v.melds.min_naturals for r in NATURAL_RANKS):
            continue
        targets = [r for r in NATURAL_RANKS if mex[r] or rem[r]]
        if place_wilds(v, targets, rem, mex, mn, mw, ncan, need, 0, rem[L.RK_2] + rem[L.RK_JK], {}):
            return True
    return False


def place_wilds(v, targets, rem, mex, mn, mw, ncan, need, i, left, extra) -> bool:
    """Every way of giving the `left` wilds to the melds targets[i:], each within max_wilds."""
    if i == len(targets) and v.melds.wild_melds and left:
        # the wilds left go to the side's wild meld (jokers at mn[JK], twos at mw[JK]), or make a new
        # one of three or more
        size = mn[L.RK_JK] + mw[L.RK_JK] if mex[L.RK_JK] else 0
        if not mex[L.RK_JK] and left < 3:
            return False
        extra_can = 1 if size < v.melds.canasta_size <= size + left else 0
        return place_wilds(v, targets, rem, mex, mn, mw, ncan + extra_can, need, i, 0, extra)
    if i == len(targets):
        if left:
            return False
        can = ncan
        for r in targets:
            before = mn[r] + mw[r] if mex[r] else 0
            after = before + rem[r] + extra[r]
            if not mex[r] and after < 3:
                return False
            if before < v.melds.canasta_size <= after:
                can += 1
        return can >= need
    r = targets[i]
    wilds = mw[r] if mex[r] else 0
    room = v.melds.max_wilds - wilds
    if v.melds.wilds_below_naturals:  # fewer wilds than naturals, counting the hand's naturals of the rank
        room = min(room, (mn[r] if mex[r] else 0) + rem[r] - 1 - wilds)
    for x in range(0, min(left, max(room, 0)) + 1):
        extra[r] = x
        if place_wilds(v, targets, rem, mex, mn, mw, ncan, need, i + 1, left - x, extra):
            return True
    return False


def random_position(rng: random.Random, below: bool = False, wild: bool = False):
    th = [0] * L.NR
    for _ in range(rng.randint(0, 8)):
        th[rng.choice(NATURAL_RANKS[:6] + [L.RK_2, L.RK_JK, L.RK_3])] += 1
    mex, mn, mw = [0] * L.NR, [0] * L.NR, [0] * L.NR
    for r in rng.sample(NATURAL_RANKS[:6], rng.randint(0, 3)):
        mex[r] = 1
        mw[r] = rng.randint(0, 3)
        mn[r] = rng.randint(max(2, 3 - mw[r], mw[r] + 1 if below else 0), 8)
    if wild and rng.random() < 0.4:  # the side's wild meld: jokers at mn[JK], twos at mw[JK]
        mex[L.RK_JK] = 1
        mn[L.RK_JK] = rng.randint(0, 4)
        mw[L.RK_JK] = rng.randint(max(0, 3 - mn[L.RK_JK]), 5)
    return th, mex, mn, mw


@pytest.mark.parametrize("variant", ["classic-4p", "classic-2p", "classic-6p", "house-001-4p", "house-003-4p",
                                     "boat-4p"])
def test_go_out_search_agrees_with_brute_force_on_random_positions(variant):
    v = get_variant(variant)
    R = pack(v)
    rng = random.Random(20261123)
    agree = found = 0
    for _ in range(2500):
        th, mex, mn, mw = random_position(rng, v.melds.wilds_below_naturals, v.melds.wild_melds)
        held = [r for r in NATURAL_RANKS if th[r]]
        ban = rng.choice(held) if v.draw.top_card_draw and held and rng.random() < 0.5 else -1
        size = v.melds.canasta_size
        ncan = sum(1 for r in range(L.NR) if mex[r] and mn[r] + mw[r] >= size) + rng.randint(0, 1)
        need = v.going_out.going_out_canastas
        value_needed = rng.choice([0, 0, 0, 50, 90])
        w = np.zeros(5 * L.NR + 16, np.int64)
        w[W_BAN] = ban
        w[W_TH:W_TH + L.NR] = th
        w[W_MEX:W_MEX + L.NR] = mex
        w[W_MN:W_MN + L.NR] = mn
        w[W_MW:W_MW + L.NR] = mw
        got = bool(can_go_out_w_nb(R, w, ncan, need, value_needed))
        want = brute_force(v, th, mex, mn, mw, ncan, need, value_needed, ban)
        assert got == want, (th, mex, mn, mw, ncan, need, value_needed, ban)
        assert list(w[W_TH:W_TH + L.NR]) == th  # the search leaves the position as it found it
        agree += 1
        found += want
    assert agree == 2500 and 200 < found < 2300  # both answers are well represented


def test_c11_r17_two_player_needs_two_canastas_to_go_out():
    t = Table("classic-2p").meld(0, NATURAL_KINGS).hand(0, "5S 5H 5D")
    assert t.canastas(0) == 1
    assert not t.can_go_out(0)
    # melding the three fives would empty the hand: not offered
    assert (L.O_NEW, rank_class(parse_card("5S")), 3, -1) not in t.meld_options(0)
    t.meld(0, NATURAL_QUEENS)
    assert t.canastas(0) == 2
    assert t.can_go_out(0)


def test_c14_r15_two_black_threes_cannot_go_out():
    t = Table("classic-4p").meld(0, NATURAL_KINGS).hand(0, "3S 3C")
    assert t.canastas(0) == 1
    assert not t.can_go_out(0)
    assert not [o for o in t.meld_options(0) if o[0] == L.O_BLACK3]
    # contrast: three black threes make a going-out meld
    t3 = Table("classic-4p").meld(0, NATURAL_KINGS).hand(0, "3S 3C 3S")
    assert t3.can_go_out(0)
    assert (L.O_BLACK3, 3, 0, 0) in t3.meld_options(0)


# Capped melds (Pennies, Railroad: ): a brute force over explicit meld lists ----
KIND_BITS = {"natural": L.CK_NATURAL, "mixed": L.CK_MIXED, "wild": L.CK_WILD, "sevens": L.CK_SEVENS}


def capped_new_melds(v, r, nat, budget):
    """Every way to lay `nat` naturals of rank class r (and some wilds, at most `budget`) as new melds,
    each closed at the cap before the next starts: yields (wilds used, kinds of the closed melds)."""
    cap = v.melds.meld_cap
    wmax = 0 if (r == L.RK_7 and v.melds.sevens_natural_only) else v.melds.max_wilds
    if nat == 0:
        yield 0, ()
        return
    for size in range(3, cap + 1):
        for wi in range(0, min(wmax, size, budget) + 1):
            ni = size - wi
            if ni > nat or ni < v.melds.min_naturals:
                continue
            if size < cap:
                if ni == nat:
                    yield wi, ()  # a meld short of the cap is the last one
                continue
            kind = "sevens" if r == L.RK_7 and v.melds.sevens_natural_only else ("natural" if wi == 0 else "mixed")
            for used, kinds in capped_new_melds(v, r, nat - ni, budget - wi):
                yield wi + used, kinds + (kind,)


def capped_rank_outcomes(v, r, h, mex, mn, mw, budget):
    """(wilds used, kinds closed) for every legal way to lay all h naturals of rank r: the open meld
    (mn naturals, mw wilds) first, closed before any new one (R-92)."""
    cap = v.melds.meld_cap
    sevens = r == L.RK_7 and v.melds.sevens_natural_only
    wmax = 0 if sevens else v.melds.max_wilds
    if not mex:
        yield from capped_new_melds(v, r, h, budget)
        return
    room = cap - mn - mw
    for a in range(min(h, room) + 1):
        for b in range(min(room - a, budget) + 1):
            if mw + b > wmax:
                continue
            if a + b < room:
                if a == h:
                    yield b, ()
                continue
            kind = "sevens" if sevens else ("natural" if mw + b == 0 else "mixed")
            for used, kinds in capped_new_melds(v, r, h - a, budget - b):
                yield b + used, kinds + (kind,)


def capped_wild_outcomes(v, left, mex, size):
    """Whether `left` wilds fit the wild melds (the open one, `size` cards, closed first; then new ones
    of 3 to cap), and whether a wild canasta closes: yields the kinds closed."""
    cap = v.melds.meld_cap
    if left == 0:
        yield ()
        return
    if not v.melds.wild_melds:
        return
    closed = ()
    if mex:
        if left <= cap - size:
            yield ("wild",) if left == cap - size else ()
            return
        left -= cap - size
        closed = ("wild",)

    def chain(n):
        if n == 0:
            yield ()
            return
        for s in range(3, cap + 1):
            if s == n and s < cap:
                yield ()
            if s == cap and s <= n:
                for rest in chain(n - s):
                    yield ("wild",) + rest
    for more in chain(left):
        yield closed + more


def capped_brute_force(v, th, mex, mn, mw, have, forbid, ncan, need, value_needed) -> bool:
    if forbid < 0:
        return False
    req = sum(1 << KIND_BITS[k] for k in v.going_out.going_out_kinds)
    discards = [r for r in range(L.NR) if th[r] > 0 and not (r == L.RK_7 and v.melds.sevens_discard_ban)]
    for d in ([] if v.going_out.going_out_discard else [None]) + discards:
        rem = list(th)
        if d is not None:
            rem[d] -= 1
        b3 = rem[L.RK_3]
        if b3 and not (v.melds.black3_meld_max and v.melds.black3_meld_min <= b3 <= v.melds.black3_meld_max):
            continue
        if sum(rem[r] * v.cards.card_values[r] for r in range(L.NR)) < value_needed:
            continue
        wilds = rem[L.RK_2] + rem[L.RK_JK]
        ranks = [r for r in NATURAL_RANKS if rem[r] or mex[r]]

        pos = (v, ranks, rem, wilds, mex, mn, mw, have, forbid, req, ncan, need)
        if capped_search(pos, 0, 0, ()):
            return True
    return False


def capped_search(pos, i, used, kinds) -> bool:
    """Every rank's outcomes in turn (capped_rank_outcomes), the wilds left to the wild melds."""
    v, ranks, rem, wilds, mex, mn, mw, have, forbid, req, ncan, need = pos
    if i == len(ranks):
        for wk in capped_wild_outcomes(v, wilds - used, mex[L.RK_JK], mn[L.RK_JK] + mw[L.RK_JK]):
            new = 0
            for k in kinds + wk:
                new |= 1 << KIND_BITS[k]
            if new & forbid == 0 and (have | new) & req == req and (need <= 0 or ncan > 0 or new):
                return True
        return False
    r = ranks[i]
    seen = set()
    for x, ks in capped_rank_outcomes(v, r, rem[r], mex[r], mn[r], mw[r], wilds - used):
        key = (x, frozenset(ks))
        if key in seen:
            continue
        seen.add(key)
        if capped_search(pos, i + 1, used + x, kinds + ks):
            return True
    return False


@pytest.mark.parametrize("variant", ["pennies-6p", "railroad-4p"])
def test_r92_capped_go_out_search_agrees_with_brute_force_on_random_positions(variant):
    """The capped search (gosearch._capped_all_melded_nb) against explicit meld lists: melds closed at 7, a
    rank's open meld closed before a new one, sevens without wilds, wild melds of 3 to 7, one canasta
    of each kind, none of a kind that would bring the player's foot (R-92, R-95, R-97, R-114)."""
    v = get_variant(variant)
    R = pack(v)
    rng = random.Random(20261125)
    found = 0
    ranks = NATURAL_RANKS[:5] + [L.RK_7]
    for _ in range(3000):
        th = [0] * L.NR
        for _ in range(rng.randint(1, 10)):
            th[rng.choice(ranks + [L.RK_2, L.RK_JK, L.RK_3, L.RK_7])] += 1
        mex, mn, mw = [0] * L.NR, [0] * L.NR, [0] * L.NR
        for r in rng.sample(ranks, rng.randint(0, 3)):
            mex[r] = 1
            mw[r] = 0 if r == L.RK_7 else rng.randint(0, 3)
            mn[r] = rng.randint(max(2, 3 - mw[r]), 6 - mw[r])
        if rng.random() < 0.4:
            mex[L.RK_JK] = 1
            mn[L.RK_JK] = rng.randint(0, 3)
            mw[L.RK_JK] = rng.randint(max(0, 3 - mn[L.RK_JK]), 6 - mn[L.RK_JK])
        if rng.random() < 0.5:  # a hand shaped to the melds, so that many positions can go out
            th = [0] * L.NR
            for r in ranks:
                th[r] = rng.randint(0, 4) if mex[r] else rng.choice([0, 0, 0, 3, 4, 7, 8, 10])
            th[L.RK_2] = rng.randint(0, 3)
            th[L.RK_JK] = rng.randint(0, 4)
            th[rng.choice(ranks)] += 1
        have = 0
        for k in KIND_BITS.values():
            if rng.random() < 0.85:
                have |= 1 << k
        forbid = rng.choice([0, 0, -1, sum(1 << KIND_BITS[k] for k in v.melds.foot_canastas)])
        ncan = rng.randint(0, 2) if have else 0
        value_needed = rng.choice([0, 0, 0, 50, 90])
        w = np.zeros(5 * L.NR + 16, np.int64)
        w[W_BAN] = -1
        w[W_HAVE] = have
        w[W_FORBID] = forbid
        w[W_TH:W_TH + L.NR] = th
        w[W_MEX:W_MEX + L.NR] = mex
        w[W_MN:W_MN + L.NR] = mn
        w[W_MW:W_MW + L.NR] = mw
        got = bool(can_go_out_w_nb(R, w, ncan, v.going_out.going_out_canastas, value_needed))
        want = capped_brute_force(v, th, mex, mn, mw, have, forbid, ncan, v.going_out.going_out_canastas, value_needed)
        assert got == want, (th, mex, mn, mw, have, forbid, ncan, value_needed)
        assert list(w[W_TH:W_TH + L.NR]) == th
        found += want
    assert 300 < found < 2700  # both answers are well represented
