"""Silent wrong results and lost data, found by trying the tool as a new user would (issue 7).

Each bad input gets one clear line naming what was wrong and what is accepted, a non-zero exit,
before any game is played, and nothing already written is lost.
"""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path

import pytest
from tqdm import tqdm

from sim import compare, play
from sim.cli import main
from strategies import StrategyError, parse_strategy

ROOT = Path(__file__).resolve().parents[2]


def refused(r: subprocess.CompletedProcess, *needles: str) -> str:
    """One line on standard error, a non-zero exit, no traceback, and no game played (no table)."""
    assert r.returncode != 0, r.stdout
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert "Traceback" not in r.stderr
    assert "win_rate" not in r.stdout and "games," not in r.stdout
    for n in needles:
        assert n in lines[0], lines[0]
    return lines[0]


# --- player counts ---------------------------------------------------------------------------------


@pytest.mark.parametrize("preset,players", [("classic-4p", 3), ("classic-2p", 6)])
def test_preset_with_its_own_player_count_refuses_another_players(preset, players, cli):
    r = cli("play", preset, "--players", str(players), "-s", "random", "--games", "2", "--seed", "1")
    refused(r, f"{preset} is the", f"--players {players} contradicts it", f"classic --players {players}")


def test_preset_with_its_own_player_count_accepts_the_same_count(cli):
    assert cli("play", "classic-4p", "--players", "4", "-s", "random", "--games", "2", "--seed", "1",
               "--quiet").returncode == 0


# --- outputs ---------------------------------------------------------------------------------------


def test_hands_without_a_run_folder_is_refused(tmp_path, cli):
    refused(cli("play", "classic-4p", "-s", "random", "--games", "2", "--seed", "1", "--hands"), "give --out")


def test_a_folder_that_is_not_a_run_is_never_used_even_with_force(tmp_path, cli):
    d = tmp_path / "looks-like.parquet"
    d.mkdir()
    (d / "keep.txt").write_text("precious")
    for extra in ([], ["--force"]):
        refused(cli("play", "classic-4p", "-s", "random", "--games", "2", "--seed", "1", "--out", str(d), *extra),
                "is not a canasta-lab run folder")
    t = tmp_path / "t.jsonl"
    t.mkdir()
    refused(cli("transcript", "classic-4p", "-s", "random", "--seed", "1", "--game", "0", "--out", str(t), "--force"),
            "is a folder")
    assert sorted(p.name for p in d.iterdir()) == ["keep.txt"] and (d / "keep.txt").read_text() == "precious"


def test_compare_out_to_an_existing_file_is_refused(tmp_path, cli):
    f = tmp_path / "report"
    f.write_text("precious")
    for extra in ([], ["--force"]):
        refused(cli("compare", "classic-2p", "-s", "baseline", "-s", "random", "--games", "2", "--seed", "1",
                    "--out", str(f), *extra), "is a file")
    assert f.read_text() == "precious"


def test_compare_out_to_an_unwritable_path_is_refused(tmp_path, cli):
    for out in ("/proc/canasta-report", "/etc/hostname/rep"):
        refused(cli("compare", "classic-2p", "-s", "baseline", "-s", "random", "--games", "2", "--seed", "1",
                    "--out", out), "not writable")
    assert not Path("/proc/canasta-report").exists()


def test_compare_report_without_its_run_is_refused_unless_force(tmp_path, cli):
    rep = tmp_path / "rep"
    rep.mkdir()
    (rep / "report.md").write_text("old report")
    (rep / "notes.txt").write_text("mine")
    refused(cli("compare", "classic-2p", "-s", "baseline", "-s", "random", "--games", "4", "--seed", "1",
                "--out", str(rep)), "already holds report.md", "--force")
    assert (rep / "report.md").read_text() == "old report"
    r = cli("compare", "classic-2p", "-s", "baseline", "-s", "random", "--games", "4", "--seed", "1",
            "--out", str(rep), "--force", "--quiet")
    assert r.returncode == 0, r.stderr
    assert "baseline vs random" in (rep / "report.md").read_text()
    assert (rep / "notes.txt").read_text() == "mine"  # --force replaces the report's own files only
    assert sorted(p.name for p in rep.iterdir()) == ["_canasta_lab_output.json", "games.parquet", "notes.txt",
                                                    "pairs.parquet", "report.md",
                                                    "win_rates.png"]


def test_compare_into_the_folder_of_another_comparison_is_refused_unless_force(tmp_path, cli):
    rep = tmp_path / "rep"
    args = ["compare", "classic-2p", "-s", "baseline", "-s", "random", "--games", "4", "--seed", "1", "--quiet"]
    assert cli(*args, "--out", str(rep)).returncode == 0
    before = (rep / "report.md").read_text()
    other = ["compare", "classic-2p", "-s", "baseline", "-s", "freezer", "--games", "4", "--seed", "1", "--quiet"]
    refused(cli(*other, "--out", str(rep)), "holds the results of another compare (different strategies)", "--force")
    assert (rep / "report.md").read_text() == before
    assert cli(*other, "--out", str(rep), "--force").returncode == 0
    assert "freezer" in (rep / "report.md").read_text()


