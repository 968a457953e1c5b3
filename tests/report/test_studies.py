"""The studies behind the notebooks and `canasta-lab report` (sim.report.studies): each answers its question
with tables, charts and headline intervals, a report says the exact command and the code version, and
bad input is refused in one line before any game."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from sim import PRESETS, load
from sim.cli import main
from sim.report import say, studies
from sim.run.store import RUN_FILE

ROOT = Path(__file__).resolve().parents[2]


def draw_all(study: studies.Study) -> None:
    for stem in study.charts:
        ax = Figure().subplots()
        assert study.draw(stem, ax) is ax and ax.has_data(), stem


def test_a_knob_study_plays_each_player_checked_and_answers_from_its_record(tmp_path):
    s = studies.freezing_the_pile(games=8, check_games=0, out=tmp_path, workers=1)
    (a,) = s.answers
    assert a.study == "freezing_the_pile" and a.knob == "freeze" and a.preset == "classic-4p" and a.default == "never"
    name = _strong()
    assert [p.player for p in a.players] == ["baseline", name] and a.settings == tuple(
        str(x) for x in studies.FREEZE_VALUES)
    base, strong = s.tables["freeze_baseline"], s.tables[f"freeze_{name}"]
    assert base["setting"].tolist() == list(a.settings) and strong.attrs["opponent"] == name
    assert base.set_index("setting").loc["never", "effect"] == 0 and base.set_index("setting").loc["never", "own_play"]
    assert say.verdict_sentence(a) in s.answer
    assert (tmp_path / "classic-4p" / "answers" / f"{a.key}.json").is_file()  # the record beside its games
    assert studies.read_answer(tmp_path / "classic-4p" / "answers" / f"{a.key}.json") == a
    draw_all(s)


def _strong(preset: str = "classic-4p") -> str:
    """The strong player the studies check with at `preset`: the strength record's strongest fast player."""
    from sim.report.knob_study import strong_player_at
    from sim.rules import get_variant

    return strong_player_at(get_variant(preset))


def test_a_setting_the_strong_player_already_plays_is_its_own_play_never_a_measurement(tmp_path):
    s = studies.black_threes(games=8, check_games=0, out=tmp_path, workers=1)
    strong = s.answers[0].player(_strong())
    own = [r for r in strong.rows if r.own_play]
    assert [r.setting for r in own] == [strong.opponent_plays] == ["throw"]  # expert throws at Classic
    assert f"`{_strong()}` plays `hold_black3=throw` at classic-4p (its own play" in s.answer


def test_a_knob_study_without_a_search_check_plays_no_search_game(tmp_path):
    s = studies.taking_the_pile(games=4, check_games=0, out=tmp_path, workers=1)
    assert s.answers[0].check is None and not list(tmp_path.rglob("*vs-search*"))


def test_asking_study_answers_both_questions_with_the_strong_player_made_to_ask(tmp_path):
    s = studies.asking_to_go_out(games=4, check_games=0, out=tmp_path, workers=1)
    ask, answer = s.answers
    assert (ask.knob, answer.knob) == ("ask", "answer_max") and ask.question != answer.question
    # expert never asks, and its own answer (always no) would forbid every going out once asked: in the study
    # the strong opponent answers as baseline does, so the default row is an even match, not a crippled one
    name = _strong()
    strong = answer.player(name)
    assert strong.player == f"{name}:ask=always" and strong.opponent == f"{name}:ask=always,answer_max=100"
    assert strong.opponent_plays == "100" and strong.row("100").own_play and strong.row("100").share == 0.5
    assert ask.player(name).opponent == f"{name}:answer_max=100" and ask.player(name).row("never").own_play


def test_variant_balance_covers_every_preset_by_itself_with_three_players_each(tmp_path):
    s = studies.variant_balance(games=4, check_games=0, out=tmp_path, workers=1)
    table = s.tables["balance"]
    assert list(dict.fromkeys(table["variant"])) == list(PRESETS)
    roles = table.groupby("variant")["role"].unique()
    assert all(sorted(r) == ["expert", "pile-shy", "reference"] for r in roles)
    # the pile-shy player sets whichever pile threshold acts at the preset
    shy = table[table["role"] == "pile-shy"].groupby("variant")["players"].first()
    assert shy["classic-4p"] == "reference:min_pile=8" and shy["buraco-2p"] == "reference:bu_take=3"
    assert list(s.tables["summary"]["variant"]).count("classic-4p") == 1  # one ranked summary, a row per preset
    assert {h.what.split(",")[0] for h in s.headlines} <= set(PRESETS)
    assert "`reference`, `expert`" in s.method  # the players are stated
    draw_all(s)


