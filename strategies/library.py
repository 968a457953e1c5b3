"""The named strategies: `random`, and `baseline` with its relatives, each a point of view expressed
as knob defaults of the one heuristic kernel (strategies/heuristic.py, which declares the knobs with
their ranges, defaults and meanings). This module only composes them; docs/strategies.md says why each
one plays as it does."""

from __future__ import annotations

from . import StrategySpec, register
from . import heuristic as H
from . import reference as REF
from .random_ import random_decide_nb

RANDOM = register(StrategySpec(
    "random", random_decide_nb, "uniform among the legal choices at every decision point (also the engine's fuzzer)"))

BASELINE = register(StrategySpec(
    "baseline", H.heuristic_decide_nb,
    "club heuristic: takes piles of 3 or more, opens with the fewest cards of highest value, builds and "
    "completes canastas with wilds only to finish one, safe discards, asks the partner, goes out at once",
    H.FAMILY_KNOBS))  # the knobs as the kernels declare them (strategies/heuristic.py, strategies/buraco.py)

REFERENCE = register(StrategySpec(
    "reference", REF.reference_decide_nb,
    "the fixed yardstick: baseline as it played at the end of issue 25, its kernel frozen (strategies/reference.py), "
    "so that every later player is measured against the same opponent",
    REF.FAMILY_KNOBS))

AGGRESSIVE = register(BASELINE.with_defaults(
    "aggressive",
    "melds everything early and goes out fast: takes any pile, spends wilds freely, throws black "
    "threes at once, never asks and always says yes",
    min_pile=0, meld="all", wilds="free", hold_black3="throw", ask="never", answer_max="yes",
    go_out="asap"))

PILE_HOARDER = register(BASELINE.with_defaults(
    "pile-hoarder",
    "keeps natural pairs and extra cards in hand to take big piles, blocks with black threes once "
    "the pile is large, and stays in the hand while ahead by less than 500",
    min_pile=5, meld="pairs", wilds="save", hold_black3=8, go_out=500))

FREEZER = register(BASELINE.with_defaults(
    "freezer",
    "freezes the pile with a wild as soon as an opponent side has opened, so the opponents need "
    "natural pairs to take it",
    freeze=0, wilds="save"))

CAUTIOUS = register(BASELINE.with_defaults(
    "cautious",
    "asks the partner before going out and says no with 50 points in hand, keeps wilds, lays "
    "three-card melds, keeps black threes, takes only piles of 5 or more and goes out only when not behind",
    ask="always", answer_max=50, wilds="save", meld="three", hold_black3="keep", min_pile=5, go_out=0))

# tuned by the command below (classic-4p, 250 trials, 720,000 games, 348 s on two cores); confirmed on
# 200,000 fresh games against baseline: win rate 0.575 [0.573, 0.577], Elo +52.5 [+51.3, +53.7]
EXPERT_TUNING = ("canasta-lab tune baseline --vs baseline --knobs min_pile=0..15,freeze=0..30,hold_black3=0..20,"
                 "ask=0..15,answer_max=0..300,meld,wilds,go_out=0..1500,canastas=0..4,natural=3..9 "
                 "--budget 800000 --variant classic-4p --seed 1 --name expert")
EXPERT = register(BASELINE.with_defaults(
    "expert",
    "baseline tuned against baseline at Classic-4p: freezes piles of 20 or more once the opponents "
    "have opened, throws black threes at once, never asks and answers no. Tuned by: " + EXPERT_TUNING,
    min_pile=3, freeze=20, hold_black3="throw", ask="never", answer_max="no", meld="all", wilds="save",
    go_out="asap", canastas=1, natural="off"))
