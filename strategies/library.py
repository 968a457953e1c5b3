"""The named strategies: `random`, and `baseline` with its relatives, each a point of view expressed
as knob defaults of the one heuristic kernel (strategies/heuristic.py, which declares the knobs with
their ranges, defaults and meanings). This module only composes them; docs/strategies.md says why each
one plays as it does."""

from __future__ import annotations

from . import heuristic as H
from . import learned
from .frozen import reference as REF
from .random_ import random_decide_nb
from .registry import StrategySpec, register

RANDOM = register(StrategySpec(
    "random", random_decide_nb, "uniform among the legal choices at every decision point (also the engine's fuzzer)"))

BASELINE = register(StrategySpec(
    "baseline", H.heuristic_decide_nb,
    "club heuristic: takes piles of 3 or more, opens with the fewest cards of highest value, builds and "
    "completes canastas with wilds only to finish one, safe discards, asks the partner, goes out at once",
    H.FAMILY_KNOBS))  # the knobs as the kernels declare them (strategies/heuristic.py, strategies/buraco.py)

REFERENCE = register(StrategySpec(
    "reference", REF.reference_decide_nb,
    "the fixed yardstick: baseline as it played at the end of issue 25, its kernel frozen "
    "(strategies/frozen/reference.py), so that every later player is measured against the same opponent",
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

# Tuned by `canasta-lab tune` against `reference`, one family at a time on that family's own games, then at the
# presets where the family's values measured short (the command of each, and its confirmation on 20,000 fresh
# games, in EXPERT_TUNED); the defaults for every variant are Classic for four's. `canasta-lab strategies --variant V`
# shows the defaults expert plays at V.
EXPERT_TUNING = ("canasta-lab tune baseline --vs baseline --knobs min_pile=0..15,freeze=0..30,hold_black3=0..20,"
                 "ask=0..15,answer_max=0..300,meld,wilds,go_out=0..1500,canastas=0..4,natural=3..9 "
                 "--budget 800000 --variant classic-4p --seed 1 --name expert")
_TUNE = ("canasta-lab tune baseline --vs reference --knobs {knobs} --budget 300000 --variant {variant} --seed 1 "
         "--confirm 20000 --name expert")
_CANASTA = "min_pile=0..15,freeze=0..30,hold_black3=0..20,ask=0..15,answer_max=0..300,meld,wilds,go_out=0..1500," \
           "canastas=0..4,natural=3..9"
_ALONE = _CANASTA.replace(",ask=0..15,answer_max=0..300", "")  # the Canasta knobs where no partner is asked
_BURACO = "wilds,go_out=0..1500,bu_take=2..12,bu_pile=-100..300,bu_seq,bu_knock,bu_clean"
EXPERT_TUNED: dict[str, tuple[str, str, dict[str, str | float]]] = {
    # family or preset: (the command, its confirmation against reference on fresh deals, the tuned defaults)
    "classic": (EXPERT_TUNING, "classic-4p, 200,000 games: win rate 0.575 [0.573, 0.577], Elo +52.5 [+51.3, +53.7]",
                {}),
    "classic-2p": (_TUNE.format(knobs=_ALONE, variant="classic-2p"),
                   "classic-2p: win rate 0.564 [0.558, 0.570], Elo +44.6 [+40.1, +49.2]",
                   dict(min_pile=3, freeze="never", hold_black3="throw", meld="all", wilds="save", go_out="asap",
                        canastas=1, natural=5)),
    "classic-3p": (_TUNE.format(knobs=_ALONE, variant="classic-3p"),
                   "classic-3p: win rate 0.622 [0.617, 0.626], Elo +86.2 [+82.7, +89.8]",
                   dict(min_pile=0, freeze="never", hold_black3="throw", meld="all", wilds="save", go_out="asap",
                        canastas=0, natural="off")),
    "classic-6p": (_TUNE.format(knobs=_CANASTA, variant="classic-6p"),
                   "classic-6p: win rate 0.619 [0.613, 0.624], Elo +84.0 [+79.8, +88.2]",
                   dict(min_pile=1, freeze=25, hold_black3="throw", ask="always", answer_max=270, meld="all",
                        wilds="free", go_out="asap", canastas=1, natural=6)),
    # take_top fixed to useful: with take_top=always (the tuner's first pick, +511 Elo against reference) two
    # experts take the top discard from each other for ever, every hand of their mirror games ending at the turn cap
    "house-001-2p": (_TUNE.replace("baseline", "baseline:take_top=useful", 1).format(knobs=_ALONE,
                                                                                     variant="house-001-2p"),
                     "house-001-2p: win rate 0.889 [0.885, 0.894], Elo +362.1 [+354.7, +369.8]",
                     dict(min_pile=3, freeze=3, hold_black3=3, meld="pairs", wilds="save", go_out=1313, canastas=3,
                          natural="off", take_top="useful")),
    "house-001": (_TUNE.format(knobs=_CANASTA + ",take_top", variant="house-001-4p"),
                  "house-001-4p: win rate 0.575 [0.570, 0.581], Elo +52.8 [+48.8, +56.8]",
                  dict(min_pile=0, freeze=22, hold_black3="throw", ask="never", answer_max="yes", meld="all",
                       wilds="save", go_out="asap", canastas=1, natural=7, take_top="useful")),
    "house-003": (_TUNE.format(knobs=_CANASTA, variant="house-003-4p"),
                  "house-003-4p: win rate 0.672 [0.666, 0.678], Elo +124.8 [+120.1, +129.5]",
                  dict(min_pile=3, freeze="never", hold_black3="throw", ask=14, answer_max="yes", meld="all",
                       wilds="save", go_out="asap", canastas=2, natural=7)),
    "boat": (_TUNE.format(knobs=_CANASTA + ",wild_meld", variant="boat-4p"),
             "boat-4p: win rate 0.897 [0.893, 0.901], Elo +375.4 [+368.0, +383.1]",
             dict(min_pile=0, freeze="never", hold_black3="throw", ask=2, answer_max="yes", meld="all",
                  wilds="save", go_out="asap", canastas=0, natural=8, wild_meld="never")),
    "pennies": (_TUNE.format(knobs=_CANASTA + ",wild_meld,foot,sevens", variant="pennies-6p"),
                "pennies-6p: win rate 0.612 [0.606, 0.618], Elo +79.2 [+75.0, +83.5]",
                dict(min_pile=3, freeze=20, hold_black3="throw", ask=8, answer_max="yes", meld="all", wilds="save",
                     go_out="asap", canastas=3, natural=3, wild_meld=3, foot=774, sevens="free")),
    "railroad": (_TUNE.format(knobs=_ALONE + ",wild_meld,foot=0..1000,sevens", variant="railroad-4p"),
                 "railroad-4p: win rate 0.746 [0.741, 0.750], Elo +186.8 [+182.4, +191.2]",
                 dict(min_pile=5, freeze="always", hold_black3="throw", meld="three", wilds="save", go_out="asap",
                      canastas=0, natural=9, wild_meld=5, foot=98, sevens="build")),
    "buraco-2p": (_TUNE.format(knobs=_BURACO, variant="buraco-2p"),
                  "buraco-2p: win rate 0.515 [0.510, 0.520], Elo +10.5 [+7.1, +13.8]",
                  dict(wilds="free", go_out="asap", bu_take=2, bu_pile=-24, bu_seq=-23, bu_knock="direct",
                       bu_clean="off")),
    "buraco-4p": (_TUNE.format(knobs=_BURACO, variant="buraco-4p"),
                  "buraco-4p: win rate 0.536 [0.530, 0.542], Elo +25.1 [+20.7, +29.6]",
                  dict(wilds="save", go_out="asap", bu_take="off", bu_pile=-14, bu_seq=-24, bu_knock="direct",
                       bu_clean=12)),
    "railroad-2p": (_TUNE.format(knobs=_ALONE + ",wild_meld,foot=0..1000,sevens", variant="railroad-2p"),
                    "railroad-2p: win rate 0.853 [0.848, 0.858], Elo +305.1 [+298.5, +311.8]",
                    dict(min_pile=5, freeze="always", hold_black3=6, meld="pairs", wilds="save", go_out="asap",
                         canastas=1, natural="off", wild_meld=4, foot=704, sevens="build")),
}
# The discard weights (knobs d_*) learned from the lookahead's own discards by `canasta-lab learn`, kept at the
# presets where expert with them beat expert without them head to head on fresh deals (the figures beside them).
EXPERT_LEARNED: dict[str, tuple[str, str, dict[str, str | float]]] = {
    # preset: (the command, the check against expert without them, the learned weights); two rounds where the
    # lookahead over an expert holding the first round's weights labelled its discards again and did better
    "classic-4p": ("canasta-lab learn classic-4p -s search:rollout=expert --against expert --games 200 --seed 1",
                   "classic-4p, 4,000 games against expert without them (seed 2): win rate 0.513 [0.501, 0.524], "
                   "Elo +8.9 [+0.8, +16.9]",
                   dict(d_value=-0.08611, d_danger=-0.6298, d_own=0.4652, d_pairs=-0.4889, d_seen=0.6974,
                        d_next_danger=-0.6298, d_next_holds=-0.08183, d_next_pair=0.169, d_pile_risk=-0.1849,
                        d_dead=0.06087, d_single=1.186, d_late=0.0944)),
    "classic-3p": ("canasta-lab learn classic-3p -s search:rollout=expert --against expert --games 200 --seed 1, "
                   "then with those weights in expert: canasta-lab learn classic-3p -s search:rollout=expert "
                   "--against expert --games 200 --seed 3",
                   "classic-3p, 4,000 games (seed 2): the first round's against expert without them win rate 0.559 "
                   "[0.548, 0.569], Elo +41.0 [+33.6, +48.5]; the second's against the first's 0.511 [0.501, 0.521], "
                   "Elo +7.6 [+0.9, +14.4]",
                   dict(d_value=-0.07343, d_danger=0.0672, d_own=-0.5154, d_pairs=-0.5084, d_seen=0.5352,
                        d_next_danger=0.2481, d_next_holds=0.3277, d_next_pair=0.3723, d_pile_risk=-0.1899,
                        d_dead=0.09623, d_single=1.275, d_late=0.1209)),
    "house-001-3p": ("canasta-lab learn house-001-3p -s search:rollout=expert --against expert --games 200 --seed 1, "
                     "then with those weights in expert: canasta-lab learn house-001-3p -s search:rollout=expert "
                     "--against expert --games 200 --seed 3",
                     "house-001-3p, 4,000 games (seed 2): the first round's against expert without them win rate "
                     "0.546 [0.535, 0.557], Elo +32.0 [+24.4, +39.6]; the second's against the first's 0.531 "
                     "[0.521, 0.541], Elo +21.6 [+14.4, +28.9]",
                     dict(d_value=-0.06861, d_danger=0.01829, d_own=0.4399, d_pairs=-0.5132, d_seen=0.3184,
                          d_next_danger=0.2408, d_next_holds=0.3203, d_next_pair=0.7567, d_pile_risk=-0.2506,
                          d_dead=0.1007, d_single=1.01, d_late=0.1009)),
    "buraco-4p": ("canasta-lab learn buraco-4p -s search:rollout=expert --against expert --games 200 --seed 1 "
                  "--check 4000",
                  "buraco-4p, 4,000 games against expert without them (the check's fresh deals, seed 1000001): win "
                  "rate 0.509 [0.500, 0.518], Elo +6.3 [+0.2, +12.3]",
                  dict(bd_use=-0.4096, bd_own=-0.3011, bd_opp=-0.5873, bd_value=0.02344, bd_next=-0.5873,
                       bd_next_holds=-0.3235, bd_pile_risk=-0.1066, bd_wild=36.95, bd_late=-0.04941)),
}


def _expert_at() -> dict[str, dict[str, str | float]]:
    """expert's defaults by family or preset: the tuned knobs, and the learned discard weights beside them."""
    at: dict[str, dict[str, str | float]] = {scope: dict(tuned) for scope, (_, _, tuned) in EXPERT_TUNED.items()
                                              if tuned}
    for scope, (_, _, weights) in EXPERT_LEARNED.items():
        at.setdefault(scope, {}).update(weights)
    return at


EXPERT = register(BASELINE.with_defaults(
    "expert",
    "baseline tuned against reference for each variant family on its own games, and for the player counts where "
    "the family's values did not carry (strategies/library.py, EXPERT_TUNED), with discard weights learned from the "
    "lookahead's own discards where they won (EXPERT_LEARNED): at Classic for four it freezes piles "
    "of 20 or more once the opponents have opened, throws black threes at once, never asks and answers no; "
    "`canasta-lab strategies --variant V` shows its defaults at V",
    at=_expert_at(),
    min_pile=3, freeze=20, hold_black3="throw", ask="never", answer_max="no", meld="all", wilds="save",
    go_out="asap", canastas=1, natural="off"))

# after expert: its choice is one of learned's features, and learned carries its knobs (the teacher's)
LEARNED = register(learned.learned_spec())
