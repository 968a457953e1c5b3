"""`random`: uniform among the legal options at every decision point; also the engine's fuzzer."""

from numba import njit

from sim.engine.layout import S_RNG
from sim.engine.rng import below_nb


@njit(cache=True)
def random_decide_nb(R, S, p, dp, n):
    return below_nb(S.st, S_RNG, n)
