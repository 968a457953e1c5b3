"""How fast `search` plays: its decisions per second, and the games per second of a `search` against
`baseline` match next to `baseline` against itself, one process, at classic-4p and classic-2p.

    python benchmarks/search_speed.py [--games 10] [--samples 16] [--seed 1] [variants ...]

A decision here is one that `search` was asked (more than one legal option); its time includes the
other seats' turns, which cost next to nothing beside the rollouts. The engine is compiled or loaded
before the clock starts.
"""

from __future__ import annotations

import argparse
import time

from sim import play, trace_decisions
from sim.run.runner import prepare_engine
from strategies.search import DEFAULT_SAMPLES


def measure(variant: str, games: int, samples: int, seed: int) -> dict[str, float]:
    """One timed match of each kind; the search seats' decisions are counted from a trace of the
    same games (tracing costs microseconds a decision, rollouts milliseconds)."""
    t = time.perf_counter()
    play(variant, ["baseline"], games=max(games, 200), seed=seed, workers=1)
    base_gps = max(games, 200) / (time.perf_counter() - t)
    t = time.perf_counter()
    tr = trace_decisions(variant, [f"search:samples={samples}", "baseline"], games, seed, traced=(0,))
    dt = time.perf_counter() - t
    return {"games_per_second": games / dt, "decisions_per_second": len(tr) / dt,
            "decisions_per_game": len(tr) / games, "seconds_per_game": dt / games,
            "baseline_games_per_second": base_gps}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variants", nargs="*", default=["classic-4p", "classic-2p"])
    ap.add_argument("--games", type=int, default=10, help="games of search against baseline per variant")
    ap.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="search's samples knob")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    prepare_engine()
    print(f"search:samples={a.samples} against baseline, {a.games} games per variant, one process")
    for v in a.variants:
        m = measure(v, a.games, a.samples, a.seed)
        print(f"{v}: {m['decisions_per_second']:.1f} search decisions/s "
              f"({m['decisions_per_game']:.0f} a game), {m['games_per_second']:.3f} games/s "
              f"({m['seconds_per_game']:.2f} s a game); baseline vs baseline "
              f"{m['baseline_games_per_second']:.0f} games/s", flush=True)


if __name__ == "__main__":
    main()
