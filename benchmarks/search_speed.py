"""How fast `search` plays: its decisions per second and CPU seconds a game of `search` (its defaults at each
variant, or --knobs) against `baseline`, next to `baseline` against itself, one process.

    python benchmarks/search_speed.py [--games 10] [--knobs samples=16] [--seed 1] [variants ... | all]

A decision here is one that `search` was asked (more than one legal option); its time includes the
other seats' turns, which cost next to nothing beside the rollouts. The engine is compiled or loaded
before the clock starts.
"""

from __future__ import annotations

import argparse
import resource
import time

from sim import play, trace_decisions
from sim.rules import PRESETS
from sim.run.runner import prepare_engine


def cpu_seconds() -> float:
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


def measure(variant: str, games: int, search: str, seed: int) -> dict[str, float]:
    """One timed match of each kind; the search seats' decisions are counted from a trace of the
    same games (tracing costs microseconds a decision, rollouts milliseconds). A game seats the two as a
    comparison does: alternating, so a three-player game has two `search` seats."""
    t = time.perf_counter()
    play(variant, ["baseline"], games=max(games, 200), seed=seed, workers=1)
    base_gps = max(games, 200) / (time.perf_counter() - t)
    trace_decisions(variant, [search, "baseline"], 1, seed + 1, traced=())  # compile or load search first
    t, c = time.perf_counter(), cpu_seconds()
    tr = trace_decisions(variant, [search, "baseline"], games, seed, traced=(0,))
    dt, dc = time.perf_counter() - t, cpu_seconds() - c
    return {"games_per_second": games / dt, "decisions_per_second": len(tr) / dt,
            "decisions_per_game": len(tr) / games, "seconds_per_game": dt / games, "cpu_per_game": dc / games,
            "baseline_games_per_second": base_gps}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variants", nargs="*", default=["classic-4p", "classic-2p"], help="presets, or all")
    ap.add_argument("--games", type=int, default=10, help="games of search against baseline per variant")
    ap.add_argument("--knobs", default="", help="search's knobs, e.g. samples=16 (default: its defaults)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    variants = list(PRESETS) if a.variants == ["all"] else a.variants
    search = "search" + (f":{a.knobs}" if a.knobs else "")
    prepare_engine()
    print(f"{search} against baseline, {a.games} games per variant, one process")
    for v in variants:
        m = measure(v, a.games, search, a.seed)
        print(f"{v}: {m['cpu_per_game']:.2f} CPU s a game ({m['seconds_per_game']:.2f} s), "
              f"{m['decisions_per_second']:.1f} search decisions/s ({m['decisions_per_game']:.0f} a game); "
              f"baseline vs baseline {m['baseline_games_per_second']:.0f} games/s", flush=True)


if __name__ == "__main__":
    main()
