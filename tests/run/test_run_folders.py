"""Issue 24: a folder belongs to the command that wrote it. Every command that writes a folder (play,
compare, tournament, sweep, profile, report) records what it holds; every other command refuses that
folder with one line naming the folder and its command, unless --force, before any game and losing
nothing; the same command again resumes it. Nothing is ever written inside a run folder. And the
main process of a streaming run keeps no table of every game (memory stays flat)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

from sim import Comparison, Experiment, ResultsError, load, read, win_rates
from sim.cli import main
from sim.run.experiment import Played
from sim.run.runner import POOL_MIN_GAMES, make_job
from sim.run.store import OUTPUT_FILE, PART_RE, RUN_FILE

ROOT = Path(__file__).parents[2]

Cli = Callable[..., subprocess.CompletedProcess]
GAMES = "8"  # every command's folder is made with this many games: played in this process, in moments
SEED = "1"


def command_line(command: str, out: Path) -> list[str]:
    """`command`'s arguments writing its folder `out` (a report's games go to a cache beside it)."""
    tail = ["--seed", SEED, "--out", str(out), "--quiet"]
    return {
        "play": ["play", "classic-2p", "-s", "baseline", "-s", "random", "--games", GAMES, *tail],
        "compare": ["compare", "classic-2p", "-s", "baseline", "-s", "random", "--games", GAMES, *tail],
        "tournament": ["tournament", "classic-2p", "baseline", "random", "--games", GAMES, *tail],
        "sweep": ["sweep", "classic-2p", "-s", "baseline", "--vs", "random", "--grid", "min_pile=1,2", "--games",
                  GAMES, *tail],
        "profile": ["profile", "classic-2p", "-s", "baseline", "-s", "random", "--games", GAMES, *tail],
        "report": ["report", "taking_the_pile", "--games", "2", "--check-games", "0", *tail, "--cache",
                   str(out.parent / f"{out.name}-cache")],
    }[command]


COMMANDS = ("play", "compare", "tournament", "sweep", "profile", "report")
PAIRS = [(owner, other) for owner in COMMANDS for other in COMMANDS if other != owner]


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder`, by relative path, with its bytes: what must survive a refusal."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each command's folder, written once by the command itself."""
    root = tmp_path_factory.mktemp("owners")
    out = {}
    for command in COMMANDS:
        out[command] = root / command
        assert main(command_line(command, out[command])) == 0, command
    return out


Capture = pytest.CaptureFixture[str]


def one_line(capsys: Capture) -> str:
    lines = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert len(lines) == 1, lines
    return lines[0]


def test_compare_out_into_a_play_folder_is_refused_without_force(tmp_path: Path, cli: Cli) -> None:
    run = tmp_path / "run"
    play = ["play", "classic-2p", "-s", "baseline", "-s", "random", "--games", "50", "--seed", "1", "--quiet"]
    compare = ["compare", "classic-2p", "-s", "baseline", "-s", "random", "--games", "50", "--seed", "1", "--quiet"]
    assert cli(*play, "--out", str(run)).returncode == 0
    before = snapshot(run)
    r = cli(*compare, "--out", str(run))
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert r.returncode == 2 and len(lines) == 1 and r.stdout == "", r.stderr
    assert str(run) in lines[0] and "canasta-lab play" in lines[0] and "another folder" in lines[0], lines[0]
    assert "--force" in lines[0]
    assert snapshot(run) == before and len(read(run).games) == 50  # nothing mixed in, the run still reads
    r = cli(*compare, "--out", str(run), "--force")  # --force: the comparison replaces the run
    assert r.returncode == 0, r.stderr
    assert not any(PART_RE.match(p.name) for p in run.iterdir()) and not (run / RUN_FILE).exists()
    assert isinstance(load(run), Comparison) and len(read(run).games) == 50


def test_play_out_into_a_compare_folder_is_refused_without_force(tmp_path: Path, cli: Cli) -> None:
    rep = tmp_path / "rep"
    args = ["classic-2p", "-s", "baseline", "-s", "random", "--games", "20", "--seed", "1", "--quiet",
            "--out", str(rep)]
    assert cli("compare", *args).returncode == 0
    before = snapshot(rep)
    r = cli("play", *args)
    assert r.returncode == 2 and "canasta-lab compare" in r.stderr and "--force" in r.stderr, r.stderr
    assert snapshot(rep) == before
    assert cli("play", *args, "--force").returncode == 0
    assert sorted(p.name for p in rep.iterdir()) == [RUN_FILE, "part-000000000-000000020.parquet"]
    assert len(read(rep).games) == 20


@pytest.mark.parametrize("owner,other", PAIRS)
def test_every_command_refuses_the_folder_another_command_wrote(owner: str, other: str, written: dict[str, Path],
                                                                tmp_path: Path, capsys: Capture) -> None:
    folder = tmp_path / owner
    shutil.copytree(written[owner], folder)
    before = snapshot(folder)
    capsys.readouterr()
    assert main(command_line(other, folder)) == 2
    line = one_line(capsys)
    assert f"{str(folder)!r} holds the output of canasta-lab {owner}" in line and "--force" in line, line
    assert snapshot(folder) == before  # refused before any game: nothing written, nothing lost
    assert not (tmp_path / f"{owner}-cache").exists()  # not even a report's cache


