"""The knobs of the variants' own decision points (VARIANTS.md 6.2) change play as they say: House-001's
top card alone (H1-D1, `take_top`), Boat's wild meld (B-D2, `wild_meld`), measured on real games."""

from __future__ import annotations

from functools import cache

import pandas as pd

from sim.results import play
from sim.runner import make_job
from sim.transcript import events


@cache
def hands(variant: str, strategy: str, games: int = 120) -> pd.DataFrame:
    return play(variant, [strategy], games=games, seed=5, hands=True, workers=1).hands


def per_side(h: pd.DataFrame, name: str) -> float:
    cols = [c for c in h.columns if c.startswith(f"{name}_") and c[len(name) + 1:].isdigit()]
    return float(h[cols].to_numpy().sum() / (len(h) * len(cols)))


def test_r54_take_top_never_takes_no_top_card_useful_some_always_most():
    never = per_side(hands("house-001-4p", "baseline:take_top=never"), "top_takes")
    useful = per_side(hands("house-001-4p", "baseline"), "top_takes")
    always = per_side(hands("house-001-4p", "baseline:take_top=always"), "top_takes")
    assert never == 0
    assert 0.2 < useful < always


def test_r54_take_top_is_offered_only_in_house_001():
    for variant in ("classic-4p", "house-003-4p", "boat-4p"):
        assert per_side(hands(variant, "baseline:take_top=always", 40), "top_takes") == 0


def test_r35_wild_meld_never_builds_no_wild_meld_and_three_builds_wild_canastas():
    wild = ("small_wild_canastas", "big_wild_canastas")
    never = hands("boat-4p", "baseline:wild_meld=never")
    eager = hands("boat-4p", "baseline:wild_meld=3")
    assert sum(per_side(never, c) for c in wild) == 0
    assert sum(per_side(eager, c) for c in wild) > 0.02
    # a wild meld only as the way to go out: then the player's hand empties that very turn
    job = make_job("boat-4p", ["baseline:wild_meld=never"], 5)
    for g in range(8):
        evs = list(events(job, g))
        for i, e in enumerate(evs):
            if e["event"] == "meld" and e["kind"] == "wild" and e["new"]:
                rest = next(x for x in evs[i + 1:] if x["event"] in ("go_out", "draw", "take_pile", "hand_end"))
                assert rest["event"] == "go_out" and rest["player"] == e["player"], (g, i)
