"""The named strategies: `random`, and `baseline` with its relatives, each a point of view expressed
as knob defaults of the one heuristic kernel (strategies/heuristic.py). docs/strategies.md says why
each one plays as it does."""

from __future__ import annotations

from dataclasses import replace

from . import Knob, StrategySpec, register
from . import buraco as B
from . import heuristic as H
from .random_ import random_decide_nb

PILE = 108.0  # no pile is larger than the pack

# where each knob acts (strategies.FEATURES): the heuristic hands a game with sequences (Buraco) to
# strategies/buraco.py, which reads wilds, go_out and the bu_ knobs only; the Canasta decisions read the rest
CANASTA = ("canasta",)
ASKING = ("canasta", "partners")  # asking and answering (DP_ASK, DP_ANSWER): the engine offers them with partners
BURACO = ("buraco",)
WILDS = ("wilds_in_melds",)  # wilds: the Canasta games' and Buraco's meld scores both read it

# every heuristic knob counts cards or points: whole numbers only (min_pile=3.5 is refused, not rounded)
HEURISTIC_KNOBS = tuple(replace(k, whole=True) for k in (
    Knob("min_pile", H.K_MIN_PILE, 0, PILE, 3,
         "smallest pile (cards) worth taking once the side has melded", needs=CANASTA),
    Knob("freeze", H.K_FREEZE, 0, PILE, H.FREEZE_NEVER,
         "freeze the pile with a wild: never, always when able, or N: once an opponent side has "
         "melded and the pile holds at least N cards",
         (("never", H.FREEZE_NEVER), ("always", H.FREEZE_ALWAYS)), needs=CANASTA),
    Knob("hold_black3", H.K_HOLD_B3, 0, PILE, 4,
         "black threes: throw at once, keep for a going-out meld, or N: throw only on piles of at "
         "least N cards",
         (("throw", 0.0), ("keep", -1.0)), needs=CANASTA),
    Knob("ask", H.K_ASK, 0, 30, 0,
         "ask the partner 'may I go out?': never, always, or N: when the partner holds at least N cards",
         (("never", -1.0), ("always", 0.0)), needs=ASKING),
    Knob("answer_max", H.K_ANSWER_MAX, 0, 10000, 100,
         "answer yes unless the own hand holds at least P points (yes: always yes, no: always no)",
         (("yes", 1e9), ("no", 0.0)), needs=ASKING),
    Knob("meld", H.K_MELD, 0, 2, H.MELD_ALL,
         "all: lay everything; three: lay three-card melds and hold extra cards back until they make "
         "a canasta; pairs: as three, and never meld a natural pair with a wild (keep it for the pile)",
         (("all", H.MELD_ALL), ("three", H.MELD_THREE), ("pairs", H.MELD_PAIRS)), needs=CANASTA),
    Knob("wilds", H.K_WILDS, 0, 1, 0,
         "save: wilds only complete a canasta, reach the minimum or go out; free: add them anywhere",
         (("save", 0.0), ("free", 1.0)), needs=WILDS),
    Knob("go_out", H.K_GO_OUT, 0, 20000, -1,
         "go out as soon as legal, or M: only when ahead by at least M points (scores plus table) or "
         f"when an opponent with at most {H.THREAT_CARDS} cards has the canastas to go out",
         (("asap", -1.0),)),
    Knob("canastas", H.K_CANASTAS, 0, 20, 0,
         "go out only once the side holds at least N canastas (0: the rules' minimum); a partner's "
         "'yes' or an opponent threatening to go out brings it back to the rules' minimum", needs=CANASTA),
    Knob("natural", H.K_NATURAL, 0, 20, H.NATURAL_OFF,
         "off, or N: add no wild to a wild-free meld of at least N naturals, so that it can become "
         "a natural canasta (a wild may still go there to go out)",
         (("off", H.NATURAL_OFF),), needs=CANASTA + WILDS),
    Knob("take_top", H.K_TOP, -1, 1, H.TOP_USEFUL,
         "where the rules offer the top discard alone as a draw (House-001): never, useful (once the side "
         "has opened, when it makes a meld with two cards held or, under meld=all, joins an own meld) or "
         "always; a red three "
         "on top is always taken",
         (("never", H.TOP_NEVER), ("useful", H.TOP_USEFUL), ("always", H.TOP_ALWAYS)),
         needs=CANASTA + ("top_card_draw",)),
    Knob("wild_meld", H.K_WILD_MELD, 3, 12, 4,
         "where the rules have wild melds (Boat, Pennies, Railroad): never (but to go out), or N: start the "
         "side's wild meld once holding at least N wild cards (jokers first), then feed it, completing its "
         "canasta first and never adding a two that would tie a big wild canasta; where going out needs a wild "
         "canasta, wilds stay out of rank melds once the side has its mixed canasta",
         (("never", H.WILD_MELD_NEVER),), needs=CANASTA + ("wild_melds",)),
    Knob("foot", H.K_FOOT, 0, 1000, 300,
         "where players have a foot or kitty (Pennies, Railroad), racing to pick it up: points added to the meld "
         "that completes the canasta bringing the player's own foot, half of them to a wild spent to complete one "
         "this turn, and as many taken off a wild that would complete a canasta that does not bring it "
         "(Railroad's black canasta); 0: no race", needs=CANASTA + ("feet",)),
    Knob("sevens", H.K_SEVENS, 0, 1, H.SEVENS_BUILD,
         "where sevens make a canasta of their own (Pennies, Railroad): build (keep sevens, never discard one, "
         "lay them towards the sevens canasta) or free (ordinary cards)",
         (("free", H.SEVENS_FREE), ("build", H.SEVENS_BUILD)), needs=CANASTA + ("sevens",)),
    Knob("bu_take", B.K_BU_TAKE, 1, PILE, 2,
         "Buraco (BU-D1): take the whole pile when it holds at least N cards, or when its top card is laid at once "
         "(it fits a meld of the side, or makes a set or a sequence with cards held); 1: always (two such players take "
         "the pile from each other for ever: the turn cap ends the hand)", needs=BURACO),
    Knob("bu_seq", B.K_BU_SEQ, -50, 50, -20,
         "Buraco (BU-D2): points a new sequence is preferred by over a new set (negative: sets first)",
         needs=BURACO),
    Knob("bu_knock", B.K_BU_KNOCK, 0, 1, B.KNOCK_DIRECT,
         "Buraco (BU-D3): reach the morto by a direct knock (meld the last cards, play on with it) or an "
         "indirect one (keep a card to discard, play the morto from the next turn; R-140's risk)",
         (("direct", B.KNOCK_DIRECT), ("indirect", B.KNOCK_INDIRECT)), needs=BURACO),
    Knob("bu_clean", B.K_BU_CLEAN, 3, 13, B.CLEAN_OFF,
         "Buraco (BU-D4): off, or N: no wild onto a wild-free meld of N naturals or more, so that it can become a "
         "clean canasta (200 against 100), unless it completes a canasta with the stock nearly gone",
         (("off", B.CLEAN_OFF),), needs=BURACO),
))

RANDOM = register(StrategySpec(
    "random", random_decide_nb, "uniform among the legal choices at every decision point (also the engine's fuzzer)"))

BASELINE = register(StrategySpec(
    "baseline", H.heuristic_decide_nb,
    "club heuristic: takes piles of 3 or more, opens with the fewest cards of highest value, builds and "
    "completes canastas with wilds only to finish one, safe discards, asks the partner, goes out at once",
    HEURISTIC_KNOBS))

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
