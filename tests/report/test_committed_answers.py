"""The committed answers (reports/answers/*.json) and everything written from them: for every question and
preset committed, the question's report, the view across presets, the preset's strategy card, the notebooks and
the API state the same answer, and the defaults they name are what `canasta-lab strategies --variant V` shows."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

import sim
from sim.cli import main
from sim.report import say
from sim.report.answer import Answer, read_answers
from sim.rules import PRESETS, get_variant

ROOT = Path(__file__).resolve().parents[2]
REPORTS = ROOT / "reports"
RECORDS = read_answers(REPORTS / "answers") if (REPORTS / "answers").is_dir() else []
IDS = [a.key for a in RECORDS]


def _is_question(a: Answer) -> bool:
    """A library question, in the view across presets and the cards (your_own_strategy's record is the strategy
    notebook 06 writes, in its own report only)."""
    from sim.report.studies import QUESTIONS

    return a.study in QUESTIONS


QUESTION_RECORDS = [a for a in RECORDS if _is_question(a)]
QUESTION_IDS = [a.key for a in QUESTION_RECORDS]


def test_every_preset_has_its_committed_card_and_every_question_that_arises_its_record():
    from sim.report.studies import QUESTIONS, why_not

    assert RECORDS, "reports/answers/ holds no record: `canasta-lab report across_variants` writes them"
    keys = {(a.study, a.preset) for a in RECORDS}
    for preset in PRESETS:
        assert (REPORTS / "cards" / f"{preset}.md").is_file(), preset
        for study in QUESTIONS:
            if why_not(study, preset) is None:
                assert (study, preset) in keys, (study, preset)


def report_of(a: Answer) -> Path:
    return REPORTS / (f"{a.study}.md" if a.preset == "classic-4p" else f"{a.study}-{a.preset}.md")


@pytest.mark.parametrize("a", RECORDS, ids=IDS)
def test_the_questions_report_states_the_records_verdict(a):
    text = report_of(a).read_text()
    assert say.verdict_sentence(a) in text
    assert f"{a.games:,} games a setting" in text


def _row(text: str, start: str, preset: str) -> str:
    """The table row of `preset` in the section of `text` that starts at `start`."""
    section = text[text.index(start):]
    section = section[:section.find("\n### ", 1) if "\n### " in section[1:] else len(section)]
    rows = [line for line in section.splitlines() if line.startswith(f"| {preset} |")]
    assert len(rows) == 1, (start, preset)
    return rows[0]


@pytest.mark.parametrize("a", QUESTION_RECORDS, ids=QUESTION_IDS)
def test_the_view_across_presets_states_the_records_answer_in_its_row(a):
    row = _row((REPORTS / "across_variants.md").read_text(), f"### {a.question} (`{a.knob}`)", a.preset)
    assert say.what_to_do(a) in row and say.worth(a) in row and say.how_sure(a) in row


@pytest.mark.parametrize("a", QUESTION_RECORDS, ids=QUESTION_IDS)
def test_the_presets_card_states_the_records_answer(a):
    card = (REPORTS / "cards" / f"{a.preset}.md").read_text()
    rows = [line for line in card.splitlines() if line.startswith("| ") and a.question in line]
    assert len(rows) == 1
    assert say.what_to_do(a) in rows[0] and say.worth(a) in rows[0] and say.how_sure(a) in rows[0]


@pytest.mark.parametrize("a", RECORDS, ids=IDS)
def test_every_answer_was_checked_with_the_strength_records_strongest_fast_player(a):
    """The check player is the strongest fast player the committed strength record names at the preset (a
    network installed above expert means that preset's answers are played again with `learned`)."""
    from sim.analysis.strength import load, record_for, strongest_fast

    strong = a.players[-1]
    name = (strong.player if strong.player.split(":")[0] in ("expert", "learned") else strong.opponent).split(":")[0]
    assert name == strongest_fast(record_for(load(), a.preset))


def test_the_api_reads_the_committed_records():
    assert sim.answers() == RECORDS
    assert all(a.preset == "boat-3p" for a in sim.answers(preset="boat-3p"))


@cache
def strategies_listing(preset: str) -> dict[str, dict[str, str]]:
    """Each strategy's knob defaults at `preset` as `canasta-lab strategies --variant PRESET` prints them."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["strategies", "--variant", preset]) == 0
    listing: dict[str, dict[str, str]] = {}
    current = None
    for line in out.getvalue().splitlines():
        head = re.match(r"^(\S[\w-]*): ", line)
        if head:
            current = listing.setdefault(head.group(1), {})
            continue
        knob = re.match(r"^    (\w+)\s+default (\S+)", line)
        if knob and current is not None:
            current[knob.group(1)] = knob.group(2)
    return listing


@pytest.mark.parametrize("a", RECORDS, ids=IDS)
def test_the_defaults_a_record_states_are_what_the_strategies_command_shows(a):
    if not _is_question(a):
        # the notebook's own strategy is not a built-in: its default is read from its registered knobs
        from sim.report.knob_study import knob_value
        from sim.report.your_own_strategy import own_parts

        name, _ = own_parts()
        assert a.players[0].player == name and a.default == knob_value(name, a.knob, get_variant(a.preset))
        return
    listing = strategies_listing(a.preset)
    assert a.default == listing["baseline"][a.knob]
    for p in a.players:
        fixed = dict(x.split("=") for x in p.opponent.partition(":")[2].split(",") if x)
        shown = fixed.get(a.knob, listing[p.opponent.split(":")[0]][a.knob])
        assert p.opponent_plays == shown, p.player


def committed_notebooks() -> list[tuple[str, str]]:
    """(study, preset) of each question notebook: the preset its `variant` cell names."""
    from sim.report.studies import NOTEBOOKS, QUESTIONS

    out = []
    for study in QUESTIONS:
        nb = json.loads((ROOT / "notebooks" / f"{NOTEBOOKS[study]}.ipynb").read_text())
        cell = next(c for c in nb["cells"] if "variant" in c.get("metadata", {}).get("tags", []))
        out.append((study, re.search(r'VARIANT = "([\w-]+)"', "".join(cell["source"])).group(1)))
    return out


@pytest.mark.parametrize(("study", "preset"), committed_notebooks())
def test_the_committed_notebook_shows_the_records_answer(study, preset):
    from sim.report.studies import NOTEBOOKS

    nb = json.loads((ROOT / "notebooks" / f"{NOTEBOOKS[study]}.ipynb").read_text())
    shown = [o for c in nb["cells"] if "answer" in c.get("metadata", {}).get("tags", [])
             for o in c.get("outputs", []) if "text/markdown" in o.get("data", {})]
    text = "".join("".join(o["data"]["text/markdown"]) for o in shown)
    mine = [a for a in RECORDS if a.study == study and a.preset == preset]
    assert mine, (study, preset)
    for a in mine:
        assert say.verdict_sentence(a) in text, a.key


def test_reports_holds_only_what_canasta_lab_report_writes():
    # a stale run folder (reports/main/ was a baseline-vs-random run of an earlier version) has no place here
    from sim.run.store import OUTPUT_FILE, REPORT_MARK

    stems = {p.stem for p in REPORTS.glob("*.md")}
    for p in REPORTS.iterdir():
        if p.suffix == ".md":
            assert p.read_text().splitlines()[0] == REPORT_MARK, p.name
        elif p.is_dir():
            assert p.name in stems | {"answers", "cards"}, p.name
        else:
            assert p.name == OUTPUT_FILE, p.name
