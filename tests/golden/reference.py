"""The games of `baseline` at the commit where `reference` was frozen from it (issue 26's yardstick): at every
preset, baseline on every seat and a knob-changed baseline against baseline, a few games each. `reference`
must play exactly these games with the same knobs (tests/strategies/test_reference.py), whatever `baseline`
becomes.

    python -m tests.golden.reference      # written once, from baseline at that commit; never rewritten
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
FILE = HERE / "reference.json"
SEED = 2026
GAMES = 6
KNOBS = "min_pile=0,meld=three,hold_black3=throw,ask=always,wilds=free,bu_take=3"  # knob paths crossed
COLUMNS = ("winner_side", "n_hands", "turns", "decisions", "capped_hands")


def knobs_at(preset: str) -> str:
    """KNOBS less those that never act at the preset (a knob set where it never acts is refused)."""
    from sim import get_variant
    from strategies import REGISTRY

    v = get_variant(preset)
    return ",".join(item for item in KNOBS.split(",") if REGISTRY["baseline"].knob(item.split("=")[0]).acts_at(v))


def scenarios(preset: str) -> list[tuple[str, list[str]]]:
    return [("mirror", ["{s}"]), ("knobs", ["{s}:" + knobs_at(preset), "{s}"])]


def rows(preset: str, strategies: list[str]) -> list[list[int]]:
    from sim import play

    g = play(preset, strategies, games=GAMES, seed=SEED).games
    scores = sorted(c for c in g.columns if c.startswith("score_"))
    return g[[*COLUMNS, *scores]].to_numpy().tolist()


def record(strategy: str) -> dict[str, dict[str, list[list[int]]]]:
    from sim import PRESETS

    return {preset: {name: rows(preset, [s.format(s=strategy) for s in seats]) for name, seats in scenarios(preset)}
            for preset in PRESETS}


if __name__ == "__main__":
    FILE.write_text(json.dumps({"frozen_from": "baseline", "seed": SEED, "games": GAMES, "knobs": KNOBS,
                                "games_by_preset": record("baseline")}, indent=None) + "\n")
    print(f"wrote {FILE}")
