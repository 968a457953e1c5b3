"""Real decision points for the engine's tests: hands played by baseline on every seat, stopped at
chosen decisions with the state exactly as the deciding strategy saw it, then carried on through
the engine's resume_turn_nb with baseline's own choice.

The stopping strategy returns DEFER with no base strategy behind it, so the engine stops with
ERR_CHOICE right at the decision: S.obs is the observation the seat was handed and S.opts its options.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from sim import get_variant
from sim.engine import layout as L
from sim.engine.buraco import buraco_turn_nb
from sim.engine.contract import cached_jit
from sim.engine.deal import deal_hand_nb
from sim.engine.game import PLAY_STREAM
from sim.engine.jit import compile_strategy
from sim.engine.rng import seed_rng_nb
from sim.engine.score import score_hand_nb
from sim.engine.state import State, new_state
from sim.engine.turn import play_turn_nb, resume_turn_nb
from sim.rules import pack
from sim.run.runner import function_table, prepare_engine
from strategies.heuristic import heuristic_decide_nb
from strategies.library import BASELINE

STOP_SLOT = L.NPRM - 1  # knob slot of the stopping period (baseline's knobs leave it free)


@cached_jit  # in the package's user-<hash> folder: recompiled whenever a compiled source changes
def stop_decide_nb(R, obs, opts, n, prm):
    """baseline, but stop the game at a decision whose random word is a multiple of the period."""
    period = int(prm[STOP_SLOT])
    if period > 0 and obs[L.OB_RAND] % period == 0:
        return L.DEFER
    return heuristic_decide_nb(R, obs, opts, n, prm)


@dataclass
class Decision:
    """One decision as the seat met it: the state (a copy), its observation and options."""

    R: np.ndarray
    S: State
    seat: int
    dp: int
    n: int

    @property
    def obs(self) -> np.ndarray:
        return self.S.obs

    @property
    def opts(self) -> np.ndarray:
        return self.S.opts[:self.n]


def copy_state(S: State) -> State:
    return State(*(a.copy() for a in S))


def table() -> tuple:
    """The function table of the stopping strategy (the engine compiled or loaded first)."""
    prepare_engine()
    compile_strategy(stop_decide_nb)
    return function_table([stop_decide_nb])


def play_hands(variant: str, seed: int, hands: int = 1, period: int = 5,
               check: bool = True) -> Iterator[tuple[str, Decision | State]]:
    """Play `hands` hands of baseline on every seat. Yields ("decision", Decision) at every stop (the
    game then goes on with baseline's choice through resume_turn_nb, whatever the caller did to its
    copy), and ("hand", state) when a hand has been scored. period 0: never stop."""
    v = get_variant(variant)
    R = pack(v)
    S = new_state(R)
    F = table()
    prm = BASELINE.params()
    prm[STOP_SLOT] = period
    for p in range(v.players):
        S.hand[p, L.HC_FN] = 0
        S.hand[p, L.HC_FNB] = -1
        S.prm[p] = prm
    st = S.st
    st[L.S_CHECK] = int(check)
    st[L.S_SEED], st[L.S_DEAL] = seed, seed
    seed_rng_nb(st, L.S_RNG, seed, 0, PLAY_STREAM)
    for hand in range(1, hands + 1):
        st[L.S_HANDNO] = hand
        st[L.S_DEALER] = (seed + hand) % v.players
        deal_hand_nb(R, S)
        p = int(st[L.S_CUR])
        while st[L.S_ENDED] == 0:
            if st[L.S_TURN] >= R[L.R_MAX_TURNS]:
                st[L.S_ENDED] = L.END_CAP
                break
            if R[L.R_SEQ]:  # Buraco's own turn (sim/engine/buraco.py)
                buraco_turn_nb(R, S, F, p, L.TURN_START, 0)
            else:
                play_turn_nb(R, S, F, p)
            while st[L.S_ERR] == L.ERR_CHOICE:
                seat, dp = int(st[L.S_ERR_A]), int(st[L.S_ERR_B])
                n = int(S.obs[L.OB_N])
                yield "decision", Decision(R, copy_state(S), seat, dp, n)
                st[L.S_ERR] = 0
                i = heuristic_decide_nb(S.ru, S.obs, S.opts.copy(), n, S.prm[seat])
                if R[L.R_SEQ]:
                    buraco_turn_nb(R, S, F, int(st[L.S_CUR]), dp, i)
                else:
                    resume_turn_nb(R, S, F, seat, dp, i)
            assert st[L.S_ERR] == 0, f"engine error {st[L.S_ERR]} ({st[L.S_ERR_A]}) in hand {hand}"
            p = (int(st[L.S_CUR]) + 1) % v.players
        score_hand_nb(R, S)
        yield "hand", copy_state(S)


def decisions(variant: str, seed: int, hands: int = 1, period: int = 5) -> list[Decision]:
    return [d for kind, d in play_hands(variant, seed, hands, period) if kind == "decision"]
