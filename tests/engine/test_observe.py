"""Issue 3, part 1: a strategy sees what its seat sees at the table (VARIANTS.md §6), nothing more.

Strategies are handed (rules, obs, options, n, knobs), never the state. These tests prove the
observation carries no hidden card: scrambling every card the seat cannot see (the other hands and
the stock order) leaves it unchanged, while what the seat can see is in it exactly.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim import get_variant
from sim.engine import layout as L
from sim.engine.deal import deal_hand_nb
from sim.engine.layout import HC_N, SD_CUM, SD_MELDED, SD_NM, SD_RED3, SD_REQ
from sim.engine.observe import observe_nb
from sim.engine.rng import seed_rng_nb
from sim.engine.state import new_state
from sim.engine.turn import play_turn_nb
from sim.rules import pack
from tests.support import strategy_table


def mid_hand(variant: str, seed: int, turns: int):
    """A real position: a dealt hand played `turns` turns by random strategies."""
    v = get_variant(variant)
    R = pack(v)
    S = new_state(R)
    st = S.st
    st[L.S_SEED], st[L.S_DEAL], st[L.S_HANDNO], st[L.S_DEALER] = seed, seed, 1, seed % v.players
    seed_rng_nb(st, L.S_RNG, seed, 0, 1 << 40)
    deal_hand_nb(R, S)
    p = st[L.S_CUR]
    fns = strategy_table(variant)  # every seat: slot 0, random
    for _ in range(turns):
        if st[L.S_ENDED] != 0:
            break
        play_turn_nb(R, S, fns, p)
        p = (p + 1) % v.players
    assert st[L.S_ERR] == 0
    return v, R, S


def observe(R, S, p: int) -> np.ndarray:
    rng = S.st[L.S_RNG:L.S_RNG + 4].copy()
    observe_nb(R, S, p, L.DP_DISCARD, 3)
    S.st[L.S_RNG:L.S_RNG + 4] = rng  # the random bits come from the play stream, not the cards
    return S.obs.copy()


def scramble_hidden(v, S, p: int, rng: np.random.Generator) -> None:
    """Deal the cards seat p cannot see (other hands and the stock) anew, sizes unchanged."""
    others = [q for q in range(v.players) if q != p]
    pool = list(S.stock[:S.st[L.S_STOCK_N]])
    for q in others:
        for k in range(L.NK):
            pool += [k] * int(S.hand[q, k])
    pool = list(rng.permutation(np.array(pool)))
    for q in others:
        size = int(S.hand[q, L.HC_N])
        S.hand[q, :L.HC_N] = 0  # cards by kind and by rank class
        for _ in range(size):
            k = int(pool.pop())
            S.hand[q, k] += 1
            S.hand[q, L.HC_R + (13 if k == L.JOKER else k // 4)] += 1
    S.stock[:S.st[L.S_STOCK_N]] = pool
    assert not pool[S.st[L.S_STOCK_N]:]


@pytest.mark.parametrize("variant", ["classic-4p", "classic-2p", "classic-3p", "classic-6p"])
@pytest.mark.parametrize("seed,turns", [(1, 5), (2, 17), (3, 30)])
def test_s6_observation_hides_other_hands_and_stock_order(variant, seed, turns):
    v, R, S = mid_hand(variant, seed, turns)
    rng = np.random.default_rng(seed)
    for p in range(v.players):
        before = observe(R, S, p)
        hands_before = S.hand.copy()
        stock_before = S.stock.copy()
        scramble_hidden(v, S, p, rng)
        changed = not (np.array_equal(hands_before, S.hand) and np.array_equal(stock_before, S.stock))
        assert changed, "the scramble must change hidden cards for the test to mean anything"
        assert np.array_equal(before, observe(R, S, p)), f"seat {p}'s observation depends on hidden cards"


@pytest.mark.parametrize("variant", ["classic-4p", "classic-6p"])
def test_s6_observation_holds_what_the_seat_sees(variant):
    v, R, S = mid_hand(variant, 7, 24)
    p = int(S.st[L.S_CUR])
    o = observe(R, S, p)
    assert np.array_equal(o[L.OB_HAND:L.OB_HAND + L.NK], S.hand[p, :L.NK])
    assert np.array_equal(o[L.OB_HR:L.OB_HR + L.NR], S.hand[p, L.HC_R:L.HC_R + L.NR])
    pn = int(S.st[L.S_PILE_N])
    assert o[L.OB_PILE_N] == pn and o[L.OB_STOCK_N] == S.st[L.S_STOCK_N]
    assert o[L.OB_PILE_TOP] == (S.pile[pn - 1] if pn else -1)
    assert np.array_equal(o[L.OB_PILEK:L.OB_PILEK + L.NK], np.bincount(S.pile[:pn], minlength=L.NK))
    assert list(o[L.OB_HANDS:L.OB_HANDS + v.players]) == list(S.hand[:v.players, HC_N])
    for s in range(v.n_sides):
        assert o[L.OB_SCORE + s] == S.side[s, SD_CUM] and o[L.OB_RED3 + s] == S.side[s, SD_RED3]
        assert o[L.OB_SREQ + s] == S.side[s, SD_REQ] and o[L.OB_SMELDED + s] == S.side[s, SD_MELDED]
        nm = int(S.side[s, SD_NM])
        base = L.OB_MELDS + s * int(R[L.R_MAXM]) * L.NMF
        assert np.array_equal(o[base:base + nm * L.NMF], S.melds[s, :nm].ravel())
        # canastas by kind, counted from the rows a seat sees
        rows = S.melds[s, :nm]
        size = rows[:, L.F_NAT] + rows[:, L.F_TWO] + rows[:, L.F_JOK]
        canasta = (size >= v.melds.canasta_size) & (rows[:, L.F_KIND] != L.MK_BLACK3)
        wild = rows[:, L.F_TWO] + rows[:, L.F_JOK] > 0
        cank = o[L.OB_CANK + s * L.NCK:L.OB_CANK + (s + 1) * L.NCK]
        assert (cank[L.CK_NATURAL], cank[L.CK_MIXED]) == ((canasta & ~wild).sum(), (canasta & wild).sum())
        assert o[L.OB_CANASTAS + s] == canasta.sum()
    turns = list(o[L.OB_SEAT_TURNS:L.OB_SEAT_TURNS + v.players])
    assert sum(turns) == S.st[L.S_TURN] and max(turns) - min(turns) <= 1  # seats play in turn
    assert o[L.OB_TOP_TAKEN] == -1 and not o[L.OB_FEET:L.OB_FEET + L.MAXP].any()
    # public knowledge: who has laid cards this hand, and the cards seen going into hands with the pile
    assert list(o[L.OB_SEAT_LAID:L.OB_SEAT_LAID + L.MAXP]) == list(S.hand[:L.MAXP, L.HC_LAID])
    kb = L.ob_known(o)
    known = S.hand[:L.MAXP, L.HC_KNOWN:L.HC_KNOWN + L.NR]
    assert np.array_equal(o[kb:kb + L.OB_KNOWN_LEN].reshape(L.MAXP, L.NR), known)
    assert (known <= S.hand[:L.MAXP, L.HC_R:L.HC_R + L.NR]).all() and known.any()
    # and another seat's view differs in the hand
    q = (p + 1) % v.players
    assert not np.array_equal(observe(R, S, q)[L.OB_HAND:L.OB_HAND + L.NK], o[L.OB_HAND:L.OB_HAND + L.NK])


def test_s6_strategy_signature_takes_no_state():
    """A strategy is called with (rules, obs, opts, n, knobs): no array of the state reaches it."""
    from sim.engine.contract import DECIDE_SIG

    assert len(DECIDE_SIG.args) == 5
    assert [str(a.dtype) for a in DECIDE_SIG.args[:3]] == ["int64", "int64", "int64"]
