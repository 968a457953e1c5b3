"""Study 02: when should I throw my black threes?"""

from __future__ import annotations

from typing import Any

from sim.report.common import Study
from sim.report.knob_study import Part, knob_study, register

BLACK3_VALUES = ("throw", "keep", 2, 4, 8, 12)


PARTS = register("black_threes", (Part("hold_black3", BLACK3_VALUES, question="Hold black threes or throw them?",
              decision="throwing a black three to block the pile", points=("discard",)),))


def black_threes(games: int | None = None, **kw: Any) -> Study:
    return knob_study(
        "black_threes", "Hold black threes or throw them?",
        "A black three blocks the next player from the pile for one turn. Should it be thrown at once, kept "
        "for a going-out meld, or saved for a pile of at least N cards?",
        PARTS, games, **kw)
