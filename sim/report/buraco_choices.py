"""Study 09: Buraco's own choices. Buraco has no frozen pile, no black threes and no asking, so the Canasta
questions do not arise there; its players face others: how big a pile to take whatever its cards, how to reach
the morto (a direct or an indirect knock, R-140), and whether to keep a meld free of wilds for the clean canasta."""

from __future__ import annotations

from typing import Any

from sim.report.common import Study
from sim.report.knob_study import Part, knob_study, register

TAKE_VALUES = ("off", 2, 3, 4, 6, 8, 12)


KNOCK_VALUES = ("direct", "indirect")


CLEAN_VALUES = ("off", 3, 4, 5, 6, 7)


PARTS = register("buraco_choices", (
    Part("bu_take", TAKE_VALUES, question="How big a pile is worth taking, whatever its cards?",
         decision="taking the whole discard pile", points=("draw-or-take",),
         note="`bu_take=N` takes every pile of at least N cards whatever its cards are worth; `off` leaves the "
              "choice to the pile's worth (`bu_pile`). A smaller pile is still taken when its cards are worth "
              "enough, so two settings may play the same games where no pile between them is ever refused."),
    Part("bu_knock", KNOCK_VALUES, question="Reach the morto by a direct knock or an indirect one?",
         decision="melding the last cards to reach the morto", points=("meld", "discard"),
         note="A direct knock melds the hand's last cards and plays on with the morto at once; an indirect one keeps "
              "a card to discard and picks the morto up from the next turn (R-140)."),
    Part("bu_clean", CLEAN_VALUES, question="Keep a meld free of wilds for the clean canasta?",
         decision="adding a wild to a meld of naturals", points=("meld",),
         note="`bu_clean=N` adds no wild to a wild-free meld of N naturals or more (a clean canasta scores 200, a "
              "dirty one 100), unless the wild completes a canasta with the stock nearly gone."),
))


PRESET = "buraco-2p"  # the study's preset when none is named


def buraco_choices(games: int | None = None, variant: str = PRESET, **kw: Any) -> Study:
    return knob_study(
        "buraco_choices", "Buraco: take the pile, knock to the morto, keep canastas clean?",
        "Which of Buraco's own choices change the share of games won: how big a pile to take whatever its cards, "
        "how to reach the morto, and whether to keep a meld clean?",
        PARTS, games, variant=variant, **kw)
