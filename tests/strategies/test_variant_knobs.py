"""The knobs of the variants' own decision points (VARIANTS.md 6.2) change play as they say: House-001's
top card alone (H1-D1, `take_top`), Boat's wild meld (B-D2, `wild_meld`), and in Pennies and Railroad
the wild canasta (P-D3, `wild_meld`), sevens (P-D2, RR-D2, `sevens`) and the race for the foot (P-D1,
RR-D1, `foot`), measured on real games."""

from __future__ import annotations

from functools import cache

import pandas as pd
import pytest

from sim import play
from sim.records.transcript import events
from sim.run.runner import make_job
from strategies import StrategyError


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
    """Elsewhere no top card is taken, and the knob, which could never act there, is refused."""
    for variant in ("classic-4p", "house-003-4p", "boat-4p"):
        assert per_side(hands(variant, "baseline", 40), "top_takes") == 0
        with pytest.raises(StrategyError, match=f"knob 'take_top' of baseline never acts at {variant}"):
            make_job(variant, ["baseline:take_top=always"], 5)


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


def seven_discards(variant: str, strategy: str, games: int = 6) -> tuple[int, int]:
    """Sevens discarded, and all discards, in the first games of a run (from their transcripts)."""
    job = make_job(variant, [strategy], 5)
    sevens = total = 0
    for g in range(games):
        for e in events(job, g):
            if e["event"] == "discard":
                total += 1
                sevens += e["card"][0] == "7"
    return sevens, total


def by_strategy(variant: str, a: str, b: str, name: str, games: int = 160) -> tuple[float, float]:
    """A per-side hand count (`name`) of strategy a and of strategy b, playing each other on duplicate
    deals (each side's hands split by the strategy that side held in that game)."""
    r = play(variant, [a, b], games=games, seed=5, hands=True, workers=1)
    nsides = sum(1 for c in r.hands.columns if c.startswith("total_"))
    held = {name_: [0.0, 0] for name_ in (a, b)}
    for s in range(nsides):
        # a side's label joins its seats' strategies with '+'; here every seat of a side plays the same
        strategy = r.hands.game.map(r.games.set_index("game")[f"strategy_{s}"]).str.split("+").str[0]
        for x in (a, b):
            mask = strategy == x
            held[x][0] += float(r.hands.loc[mask, f"{name}_{s}"].sum())
            held[x][1] += int(mask.sum())
    return held[a][0] / held[a][1], held[b][0] / held[b][1]


def test_rr_sevens_build_discards_no_seven_while_free_does():
    """RR-D2/P-D2: `sevens=build` keeps every seven (Railroad lets them be discarded, R-118); `free` throws
    them like any card. Against each other, build completes more sevens canastas."""
    kept, total = seven_discards("railroad-2p", "baseline")
    thrown, _ = seven_discards("railroad-2p", "baseline:sevens=free")
    assert total > 100 and kept <= total // 50  # only when nothing but sevens and wilds is left
    assert thrown > 3 * max(kept, 1)
    build, free = by_strategy("railroad-2p", "baseline", "baseline:sevens=free", "sevens_canastas")
    assert build > 1.3 * free


def test_p_d3_wild_meld_builds_wild_canastas_that_never_does_not():
    """P-D3: with `wild_meld` the side keeps its wilds out of rank melds once it has its mixed canasta and
    builds the wild canasta; `never` makes one only as a way to go out."""
    for variant in ("pennies-6p", "railroad-2p"):
        eager, never = by_strategy(variant, "baseline:wild_meld=3", "baseline:wild_meld=never", "wild_canastas")
        assert eager > 0.4 and never < eager / 4, variant


def test_r97_pennies_never_discards_a_seven_before_both_teams_have_a_sevens_canasta():
    job = make_job("pennies-6p", ["baseline:sevens=free"], 5)
    sides = ((0, 2, 4), (1, 3, 5))
    for g in range(4):
        sevens_canastas = [0, 0]
        for e in events(job, g):
            if e["event"] == "deal":
                sevens_canastas = [0, 0]
            elif e["event"] == "meld" and e["kind"] == "rank" and len(e["whole"]) == 7 \
                    and all(c[0] == "7" for c in e["whole"]) and len(e["cards"]) > 0:
                sevens_canastas[0 if e["player"] in sides[0] else 1] += 1
            elif e["event"] == "discard" and e["card"][0] == "7":
                assert min(sevens_canastas) > 0, (g, e)


def first_pickup_turn(variant: str, strategy: str, games: int = 12) -> float:
    """The mean turn of the hand at which a foot or kitty comes up (from the transcripts)."""
    job = make_job(variant, [strategy], 5)
    turns = picked = 0
    for g in range(games):
        turn = 0
        for e in events(job, g):
            if e["event"] == "deal":
                turn = 0
            elif e["event"] in ("draw", "take_pile"):
                turn += 1
            elif e["event"] == "foot":
                turns += turn
                picked += 1
    assert picked > 0
    return turns / picked


@pytest.mark.parametrize("variant", ["pennies-6p", "railroad-2p"])
def test_r95_r114_foot_race_picks_feet_up_sooner(variant):
    """P-D1, RR-D1: with `foot` at 1000 a player spends wilds to complete, this turn, the canasta that brings
    its own foot (and none on a Railroad black canasta, which leaves the kitty down), so feet come up
    earlier in the hand than with no race (foot=0)."""
    assert first_pickup_turn(variant, "baseline:foot=1000") < first_pickup_turn(variant, "baseline:foot=0")
