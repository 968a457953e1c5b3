"""Games per second of fast library players in mirror play (each against itself), at every preset or those
given, one process: issue 26's check that `expert` keeps at least half of `reference`'s speed.

    python benchmarks/player_speed.py [--games 2000] [--players reference,expert] [variants ... | all]
"""

from __future__ import annotations

import argparse
import time

from sim import play
from sim.rules import PRESETS
from sim.run.runner import prepare_engine


def games_per_second(variant: str, player: str, games: int, seed: int = 1) -> float:
    play(variant, [player], games=2, seed=seed + 1, workers=1)  # compile or load, and warm
    t = time.perf_counter()
    play(variant, [player], games=games, seed=seed, workers=1)
    return games / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variants", nargs="*", default=["all"], help="presets, or all (the default)")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", default="reference,expert", help="comma-separated fast players")
    a = ap.parse_args()
    variants = list(PRESETS) if a.variants == ["all"] else a.variants
    players = a.players.split(",")
    prepare_engine()
    print(f"games per second in mirror play, {a.games} games, one process: " + ", ".join(players)
          + (f"; ratio {players[1]}/{players[0]}" if len(players) == 2 else ""))
    for v in variants:
        speeds = [games_per_second(v, p, a.games) for p in players]
        ratio = f"; ratio {speeds[1] / speeds[0]:.2f}" if len(speeds) == 2 else ""
        print(f"{v}: " + ", ".join(f"{p} {s:,.0f}" for p, s in zip(players, speeds, strict=True)) + ratio, flush=True)


if __name__ == "__main__":
    main()
