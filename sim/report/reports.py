"""A study as a report: the Markdown with its command on top and the code version at its foot, its
tables and charts, written into a folder that `canasta-lab report` owns."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.records.results import ResultsError
from sim.report.common import MIN_DEALS, Study
from sim.run.store import (
    OUTPUT_FILE,
    REPORT_MARK,
    can_write_in,
    claim,
    clear_output,
    write_json_atomic,
)

REPORT = "report"  # the command whose output folder holds the reports (sim.run.store.folder_owner)


def _markdown_table(df: pd.DataFrame, columns: Sequence[str], formats: dict[str, str] | None = None) -> str:
    """A Markdown table; floats as `formats[column]` (default three decimals), booleans as yes/no."""
    def cell(x: Any, column: str) -> str:
        if isinstance(x, bool | np.bool_):
            return "yes" if x else "no"
        if isinstance(x, float | np.floating):
            return "" if not np.isfinite(x) else format(x, (formats or {}).get(column, ".3f"))
        return str(x)

    head = "| " + " | ".join(columns) + " |\n|" + "---|" * len(columns) + "\n"
    return head + "\n".join("| " + " | ".join(cell(r[c], c) for c in columns) + " |" for _, r in df.iterrows())


def _setting_table(df: pd.DataFrame) -> tuple[str, str]:
    """A player's rows of an answer record: the share of games won, its effect against the default, and how
    often the setting changes a decision where the knob acts."""
    a = df.attrs
    t = df.assign(effect_points=100 * df["effect"], low_points=100 * df["effect_low"],
                  high_points=100 * df["effect_high"],
                  reading=["the default" if e == 0 and lo == 0 and hi == 0 else
                           ("better than the default" if b else "worse than the default" if w
                            else "no clear difference")
                           for e, lo, hi, b, w in zip(df["effect"], df["effect_low"], df["effect_high"], df["beats"],
                                                      df["loses"], strict=True)])
    cols = ["setting", "games", "share", "share_low", "share_high", "fair", "effect_points", "low_points",
            "high_points", "elo", "reading", "best", "own_play", "changed_per_side_hand", "capped", "same_games_as"]
    formats = {"effect_points": "+.1f", "low_points": "+.1f", "high_points": "+.1f", "elo": "+.0f", "capped": ".3f",
               "changed_per_side_hand": ".3f"}
    heading = (f"`{a['knob']}`, `{a['player']}` against `{a['opponent']}` (which plays `{a['knob']}="
               f"{a['opponent_plays']}`): share of games won and points against the default")
    return heading, _markdown_table(t, cols, formats)


def report_tables(study: Study) -> list[tuple[str, str]]:
    """The study's tables as a reader wants them in a report: (heading, Markdown table)."""
    out = []
    for key, df in study.tables.items():
        if key == "balance":
            cols = ["variant", "players", "measure", "value", "low", "high", "capped_share"]
            out.append(("Balance per preset and players", _markdown_table(
                df, [c for c in cols if c in df], {c: ".4g" for c in ("value", "low", "high", "capped_share")})))
        elif key == "summary" and "verdict" in df and "question" not in df:  # variant_balance's ranking: signed edges
            out.append(("Presets ranked by the edge every player shows", _markdown_table(
                df, list(df.columns), {c: "+.3f" for c in df.columns if c != "variant" and c != "verdict"})))
        elif key == "summary":  # the answer records, a row per question (and preset)
            t = df.assign(effect=100 * df["effect"], effect_low=100 * df["effect_low"],
                          effect_high=100 * df["effect_high"])
            out.append(("The answers, one row per question and preset (effects in points of games won)",
                        _markdown_table(t, list(t.columns), {"effect": "+.1f", "effect_low": "+.1f",
                                                             "effect_high": "+.1f", "elo": "+.0f"})))
        elif key == "hands_per_game":
            continue
        elif "player" in df.attrs and "setting" in df:
            out.append(_setting_table(df))
        else:
            knob = next(c for c in df.columns if c not in ("strategy",))
            cols = [knob, "games", "win_rate", "win_low", "win_high", "margin", "margin_low", "margin_high", "real"]
            out.append((f"`{knob}`, {df.attrs.get('strategy', '')} against {df.attrs.get('opponent', '')}",
                        _markdown_table(df, [c for c in cols if c in df],
                                        {c: "+.0f" for c in ("margin", "margin_low", "margin_high")})))
    return out