@pytest.mark.parametrize("command", COMMANDS)
def test_the_same_command_again_into_its_own_folder_is_accepted(command: str, written: dict[str, Path],
                                                                 tmp_path: Path) -> None:
    folder = tmp_path / command
    shutil.copytree(written[command], folder)
    cache = written[command].parent / f"{command}-cache"
    if cache.exists():
        shutil.copytree(cache, tmp_path / f"{command}-cache")
    argv = command_line(command, folder)
    if command == "report":
        argv.append("--force")  # a report replaces its STUDY.md only with --force, as before
    assert main(argv) == 0


def test_a_command_stopped_before_its_end_still_owns_its_folder(written: dict[str, Path], tmp_path: Path,
                                                                 capsys: Capture) -> None:
    folder = tmp_path / "stopped"
    shutil.copytree(written["sweep"], folder)
    for name in (OUTPUT_FILE, "sweep.parquet"):  # as a sweep killed before its table leaves it
        (folder / name).unlink()
    capsys.readouterr()
    assert main(command_line("play", folder)) == 2
    assert "holds the output of canasta-lab sweep" in one_line(capsys)
    assert main(command_line("sweep", folder)) == 0  # the sweep itself resumes it


def test_nothing_is_written_inside_a_run_folder_even_with_force(written: dict[str, Path], tmp_path: Path,
                                                                capsys: Capture) -> None:
    run = tmp_path / "run"
    shutil.copytree(written["play"], run)
    before = snapshot(run)
    inside = [
        command_line("compare", run / "sub"),
        command_line("play", run / "sub"),
        ["transcript", "classic-2p", "-s", "random", "--seed", "1", "--game", "0", "--out", str(run / "t.jsonl")],
        ["tune", "baseline", "--vs", "random", "--variant", "classic-2p", "--knobs", "min_pile", "--budget", "100",
         "--save", str(run / "tuned.py")],
        ["report", "taking_the_pile", "--games", "2", "--check-games", "0", "--out", str(tmp_path / "reports"),
         "--cache", str(run / "cache")],
    ]
    for argv in inside:
        capsys.readouterr()
        assert main([*argv, "--force"]) == 2, argv
        line = one_line(capsys)
        assert f"inside run folder {str(run)!r} (of canasta-lab play)" in line, line
    assert snapshot(run) == before and len(read(run).games) == int(GAMES)


def test_force_over_a_folder_holding_a_file_of_the_users_is_refused_before_anything_goes(
        written: dict[str, Path], tmp_path: Path, capsys: Capture) -> None:
    folder = tmp_path / "cmp"
    shutil.copytree(written["compare"], folder)
    (folder / "notes.txt").write_text("mine")
    before = snapshot(folder)
    capsys.readouterr()
    assert main([*command_line("play", folder), "--force"]) == 2  # a run folder would hold the user's file
    assert "notes.txt" in one_line(capsys)
    assert snapshot(folder) == before
    assert main([*command_line("tournament", folder), "--force"]) == 0  # beside a report, the file may stay
    assert (folder / "notes.txt").read_text() == "mine" and not (folder / "report.md").read_text().count("compare")


def test_a_run_folder_from_before_runs_named_their_command_is_play_s(written: dict[str, Path], tmp_path: Path,
                                                                     capsys: Capture) -> None:
    run = tmp_path / "old"
    shutil.copytree(written["play"], run)
    record = json.loads((run / RUN_FILE).read_text())
    del record["command"]
    (run / RUN_FILE).write_text(json.dumps(record))
    capsys.readouterr()
    assert main(command_line("compare", run)) == 2
    assert "holds the output of canasta-lab play" in one_line(capsys)
    assert main(command_line("play", run)) == 0  # resumed by play, as before
    assert "resuming" in capsys.readouterr().out


def test_load_of_a_report_folder_says_what_it_holds(written: dict[str, Path]) -> None:
    with pytest.raises(ResultsError, match="holds the reports of canasta-lab report"):
        load(written["report"])


# --- memory: no table of every game in the main process ---------------------------------------------


