"""One view across presets, and a strategy card per preset: the answer records (sim.report.answer) of every
question asked, side by side, as a grid a player reads at a glance, a table a question, and the refusals in one
small table. It reads only the records the studies computed, so it plays no game and cannot disagree with them."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from sim.report import say
from sim.report.answer import Answer
from sim.report.common import Study, study_meta
from sim.rules import PRESETS, get_variant

ACROSS = "across"  # the stem's suffix of a view across presets: reports/STUDY-across.md
CARDS = "cards"  # the folder of the strategy cards, beside the reports


def grid_table(answers: Sequence[Answer]) -> pd.DataFrame:
    """One row per question and preset asked: the grid's cells."""
    return pd.DataFrame([{"question": f"{a.question} ({a.knob})", "preset": a.preset, "verdict": a.verdict.value,
                          "text": say.short(a)} for a in _in_order(answers)])


def _in_order(answers: Sequence[Answer]) -> list[Answer]:
    """Questions in the order they were asked, presets in the library's order."""
    order = {p: i for i, p in enumerate(PRESETS)}
    first = {}
    for a in answers:
        first.setdefault((a.study, a.knob), len(first))
    return sorted(answers, key=lambda a: (first[(a.study, a.knob)], order.get(a.preset, len(order)), a.preset))


def question_table(answers: Sequence[Answer]) -> str:
    """One question's answers as a Markdown table, a row a preset."""
    head = ("| preset | what to do | worth with `baseline` (points of games won, Elo; 95%) | how sure "
            "| games a setting |\n")
    head += "|---|---|---|---|---|\n"
    return head + "\n".join(f"| {a.preset} | {say.what_to_do(a)} | {say.worth(a)} | {say.how_sure(a)} | {a.games:,} |"
                            for a in answers)


def refusal_table(refusals: Sequence[str]) -> str:
    """The questions that do not arise at some presets, one row a reason (the presets gathered)."""
    rows: dict[tuple[str, str], list[str]] = {}
    for line in refusals:
        study, _, rest = line.partition(" does not apply at ")
        preset, _, why = rest.partition(": ")
        rows.setdefault((study, why.replace(preset, "the preset")), []).append(preset)
    head = "| question | not asked at | because |\n|---|---|---|\n"
    return head + "\n".join(f"| {s} | {', '.join(p)} | {w} |" for (s, w), p in rows.items())


def glossary() -> str:
    return "\n".join(f"- **{term}**: {text}." for term, text in say.GLOSSARY)


METHOD = ("Every question's study is played at each preset where its choice exists; this view reads their answer "
          "records and plays nothing. The players checked are {players}, each sweeping the knob against itself on "
          "duplicate deals (the same cards for every setting). A question's answer is one of: play a setting (it "
          "beats the default with every player and nothing beats it), keep the default (it is among the best with "
          "every player), the choice matters less than {margin:g} point (every setting within it), it depends on "
          "the player, undecided, or the choice almost never arises.\n\n"
          "Sizes: {design}. The numbers are the share of games won (beside its fair share where three or more "
          "play each for himself), in points (hundredths of the games) and Elo, each with its 95% interval.")