def test_compare_has_force_and_progress(tmp_path, cli):
    r = cli("compare", "--help")
    assert "--force" in r.stdout and "--progress" in r.stdout and "--quiet" in r.stdout


# --- knobs -----------------------------------------------------------------------------------------


def test_fractional_value_for_a_whole_number_knob_is_refused(cli):
    with pytest.raises(StrategyError, match=r"min_pile=3.5 is not a whole number; give a whole number from 0 to 108"):
        parse_strategy("baseline:min_pile=3.5")
    refused(cli("play", "classic-4p", "-s", "baseline:min_pile=3.5", "--games", "2", "--seed", "1"),
            "not a whole number")
    refused(cli("sweep", "classic-4p", "-s", "baseline", "--grid", "go_out=100.5", "--games", "2", "--seed", "1"),
            "not a whole number")
    assert parse_strategy("baseline:min_pile=4.0").knob_values()["min_pile"] == 4  # 4.0 is a whole number


def test_same_knob_twice_in_one_strategy_is_refused(cli):
    with pytest.raises(StrategyError, match="knob 'min_pile' is set twice"):
        parse_strategy("baseline:min_pile=3,min_pile=5")
    refused(cli("play", "classic-4p", "-s", "baseline:min_pile=3,freeze=never,min_pile=5", "--games", "2",
                "--seed", "1"), "set twice")


def test_same_knob_twice_in_sweep_grid_is_refused(cli):
    refused(cli("sweep", "classic-4p", "-s", "baseline", "--grid", "min_pile=1,3", "--grid", "min_pile=5",
                "--games", "2", "--seed", "1"), "--grid min_pile is given twice")


def test_knob_both_fixed_and_swept_is_refused(cli):
    refused(cli("sweep", "classic-4p", "-s", "baseline:min_pile=4", "--grid", "min_pile=1,3", "--games", "2",
                "--seed", "1"), "both fixed")


def test_several_strategies_to_sweep_are_refused(cli):
    refused(cli("sweep", "classic-4p", "-s", "baseline", "-s", "freezer", "--grid", "min_pile=1,3", "--games", "2",
                "--seed", "1"), "sweep varies one strategy", "--vs")


# --- seating ---------------------------------------------------------------------------------------


def test_compare_refuses_a_side_that_mixes_strategies(tmp_path, cli):
    line = refused(cli("compare", "classic-4p", "-s", "baseline", "-s", "random", "-s", "freezer", "--games", "2",
                       "--seed", "1", "--out", str(tmp_path / "rep")), "side 0 would mix")
    assert "baseline random freezer baseline" in line
    assert not (tmp_path / "rep").exists()


@pytest.mark.parametrize("command,preset,seating,where", [
    (["compare", "classic-4p", "-s", "baseline", "-s", "reference"], "classic-4p", "alternate", "partnerships"),
    (["compare", "classic-2p", "-s", "baseline", "-s", "reference"], "classic-2p", "rest", "one against one"),
    (["tournament", "boat-4p", "baseline", "reference"], "boat-4p", "rest", "partnerships"),
    (["sweep", "buraco-2p", "-s", "baseline", "--grid", "min_pile=1,3"], "buraco-2p", "alternate", "one against one"),
])
def test_seating_is_refused_where_only_two_sides_play(tmp_path, cli, command, preset, seating, where):
    # with two sides `rest` and `alternate` both put A on one side and B on the other: the same games
    out = tmp_path / "out"
    line = refused(cli(*command, "--games", "2", "--seed", "1", "--seating", seating, "--out", str(out)),
                   f"--seating {seating}: {preset} has two sides ({where}",
                   "acts only where three or more sides play each for himself")
    assert "leave it out" in line
    assert not out.exists()


@pytest.mark.parametrize("command", [
    ["compare", "classic-4p", "-s", "baseline", "-s", "reference"],
    ["tournament", "pennies-6p", "baseline", "reference"],
    ["sweep", "classic-2p", "-s", "baseline", "--grid", "min_pile=1"],
])
def test_seating_left_out_plays_at_two_sides_with_the_commands_default(capsys, command):
    assert main([*command, "--games", "2", "--seed", "1", "--workers", "1", "--quiet"]) == 0
    assert "error" not in capsys.readouterr().err


def test_seating_through_the_api_is_still_accepted_at_two_sides():
    # the command line refuses what the user typed; a script passing a seating to every preset keeps working
    alternate = compare("classic-4p", ["baseline", "reference"], 4, seed=2, seating="alternate")
    rest = compare("classic-4p", ["baseline", "reference"], 4, seed=2, seating="rest")
    assert alternate.pairs["margin"].equals(rest.pairs["margin"])


