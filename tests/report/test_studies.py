"""The studies behind the notebooks and `canasta-lab report` (sim.report.studies): each answers its question
with tables, charts and headline intervals, a report says the exact command and the code version, and
bad input is refused in one line before any game."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from sim import PRESETS
from sim.cli import main
from sim.report import studies
from sim.run.store import RUN_FILE


def draw_all(study: studies.Study) -> None:
    for stem in study.charts:
        ax = Figure().subplots()
        assert study.draw(stem, ax) is ax and ax.has_data(), stem


def test_freezing_study_sweeps_baseline_and_expert_and_checks_the_best_against_search(tmp_path):
    s = studies.freezing_the_pile(games=8, check_games=2, out=tmp_path, workers=1)
    base, strong, search = s.tables["freeze_baseline"], s.tables["freeze_expert"], s.tables["freeze_search"]
    assert [str(x) for x in base["freeze"]] == [str(x) for x in studies.FREEZE_VALUES]
    assert isinstance(base["freeze"].dtype, pd.CategoricalDtype)  # never/always beside numbers: ordered words
    assert base.loc[base["freeze"] == "never", "win_rate"].iat[0] == 0.5  # the default against itself
    assert strong.attrs["opponent"] == "expert" and search.attrs["opponent"] == "search"
    others = base[base["freeze"] != "never"]  # the default against itself (0.5 exactly) is no candidate
    best = str(others.loc[others["win_rate"].idxmax(), "freeze"])
    assert list(search["freeze"].astype(str)) == ["never", best]
    assert search["freeze"].dtype == base["freeze"].dtype  # typed like the sweep, so the tables overlay
    assert s.headlines[0].what == f"baseline, freeze={best}, against baseline"
    assert len(s.headlines) == 2 and all(h.low <= h.value <= h.high for h in s.headlines)
    assert "freeze=" in s.answer and "`search`" in s.holds
    draw_all(s)


def test_the_strong_headline_is_never_the_default_against_itself(tmp_path):
    # hold_black3: expert throws (its tuned default); whatever baseline's answer, expert's headline row is a
    # real measurement (another setting against expert's own), never expert's default against itself
    s = studies.black_threes(games=8, check_games=0, out=tmp_path, workers=1)
    strong = s.headlines[1]
    assert strong.what.startswith("expert, hold_black3=") and not strong.what.startswith("expert, hold_black3=throw,")


def test_a_knob_study_without_a_search_check_plays_no_search_game(tmp_path):
    s = studies.taking_the_pile(games=4, check_games=0, out=tmp_path, workers=1)
    assert "min_pile_search" not in s.tables and "min_pile_search" not in s.charts
    assert str(s.tables["min_pile_baseline"]["min_pile"].dtype) == "Int64"  # numbers as numbers: a curve


def test_asking_study_answers_both_questions_with_expert_made_to_ask(tmp_path):
    s = studies.asking_to_go_out(games=4, check_games=0, out=tmp_path, workers=1)
    assert {"ask_baseline", "ask_expert", "answer_max_baseline", "answer_max_expert"} <= set(s.tables)
    # expert never asks, and its own answer (always no) would forbid every going out once asked: in the study
    # the expert opponent answers as baseline does, so the default row is an even match, not a crippled one
    assert s.tables["answer_max_expert"].attrs["opponent"] == "expert:ask=always,answer_max=100"
    assert s.tables["answer_max_expert"].attrs["strategy"] == "expert:ask=always"
    row = s.tables["answer_max_expert"].set_index("answer_max").loc["100"]
    assert row["win_rate"] == 0.5
    assert s.tables["ask_expert"].attrs["opponent"] == "expert:answer_max=100"
    assert s.tables["ask_expert"].set_index("ask").loc["never", "win_rate"] == 0.5
    assert not s.headlines[1].what.startswith("expert:answer_max=100, ask=never,")  # never itself


def test_variant_balance_covers_every_preset_by_itself(tmp_path):
    s = studies.variant_balance(games=4, check_games=0, out=tmp_path, workers=1)
    assert list(dict.fromkeys(s.tables["balance"]["variant"])) == list(PRESETS)
    assert len(s.headlines) == len(PRESETS)
    draw_all(s)


def test_balance_row_reads_the_first_dealers_side_and_the_dealers_hand_score():
    # two games of classic-2p; seat 0 deals the first hand and side 0 wins both games; in every hand the
    # dealer's side scores 100 more than the other
    games = pd.DataFrame({"game": [0, 1], "winner_side": [0, 0], "n_hands": [2, 2]})
    rows = []
    for g in (0, 1):
        for h, dealer in ((1, 0), (2, 1)):
            rows.append({"game": g, "hand": h, "dealer": dealer, "reason": "out", "out_side": 1 - dealer,
                         "concealed": False, "turns": 20, **{f"cum_{s}": 0 for s in (0, 1)},
                         **{f"{c}_{s}": 0 for c in ("melded", "canastas", "red_threes", "going_out", "in_hand",
                                                    "other", "natural_canastas", "mixed_canastas", "pile_pickups",
                                                    "freezes", "black3_discards", "asks", "yes_answers")
                            for s in (0, 1)},
                         f"total_{dealer}": 100, f"total_{1 - dealer}": 0})
    hands = pd.DataFrame(rows)
    table = pd.DataFrame(studies.balance_row("classic-2p", games, hands)).set_index("measure")
    assert table.loc["first dealer's side wins the game", "value"] == 1.0
    assert table.loc["dealer's side hand score minus the others' mean", "value"] == 100
    assert table.loc[studies.LEAD_OUT, "value"] == 1.0
    assert table.loc["hands per game", "value"] == 2


def test_your_own_strategy_plays_the_strategy_notebook_06_writes(tmp_path):
    scope: dict = {}
    exec(studies.own_strategy_cell(), scope)  # noqa: S102 - the project's own notebook
    s = studies.your_own_strategy(games=4, out=tmp_path, workers=1)
    knob = next(iter(scope["MY_GRID"]))
    assert s.tables[f"{knob}_baseline"][knob].tolist() == list(scope["MY_GRID"][knob])
    assert s.tables[f"{knob}_expert"].attrs["opponent"] == "expert"


def test_a_study_asked_again_plays_only_what_is_missing(tmp_path):
    studies.taking_the_pile(games=4, check_games=0, out=tmp_path, workers=1)
    s = studies.taking_the_pile(games=8, check_games=0, out=tmp_path, workers=1)
    assert (s.tables["min_pile_baseline"]["games"] == 8).all()
    runs = sorted(tmp_path.rglob(RUN_FILE))
    assert len(runs) == 2 * len(studies.MIN_PILE_VALUES)  # a run folder per setting, for baseline and expert
    for run in runs:
        played = [x["games_played"] for x in json.loads(run.read_text())["sessions"]]
        assert len(played) == 2 and played[0] == played[1] > 0  # the second call played only the 4 new games


def test_headlines_wider_than_one_point_or_from_too_few_deals_are_named():
    wide = studies.Headline("a", 0.5, 0.48, 0.52, 10_000)
    narrow = studies.Headline("b", 0.5, 0.495, 0.505, 10_000)
    few = studies.Headline("c", 0.5, 0.5, 0.5, 2)  # every deal split: a zero-width interval that proves nothing
    s = studies.Study("x", "t", "q", "m", {}, {}, "a", "", [wide, narrow, few], 10, 1)
    assert s.wide_headlines() == [wide, few] and np.isclose(wide.half_width, 0.02)


def test_games_from_env_reads_the_size_and_refuses_nonsense(monkeypatch):
    monkeypatch.setenv(studies.GAMES_ENV, "40")
    assert studies.games_from_env() == 40
    monkeypatch.setenv(studies.GAMES_ENV, "many")
    with pytest.raises(ValueError, match="whole number"):
        studies.games_from_env()
    monkeypatch.delenv(studies.GAMES_ENV)
    assert studies.games_from_env() == studies.FULL_GAMES


def test_report_writes_the_markdown_with_its_command_on_top_and_code_version_at_the_foot(tmp_path, capsys):
    out = tmp_path / "reports"
    assert main(["report", "black_threes", "--games", "4", "--check-games", "2", "--out", str(out), "--cache",
                 str(tmp_path / "cache"), "--workers", "1", "--quiet"]) == 0
    text = (out / "black_threes.md").read_text()
    lines = text.splitlines()
    assert lines[0] == studies.REPORT_MARK and lines[1].startswith("# ")
    assert f"Reproduce: `canasta-lab report black_threes --games 4 --check-games 2 --seed 1 --out {out}`" in text
    foot = lines[-1]
    assert "engine sources" in foot and "git" in foot and "cores" in foot
    for ref in [x.split("](")[1].rstrip(")") for x in lines if x.startswith("![")]:
        assert (out / ref).is_file()
    assert "too few deals" in text  # two deals cannot back a +-1 point claim, and the report says so
    printed = capsys.readouterr().out
    assert "report:" in printed and "hold_black3" in printed


def test_report_refuses_to_replace_a_report_without_force_and_anything_not_ours_at_all(tmp_path, capsys):
    out = tmp_path / "r"
    out.mkdir()
    (out / "taking_the_pile.md").write_text("my notes\n")
    args = ["report", "taking_the_pile", "--games", "2", "--check-games", "0", "--out", str(out), "--cache",
            str(tmp_path / "c"), "--workers", "1", "--quiet"]
    assert main(args) == 2
    assert "already exists" in capsys.readouterr().err
    assert main([*args, "--force"]) == 2
    assert "not written by canasta-lab" in capsys.readouterr().err
    assert (out / "taking_the_pile.md").read_text() == "my notes\n" and not (tmp_path / "c").exists()


@pytest.mark.parametrize(("args", "says"), [
    (["report", "freezing"], "unknown study 'freezing'; accepted: freezing_the_pile"),
    (["report", "1", "--rule", "no_such_rule=1"], "no_such_rule"),
    (["report", "1", "--games", "0"], "positive whole number"),
])
def test_report_bad_input_is_one_line_before_any_game(tmp_path, capsys, args, says):
    with pytest.raises(SystemExit) if "--games" in args else _nothing():
        code = main([*args, "--out", str(tmp_path / "o"), "--cache", str(tmp_path / "c"), "--quiet"])
        assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) <= 2 and says in err[-1]
    assert not (tmp_path / "o").exists() and not (tmp_path / "c").exists()


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return False
