"""Issue 9: runs that stream to disk and survive a kill. A run folder keeps every finished chunk; the
same command again plays only what is missing and gives exactly the games of an uninterrupted run;
more games extend it; a folder of another run, a damaged part or a foreign file is refused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from sim import ResultsError, play, read
from sim.run.store import HANDS_DIR, PART_RE, RUN_FILE
from tests.conftest import HANG_SECONDS

PLAY = ["play", "classic-2p", "-s", "baseline", "-s", "random", "--seed", "5"]
STOPPED_GAMES = 40_000  # the run stopped midway, at full size
STOPPED_LEAST = 10_000  # a few seconds of play at least: the run must still be going after its second chunk


def parts(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if PART_RE.match(p.name))


def wait_for_parts(p: subprocess.Popen, folder: Path, count: int = 1) -> float:
    """The seconds until the run has `count` parts on disk (its start: imports, the engine, its first chunks)."""
    t0 = time.monotonic()
    deadline = t0 + HANG_SECONDS

    def written() -> bool:
        return folder.exists() and len(parts(folder)) >= count

    while time.monotonic() < deadline and p.poll() is None and not written():
        time.sleep(0.02)
    assert p.poll() is None, f"the run ended before it could be stopped: give it more games\n{p.stderr.read()}"
    assert written(), f"fewer than {count} parts written in {HANG_SECONDS} s"
    return time.monotonic() - t0


def _default_sigint() -> None:
    """The run starts with Ctrl-C's default action whatever this test process inherited: a process that ignores
    SIGINT passes the ignoring on to its children, and Python then installs no KeyboardInterrupt, so the stopped run
    would play on to its end (it did twice under the full suite)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_and_stop(folder: Path, games: int, sig: int, workers: int) -> subprocess.CompletedProcess:
    """Start a run, wait for its first finished chunks on disk, then stop it with `sig` (sent to the
    whole process group, as a terminal's Ctrl-C is)."""
    p = subprocess.Popen([sys.executable, "-m", "sim.cli", *PLAY, "--games", str(games), "--out", str(folder),
                          "--workers", str(workers), "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True,
                         preexec_fn=_default_sigint)
    wait_for_parts(p, folder, 2)
    os.killpg(p.pid, sig)
    out, err = p.communicate(timeout=HANG_SECONDS)
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


def same_games(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True), check_categorical=False)


@pytest.mark.parametrize("sig,workers", [(signal.SIGKILL, 1), (signal.SIGINT, 2)])
def test_a_stopped_run_keeps_its_chunks_and_the_same_command_finishes_it_identically(tmp_path, sig, workers, cli,
                                                                                     scaled):
    games = scaled(STOPPED_GAMES, least=STOPPED_LEAST)
    folder = tmp_path / "run.parquet"
    stopped = start_and_stop(folder, games, sig, workers)
    kept = read(folder).games
    assert 0 < len(kept) < games
    if sig == signal.SIGINT:  # Ctrl-C: one line saying what is kept, the shell's exit status for it
        assert stopped.returncode == 130, stopped.stderr
        assert "interrupted; every finished chunk is kept in" in stopped.stderr
        assert "Traceback" not in stopped.stderr
    again = cli(*PLAY, "--games", str(games), "--out", str(folder), "--quiet")
    assert again.returncode == 0, again.stderr
    assert f"resuming: {len(kept)} games already in" in again.stdout
    finished = read(folder)
    assert len(finished.games) == games
    # finished chunks were not played again (with two workers the kept chunks need not be the first games)
    same_games(finished.games[finished.games.game.isin(kept.game)].sort_values("game"), kept.sort_values("game"))
    record = json.loads((folder / RUN_FILE).read_text())
    assert len(record["sessions"]) == 2 and record["sessions"][-1]["games_played"] == games - len(kept)
    same_games(finished.games, play("classic-2p", ["baseline", "random"], games, 5, workers=2).games)


def test_more_games_extend_a_run_and_fewer_read_its_beginning(tmp_path):
    folder = tmp_path / "r"
    first = play("classic-2p", ["baseline", "random"], 300, 9, out=folder, hands=True, workers=1)
    more = play("classic-2p", ["baseline", "random"], 700, 9, out=folder, hands=True, workers=2)
    whole = play("classic-2p", ["baseline", "random"], 700, 9, hands=True, workers=1)
    same_games(more.games, whole.games)
    same_games(more.hands, whole.hands)
    same_games(first.games, whole.games.head(300))
    assert [s["games_played"] for s in more.meta["sessions"]] == [300, 400]
    assert more.meta["wall_seconds"] == pytest.approx(sum(s["wall_seconds"] for s in more.meta["sessions"]))
    assert len(read(folder, games=100).games) == 100