@pytest.mark.parametrize("variant,strategies,labels", [
    ("classic-4p", ["baseline", "random"], None),
    ("classic-3p", ["baseline", "random", "baseline:min_pile=3"], None),
    ("classic-3p", ["baseline", "random", "random"], ["row", "opponent", "opponent"]),
])
def test_play_s_summary_from_running_totals_is_that_of_the_games_table(
        variant: str, strategies: list[str], labels: list[str] | None, tmp_path: Path) -> None:
    job = make_job(variant, strategies, 3)
    with Experiment([job], 40, workers=1) as exp:
        exp.advance()
    want = win_rates(exp.frame(0, labels=labels))
    out = tmp_path / "run"
    for games in (25, 40):  # the totals only (as `play` keeps them), and resumed from a folder's parts
        with Experiment([job], games, [out], workers=1, per_game=False) as totals_only:
            totals_only.advance()
    assert totals_only.resumed == [25]
    table = read(out).games
    counts = {"n_hands": int(table.n_hands.sum()), "capped_hands": int(table.capped_hands.sum()),
              "capped_game": int(table.capped_game.sum())}
    for e in (exp, totals_only):
        got = e.win_rates(0, labels=labels)
        assert got[["strategy", "games", "wins"]].equals(want[["strategy", "games", "wins"]])
        for c in ("win_rate", "ci_low", "ci_high", "mean_score"):
            assert got[c].to_numpy() == pytest.approx(want[c].to_numpy(), rel=1e-12), c
        assert e.totals(0) == counts
    with pytest.raises(ValueError, match="totals only"):
        totals_only.frame(0)


def test_pair_statistics_read_a_small_block_at_a_time_are_those_of_one_block(monkeypatch: pytest.MonkeyPatch) -> None:
    import sim.run.experiment as E

    with Experiment([make_job("classic-3p", ["baseline", "random", "random"], 2)], 300, workers=1) as exp:
        exp.advance()
    one = exp.summary(0, "baseline", "random", 300)
    monkeypatch.setattr(E, "PAIR_BLOCK", 7)  # blocks of 9 games: 34 blocks, the last one short
    blocks = exp.summary(0, "baseline", "random", 300)
    exact = ("deals", "games", "won_all", "split", "lost_all", "win_rate", "margin")
    assert {k: blocks[k] for k in exact} == {k: one[k] for k in exact}
    floats = [k for k, v in one.items() if isinstance(v, float)]
    assert [blocks[k] for k in floats] == pytest.approx([one[k] for k in floats], rel=1e-9, nan_ok=True)


def test_an_experiment_of_a_billion_games_holds_nothing_per_game_nor_per_deal_in_memory() -> None:
    """compare, tournament and sweep keep the winner and scores of each game on a scratch file, not in
    memory (9 bytes a game: 9 GB for this budget), and sum the deals block by block (24 bytes a deal)."""
    import tracemalloc

    job = make_job("classic-2p", ["baseline", "random"], 4)
    tracemalloc.start()
    try:
        with Experiment([job], 10**9, workers=1) as exp:
            made = tracemalloc.get_traced_memory()[1]
            exp.advance(600)
            first = exp.summary(0, "baseline", "random", 300)
            before = tracemalloc.get_traced_memory()[0]
            s = exp.summary(0, "baseline", "random", 600)
            grown = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert made < 1_000_000, made  # nothing sized by the budget
    assert s["games"] == 600 and s["deals"] == 300 and first["deals"] == 150
    assert grown < 2_000_000, grown  # a block's temporaries, whatever the games summed
    with Experiment([job], 600, workers=1) as small:  # the same games, the same answer
        small.advance()
    assert pd.Series(small.summary(0, "baseline", "random", 600)).equals(pd.Series(s))
    exp.release()
    with pytest.raises(IndexError):
        exp.frame(0)


def test_played_ranges_merge_and_give_the_missing_games() -> None:
    p = Played()
    for a, b in [(10, 20), (30, 40), (0, 5), (20, 30)]:
        p.add(a, b)
    assert p.ranges == [(0, 5), (10, 40)] and p.total == 35 and p.count() == 5
    assert p.gaps(50) == [(5, 10), (40, 50)] and p.gaps(8) == [(5, 8)] and p.gaps(5) == []


def test_the_main_process_plays_only_a_handful_of_games_and_only_when_it_already_holds_the_engine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import sim.run.runner as R

    monkeypatch.setattr(R, "engine_here", lambda: True)  # a notebook's or a test's process, after a run
    assert R.in_workers(1, None, POOL_MIN_GAMES) and R.in_workers(2, None, POOL_MIN_GAMES)  # one worker too
    assert not R.in_workers(1, None, POOL_MIN_GAMES - 1)  # a handful of games: no pool to start
    monkeypatch.setattr(R, "engine_here", lambda: False)  # a command's fresh process
    assert R.in_workers(1, None, 1)


def test_a_command_s_main_process_never_loads_the_engine(tmp_path: Path) -> None:
    """The compiled engine (about 60 MB) stays in the workers: one worker, or a handful of games, too."""
    code = ("import sys; from sim.cli import main; from sim.run.runner import engine_here\n"
            f"for n, w in ((10, '0'), (300, '1')):\n"
            f"    assert main(['play', 'classic-2p', '-s', 'baseline', '-s', 'random', '--games', str(n), '--seed',"
            f" '1', '--workers', w, '--quiet', '--out', {str(tmp_path)!r} + f'/run{{n}}']) == 0\n"
            "print(engine_here())")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0 and r.stdout.splitlines()[-1] == "False", r.stderr
    assert len(read(tmp_path / "run300").games) == 300