def footer(study: Study) -> str:
    m = study.meta
    cv, mc = m["code_version"], m["machine"]
    return (f"canasta-lab {cv['package']}, engine sources {cv['engine_sources']}, git {cv['git']}; "
            f"{study.wall_seconds:.0f} s for this run (games already in the study's cache are reused) on "
            f"{mc['host']} ({mc['cpus']} cores, {mc['system']}, Python {mc['python']}).")


def report_markdown(study: Study, command: str, images: dict[str, str]) -> str:
    if study.answers and (study.name == "across_variants" or study.variant == "across"):
        return _across_markdown(study, command, images)
    if study.answers:
        return _answer_markdown(study, command, images)
    lines = [REPORT_MARK, f"# {study.title}", "", f"Reproduce: `{command}`", "", "## Question", "", study.question, "",
             "## Method", "", study.method, "", "## Answer", "", study.answer, ""]
    if study.holds:
        lines += ["## Does it hold against the strongest players?", "", study.holds, ""]
    wide = study.wide_headlines()
    settled = [h for h in study.headlines if h.settled and not h.sized]
    if wide:
        lines += [f"**Size:** these headlines are wider than +-1 point of win rate, or rest on too few deals (under "
                  f"{MIN_DEALS}) for their width to mean much; run with more games: "
                  + "; ".join(f"{h.what}: +-{100 * h.half_width:.2f} points from {h.deals} deals" for h in wide), ""]
    elif settled:
        lines += [f"Every headline decides: its 95% interval is within +-1 point of win rate, or ({len(settled)} of "
                  f"{len(study.headlines)}, widest +-{100 * max(h.half_width for h in settled):.2f}) its distance from "
                  "an even match is beyond the sequential design's bound: which side of it the answer lies on is "
                  "settled.", ""]
    elif study.headlines:
        lines += ["Every headline number's 95% interval is within +-1 point of win rate (widest: "
                  f"+-{100 * max(h.half_width for h in study.headlines):.2f}).", ""]
    lines += _charts_and_tables(study, images)
    lines += ["---", "", footer(study), ""]
    return "\n".join(lines)


def _charts_and_tables(study: Study, images: dict[str, str]) -> list[str]:
    lines = ["## Charts", ""]
    for stem, (caption, _) in study.charts.items():
        lines += [f"![{caption}]({images[stem]})", "", f"*{caption}.*", ""]
    lines += ["## Tables", ""]
    for heading, table in report_tables(study):
        lines += [f"### {heading}", "", table, ""]
    return lines


def _across_markdown(study: Study, command: str, images: dict[str, str]) -> str:
    """The view across presets: the grid first, then where to find each preset's card, each question's table, the
    method with its glossary."""
    from sim.report.across import CARDS
    from sim.rules import PRESETS

    presets = [p for p in PRESETS if any(a.preset == p for a in study.answers)
               or any(f" does not apply at {p}:" in r for r in study.meta.get("refusals", []))]
    lines = [REPORT_MARK, f"# {study.title}", "", f"Reproduce: `{command}`", ""]
    for stem, (caption, _) in study.charts.items():
        lines += [f"![{caption}]({images[stem]})", "", f"*{caption}.*", ""]
    if study.name == "across_variants":
        lines += ["**Your game's card** (every answer at one preset, in one table): "
                  + " · ".join(f"[{p}]({CARDS}/{p}.md)" for p in presets), ""]
    lines += ["## Answers, question by question", "", study.answer, "", "## Method", "", study.method, ""]
    lines += ["## Tables", ""]
    for heading, table in report_tables(study):
        lines += [f"### {heading}", "", table, ""]
    lines += ["---", "", footer(study), ""]
    return "\n".join(lines)