def test_results_do_not_depend_on_workers_or_on_a_folder(tmp_path):
    a = play("classic-4p", ["baseline", "freezer"], 600, 3, out=tmp_path / "a", workers=2)
    b = play("classic-4p", ["baseline", "freezer"], 600, 3, workers=1)
    same_games(a.games, b.games)


def test_a_folder_of_another_run_is_refused_and_force_replaces_it(tmp_path):
    folder = tmp_path / "r"
    play("classic-2p", ["baseline", "random"], 50, 1, out=folder)
    before = sorted(p.name for p in folder.iterdir())
    for change, what in [(dict(seed=2), "different seed"), (dict(strategies=["baseline", "freezer"]),
                                                            "different strategies")]:
        args = {"variant": "classic-2p", "strategies": ["baseline", "random"], "games": 50, "seed": 1, **change}
        with pytest.raises(ResultsError, match=what):
            play(**args, out=folder)
        assert sorted(p.name for p in folder.iterdir()) == before
    with pytest.raises(ResultsError, match="records hands|does not record hands"):
        play("classic-2p", ["baseline", "random"], 50, 1, out=folder, hands=True)
    r = play("classic-2p", ["baseline", "random"], 50, 2, out=folder, force=True)
    assert r.meta["seed"] == 2 and len(r.games) == 50


