"""Study 07: every strategy question at every preset where it arises, side by side, with a strategy card per
preset.

Each question's own study plays at each preset and sizes itself (its sequential design: sim.report.knob_study);
its games are the question's own study cache, so the question's report, this view and the cards read one answer
record computed from the same games. The records are read side by side by `sim.report.across`."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sim.report.across import across
from sim.report.asking_to_go_out import asking_to_go_out
from sim.report.black_threes import black_threes
from sim.report.buraco_choices import buraco_choices
from sim.report.common import SEED, Study, cache_dir
from sim.report.freezing_the_pile import freezing_the_pile
from sim.report.presets import choose_presets, why_not
from sim.report.taking_the_pile import taking_the_pile
from sim.run.seating import Seating

QUESTIONS: dict[str, Callable[..., Study]] = {
    "freezing_the_pile": freezing_the_pile,
    "black_threes": black_threes,
    "asking_to_go_out": asking_to_go_out,
    "taking_the_pile": taking_the_pile,
    "buraco_choices": buraco_choices,
}


def across_variants(games: int | None = None, seed: int = SEED, check_games: int | None = None,
                    out: str | Path | None = None, rules: Sequence[str] = (), workers: int = 0, progress: Any = None,
                    scheduler: Any = None, presets: Sequence[str] | str | None = None,
                    seating: str | Seating = Seating.REST, questions: Sequence[str] | None = None,
                    report: Callable[[str], None] | None = None) -> Study:
    """Every question of `questions` (default all) at every preset of `presets` (default all) where it arises,
    each sized by its study's design, and the view across them. A preset where a question does not arise is named
    in the view's table of refusals, not played."""
    t0 = time.perf_counter()
    text = presets if isinstance(presets, str) or presets is None else ",".join(presets)
    names = list(questions) if questions is not None else list(QUESTIONS)
    unknown = [q for q in names if q not in QUESTIONS]
    if unknown:
        raise ValueError(f"unknown question {unknown[0]!r}; accepted: {', '.join(QUESTIONS)}")
    chosen = choose_presets("across_variants", text, rules)[0]  # every preset named; the questions pick theirs
    plan, skipped = _plan(names, chosen, rules)
    answers = []
    played: list[Study] = []
    for q, preset in plan:
        cache = Path(out) / q if out is not None else cache_dir(q)
        s = QUESTIONS[q](games=games, seed=seed, check_games=check_games, out=cache, rules=rules, workers=workers,
                         progress=progress, scheduler=scheduler, variant=preset, seating=seating, report=report)
        answers += s.answers
        played.append(s)
    view = across(answers, skipped, seed=seed)
    view.wall_seconds = time.perf_counter() - t0
    view.meta["skipped"] = skipped
    view.meta["studies"] = played  # each question's own study at each preset, which `report` writes beside the view
    return view


def _plan(questions: Sequence[str], presets: Sequence[str], rules: Sequence[str]) -> tuple[list[tuple[str, str]],
                                                                                          list[str]]:
    """(question, preset) wherever a question arises, and the line saying why of every pair where it does not."""
    plan: list[tuple[str, str]] = []
    skipped: list[str] = []
    for q in questions:
        for p in presets:
            reason = why_not(q, p, rules)
            if reason is None:
                plan.append((q, p))
            else:
                skipped.append(reason)
    return plan, skipped


def from_records(folder: str | Path | None = None, seed: int = SEED) -> Study:
    """The view across presets from the answer records of `folder` (default: the checkout's committed
    reports/answers/), playing no game: after some presets' answers were played again, the view and the cards state
    the records as they now are. The records are put in the order across_variants asks the questions."""
    from sim.report.answer import answers as read_records
    from sim.report.answer import read_answers
    from sim.report.knob_study import QUESTIONS as PARTS
    from sim.rules import PRESETS

    asked = [(study, part.knob) for study in QUESTIONS for part in PARTS.get(study, ())]
    found = read_records() if folder is None else (read_answers(folder) if Path(folder).is_dir() else [])
    answers = sorted((a for a in found if (a.study, a.knob) in asked), key=lambda a: asked.index((a.study, a.knob)))
    if not answers:
        where = folder if folder is not None else "reports/answers"
        raise ValueError(f"no answer records in {where}; write them with `canasta-lab report across_variants` (or a "
                         "question's report at each preset) first")
    skipped = _plan(list(QUESTIONS), list(PRESETS), ())[1]
    view = across(answers, skipped, seed=seed)
    view.meta["skipped"] = skipped
    return view
