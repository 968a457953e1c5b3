"""Study 07: every strategy question at every preset where it arises, side by side (issue 27, part 2).

Each question's knob study runs at each preset, sized by a group-sequential design: the rows play a first
look of `games / 8` games, and the games double (up to `games`) until every headline of that preset decides:
its 95% interval within plus or minus one point, or the difference from an even match clear of Pocock's
bound for four looks (so that looking four times keeps the 5% error of one test). The games are the
question's own study cache, so a question's report and this view share them. The answers are read side by
side by `sim.report.across`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sim.report.across import across, decided
from sim.report.asking_to_go_out import asking_to_go_out
from sim.report.black_threes import black_threes
from sim.report.common import SEED, Study, cache_dir, check_games_for, games_from_env
from sim.report.freezing_the_pile import freezing_the_pile
from sim.report.presets import choose_presets, why_not
from sim.report.taking_the_pile import taking_the_pile
from sim.run.seating import Seating

QUESTIONS: dict[str, Callable[..., Study]] = {
    "freezing_the_pile": freezing_the_pile,
    "black_threes": black_threes,
    "asking_to_go_out": asking_to_go_out,
    "taking_the_pile": taking_the_pile,
}


LOOKS = 4  # the most looks of the sequential design: games / 8, / 4, / 2 and games
ACROSS_GAMES = 8_000  # the last look: a four-player headline's interval is about +-0.5 points there (+-1 decides)
ACROSS_CHECK = 20  # games per setting against `search` at each question and preset: it shows a large reversal only


def looks(games: int) -> list[int]:
    """The games per row at each look: doubling up to `games` (never fewer than two games)."""
    return sorted({max(2, games >> k) for k in range(LOOKS)})


def across_variants(games: int | None = None, seed: int = SEED, check_games: int | None = None,
                    out: str | Path | None = None, rules: Sequence[str] = (), workers: int = 0, progress: Any = None,
                    scheduler: Any = None, presets: Sequence[str] | str | None = None,
                    seating: str | Seating = Seating.REST, questions: Sequence[str] | None = None) -> Study:
    """Every question of `questions` (default all four knob studies) at every preset of `presets` (default
    all) where it arises, each sized by the sequential design, and the view across them. A preset where a
    question does not arise is named in the method, not played."""
    t0 = time.perf_counter()
    full = games_from_env(ACROSS_GAMES) if games is None else games
    text = presets if isinstance(presets, str) or presets is None else ",".join(presets)
    names = list(questions) if questions is not None else list(QUESTIONS)
    unknown = [q for q in names if q not in QUESTIONS]
    if unknown:
        raise ValueError(f"unknown question {unknown[0]!r}; accepted: {', '.join(QUESTIONS)}")
    plan: list[tuple[str, str]] = []
    skipped: list[str] = []
    chosen = choose_presets("across_variants", text, rules)[0]  # every preset named; the questions pick theirs
    for q in names:
        for p in chosen:
            reason = why_not(q, p, rules)
            if reason is None:
                plan.append((q, p))
            else:
                skipped.append(reason)
    answered: list[Study] = []
    stopped: list[str] = []
    for q, preset in plan:
        fn = QUESTIONS[q]
        cache = Path(out) / q if out is not None else cache_dir(q)
        kw = {"seed": seed, "out": cache, "rules": rules, "workers": workers, "progress": progress,
              "scheduler": scheduler, "variant": preset, "seating": seating}
        steps = looks(full)
        for n in steps:
            s = fn(games=n, check_games=0, **kw)
            if all(decided(h) for h in s.headlines):
                break
        check = min(ACROSS_CHECK, check_games_for(full)) if check_games is None else check_games
        if check:  # the check against search, at the size the design stopped at (its games are cached)
            s = fn(games=n, check_games=check, **kw)
        if n < steps[-1]:
            stopped.append(f"{q} at {preset}: {n} games a row")
        answered.append(s)
    view = across(answered)
    view.name, view.title, view.variant = "across_variants", "Every question at every preset", ""
    view.question = ("How do freezing the pile, holding black threes, asking to go out and taking the pile change "
                     "win rates from preset to preset, and which answers hold against the stronger players?")
    view.method = (f"Each question's study (its own report says how it plays) at every preset where it arises, "
                   f"seed {seed}. Sequential sizing: the rows play {', '.join(str(n) for n in looks(full))} games "
                   "per setting in turn, stopping at the first look where every headline of that preset decides "
                   "(its 95% interval within +-1 point, or its difference from an even match beyond Pocock's "
                   "bound for four looks, 2.361 standard errors). "
                   + (f"Stopped early: {'; '.join(stopped)}. " if stopped else "No question stopped early. ")
                   + (f"Not asked where the question does not arise: {'; '.join(skipped)}. " if skipped else "")
                   + "\n\n" + view.method)
    view.seed = seed
    view.wall_seconds = time.perf_counter() - t0
    view.meta["skipped"] = skipped
    return view
