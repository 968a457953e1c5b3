"""Going out (§1.9) and the keep-a-card rule (§1.7): the exact search of sim/engine/goout.py against
a brute force written from the rules, on random positions (with House-001's fewer-wilds-than-naturals
melds, its required final discard and the card taken from the top that may not be discarded, R-54,
R-58, R-65; Boat's wild meld and its four-black-three close, R-35, R-37); and the two-player and
black-three cases of the worked examples."""

from __future__ import annotations

import random

import numpy as np
import pytest
from support import NATURAL_KINGS, NATURAL_QUEENS, Table

from sim.cards import parse_card, rank_class
from sim.engine import layout as L
from sim.engine.goout import W_BAN, W_MEX, W_MN, W_MW, W_TH, can_go_out_w_nb
from sim.rules import get_variant, pack

NATURAL_RANKS = [r for r in range(L.NR) if r not in (L.RK_2, L.RK_3, L.RK_JK)]


def brute_force(v, th, mex, mn, mw, ncan, need, value_needed, ban=-1) -> bool:
    """Every card but at most one discard melded (exactly one where the final discard is required,
    R-58; never the card of rank `ban` taken from the top unless another of its rank is held, R-54):
    naturals into the meld of their rank (an open one, or a new one of at least min_naturals naturals
    and three cards), black threes into one meld of an allowed size, each wild into some rank meld
    with room; the side then has `need` canastas, and the cards laid are worth `value_needed`."""
    values = v.card_values
    discards = [r for r in range(L.NR) if th[r] > 0 and (r != ban or th[r] >= 2)]
    for d in ([] if v.going_out_discard else [None]) + discards:
        rem = list(th)
        if d is not None:
            rem[d] -= 1
        b3 = rem[L.RK_3]
        if b3 and not (v.black3_meld_max and v.black3_meld_min <= b3 <= v.black3_meld_max):
            continue
        if b3 and d is not None and v.black3_close_bonus:
            continue  # the black threes are the last cards melded, no discard after them
        if sum(rem[r] * values[r] for r in range(L.NR)) < value_needed:
            continue
        if any(rem[r] and not mex[r] and rem[r] < v.min_naturals for r in NATURAL_RANKS):
            continue
        targets = [r for r in NATURAL_RANKS if mex[r] or rem[r]]
        if place_wilds(v, targets, rem, mex, mn, mw, ncan, need, 0, rem[L.RK_2] + rem[L.RK_JK], {}):
            return True
    return False


def place_wilds(v, targets, rem, mex, mn, mw, ncan, need, i, left, extra) -> bool:
    """Every way of giving the `left` wilds to the melds targets[i:], each within max_wilds."""
    if i == len(targets) and v.wild_melds and left:
        # the wilds left go to the side's wild meld (jokers at mn[JK], twos at mw[JK]), or make a new
        # one of three or more
        size = mn[L.RK_JK] + mw[L.RK_JK] if mex[L.RK_JK] else 0
        if not mex[L.RK_JK] and left < 3:
            return False
        extra_can = 1 if size < v.canasta_size <= size + left else 0
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
            if before < v.canasta_size <= after:
                can += 1
        return can >= need
    r = targets[i]
    wilds = mw[r] if mex[r] else 0
    room = v.max_wilds - wilds
    if v.wilds_below_naturals:  # fewer wilds than naturals, counting the hand's naturals of the rank
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
        th, mex, mn, mw = random_position(rng, v.wilds_below_naturals, v.wild_melds)
        held = [r for r in NATURAL_RANKS if th[r]]
        ban = rng.choice(held) if v.top_card_draw and held and rng.random() < 0.5 else -1
        size = v.canasta_size
        ncan = sum(1 for r in range(L.NR) if mex[r] and mn[r] + mw[r] >= size) + rng.randint(0, 1)
        need = v.going_out_canastas
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