def test_report_seating_refused_only_where_no_preset_asked_has_three_sides(tmp_path, capsys):
    args = ["report", "taking_the_pile", "--games", "2", "--check-games", "0", "--seed", "1", "--quiet",
            "--out", str(tmp_path / "o"), "--cache", str(tmp_path / "c"), "--workers", "1"]
    assert main([*args, "--variant", "2p", "--seating", "alternate"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--seating alternate: every preset asked has two sides (classic-2p" in err[0]
    assert "acts only where three or more sides play each for himself" in err[0]
    assert not (tmp_path / "o").exists() and not (tmp_path / "c").exists()
    assert main([*args, "--variant", "classic-4p", "--seating", "rest"]) == 2
    assert "classic-4p has two sides (partnerships" in capsys.readouterr().err


def test_report_over_presets_applies_the_seating_only_where_three_sides_play(tmp_path, capsys):
    out = tmp_path / "o"
    assert main(["report", "taking_the_pile", "--variant", "classic-2p,classic-3p", "--seating", "alternate",
                 "--games", "3", "--check-games", "0", "--seed", "1", "--quiet", "--out", str(out),
                 "--cache", str(tmp_path / "c"), "--workers", "1"]) == 0
    assert "error" not in capsys.readouterr().err
    two = (out / "taking_the_pile-classic-2p.md").read_text()
    three = (out / "taking_the_pile-classic-3p.md").read_text()
    assert "--seating" not in two and "one against one" in two  # the command it names would be refused there
    assert "--variant classic-3p --games 3 --check-games 0 --seed 1 --seating alternate" in three
    assert "alternating seats (alternate)" in three
    across = (out / "taking_the_pile-across.md").read_text()
    assert "--variant classic-2p,classic-3p --games 3 --check-games 0 --seed 1 --seating alternate" in across


def test_report_seating_is_refused_for_variant_balance_alone(tmp_path, capsys):
    # one strategy on every seat: there is nothing to seat, at any preset
    assert main(["report", "variant_balance", "--variant", "classic-3p", "--seating", "rest", "--games", "2",
                 "--out", str(tmp_path / "o"), "--cache", str(tmp_path / "c"), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "variant_balance plays one strategy on every seat" in err[0]


def test_play_prints_the_seating_it_used(cli):
    r = cli("play", "classic-4p", "-s", "baseline", "-s", "random", "-s", "freezer", "--games", "2", "--seed", "1",
            "--quiet")
    assert r.returncode == 0, r.stderr
    assert "seating: seat 0 baseline, seat 1 random, seat 2 freezer, seat 3 baseline" in r.stdout
    assert "sides baseline+freezer vs random+baseline" in r.stdout


def test_play_api_takes_one_name_as_one_strategy():
    r = play("classic-4p", "baseline", games=2, seed=1)
    assert set(r.games.strategy_0) == {"baseline+baseline"} and set(r.games.strategy_1) == {"baseline+baseline"}
    assert r.meta["seating"] == ["baseline"] * 4


# --- progress --------------------------------------------------------------------------------------


def test_progress_accepts_a_tqdm_bar():
    bar = tqdm(total=30, file=io.StringIO())
    play("classic-2p", ["baseline", "random"], games=30, seed=1, progress=bar)
    assert bar.n == 30


def test_progress_accepts_a_callable_and_moves_in_short_chunks():
    seen: list[int] = []
    play("classic-2p", ["baseline", "random"], games=40, seed=1, progress=seen.append)
    assert sum(seen) == 40
    # the first update comes after a handful of games, not after a 2,000-game chunk; later chunks
    # are sized to last about half a second
    assert seen[0] <= 8 and len(seen) >= 2


def test_progress_gives_the_same_results_as_no_progress():
    a = play("classic-2p", ["baseline", "random"], games=25, seed=3).games
    b = play("classic-2p", ["baseline", "random"], games=25, seed=3, progress=lambda n: None).games
    assert a.equals(b)


def test_progress_of_another_kind_is_refused():
    with pytest.raises(TypeError, match="give True, a tqdm bar, or a function"):
        play("classic-2p", ["baseline"], games=2, seed=1, progress="yes")


# --- make run, --version ---------------------------------------------------------------------------


def test_make_run_writes_only_where_git_ignores():
    recipe = (ROOT / "Makefile").read_text().split("\nrun:")[1].split("\n\n")[0]
    out = re.search(r"--out (\S+)", recipe).group(1)
    assert not out.startswith("reports/")
    r = subprocess.run(["git", "check-ignore", "-q", f"{out}/report.md"], cwd=ROOT)
    assert r.returncode == 0, f"{out} is not ignored by git"


def test_version_flag(capsys):
    from sim import __version__

    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.strip() == f"canasta-lab {__version__}"


def test_knob_both_fixed_and_swept_is_refused_in_the_python_api_too():
    from sim import sweep

    with pytest.raises(StrategyError, match="both fixed in baseline:min_pile=4 and swept"):
        sweep("classic-4p", "baseline:min_pile=4", {"min_pile": [1, 3]}, games=2, seed=1)
