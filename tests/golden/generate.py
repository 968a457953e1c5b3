"""Golden results of every Classic preset: game rows, hand rows and one transcript per preset,
committed before the engine was reshaped by phase (issue 8) and compared bit for bit since.

    python -m tests.golden.generate      # rewrite them, from the checkout's root (only for a deliberate rule change)

Each scenario mixes strategies so that many rule paths are crossed: random play (every legal move),
baseline against random, and relatives of baseline whose knobs freeze, hold, ask and say no.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent

SCENARIOS: dict[str, list[tuple[str, list[str], int, int]]] = {
    # preset: (name, strategies, seed, games)
    "classic-4p": [("random", ["random"], 101, 60), ("baseline-random", ["baseline", "random"], 102, 60),
                   ("freezer-cautious", ["freezer", "cautious"], 103, 40),
                   ("hoarder-aggressive", ["pile-hoarder", "aggressive"], 104, 40)],
    "classic-2p": [("random", ["random"], 201, 60), ("baseline-random", ["baseline", "random"], 202, 60),
                   ("freezer-hoarder", ["freezer", "pile-hoarder"], 203, 40)],
    "classic-3p": [("random", ["random"], 301, 60), ("mixed", ["baseline", "random", "cautious"], 302, 45)],
    "classic-6p": [("random", ["random"], 401, 40), ("baseline-random", ["baseline", "random"], 402, 40),
                   ("cautious-freezer", ["cautious", "freezer"], 403, 30)],
}
TRANSCRIPT = (["baseline", "random"], 7, 3)  # strategies, seed, game


def frames(preset: str, strategies: list[str], seed: int, games: int):
    from sim import play

    r = play(preset, strategies, games=games, seed=seed, hands=True, check=True)
    return r.games, r.hands


def transcript_lines(preset: str) -> list[str]:
    from sim.records.transcript import events
    from sim.run.runner import make_job

    strategies, seed, game = TRANSCRIPT
    return [json.dumps(e, separators=(",", ":")) for e in events(make_job(preset, strategies, seed), game)]


def main() -> None:
    for preset, scenarios in SCENARIOS.items():
        for name, strategies, seed, games in scenarios:
            g, h = frames(preset, strategies, seed, games)
            g.to_parquet(HERE / f"{preset}-{name}-games.parquet", index=False)
            h.to_parquet(HERE / f"{preset}-{name}-hands.parquet", index=False)
        (HERE / f"{preset}-transcript.jsonl").write_text("\n".join(transcript_lines(preset)) + "\n")
    print(f"golden results written to {HERE}")


if __name__ == "__main__":
    main()