def across(answers: Sequence[Answer], refusals: Sequence[str] = (), title: str = "Every question at every preset",
           seed: int = 1, name: str = "across_variants") -> Study:
    """The records side by side: a grid chart, a table per question, the refusals and a glossary. `name`: the
    study whose presets these are (its view is written as STUDY-across.md), or across_variants (every question,
    with a card per preset)."""
    if not answers:
        raise ValueError("across needs at least one answer")
    t0 = time.perf_counter()
    ordered = _in_order(answers)
    grid = grid_table(ordered)
    blocks: list[str] = []
    for (question, knob), group in _grouped(ordered):
        blocks += [f"### {question} (`{knob}`)", "", question_table(group), ""]
    if refusals:
        blocks += ["### Where a question does not arise", "", refusal_table(refusals), ""]
    players = sorted({p.name for a in ordered for p in a.players}, key=lambda n: (n != "baseline", n))
    first = ordered[0]
    method = METHOD.format(players=" and ".join(f"`{p}`" for p in players), margin=100 * first.margin,
                           design=say.design(first))
    method += "\n\n## Glossary\n\n" + glossary()

    def draw(ax: Any) -> Any:
        from sim import plots

        return plots.answer_grid(ax, grid, title="What to do, question by question and preset by preset")

    charts: dict[str, tuple[str, Callable[[Any], Any]]] = {
        "grid": ("What to do at each preset: each cell's colour is the kind of answer and its words the setting to "
                 "play; a blank cell is a question that does not arise there", draw)}
    table = say.summary_table(ordered)
    whole = name == "across_variants"
    study = Study(name, title if whole else f"{ordered[0].question} Across presets",
                  "What should a player do at each preset, question by question?", method,
                  {"summary": table}, charts, "\n".join(blocks).rstrip(), "", [], max(a.games for a in ordered),
                  seed, time.perf_counter() - t0, study_meta(), "" if whole else ACROSS, answers=list(ordered))
    study.meta["refusals"] = list(refusals)
    from sim.plots import grid_size

    study.meta["figsize"] = {"grid": grid_size(grid)}
    return study


def _grouped(answers: Sequence[Answer]) -> list[tuple[tuple[str, str], list[Answer]]]:
    groups: dict[tuple[str, str], list[Answer]] = {}
    for a in answers:
        groups.setdefault((a.question, a.knob), []).append(a)
    return list(groups.items())


def card_markdown(preset: str, answers: Sequence[Answer], refusals: Sequence[str], command: str, footer: str,
                  reports: dict[str, str] | None = None) -> str:
    """A preset's strategy card: one table, question by question, read in a minute."""
    from sim.run.store import REPORT_MARK

    v = get_variant(preset)
    mine = _in_order([a for a in answers if a.preset == preset])
    first = mine[0] if mine else None
    lines = [REPORT_MARK, f"# Strategy card: {preset}", "", v.description, "", f"Reproduce: `{command}`", ""]
    if first is not None:
        lines += [f"Numbers: the {say.quantity(first)}, in points (hundredths of the games) and Elo, 95% intervals. "
                  f"Players checked: {say.players_short(first)}, each sweeping the choice against itself on duplicate "
                  "deals. [How to read it](../across_variants.md#glossary).", "",
                  "| question | what to do | worth (with `baseline`) | how sure | players |", "|---|---|---|---|---|"]
        for a in mine:
            link = (reports or {}).get(a.study)
            q = f"[{a.question}]({link})" if link else a.question
            lines.append(f"| {q} | {say.what_to_do(a)} | {say.worth(a)} | {say.how_sure(a)} | {say.players_short(a)} |")
        lines.append("")
        strongest = first.strongest
        if strongest is not None:
            lines += [say.strongest_text(first), ""]
    here = [r for r in refusals if f" does not apply at {preset}:" in r]
    if here:
        lines += ["Not asked here:", "", refusal_table(here), ""]
    lines += ["---", "", footer, ""]
    return "\n".join(lines)


def write_cards(answers: Sequence[Answer], refusals: Sequence[str], folder: str | Path, command: str, footer: str,
                presets: Sequence[str] | None = None) -> list[Path]:
    """`folder/cards/PRESET.md` for every preset with an answer or a refusal (or those of `presets`)."""
    from sim.run.store import write_text_atomic

    root = Path(folder) / CARDS
    root.mkdir(parents=True, exist_ok=True)
    named = list(presets) if presets is not None else [p for p in PRESETS if any(a.preset == p for a in answers)
                                                           or any(f" does not apply at {p}:" in r for r in refusals)]
    out = []
    for p in named:
        studies = {a.study for a in answers if a.preset == p}
        links = {s: f"../{s}{'' if p == 'classic-4p' else '-' + p}.md" for s in studies
                 if (Path(folder) / f"{s}{'' if p == 'classic-4p' else '-' + p}.md").exists()}
        path = root / f"{p}.md"
        write_text_atomic(path, card_markdown(p, answers, refusals, command, footer, links))
        out.append(path)
    return out
