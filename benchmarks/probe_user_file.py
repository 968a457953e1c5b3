"""A user strategy file as `--load` reads one: benchmarks/user_file_start.py times its kept start, and
tests/engine/test_jit.py checks that it compiles once for its content. Both copy it under a name and a first
line of their own, so that its first run compiles."""

from sim.engine import contract as L
from strategies.user import DEFER, user_strategy


@user_strategy("probe-high-discard", base="baseline")
def probe_high_discard(rules, obs, opts, n, knobs):
    """Throws its most valuable card."""
    if obs[L.OB_DP] != L.DP_DISCARD:
        return DEFER
    best, bestv = 0, -1
    for i in range(n):
        v = rules[L.R_CARDVAL + L.card_rank(L.option_card(opts, i))]
        if v > bestv:
            best, bestv = i, v
    return best
