"""The initial meld (sim/engine/opening.py): the minimum by score (C-1, C-2, R-10), and the most a hand
can lay this turn checked against a brute force."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sim import get_variant
from sim.engine import layout as L
from sim.engine.layout import SD_REQ
from sim.engine.opening import max_meld_value_nb
from sim.rules import pack
from tests.support import Table


def _requirement(variant: str, score: int) -> int:
    """The initial-meld requirement the engine sets up for a side with cumulative score `score`."""
    t = Table(variant, scores=[score, 0])
    return int(t.S.side[0, SD_REQ])


def test_c1_r10_requirement_1600_is_90_and_1250_is_50():
    assert _requirement("classic-4p", 1600) == 90
    assert _requirement("classic-4p", 1250) == 50


def test_c2_requirement_table_boundaries():
    scores = [-5, 0, 1495, 1500, 2995, 3000]
    assert [_requirement("classic-4p", s) for s in scores] == [15, 50, 50, 90, 90, 120]


NATURAL_RANKS = [r for r in range(L.NR) if r not in (L.RK_2, L.RK_3, L.RK_JK)]


def brute_max_meld_value(v, h, trank, twilds) -> int:
    """Best total value of melds laid from hand counts h: each natural rank either stays in hand or
    forms a meld of at least min_naturals naturals and three cards with at most max_wilds wilds (and
    fewer wilds than naturals where the rules say so, R-65); the already started meld of rank `trank`
    (three cards, `twilds` of them wild) takes any naturals and wilds up to the limit; the wilds left
    may make a wild meld where the rules have them (Boat, R-35). Tries every number of naturals, jokers
    and twos for every rank."""
    values = v.cards.card_values
    ranks = [r for r in NATURAL_RANKS if h[r] or r == trank]

    def best(i: int, jokers: int, twos: int) -> int:
        if i == len(ranks):
            # where wild melds are allowed, three or more wilds left may make one
            if v.melds.wild_melds and jokers + twos >= 3:
                return jokers * values[L.RK_JK] + twos * values[L.RK_2]
            return 0
        r = ranks[i]
        top = best(i + 1, jokers, twos) if r != trank else -1
        for k in range(h[r] + 1):
            room = v.melds.max_wilds - (twilds if r == trank else 0)
            if v.melds.wilds_below_naturals:
                naturals = k + (3 - twilds if r == trank else 0)
                room = min(room, naturals - 1 - (twilds if r == trank else 0))
            for j in range(min(jokers, room) + 1):
                for t in range(min(twos, room - j) + 1):
                    if r != trank and (k < v.melds.min_naturals or k + j + t < 3):
                        continue
                    gain = k * values[r] + j * values[L.RK_JK] + t * values[L.RK_2]
                    top = max(top, gain + best(i + 1, jokers - j, twos - t))
        return top

    return best(0, h[L.RK_JK], h[L.RK_2])


def _room(v, naturals: int, wilds: int) -> int:
    """More wilds a rank meld may take (R-14, R-65), for the started meld handed to the search."""
    room = v.melds.max_wilds - wilds
    return min(room, naturals - 1 - wilds) if v.melds.wilds_below_naturals else room


@pytest.mark.parametrize("variant", ["classic-4p", "classic-2p", "house-001-4p", "boat-4p"])
def test_most_value_a_hand_can_meld_agrees_with_brute_force(variant):
    v = get_variant(variant)
    R = pack(v)
    rng = random.Random(7)
    for _ in range(1500):
        h = [0] * L.NR
        for _ in range(rng.randint(0, 9)):
            h[rng.choice(NATURAL_RANKS[:5] + [L.RK_2, L.RK_JK])] += 1
        trank, twilds = -1, 0
        if rng.random() < 0.4:
            trank = rng.choice(NATURAL_RANKS[:5])
            twilds = rng.randint(0, 1)
        troom = _room(v, 3 - twilds + h[trank], twilds) if trank >= 0 else 0
        got = int(max_meld_value_nb(R, np.array(h, np.int64), trank, troom, np.zeros(L.NR, np.int64)))
        assert got == brute_max_meld_value(v, h, trank, twilds), (h, trank, twilds)
