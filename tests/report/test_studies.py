"""The studies behind the notebooks and `canasta-lab report` (sim.report.studies): each answers its question
with tables, charts and headline intervals, a report says the exact command and the code version, and
bad input is refused in one line before any game."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from sim import PRESETS, load
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
    assert s.variant == "boat-2p" and s.stem == "freezing_the_pile-boat-2p"
    assert s.tables["freeze_baseline"].attrs["variant"] == "boat-2p"
    assert (tmp_path / "boat-2p" / "freeze-baseline").is_dir()
    assert "`boat-2p`" in s.method and "one against one" in s.method
    # how often the choice arises: every setting against itself, the default's own row moving nothing
    t = s.tables["freeze_baseline"].set_index("freeze")
    assert {"acts", "changes"} <= set(t.columns) and t.loc["never", "changes"] == 0
    assert "How often the choice arises" in s.answer
    assert studies.freezing_the_pile(games=4, check_games=0, out=tmp_path, workers=1).stem == "freezing_the_pile"


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


def test_a_setting_that_almost_never_changes_the_play_is_said_so_and_never_the_headline():
    from sim.report.knob_study import Part, _best_other, _frequency_line

    part = Part("freeze", ("never", 5, 10), acts="freezes", decision="freezing")
    base = pd.DataFrame({"freeze": ["never", "5", "10", "15"], "win_rate": [0.5, 0.45, 0.52, 0.51],
                         "acts": [0.0, 0.3, 0.01, 0.015], "changes": [0.0, 0.3, 0.01, 0.015],
                         "real": [False, False, False, True]})
    line, rare = _frequency_line(part, base)
    assert rare == ["10"] and "`10` change it by less than" in line and "0.000 with the default" in line
    # 10 wins more, but plays as the default and ties with it; 15 rarely acts too, but really differs
    assert _best_other(base, "freeze", "never")["freeze"] == "15"
    assert _best_other(base.assign(real=False), "freeze", "never")["freeze"] == "5"


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
    # a run folder per setting: baseline's sweep, expert's, and baseline's settings against themselves (how
    # often the choice arises)
    assert len(runs) == 3 * len(studies.MIN_PILE_VALUES)
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


def _answered(variant: str, **row) -> studies.Study:
    base = {"variant": variant, "knob": "freeze", "default": "never", "best": "10", "win_rate": 0.52,
            "win_low": 0.51, "win_high": 0.53, "margin": 20.0, "deals": 2000, "real": True, "arises": 0.2,
            "rare": False, "strong": "expert", "strong_win_rate": 0.51, "holds": True, "advice": "10", "power": 0.9,
            "search_games": 0, "search_diff": float("nan"), "search_se": float("nan")}
    return studies.Study("freezing_the_pile", "Should I freeze the pile?", "q", "m", {"summary": pd.DataFrame(
        [{**base, **row}])}, {}, "a", "", [], 4000, 1, variant=variant)


def test_the_view_across_presets_says_where_the_answer_holds_and_where_it_changes():
    same = studies.across([_answered("classic-4p"), _answered("boat-4p")])
    assert "the same answer at every preset asked (classic-4p, boat-4p): freeze=10" in same.answer
    assert same.stem == "freezing_the_pile-across" and len(same.headlines) == 2
    changed = studies.across([_answered("classic-4p"),
                              _answered("boat-4p", rare=True, real=False, advice="", arises=0.01),
                              _answered("house-001-4p", real=False, advice="", best="2", win_rate=0.49),
                              _answered("house-003-4p", holds=False, advice="")])
    text = changed.answer
    assert "the answer changes with the preset: freeze=10 at classic-4p" in text
    assert "the choice almost never arises at boat-4p" in text
    assert "keep the default freeze=never at house-001-4p" in text
    assert "freeze=10 beats the default, but not with expert: no advice at house-003-4p" in text
    assert list(changed.tables["summary"]["variant"]) == ["classic-4p", "boat-4p", "house-001-4p", "house-003-4p"]
    draw_all(changed)


def test_an_answer_that_search_turns_round_is_not_advice_and_the_view_shows_the_check():
    from sim.report.knob_study import search_reverses

    assert search_reverses(-0.10, 0.03) and not search_reverses(-0.05, 0.03) and not search_reverses(0.1, 0.03)
    assert not search_reverses(float("nan"), float("nan"))  # no check: nothing turned round
    view = studies.across([_answered("classic-4p", search_games=40, search_diff=0.02, search_se=0.05),
                           _answered("boat-4p", advice="", search_games=40, search_diff=-0.15, search_se=0.05)])
    assert "against `search` (40 games a setting) it does +2.0 points (+-9.8) against the default" in view.answer
    assert "freeze=10 beats the default, but not against search: no advice at boat-4p" in view.answer
    assert view.tables["summary"]["search_games"].tolist() == [40, 40]


def test_a_headline_settled_by_the_sequential_test_is_not_sent_back_for_more_games():
    from sim.report.reports import report_markdown

    clear = _answered("classic-4p", win_rate=0.56, win_low=0.54, win_high=0.58, deals=500)  # +-2 points, decided
    view = studies.across([clear, _answered("boat-4p", win_low=0.495, win_high=0.505)])
    assert view.headlines[0].settled and not view.wide_headlines()
    text = report_markdown(view, "canasta-lab report x", {"across": "across.png"})
    assert "Every headline decides" in text and "(1 of 2, widest +-2.00)" in text and "**Size:**" not in text
    wide = studies.across([_answered("classic-4p", win_rate=0.505, win_low=0.48, win_high=0.53, deals=500)])
    assert [h.settled for h in wide.headlines] == [False] and wide.wide_headlines()  # undecided: still sent back


def test_across_variants_by_default_plays_to_its_last_look_and_checks_each_answer_against_search(
        tmp_path, monkeypatch):
    from sim.report import across_variants as av

    monkeypatch.delenv(studies.GAMES_ENV, raising=False)
    monkeypatch.setattr(av, "ACROSS_GAMES", 4)
    monkeypatch.setattr(av, "decided", lambda h: False)
    s = studies.across_variants(out=tmp_path, workers=1, presets="classic-2p", questions=["taking_the_pile"])
    row = s.tables["summary"].iloc[0]
    assert row["games"] == 4 and row["search_games"] == 2  # a tenth of 4 games, at least 2 (below ACROSS_CHECK)


def test_the_strong_check_states_its_power_to_see_a_reversal_of_the_headlines_size():
    from sim.report.knob_study import reversal_power

    strong = studies.Headline("expert", 0.5, 0.49, 0.51, 5000)  # a half-width of one point: se = 0.0051
    assert reversal_power(0.02, strong) == pytest.approx(0.975, abs=0.002)  # twice the half-width: 97.5%
    assert reversal_power(-0.01, strong) == pytest.approx(0.5, abs=0.002)  # the half-width itself: a coin
    assert reversal_power(0.02, studies.Headline("e", 0.5, 0.45, 0.55, 200)) < 0.2


def test_a_row_whose_hands_hit_the_turn_cap_is_flagged_and_never_the_answer():
    from sim.report.knob_study import _best_other

    base = pd.DataFrame({"min_pile": ["3", "1", "6"], "win_rate": [0.5, 0.7, 0.52], "acts": [1.0, 0.2, 0.8],
                         "changes": [0.0, 0.8, 0.2], "capped": [0.0, 0.9, 0.0], "real": [False, True, False]})
    assert _best_other(base, "min_pile", "3")["min_pile"] == "6"  # 1 wins more, in hands the cap cut short


def test_the_study_cache_is_the_checkouts_out_folder_from_any_working_folder(tmp_path, monkeypatch):
    # a notebook's kernel runs in notebooks/: its games must still go to the git-ignored out/ of the checkout
    from pathlib import Path

    monkeypatch.delenv(studies.OUT_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    root = Path(studies.__file__).resolve().parents[2]
    assert studies.cache_dir("freezing_the_pile") == root / "out" / "studies" / "freezing_the_pile"


def test_the_sequential_design_looks_at_an_eighth_a_quarter_a_half_and_all_and_decides_by_pocock():
    from sim.report.across import POCOCK_Z, decided
    from sim.report.across_variants import looks

    assert looks(20_000) == [2500, 5000, 10_000, 20_000] and looks(4) == [2, 4]
    assert decided(studies.Headline("sized", 0.5, 0.495, 0.505, 5000))
    se = 0.02
    clear = studies.Headline("clear", 0.5 + (POCOCK_Z + 0.1) * se, 0.5, 0.6, 2000)
    clear.low, clear.high = clear.value - 1.96 * se, clear.value + 1.96 * se
    assert decided(clear)
    near = studies.Headline("near", 0.5 + (POCOCK_Z - 0.3) * se, 0.0, 1.0, 2000)
    near.low, near.high = near.value - 1.96 * se, near.value + 1.96 * se
    assert not decided(near)  # beyond 1.96 but not beyond Pocock's bound: four looks need more
    assert not decided(studies.Headline("few", 0.9, 0.85, 0.95, 40))  # too few deals to mean it
    assert decided(studies.Headline("clear at 500 deals", 0.6, 0.57, 0.63, 500))


def test_every_question_at_every_preset_asked_with_the_questions_that_do_not_arise_named(tmp_path):
    s = studies.across_variants(games=4, check_games=0, out=tmp_path, workers=1, presets="classic-4p,boat-2p")
    t = s.tables["summary"]
    assert s.stem == "across_variants"
    assert set(zip(t["knob"], t["variant"], strict=True)) == {
        ("freeze", "classic-4p"), ("freeze", "boat-2p"), ("hold_black3", "classic-4p"), ("hold_black3", "boat-2p"),
        ("ask", "classic-4p"), ("answer_max", "classic-4p"), ("min_pile", "classic-4p"), ("min_pile", "boat-2p")}
    assert "asking_to_go_out does not apply at boat-2p" in s.method
    assert (tmp_path / "freezing_the_pile" / "boat-2p").is_dir()  # each question's own cache, shared with its report
    draw_all(s)


def test_a_preset_whose_headlines_decide_at_a_look_stops_there(tmp_path, monkeypatch):
    from sim.report import across_variants as av

    monkeypatch.setattr(av, "decided", lambda h: True)
    s = studies.across_variants(games=8, check_games=0, out=tmp_path, workers=1, presets="classic-2p",
                                questions=["taking_the_pile"])
    assert s.tables["summary"]["games"].tolist() == [2]  # the first look of 2, 4, 8
    assert "Stopped early: taking_the_pile at classic-2p: 2 games a row" in s.method
    with pytest.raises(ValueError, match="unknown question 'freeze'; accepted: freezing_the_pile"):
        studies.across_variants(games=8, out=tmp_path, questions=["freeze"])


def test_report_across_variants_writes_one_report_for_the_presets_asked(tmp_path, capsys):
    out = tmp_path / "reports"
    assert main(["report", "across_variants", "--variant", "classic-2p", "--games", "2", "--check-games", "0",
                 "--out", str(out), "--cache", str(tmp_path / "c"), "--workers", "1", "--quiet"]) == 0
    text = (out / "across_variants.md").read_text()
    assert "Reproduce: `canasta-lab report across_variants --presets classic-2p --games 2" in text
    assert "asking_to_go_out does not apply at classic-2p" in text


def test_a_view_asked_again_with_one_more_preset_plays_only_that_preset(tmp_path):
    ask = {"games": 4, "check_games": 0, "out": tmp_path, "workers": 1, "questions": ["taking_the_pile"]}
    studies.across_variants(presets="classic-2p", **ask)
    first = {p: p.read_text() for p in (tmp_path / "taking_the_pile" / "classic-2p").rglob(RUN_FILE)}
    s = studies.across_variants(presets="classic-2p,boat-2p", **ask)
    assert list(s.tables["summary"]["variant"]) == ["classic-2p", "boat-2p"]
    assert first and {p: p.read_text() for p in first} == first  # classic-2p's run folders untouched
