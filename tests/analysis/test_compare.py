"""Issue 9: head-to-head comparisons read on the deals, the sequential test on the engine's games,
round robins and sweeps with Holm's correction, on the command line and in the API."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from sim import compare, read, sweep, tournament
from sim.cli import main
from sim.records.outputs import same_strategy_line
from sim.stats import sprt_bounds


@pytest.mark.parametrize("variant", ["classic-2p", "classic-3p", "classic-4p"])
def test_an_exact_copy_is_an_even_match_exactly(variant):
    c = compare(variant, ["baseline", "baseline:min_pile=3"], 60, seed=4, workers=1)
    r = c.pairs.iloc[0]
    assert r["win_rate"] == 0.5 and r["margin"] == 0.0 and r["elo"] == 0.0
    assert r["win_low"] == r["win_high"] == 0.5 and r["p_value"] == 1.0
    assert r["won_all"] == 0 and r["lost_all"] == 0 and r["split"] == r["deals"]


def test_two_labels_of_one_strategy_are_said_to_play_the_same_games_not_sent_for_more(tmp_path, capsys):
    # min_pile=3 is baseline's default at classic-4p: two labels, one strategy, the same games on every deal
    out = tmp_path / "c"
    assert main(["compare", "classic-4p", "-s", "baseline", "-s", "baseline:min_pile=3", "--games", "200", "--seed",
                 "1", "--quiet", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    said = [ln for ln in printed.splitlines() if "the same strategy" in ln]
    assert len(said) == 1, printed
    assert "play the same games on every duplicate deal" in said[0] and "exactly even by construction" in said[0]
    assert "more games change nothing" in said[0]
    assert "Wilson" not in printed and "give more" not in printed and "Pairing cut" not in printed
    assert said[0] in (out / "report.md").read_text()
    assert compare("classic-4p", ["baseline", "baseline:min_pile=4"], 4, seed=1, workers=1).meta["same_strategy"] == []


def test_a_strategy_against_itself_is_refused_saying_it_would_be_even_by_construction():
    with pytest.raises(ValueError, match="got only 'baseline' .one strategy against itself plays the same games"):
        compare("classic-2p", ["baseline", "baseline"], 4, seed=1)


def test_one_strategy_with_random_draws_is_even_in_truth_not_by_construction():
    row = SimpleNamespace(a="search", b="search:samples=48", deals=10, split=6, margin_low=-300.0, margin_high=250.0)
    line = same_strategy_line("classic-2p", row)
    assert "the same strategy at classic-2p" in line and "random draws" in line and "by construction" not in line


def test_pair_counts_add_up_to_the_deals_and_the_intervals_are_on_the_deals():
    c = compare("classic-4p", ["baseline", "baseline:min_pile=6"], 1000, seed=2, workers=2)
    r = c.pairs.iloc[0]
    assert r["deals"] == 500 and r["games"] == 1000 and r["rotations"] == 2
    assert r["won_all"] + r["split"] + r["lost_all"] == r["deals"]
    assert r["win_low"] < r["win_rate"] < r["win_high"] and r["margin_low"] < r["margin"] < r["margin_high"]
    # pairing cuts the variance of both estimates: the paired interval is the narrower one
    assert r["win_variance_factor"] > 1 and r["margin_variance_factor"] > 1
    assert r["win_high"] - r["win_low"] < r["wilson_high"] - r["wilson_low"]
    assert (r["elo"] > 0) == (r["win_rate"] > 0.5) and r["elo_low"] < r["elo"] < r["elo_high"]


def test_games_are_rounded_up_to_whole_deals():
    c = compare("classic-3p", ["baseline", "random"], 10, seed=1, workers=1)
    assert c.games == 12 and c.pairs["deals"].iat[0] == 4 and c.pairs["rotations"].iat[0] == 3


def test_compare_prints_the_pair_counts_the_intervals_and_the_variance_cut(capsys):
    assert main(["compare", "classic-2p", "-s", "baseline", "-s", "random", "--games", "40", "--seed", "3",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    for needle in ("won all", "split", "lost all", "win rate [95%]", "margin per deal [95%]", "Elo [95%]",
                   "Pairing cut the variance against independent deals", "Wilson interval"):
        assert needle in out, needle


def test_sprt_accepts_h1_on_a_clear_difference_and_says_the_estimate_is_biased(tmp_path, capsys):
    assert main(["compare", "classic-2p", "-s", "baseline", "-s", "random", "--games", "20000", "--seed", "1",
                 "--sprt", "elo0=0,elo1=10", "--batch", "200", "--quiet", "--out", str(tmp_path / "c")]) == 0
    out = capsys.readouterr().out
    lower, upper = sprt_bounds(__import__("sim.stats", fromlist=["parse_sprt"]).parse_sprt("elo0=0,elo1=10"))
    assert f"bounds [{lower:.3f}, {upper:.3f}]" in out and "H1 accepted after 200 games (1 look of 200" in out
    assert "stopped early" in out and "is biased" in out and "Bias-corrected estimate" in out
    assert len(read(tmp_path / "c").games) == 200  # the budget was not played


def test_sprt_accepts_h0_for_an_exact_copy():
    c = compare("classic-2p", ["baseline", "baseline:min_pile=3"], 20000, seed=1, sprt="elo0=0,elo1=10",
                batch=200, workers=1)
    assert c.sprt["decision"] == "H0" and c.games == 200 and c.sprt["llr"] <= c.sprt["lower"]


def test_sprt_decision_does_not_depend_on_workers_and_a_rerun_replays_nothing(tmp_path):
    kw = dict(games=4000, seed=7, sprt="p0=0.5,p1=0.53,alpha=0.1,beta=0.1", batch=400)
    a = compare("classic-4p", ["baseline", "baseline:min_pile=4"], workers=1, **kw)
    b = compare("classic-4p", ["baseline", "baseline:min_pile=4"], workers=2, out=tmp_path / "c", **kw)
    assert (a.sprt["decision"], a.sprt["looks"], a.sprt["llr"]) == (b.sprt["decision"], b.sprt["looks"],
                                                                    b.sprt["llr"])
    again = compare("classic-4p", ["baseline", "baseline:min_pile=4"], workers=2, out=tmp_path / "c", **kw)
    assert again.meta["resumed_games"] == b.games and again.sprt["llr"] == b.sprt["llr"]


@pytest.mark.parametrize("spec,needle", [("elo0=0", "elo1"), ("elo0=0,p1=0.5", "mix"), ("x=1,y=2", "unknown"),
                                         ("elo0=0,elo1=10,alpha=0.7", "alpha")])
def test_a_bad_sprt_is_refused_with_one_line_before_any_game(spec, needle, cli):
    r = cli("compare", "classic-2p", "-s", "baseline", "-s", "random", "--games", "10", "--seed", "1",
            "--sprt", spec)
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert r.returncode == 2 and len(lines) == 1 and needle in lines[0].lower(), r.stderr
    assert "won all" not in r.stdout


def test_tournament_matrix_ranking_and_holm(tmp_path):
    t = tournament("classic-2p", ["baseline", "random", "baseline:min_pile=3"], 200, seed=3, workers=2,
                   out=tmp_path / "t")
    assert len(t.pairs) == 3
    copy = t.pairs[(t.pairs["a"] == "baseline") & (t.pairs["b"] == "baseline:min_pile=3")].iloc[0]
    assert copy["win_rate"] == 0.5 and not copy["real"]  # an exact copy is never a real difference
    assert t.pairs[t.pairs["b"] == "random"]["real"].all()
    assert list(t.ranking["strategy"])[-1] == "random" and abs(t.ranking["elo"].sum()) < 1e-6
    top = t.ranking.set_index("strategy")
    assert top.loc["baseline", "elo"] == pytest.approx(top.loc["baseline:min_pile=3", "elo"], abs=1e-6)
    wide = t.wide()
    assert wide.loc["random", "baseline"] < 0.1 and wide.loc["baseline", "random"] > 0.9
    assert wide.loc["random", "baseline"] == pytest.approx(1 - wide.loc["baseline", "random"])
    assert t.matrix["win_rate"].dtype == float and len(t.matrix) == 6
    for name in ("pairs.parquet", "ranking.parquet", "matrix.parquet", "report.md",
                 "baseline__vs__random.parquet"):
        assert (tmp_path / "t" / name).exists(), name


def test_tournament_command_prints_matrix_ranking_and_holm_and_resumes(tmp_path, capsys, cli):
    args = ["tournament", "classic-2p", "baseline", "random", "freezer", "--games", "60", "--seed", "2", "--quiet",
            "--out", str(tmp_path / "t")]
    assert main(args) == 0
    first = capsys.readouterr().out
    for needle in ("win rate of the row against the column", "score margin per deal", "ranking (Elo",
                   "Holm's correction over 3 pairs"):
        assert needle in first
    assert main(args) == 0
    assert capsys.readouterr().out == first  # resumed: nothing played, the same tables
    assert cli("tournament", "classic-2p", "baseline", "baseline", "--games", "2", "--seed", "1").returncode == 2


def test_sweep_reads_each_row_on_the_deals_with_holm():
    from sim import sweep

    df = sweep("classic-2p", "baseline", {"min_pile": [3, 12]}, "baseline", games=200, seed=1, workers=2)
    same = df.iloc[0]
    assert same["win_rate"] == 0.5 and same["margin"] == 0 and not same["real"]
    assert {"won_all", "split", "lost_all", "elo", "elo_low", "elo_high", "p_value"} <= set(df.columns)
    assert np.isfinite(df["elo"]).all()


def test_tournament_and_sweep_at_three_players_read_one_strategy_against_two_seats():
    from sim import sweep

    t = tournament("classic-3p", ["baseline", "random", "baseline:min_pile=3"], 30, seed=1, workers=1)
    copy = t.pairs[t.pairs["b"] == "baseline:min_pile=3"].iloc[0]
    assert copy["a"] == "baseline" and copy["win_rate"] == 0.5 and copy["rotations"] == 3
    df = sweep("classic-3p", "baseline", {"min_pile": [1, 3]}, "baseline", games=30, seed=1, workers=1)
    assert df["win_rate"].iat[1] == 0.5 and df["deals"].iat[0] == 10


def test_another_command_into_an_output_folder_is_refused_and_force_clears_only_ours(tmp_path):
    out = tmp_path / "t"
    tournament("classic-2p", ["baseline", "random", "freezer"], 20, seed=1, workers=1, out=out)
    (out / "notes.txt").write_text("mine")
    before = sorted(p.name for p in out.iterdir())
    from sim import ResultsError, sweep

    with pytest.raises(ResultsError, match="holds the results of another tournament .different strategies."):
        tournament("classic-2p", ["baseline", "random"], 20, seed=1, workers=1, out=out)
    with pytest.raises(ResultsError, match="holds the output of canasta-lab tournament"):
        compare("classic-2p", ["baseline", "random"], 20, seed=1, workers=1, out=out)
    with pytest.raises(ResultsError, match="holds the output of canasta-lab tournament"):
        sweep("classic-2p", "baseline", {"min_pile": [1]}, games=20, seed=1, workers=1, out=out)
    assert sorted(p.name for p in out.iterdir()) == before
    c = compare("classic-2p", ["baseline", "random"], 20, seed=1, workers=1, out=out, force=True)
    assert c.pairs["deals"].iat[0] == 10
    assert sorted(p.name for p in out.iterdir()) == ["_canasta_lab_output.json", "games.parquet", "notes.txt",
                                                    "pairs.parquet", "report.md", "win_rates.png"]


@pytest.mark.parametrize("kwargs,needle", [
    (dict(strategies="baseline"), "two different strategies"),
    (dict(games=1.5), "games must be a whole number"),
    (dict(games=True), "games must be a whole number"),
    (dict(seed=None), "seed must be a whole number"),
    (dict(sprt={"elo0": 0}), "give a string such as"),
    (dict(sprt="elo0=0,elo1=10", batch=4), "batch must be at least 100"),
])
def test_bad_arguments_to_the_api_get_one_clear_message(kwargs, needle):
    args = {"variant": "classic-2p", "strategies": ["baseline", "random"], "games": 10, "seed": 1, **kwargs}
    with pytest.raises((ValueError, TypeError), match=needle):
        compare(**args)


def test_a_grid_that_gives_a_row_twice_or_a_knob_without_a_list_is_refused():
    from sim import sweep
    from strategies import StrategyError

    with pytest.raises(StrategyError, match="twice"):
        sweep("classic-2p", "baseline", {"min_pile": ["0", "00"]}, games=2, seed=1)
    with pytest.raises(StrategyError, match="give a list of values"):
        sweep("classic-2p", "baseline", {"min_pile": 3}, games=2, seed=1)


def test_batch_without_sprt_is_refused_and_a_look_never_exceeds_the_budget(capsys, cli):
    r = cli("compare", "classic-2p", "-s", "baseline", "-s", "random", "--games", "10", "--seed", "1",
            "--batch", "500")
    assert r.returncode == 2 and "give --sprt with it" in r.stderr
    assert main(["compare", "classic-2p", "-s", "baseline", "-s", "random", "--games", "400", "--seed", "1",
                 "--sprt", "elo0=0,elo1=10", "--quiet"]) == 0
    assert "(1 look of 400 games; budget 400)" in capsys.readouterr().out


def test_a_pair_won_on_every_deal_has_an_infinite_elo_and_a_finite_lower_end():
    c = compare("classic-2p", ["baseline", "random"], 40, seed=1, workers=1)
    r = c.pairs.iloc[0]
    if r["win_rate"] == 1.0:
        assert r["win_high"] == 1.0 and r["elo"] == r["elo_high"] == np.inf and np.isfinite(r["elo_low"])
    assert r["win_low"] < r["win_rate"]


def test_a_sweep_asked_again_with_one_more_value_plays_only_the_new_row(tmp_path):
    """Issue 27, part 7: exploring is cheap. The same --out with one value more plays that row's games alone; the
    rows already there are read back as they were (each row's games are a run folder of their own, untouched)."""
    from sim import sweep
    from sim.run.store import OtherRunError

    def files(folder):
        """The games the rows 3 and 5 hold: their run folders' parts."""
        return {f: f.stat().st_mtime_ns for f in folder.rglob("*.parquet") if f.is_file()
                and "min_pile=7" not in str(f) and f.parent != folder}

    out = tmp_path / "sw"
    first = sweep("classic-4p", "baseline", {"min_pile": [3, 5]}, games=8, seed=1, workers=1, out=out)
    before = files(out)
    assert before
    more = sweep("classic-4p", "baseline", {"min_pile": [3, 5, 7]}, games=8, seed=1, workers=1, out=out)
    assert files(out) == before and len(more) == 3  # the two rows' run folders untouched: only the new row played
    assert any("min_pile=7" in str(f) for f in out.iterdir())
    cols = ["min_pile", "games", "wins", "deals", "win_rate", "margin"]
    assert more[cols].iloc[:2].reset_index(drop=True).equals(first[cols].reset_index(drop=True))
    fewer = sweep("classic-4p", "baseline", {"min_pile": [7]}, games=8, seed=1, workers=1, out=out)
    assert fewer[cols].iloc[0].equals(more[cols].iloc[2])
    # another opponent is another sweep: still refused
    with pytest.raises(OtherRunError, match="holds the results of another sweep .different opponent."):
        sweep("classic-4p", "baseline", {"min_pile": [3]}, "freezer", games=8, seed=1, workers=1, out=out)


def _seats(folder) -> list[str]:
    return [x.split(":")[0] for x in read(folder).meta["seating"]]


def test_the_seating_of_each_for_himself_games_is_a_choice_recorded_and_stated(tmp_path, capsys):
    # classic-3p: three sides of one seat. `rest` puts the row on one side against two opponents,
    # `alternate` gives the row two sides of three (A, B, A), rotated over every deal either way
    grid = {"min_pile": [4]}
    rest = sweep("classic-3p", "baseline", grid, "reference", games=6, seed=1, out=tmp_path / "rest")
    alt = sweep("classic-3p", "baseline", grid, "reference", games=6, seed=1, out=tmp_path / "alt",
                seating="alternate")
    assert _seats(tmp_path / "rest" / "baseline_min_pile=4.parquet") == ["baseline", "reference", "reference"]
    assert _seats(tmp_path / "alt" / "baseline_min_pile=4.parquet") == ["baseline", "reference", "baseline"]
    assert rest.attrs["seating"] == "rest" and alt.attrs["seating"] == "alternate"
    assert "one against the rest" in rest.attrs["seating_text"]
    # the same folder asked again with the other seating holds another sweep: refused, nothing replaced
    with pytest.raises(ValueError, match="different seating"):
        sweep("classic-3p", "baseline", grid, "reference", games=6, seed=1, out=tmp_path / "rest",
              seating="alternate")
    c = compare("classic-3p", ["baseline", "reference"], 6, seed=1, seating="rest")
    assert c.meta["seating_mode"] == "rest" and [x.split(":")[0] for x in c.meta["seating"]] == [
        "baseline", "reference", "reference"]
    assert "seating: one against the rest (rest)" in c.table()
    default = compare("classic-3p", ["baseline", "reference"], 6, seed=1)
    assert default.meta["seating_mode"] == "alternate"  # the strategies as listed take the seats in turn
    assert main(["sweep", "classic-3p", "-s", "baseline", "--grid", "min_pile=4", "--vs", "reference", "--games", "3",
                 "--seed", "1", "--seating", "alternate", "--quiet"]) == 0
    assert "seating: alternating seats (alternate)" in capsys.readouterr().out


def test_at_two_sides_both_seatings_are_the_same_games():
    a = sweep("classic-2p", "baseline", {"min_pile": [4]}, "reference", games=10, seed=3)
    b = sweep("classic-2p", "baseline", {"min_pile": [4]}, "reference", games=10, seed=3, seating="alternate")
    assert a[["wins", "margin"]].equals(b[["wins", "margin"]])
    assert "one against one" in a.attrs["seating_text"]
    with pytest.raises(ValueError, match="unknown seating 'round'; accepted: rest"):
        sweep("classic-2p", "baseline", {"min_pile": [4]}, games=2, seed=1, seating="round")