@pytest.mark.parametrize("preset", ["classic-4p", "railroad-6p"])
def test_variant_balance_plays_each_deal_once_and_keeps_the_games_it_kept_from_every_rotation(tmp_path, preset):
    # with one strategy on every seat the rotations of a duplicate deal replay the same game: the study plays the
    # first rotation only (a sixth of the games at railroad-6p), the very games it kept from a run of every one
    from sim.records.results import play, read
    from sim.report.variant_balance import one_game_per_deal

    st = studies.setup("variant_balance", 6, 1, 0, tmp_path / "c", [], 1, None, None)
    v = st.variant(preset)
    g, h = one_game_per_deal(st, v, "reference", 6, "once")
    assert len(read(tmp_path / "c" / "once").games) == 6  # played: one game per deal
    every = studies.distinct_games(play(v, "reference", 6 * v.n_sides, 1, hands=True, workers=1))
    renumber = {"game": lambda x: x["game"] // v.n_sides}  # game g * sides of every rotation is game g of one
    pd.testing.assert_frame_equal(g, every[0].assign(**renumber), check_categorical=False)
    pd.testing.assert_frame_equal(h, every[1].assign(**renumber), check_categorical=False)


def test_variant_balance_plays_the_presets_asked_and_names_those_refusing_a_house_rule(tmp_path):
    s = studies.variant_balance(games=2, check_games=0, out=tmp_path, workers=1, presets=["classic-4p", "pennies-6p"],
                                rules=["going_out_canastas=2"], players=["reference"])
    assert set(s.tables["balance"]["variant"]) == {"classic-4p"}
    assert "pennies-6p" in s.method and "going_out_canastas" in s.method
    with pytest.raises(studies.RulesError, match="every preset asked refuses"):
        studies.variant_balance(games=2, check_games=0, out=tmp_path, presets=["pennies-6p"],
                                rules=["going_out_canastas=2"])


def _firsts(*rows: tuple[float, float, float, bool]) -> pd.DataFrame:
    return pd.DataFrame([{"value": v, "low": lo, "high": hi, "capped": c, "fair_share": 0.5, "excess": v - 0.5}
                         for v, lo, hi, c in rows])


def test_an_edge_is_the_rules_only_when_every_player_shows_it_and_a_capped_player_judges_nothing():
    from sim.report.variant_balance import _rules_edge, _verdict

    rules = _firsts((0.56, 0.55, 0.57, False), (0.53, 0.52, 0.54, False))
    players = _firsts((0.56, 0.55, 0.57, False), (0.49, 0.48, 0.50, False))
    capped = _firsts((0.56, 0.55, 0.57, False), (0.40, 0.39, 0.41, True))
    assert _verdict(rules).startswith("an edge of the rules: for") and np.isclose(_rules_edge(rules), 0.03)
    assert _verdict(players).startswith("an edge of the players") and _rules_edge(players) == 0
    assert _verdict(capped).startswith("an edge of the rules") and np.isclose(_rules_edge(capped), 0.06)
    assert _verdict(_firsts((0.5, 0.4, 0.6, False))) == "no measurable edge with any player"


def test_the_evening_out_over_a_game_is_said_only_of_games_of_several_hands(tmp_path):
    s = studies.variant_balance(games=2, check_games=0, out=tmp_path, workers=1, presets=["buraco-2p"],
                                players=["reference"])
    assert "largely evens out" not in s.answer and "nothing evens out" in s.answer


def test_a_knob_study_answers_at_another_preset_with_its_cache_and_report_name_of_its_own(tmp_path):
    s = studies.freezing_the_pile(games=4, check_games=0, out=tmp_path, workers=1, variant="boat-2p")
    a = s.answers[0]
    assert s.variant == a.preset == "boat-2p" and s.stem == "freezing_the_pile-boat-2p"
    assert (tmp_path / "boat-2p" / "freeze-baseline").is_dir()
    assert "`boat-2p`" in s.method and "one against one" in s.method
    # how often the choice arises, counted at the default's own discards
    assert a.points == ("discard",) and a.decisions > 0 and {f.setting for f in a.frequency} == set(a.settings) - {
        "never"}
    assert "How often the choice arises" in s.answer
    assert studies.freezing_the_pile(games=4, check_games=0, out=tmp_path, workers=1).stem == "freezing_the_pile"


def test_three_players_each_for_himself_read_their_share_of_games_won_beside_its_fair_share(tmp_path):
    s = studies.taking_the_pile(games=6, check_games=0, out=tmp_path, workers=1, variant="classic-3p")
    a = s.answers[0]
    assert a.sides == 3 and not a.partners and a.fair == pytest.approx(1 / 3)
    assert "fair share 0.333" in s.method and "win rate" not in s.answer + s.method + s.holds
    assert a.player("baseline").row("3").share == pytest.approx(1 / 3)  # the default against itself: even


def test_a_row_that_plays_the_games_of_another_says_so_with_the_decisions_it_changes(tmp_path):
    s = studies.buraco_choices(games=8, check_games=0, out=tmp_path, workers=1)
    take = s.answers[0]
    twins = [r for r in take.player("baseline").rows if r.same_games_as]
    assert twins, "bu_take from 3 up takes no pile that bu_take=off refuses at buraco-2p"
    r = twins[0]
    assert f"`bu_take={r.setting}` plays exactly the games of `bu_take={r.same_games_as}`" in s.answer


@pytest.mark.parametrize("study,preset,needs", [("asking_to_go_out", "classic-3p", "a partner to ask"),
                                                ("freezing_the_pile", "buraco-4p", "Canasta games"),
                                                ("black_threes", "buraco-2p", "Canasta games")])
def test_a_question_that_does_not_arise_at_a_preset_is_refused_in_one_line_before_any_game(tmp_path, study, preset,
                                                                                        needs):
    with pytest.raises(studies.NotApplicable, match=f"{study} does not apply at {preset}: .*{needs}"):
        studies.STUDIES[study](games=4, check_games=0, out=tmp_path, variant=preset)
    assert not any(tmp_path.rglob("*.parquet"))


def test_choose_presets_reads_presets_families_player_counts_and_all():
    chosen, skipped = studies.choose_presets("asking_to_go_out", "all")
    assert chosen == ["classic-4p", "classic-6p", "house-001-4p", "house-003-4p", "boat-4p", "pennies-6p"]
    assert len(skipped) == len(PRESETS) - len(chosen) and all("a partner to ask" in x for x in skipped)
    chosen, skipped = studies.choose_presets("freezing_the_pile", "4p")
    assert "buraco-4p" not in chosen and "railroad-4p" in chosen and len(skipped) == 1
    assert studies.choose_presets("freezing_the_pile", "boat")[0] == ["boat-2p", "boat-3p", "boat-4p"]
    assert studies.choose_presets("freezing_the_pile", None)[0] == ["classic-4p"]
    assert studies.choose_presets("variant_balance", None)[0] == list(PRESETS)
    with pytest.raises(ValueError, match="unknown preset 'boats'; accepted: classic-4p"):
        studies.choose_presets("freezing_the_pile", "boats")
    with pytest.raises(ValueError, match="no preset for 5p; player counts with presets: 2p, 3p, 4p, 6p"):
        studies.choose_presets("freezing_the_pile", "5p")
    with pytest.raises(studies.NotApplicable, match="applies at none of the presets asked"):
        studies.choose_presets("asking_to_go_out", "railroad")


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
    name = scope["MY_STRATEGY"]
    assert s.tables[f"{knob}_{name}"]["setting"].tolist() == [str(x) for x in scope["MY_GRID"][knob]]
    strong = _strong()
    assert s.tables[f"{knob}_{name}_vs_{strong}"].attrs["opponent"] == strong
    assert s.answers[0].players[1].opponent_plays == ""  # the strong player has no such knob: no row is its own play


def test_a_study_asked_again_plays_only_what_is_missing(tmp_path):
    studies.taking_the_pile(games=4, check_games=0, out=tmp_path, workers=1)
    s = studies.taking_the_pile(games=8, check_games=0, out=tmp_path, workers=1)
    assert (s.tables["min_pile_baseline"]["games"] == 8).all()
    runs = sorted(tmp_path.rglob(RUN_FILE))
    assert len(runs) == 2 * len(studies.MIN_PILE_VALUES)  # a run folder per setting and player checked
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
    assert main(["report", "black_threes", "--games", "4", "--check-games", "0", "--out", str(out), "--cache",
                 str(tmp_path / "cache"), "--workers", "1", "--quiet"]) == 0
    text = (out / "black_threes.md").read_text()
    lines = text.splitlines()
    assert lines[0] == studies.REPORT_MARK and lines[1].startswith("# ")
    assert f"Reproduce: `canasta-lab report black_threes --games 4 --check-games 0 --seed 1 --out {out}`" in text
    foot = lines[-1]
    assert "engine sources" in foot and "git" in foot and "cores" in foot
    for ref in [x.split("](")[1].rstrip(")") for x in lines if x.startswith("![")]:
        assert (out / ref).is_file()
    a = studies.read_answer(out / "answers" / "black_threes-hold_black3-classic-4p.json")
    assert lines[5] == "## Answer" and say.verdict_sentence(a) in lines[7]  # the answer first, from the record
    printed = capsys.readouterr().out
    assert "report:" in printed and say.verdict_sentence(a) in printed


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


def test_report_at_several_presets_writes_one_report_each_and_says_which_presets_it_skipped(tmp_path, capsys):
    out = tmp_path / "reports"
    assert main(["report", "freezing_the_pile", "--variant", "boat-2p,buraco", "--games", "2", "--check-games",
                 "0", "--out", str(out), "--cache", str(tmp_path / "cache"), "--workers", "1", "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "skipped: freezing_the_pile does not apply at buraco-2p" in printed
    assert "skipped: freezing_the_pile does not apply at buraco-4p" in printed
    text = (out / "freezing_the_pile-boat-2p.md").read_text()
    assert "Reproduce: `canasta-lab report freezing_the_pile --variant boat-2p --games 2" in text
    assert not (out / "freezing_the_pile.md").exists() and (out / "freezing_the_pile-boat-2p").is_dir()


def test_report_states_the_seating_of_a_game_of_three_sides_and_records_it(tmp_path):
    out = tmp_path / "reports"
    assert main(["report", "taking_the_pile", "--variant", "classic-3p", "--seating", "alternate", "--games", "3",
                 "--check-games", "0", "--out", str(out), "--cache", str(tmp_path / "c"), "--workers", "1",
                 "--quiet"]) == 0
    text = (out / "taking_the_pile-classic-3p.md").read_text()
    assert "--seating alternate" in text and "alternating seats (alternate)" in text
    sweep = load(tmp_path / "c" / "classic-3p" / "min_pile-baseline")
    assert sweep.attrs["seating"] == "alternate"


@pytest.mark.parametrize(("args", "says"), [
    (["report", "asking_to_go_out", "--variant", "classic-2p"], "asking_to_go_out does not apply at classic-2p"),
    (["report", "1", "--variant", "classic-5p"], "unknown preset 'classic-5p'; accepted: classic-4p"),
    (["report", "1", "--seating", "round"], "invalid choice: 'round'"),
    (["report", "freezing"], "unknown study 'freezing'; accepted: freezing_the_pile"),
    (["report", "1", "--rule", "no_such_rule=1"], "no_such_rule"),
    (["report", "1", "--games", "0"], "positive whole number"),
])
def test_report_bad_input_is_one_line_before_any_game(tmp_path, capsys, args, says):
    with pytest.raises(SystemExit) if {"--games", "--seating"} & set(args) else _nothing():
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


def test_the_view_across_presets_reads_the_records_and_writes_a_card_per_preset(tmp_path):
    a = studies.freezing_the_pile(games=4, check_games=0, out=tmp_path, workers=1).answers
    b = studies.freezing_the_pile(games=4, check_games=0, out=tmp_path, workers=1, variant="boat-2p").answers
    view = studies.across(a + b, ["freezing_the_pile does not apply at buraco-2p: `freeze` needs x, which "
                                  "buraco-2p lacks; its questions there: buraco_choices"])
    assert view.answers == a + b and list(view.tables["summary"]["preset"]) == ["classic-4p", "boat-2p"]
    for x in a + b:
        assert f"| {x.preset} | {say.what_to_do(x)} | {say.worth(x)} |" in view.answer
    assert "buraco_choices" in view.answer  # the refusals in one table, pointing to Buraco's own questions
    draw_all(view)
    path = studies.write_report(view, tmp_path / "r", "canasta-lab report across_variants", force=True)
    cards = sorted(p.name for p in (tmp_path / "r" / "cards").iterdir())
    assert cards == ["boat-2p.md", "buraco-2p.md", "classic-4p.md"] and path.name == "across_variants.md"
    card = (tmp_path / "r" / "cards" / "boat-2p.md").read_text()
    assert say.what_to_do(b[0]) in card and "one against one" in card


def test_every_chart_of_a_study_is_legible_at_the_size_its_report_writes_it(tmp_path):
    from sim import plots
    from sim.report.reports import chart_figure

    a = studies.asking_to_go_out(games=4, check_games=0, out=tmp_path, workers=1)
    b = studies.taking_the_pile(games=4, check_games=0, out=tmp_path, workers=1, variant="railroad-6p")
    balance = studies.variant_balance(games=2, check_games=0, out=tmp_path / "vb", workers=1)  # every preset
    for s in (a, b, studies.across(a.answers + b.answers), balance):
        for stem in s.charts:
            assert plots.text_overlaps(chart_figure(s, stem)) == [], (s.name, stem)


def test_a_check_that_turns_the_answer_round_makes_it_depend_on_the_player():
    from sim.report.answer import Check
    from sim.report.knob_study import after_check

    turned = Check("search", 200, 0.5, "15", 0.40, -0.10, 0.03, 0.9)
    assert after_check(studies.Verdict.DO, ("15",), "", turned, "freeze")[:2] == (studies.Verdict.DEPENDS, ())
    held = Check("search", 200, 0.5, "15", 0.49, -0.01, 0.03, 0.9)
    assert after_check(studies.Verdict.DO, ("15",), "", held, "freeze")[:2] == (studies.Verdict.DO, ("15",))
    assert after_check(studies.Verdict.DO, ("15",), "", None, "freeze")[0] == studies.Verdict.DO


def test_the_study_cache_is_the_checkouts_out_folder_from_any_working_folder(tmp_path, monkeypatch):
    # a notebook's kernel runs in notebooks/: its games must still go to the git-ignored out/ of the checkout
    from pathlib import Path

    monkeypatch.delenv(studies.OUT_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    root = Path(studies.__file__).resolve().parents[2]
    assert studies.cache_dir("freezing_the_pile") == root / "out" / "studies" / "freezing_the_pile"


def test_the_sequential_design_looks_at_an_eighth_a_quarter_a_half_and_all_at_pococks_level():
    from sim.report.answer import sequential_alpha
    from sim.report.common import looks

    assert looks(studies.KNOB_GAMES) == (2000, 4000, 8000, 16000) and looks(4) == (2, 4)
    assert sequential_alpha(4) == pytest.approx(0.0182, abs=2e-4) and sequential_alpha(1) == 0.05


def test_without_a_size_a_study_plays_its_design_and_stops_at_the_first_look_that_decides(tmp_path, monkeypatch):
    from sim.report import knob_study

    monkeypatch.delenv(studies.GAMES_ENV, raising=False)
    monkeypatch.setattr(knob_study, "KNOB_GAMES", 8)
    s = studies.taking_the_pile(out=tmp_path, workers=1, check_games=0, variant="classic-2p")
    a = s.answers[0]
    assert a.looks == (2, 4, 8) and a.alpha == pytest.approx(0.0182, abs=2e-4)
    assert a.games == 8 or a.verdict != studies.Verdict.UNDECIDED  # undecided goes on to the last look
    real = knob_study.judge
    calls = []

    def decided_at_once(*args, **kw):
        calls.append(1)
        j = real(*args, **kw)
        return j if j.verdict != studies.Verdict.UNDECIDED else j.__class__(studies.Verdict.KEEP, (), "", 0, "",
                                                                             j.players)

    monkeypatch.setattr(knob_study, "judge", decided_at_once)
    s = studies.taking_the_pile(out=tmp_path / "again", workers=1, check_games=0, variant="classic-2p")
    assert s.answers[0].games == 2 and len(calls) == 1  # the first look decided: no more games


def test_every_question_at_every_preset_asked_with_the_questions_that_do_not_arise_named(tmp_path):
    s = studies.across_variants(games=4, check_games=0, out=tmp_path, workers=1, presets="classic-4p,boat-2p")
    t = s.tables["summary"]
    assert s.stem == "across_variants"
    assert set(zip(t["knob"], t["preset"], strict=True)) == {
        ("freeze", "classic-4p"), ("freeze", "boat-2p"), ("hold_black3", "classic-4p"), ("hold_black3", "boat-2p"),
        ("ask", "classic-4p"), ("answer_max", "classic-4p"), ("min_pile", "classic-4p"), ("min_pile", "boat-2p")}
    assert any("asking_to_go_out does not apply at boat-2p" in r for r in s.meta["refusals"])
    assert any("buraco_choices does not apply at classic-4p" in r for r in s.meta["refusals"])
    assert (tmp_path / "freezing_the_pile" / "boat-2p").is_dir()  # each question's own cache, shared with its report
    draw_all(s)


def test_report_across_variants_writes_the_view_the_cards_and_each_questions_report(tmp_path, capsys):
    out = tmp_path / "reports"
    assert main(["report", "across_variants", "--variant", "classic-2p", "--games", "2", "--check-games", "0",
                 "--out", str(out), "--cache", str(tmp_path / "c"), "--workers", "1", "--quiet"]) == 0
    text = (out / "across_variants.md").read_text()
    assert "Reproduce: `canasta-lab report across_variants --presets classic-2p --games 2" in text
    assert "asking_to_go_out" in text and "## Glossary" in text
    assert (out / "cards" / "classic-2p.md").is_file()
    report = (out / "taking_the_pile-classic-2p.md").read_text()
    assert "Reproduce: `canasta-lab report taking_the_pile --variant classic-2p --games 2" in report
    records = studies.read_answers(out / "answers")
    assert {a.knob for a in records} == {"freeze", "hold_black3", "min_pile"}


def test_a_view_asked_again_with_one_more_preset_plays_only_that_preset(tmp_path):
    ask = {"games": 4, "check_games": 0, "out": tmp_path, "workers": 1, "questions": ["taking_the_pile"]}
    studies.across_variants(presets="classic-2p", **ask)
    first = {p: p.read_text() for p in (tmp_path / "taking_the_pile" / "classic-2p").rglob(RUN_FILE)}
    s = studies.across_variants(presets="classic-2p,boat-2p", **ask)
    assert list(s.tables["summary"]["preset"]) == ["classic-2p", "boat-2p"]
    assert first and {p: p.read_text() for p in first} == first  # classic-2p's run folders untouched


def test_a_studys_strong_player_is_the_strongest_fast_player_at_its_preset(monkeypatch):
    """STRONG in a part (and `{strong}` in its note) is the player the strength record measured strongest among
    the fast ones at the preset, its knobs kept."""
    from sim.report import knob_study as K
    from sim.report.asking_to_go_out import PARTS
    from sim.rules import get_variant

    v = get_variant("classic-4p")
    monkeypatch.setattr(K, "strong_player_at", lambda _: "learned")
    p = PARTS[1].at(v)
    assert (p.strong_player, p.strong_opponent) == ("learned:ask=always", "learned:ask=always,answer_max=100")
    assert "`learned` is made to ask every time" in p.note and "{strong}" not in p.note
    monkeypatch.setattr(K, "strong_player_at", lambda _: "expert")
    assert PARTS[1].at(v).strong_player == "expert:ask=always"
    own = K.Part("freeze", ("never", 15), player="late-freeze", strong_player="late-freeze", strong_opponent="expert")
    assert own.at(v).strong_player == "late-freeze" and own.at(v).strong_opponent == "expert"


def test_from_records_writes_the_view_and_the_cards_from_the_answer_records_without_a_game(tmp_path, capsys):
    """After some presets' answers were played again, the view across presets and the cards state the records as
    they are: written from FOLDER/answers, in the order across_variants asks the questions."""
    import shutil

    from sim.report.answer import read_answers

    out = tmp_path / "reports"
    shutil.copytree(ROOT / "reports" / "answers", out / "answers")
    assert main(["report", "across_variants", "--from-records", "--out", str(out)]) == 0
    text = (out / "across_variants.md").read_text()
    assert f"Reproduce: `canasta-lab report across_variants --from-records --out {out}`" in text
    records = [a for a in read_answers(out / "answers") if a.study in studies.QUESTIONS]
    assert text.index("### Should I freeze the pile?") < text.index("### Hold black threes or throw them?")
    for a in records:
        card = (out / "cards" / f"{a.preset}.md").read_text()
        assert a.question in card
    assert "no game played" in capsys.readouterr().out
    assert main(["report", "across_variants", "--from-records", "--out", str(out)]) == 2  # no --force: refused
    assert "already exists" in capsys.readouterr().err


@pytest.mark.parametrize(("args", "says"), [
    (["report", "freezing_the_pile", "--from-records"], "--from-records writes the view across presets and the cards"),
    (["report", "across_variants", "--from-records", "--games", "10"], "--games has nothing to act on"),
    (["report", "across_variants", "--from-records"], "no answer records in"),
])
def test_from_records_bad_input_is_one_line(tmp_path, capsys, args, says):
    assert main([*args, "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0]
    assert not (tmp_path / "o").exists()
