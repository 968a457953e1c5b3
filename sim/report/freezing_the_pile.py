"""Study 01: should I freeze the pile?"""

from __future__ import annotations

from typing import Any

from sim.report.common import Study
from sim.report.knob_study import Part, knob_study, register

FREEZE_VALUES = ("never", "always", 2, 5, 10, 15, 20, 30)


PARTS = register("freezing_the_pile", (Part("freeze", FREEZE_VALUES, question="Should I freeze the pile?",
              decision="discarding a wild card to freeze the pile", points=("discard",)),))


def freezing_the_pile(games: int | None = None, **kw: Any) -> Study:
    return knob_study(
        "freezing_the_pile", "Should I freeze the pile?",
        "Does discarding a wild to freeze the discard pile win more games, and when: never, always, or once "
        "the opponents have melded and the pile holds at least N cards?",
        PARTS, games, **kw)