def test_one_rotation_plays_each_deal_once_as_the_first_rotation_of_a_run_of_every_rotation(tmp_path):
    strategies = ["baseline", "random"]  # two strategies: the base seating's labels must hold too
    every = play("classic-3p", strategies, 30, 4, hands=True, workers=1)
    once = play("classic-3p", strategies, 10, 4, hands=True, workers=1, one_rotation=True)
    assert list(once.games["game"]) == list(once.games["deal"]) == list(range(10))
    assert once.meta["duplicate_rotations"] == 1 and every.meta["duplicate_rotations"] == 3
    first = every.games[every.games["game"] % 3 == 0].assign(game=lambda g: g["game"] // 3)
    same_games(once.games, first)
    same_games(once.hands, every.hands[every.hands["game"] % 3 == 0].assign(game=lambda h: h["game"] // 3))
    # a run folder of one rotation resumes and extends like any other; a run of every rotation is another run
    folder = tmp_path / "r"
    play("classic-3p", strategies, 4, 4, hands=True, workers=1, one_rotation=True, out=folder)
    more = play("classic-3p", strategies, 10, 4, hands=True, workers=2, one_rotation=True, out=folder)
    same_games(more.games, once.games)
    same_games(more.hands, once.hands)
    with pytest.raises(ResultsError, match="different one_rotation"):
        play("classic-3p", strategies, 10, 4, hands=True, out=folder)


def test_a_damaged_part_a_foreign_file_or_a_part_of_another_run_is_refused_with_one_line(tmp_path, cli):
    args = [*PLAY, "--games", "600", "--workers", "2", "--quiet"]
    good = tmp_path / "good"
    assert cli(*args, "--out", str(good)).returncode == 0

    def refused(folder: Path, needle: str) -> None:
        r = cli(*args, "--out", str(folder))
        lines = [x for x in r.stderr.splitlines() if x.strip()]
        assert r.returncode == 2 and len(lines) == 1 and needle in lines[0], r.stderr
        with pytest.raises(ResultsError, match=needle):
            read(folder)

    import shutil

    damaged = tmp_path / "damaged"
    shutil.copytree(good, damaged)
    part = parts(damaged)[1]
    part.write_bytes(part.read_bytes()[:100])
    refused(damaged, "is damaged")

    foreign = tmp_path / "foreign"
    shutil.copytree(good, foreign)
    (foreign / "notes.txt").write_text("mine")
    refused(foreign, "is not part of the run")
    assert (foreign / "notes.txt").read_text() == "mine"

    hands = tmp_path / "hands"
    assert cli(*args, "--hands", "--out", str(hands)).returncode == 0
    h = parts(hands / HANDS_DIR)[1]
    h.write_bytes(h.read_bytes()[:200])
    r = cli(*args, "--hands", "--out", str(hands))
    assert r.returncode == 2 and "is damaged" in r.stderr and "_hands" in r.stderr and r.stdout == "", r.stderr
    with pytest.raises(ResultsError, match="is damaged"):
        read(hands)

    other = tmp_path / "other"
    assert cli(*PLAY[:-1], "6", "--games", "600", "--workers", "2", "--quiet", "--out", str(other)).returncode == 0
    mixed = tmp_path / "mixed"
    shutil.copytree(good, mixed)
    (mixed / parts(mixed)[0].name).write_bytes(parts(other)[0].read_bytes())
    refused(mixed, "belongs to another run")


def test_a_failed_first_chunk_leaves_no_folder_behind(tmp_path):
    from strategies.user import user_strategy

    @user_strategy("always-99-runs", base="baseline")
    def bad(rules, obs, opts, n, knobs):
        return 99

    from sim.run.runner import EngineError

    with pytest.raises(EngineError, match="illegal choice 99"):
        play("classic-2p", ["always-99-runs"], 10, 1, out=tmp_path / "r")
    assert not (tmp_path / "r").exists()
    from sim import tournament

    with pytest.raises(EngineError, match="illegal choice 99"):
        tournament("classic-2p", ["baseline", "always-99-runs"], 10, 1, out=tmp_path / "t" / "rr")
    assert not (tmp_path / "t").exists()  # the output folder made for the failed runs went with them


def test_a_part_published_just_before_an_interrupt_is_kept(tmp_path, monkeypatch):
    """Ctrl-C or a SIGTERM between a part's publishing and its listing in the run's record: the part is on
    disk, whole, and the folder with it stays (it was wiped as a folder without a part, once, in `make test`)."""
    from sim.run import store

    published = store.write_table

    def publish_then_interrupt(table, stamp, path):
        published(table, stamp, path)
        if store.PART_RE.match(path.name) and path.parent.name == "r":
            raise KeyboardInterrupt

    monkeypatch.setattr(store, "write_table", publish_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        play("classic-2p", ["baseline"], 10, 1, out=tmp_path / "r", workers=1)
    monkeypatch.undo()
    assert len(parts(tmp_path / "r")) == 1
    kept = read(tmp_path / "r").games
    assert len(kept) > 0
    again = play("classic-2p", ["baseline"], 10, 1, out=tmp_path / "r", workers=1)  # the same call finishes it
    assert len(again.games) == 10


def test_a_run_folder_reads_without_canasta_lab(tmp_path):
    folder = tmp_path / "r.parquet"
    r = play("classic-2p", ["baseline", "random"], 300, 4, out=folder, hands=True, workers=2)
    plain = pd.read_parquet(folder).sort_values("game").reset_index(drop=True)
    assert plain["score_0"].tolist() == r.games["score_0"].tolist()  # _hands and the run file are skipped
    assert (folder / HANDS_DIR).is_dir() and len(parts(folder / HANDS_DIR)) == len(parts(folder))


def test_force_replaces_a_results_file_of_an_earlier_version_but_no_other_file(tmp_path):
    from sim.records.results import write_parquet

    old = tmp_path / "old.parquet"
    write_parquet(pd.DataFrame({"game": [0]}), {"variant": "classic-2p"}, old)
    with pytest.raises(ResultsError, match="is a file"):
        play("classic-2p", ["baseline", "random"], 20, 1, out=old)
    assert len(play("classic-2p", ["baseline", "random"], 20, 1, out=old, force=True).games) == 20
    mine = tmp_path / "mine.parquet"
    mine.write_bytes(b"precious")
    with pytest.raises(ResultsError, match="replaces only a results file of canasta-lab"):
        play("classic-2p", ["baseline", "random"], 20, 1, out=mine, force=True)
    assert mine.read_bytes() == b"precious"


def test_a_worker_that_imported_other_sources_than_the_runs_process_refuses_its_games():
    """A source edited while a run goes on (a network installed into strategies/learned_nets.py, whose `net` is an
    index into the networks' list) would have a worker, which imports the sources anew, play other code than the
    run's own process chose the knobs for: the worker refuses, in one line."""
    from dataclasses import replace

    from sim.run.runner import SOURCES_AT_IMPORT, EngineError, make_job, run_chunk

    job = make_job("classic-2p", ["baseline", "random"], 1)
    assert job.sources == SOURCES_AT_IMPORT
    assert len(run_chunk(job, 0, 2, False)[0]) == 2
    with pytest.raises(EngineError, match="sources changed while this run was going"):
        run_chunk(replace(job, sources="0" * 16), 0, 2, False)
