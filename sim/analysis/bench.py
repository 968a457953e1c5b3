"""`canasta-lab bench`: the performance figures of DESIGN.md, measured on one core."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from typing import Any

from sim.engine import layout as L
from sim.run.runner import make_job, run_chunk

WARM_START = """
import time, sys
t0 = float(sys.argv[1])
from sim.run.runner import make_job, run_chunk
run_chunk(make_job(sys.argv[2], ["baseline"], 1), 0, 1, False)
print(time.time() - t0)
"""


USER_FIRST_GAME = """
import time, sys
from sim.engine import layout as L
from sim.run.runner import make_job, run_chunk
from strategies.user import DEFER, user_strategy
t0 = time.perf_counter()

@user_strategy("bench-user", base="baseline")
def high_discard(rules, obs, opts, n, knobs):
    if obs[L.OB_DP] != L.DP_DISCARD:
        return DEFER
    best = 0
    for i in range(1, n):
        if rules[L.R_CARDVAL + opts[i, 1] // 4] > rules[L.R_CARDVAL + opts[best, 1] // 4]:
            best = i
    return best

t1 = time.perf_counter()
run_chunk(make_job(sys.argv[1], ["bench-user", "baseline"], 1), 0, 1, False)
print(t1 - t0, time.perf_counter() - t0)
"""


def user_first_game(variant: str) -> tuple[float, float]:
    """Seconds to compile a user strategy, and from its definition until its first game has been
    played, in a fresh interpreter with the engine cached (issue 3: within 2 s)."""
    out = subprocess.run([sys.executable, "-c", USER_FIRST_GAME, variant],
                         capture_output=True, text=True, check=True)
    compile_s, total = out.stdout.strip().splitlines()[-1].split()
    return float(compile_s), float(total)


def _timed(variant: str, strategy: str, min_seconds: float, batch: int) -> tuple[float, int, int, int]:
    job = make_job(variant, [strategy], seed=12345)
    run_chunk(job, 0, 2, False)  # load or compile the kernels before timing
    games = hands = decisions = 0
    t0 = time.perf_counter()
    g0 = 0
    while True:
        rows, _ = run_chunk(job, g0, batch, False)
        g0 += batch
        games += len(rows)
        hands += int(rows[:, L.G_NHANDS].sum())
        decisions += int(rows[:, L.G_DECISIONS].sum())
        dt = time.perf_counter() - t0
        if dt >= min_seconds:
            return dt, games, hands, decisions


def cold_start(variant: str) -> float:
    """Seconds from launching a fresh interpreter with an empty compiled cache (a new install) until
    it has played its first game: the engine and the strategy it plays (baseline) compiled from scratch."""
    with tempfile.TemporaryDirectory(prefix="canasta-lab-cold-") as d:
        env = {**os.environ, "NUMBA_CACHE_DIR": d}
        t0 = time.time()
        out = subprocess.run([sys.executable, "-c", WARM_START, repr(t0), variant],
                             capture_output=True, text=True, check=True, env=env)
    return float(out.stdout.strip().splitlines()[-1])


def warm_start(variant: str) -> float:
    """Seconds from launching a fresh interpreter until it has played a game (cached kernels)."""
    t0 = time.time()
    out = subprocess.run([sys.executable, "-c", WARM_START, repr(t0), variant],
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def bench(variant: str, min_seconds: float = 3.0, cold: float | None = None) -> dict[str, Any]:
    """The figures for one variant; `cold` is the cold start measured once for the run (the compiled
    engine is the same for every variant), or None when it was not measured."""
    dt, games, hands, _ = _timed(variant, "baseline", min_seconds, 200)
    rdt, _, _, rdec = _timed(variant, "random", min_seconds, 200)
    warm_start(variant)  # make sure this process's cache is on disk before timing a fresh one
    user_first_game(variant)
    firsts = [user_first_game(variant) for _ in range(3)]
    return {
        "variant": variant,
        "hands_per_second": round(hands / dt, 1),
        "games_per_second": round(games / dt, 1),
        "us_per_decision": round(rdt / rdec * 1e6, 3),
        "warm_start_seconds": round(min(warm_start(variant) for _ in range(3)), 3),
        "cold_start_seconds": None if cold is None else round(cold, 1),
        "user_compile_seconds": round(min(f[0] for f in firsts), 3),
        "user_first_game_seconds": round(min(f[1] for f in firsts), 3),
        "hands_per_game": round(hands / games, 2),
        "baseline_games_timed": games,
        "random_decisions_timed": rdec,
    }
