"""Study 03: should I ask my partner "may I go out?", and what should the partner answer?"""

from __future__ import annotations

from typing import Any

from sim.report.common import STRONG, STRONG_NOTE, Study
from sim.report.knob_study import Part, knob_study, register

ASK_VALUES = ("never", "always", 4, 6, 8)


ANSWER_VALUES = ("yes", "no", 50, 100, 200, 400)


BASELINE_ANSWER = "answer_max=100"  # baseline's answer to "may I go out?"


PARTS = register("asking_to_go_out", (Part("ask", ASK_VALUES, question="Should I ask my partner before going out?",
              decision="asking the partner before going out", points=("ask-partner",),
           strong_player=f"{STRONG}:{BASELINE_ANSWER}",
           strong_opponent=f"{STRONG}:{BASELINE_ANSWER}",
           note="`ask=N` asks only when the partner holds at least N cards. `expert` never asks, so its own "
                "answer (always no) has never mattered; asked, it would forbid every going out, so in the "
                f"study both `{STRONG_NOTE}` sides answer as `baseline` does (`{BASELINE_ANSWER}`)."),
      Part("answer_max", ANSWER_VALUES, question="When my partner asks to go out, should I say yes?",
           decision="answering the partner's ask", points=("answer-partner",),
           strong_player=f"{STRONG}:ask=always",
           strong_opponent=f"{STRONG}:ask=always,{BASELINE_ANSWER}",
           note="For the answer, the partner says yes unless the own hand holds at least `answer_max` points; "
                f"`baseline` asks every time, and `{STRONG_NOTE}` is made to ask every time on both sides, its "
                f"opponent answering as `baseline` does."),))


def asking_to_go_out(games: int | None = None, **kw: Any) -> Study:
    return knob_study(
        "asking_to_go_out", "Should I ask my partner before going out, and how should a partner answer?",
        "In a partnership a player may ask \"may I go out?\" and must abide by the answer. Is asking worth it, "
        "and when should the partner say yes?",
        PARTS, games, **kw)