def _answer_markdown(study: Study, command: str, images: dict[str, str]) -> str:
    """A knob study's report: the answers first, each in one sentence, then how they were found."""
    from sim.report import say
    from sim.report.across import glossary

    lines = [REPORT_MARK, f"# {study.title} ({study.variant})", "", f"Reproduce: `{command}`", "", "## Answer", ""]
    lines += [f"- *{a.question}* " + say.verdict_sentence(a) for a in study.answers]
    lines += ["", "## Question", "", study.question, "", "## Method", "", study.method, "",
              "## What each player showed", "", study.answer, ""]
    if study.holds:
        lines += ["## Does it hold against the strongest players?", "", study.holds, ""]
    lines += _charts_and_tables(study, images)
    lines += ["## Glossary", "", glossary(), "", "---", "", footer(study), ""]
    return "\n".join(lines)


CHART_SIZE = (7.5, 4.2)  # inches, a report's chart unless the study sizes it (study.meta["figsize"])


def chart_figure(study: Study, stem: str) -> Any:
    """One of the study's charts drawn on a Figure of the size the report writes it at (what the tests read for
    overlapping text, too)."""
    from matplotlib.figure import Figure

    size = study.meta.get("figsize", {}).get(stem, CHART_SIZE)
    fig = Figure(figsize=size, dpi=120)
    study.draw(stem, fig.subplots())
    return fig


def write_report(study: Study, folder: str | Path, command: str, force: bool = False) -> Path:
    """`folder/STEM.md` and its charts in `folder/STEM/` (STEM: the study, with its preset unless that is the
    default one); returns the Markdown file's path. A folder
    that holds another command's output is refused, or with `force` cleared of it (sim.run.store.claim)."""
    from sim import plots
    from sim.run.store import write_text_atomic

    root = Path(folder)
    other = claim(root, REPORT, force)
    if other is not None:
        clear_output(root, other)
    charts = root / study.stem
    charts.mkdir(parents=True, exist_ok=True)
    if not (root / OUTPUT_FILE).exists():  # the folder holds reports: another command is refused it
        write_json_atomic(root / OUTPUT_FILE, {"command": REPORT})
    images = {}
    for stem in study.charts:
        fig = chart_figure(study, stem)
        plots.save(fig, charts / f"{stem}.png")
        images[stem] = f"{study.stem}/{stem}.png"
    path = root / f"{study.stem}.md"
    write_text_atomic(path, report_markdown(study, command, images))
    if study.answers:
        from sim.report.answer import write_answer
        from sim.report.knob_study import ANSWERS

        for a in study.answers:
            write_answer(a, root / ANSWERS)
    if study.name == "across_variants" and study.answers:
        from sim.report.across import write_cards

        write_cards(study.answers, study.meta.get("refusals", []), root, command, footer(study))
    return path


def check_report_target(folder: str | Path, name: str, force: bool) -> Path:
    """Fail before any game if the report cannot be written, would replace a file without --force,
    or would go into another command's output folder without --force (which clears that output)."""
    root = Path(folder)
    probe = root
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir() or not can_write_in(probe):
        raise ResultsError(f"cannot write the report into {str(root)!r}: {str(probe)!r} is not a writable folder")
    claim(root, REPORT, force)  # --force: that output is cleared when the report is written (write_report)
    target = root / f"{name}.md"
    if target.exists() and not force:
        raise ResultsError(f"{str(target)!r} already exists; pass --force to replace it, or give another --out")
    if target.exists() and REPORT_MARK not in target.read_text(errors="replace").splitlines()[:1]:
        raise ResultsError(f"{str(target)!r} was not written by canasta-lab report; give another --out")
    return target
