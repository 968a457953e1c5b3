"""`random`: uniform among the legal options at every decision point; also the engine's fuzzer."""

from sim.engine.contract import OB_RAND, strategy_jit


@strategy_jit
def random_decide_nb(R, obs, opts, n, prm):
    # multiply-shift on the 32 random bits of the observation: bias below 2**-24 for n <= 128
    return (obs[OB_RAND] * n) >> 32
