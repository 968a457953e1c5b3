"""Study 04: how small a pile is worth taking?"""

from __future__ import annotations

from typing import Any

from sim.report.common import Study
from sim.report.knob_study import Part, knob_study, register

MIN_PILE_VALUES = (1, 2, 3, 4, 5, 6, 8, 10, 12)


PARTS = register("taking_the_pile", (Part("min_pile", MIN_PILE_VALUES, question="How big a pile is worth taking?",
              decision="taking the discard pile",
              points=("draw-or-take",)),))


def taking_the_pile(games: int | None = None, **kw: Any) -> Study:
    return knob_study(
        "taking_the_pile", "How big a pile is worth taking?",
        "Once the side has melded, is a small discard pile worth taking, or only a big one?",
        PARTS, games, **kw)
