"""Issue 36: every way to stop a run stops it. `kill PID` (SIGTERM) stops a run as Ctrl-C does: at once, its
finished chunks kept, one line on how to resume, and the same command finishes it identically. A `kill -9` of
the main process (a notebook kernel's restart, the out-of-memory killer) leaves no worker behind, and neither
does a stop by Ctrl-C or SIGTERM. `sim.play(..., out=DIR)` interrupted as a notebook kernel is (SIGINT)
raises KeyboardInterrupt, keeps its chunks, and leaves the handlers it found."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sim import play, read
from sim.run.stopping import WATCH_SECONDS, sigterm_interrupts
from tests.conftest import HANG_SECONDS, ROOT
from tests.run.test_runs import PLAY, STOPPED_GAMES, STOPPED_LEAST, same_games, wait_for_parts

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds processes in /proc")

STOP_SECONDS = 10  # a stopped run's process is gone within this (it took under a second)...
GONE_SECONDS = 10  # ... and its workers within this after the stop (under a second with prctl)
LONG_RUN = 20_000  # games of a run that is stopped once its first part is written (tasks of 1,250 games)
INTERRUPTED = 130  # sim.cli.INTERRUPTED: the exit status of a command stopped by Ctrl-C or SIGTERM


def _default_signals() -> None:
    """The run starts with the default actions of Ctrl-C and SIGTERM whatever this test process inherited
    (tests/run/test_runs.py, _default_sigint)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def start(args: list[str]) -> subprocess.Popen:
    """`python ARGS` from the checkout's root, in a session of its own, its standard streams piped."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env, start_new_session=True,
                            preexec_fn=_default_signals)


def start_run(folder: Path, games: int) -> subprocess.Popen:
    return start(["-m", "sim.cli", *PLAY, "--games", str(games), "--out", str(folder), "--workers", "2",
                  "--quiet"])


def stop_bound(started: float, usual: float = STOP_SECONDS) -> float:
    """How long a stop may take: `usual`, or on a host slow enough that the run's own start took longer, that
    start. A stop that waits for the games handed out, or for the run's end, takes longer than both."""
    return max(usual, started)


def stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process, None when there is none."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    state, ppid = text.rpartition(")")[2].split()[:2]
    return state, int(ppid)


def children(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            s = stat(int(d.name))
            if s is not None and s[1] == pid:
                out.append(int(d.name))
    return out


def running(pids: list[int]) -> list[int]:
    """The processes of `pids` still there (a zombie, ended but not yet reaped by its new parent, is gone)."""
    return [p for p in pids if (s := stat(p)) is not None and s[0] != "Z"]


def wait_gone(pids: list[int], seconds: float = GONE_SECONDS) -> list[int]:
    deadline = time.monotonic() + seconds
    while running(pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return running(pids)


@pytest.fixture
def workers_of() -> Iterator[Callable[[int], list[int]]]:
    """`workers_of(pid)`: the child processes of a run's main process, killed after the test if a failure
    left them running."""
    seen: list[int] = []

    def find(pid: int) -> list[int]:
        found = children(pid)
        seen.extend(found)
        return found

    yield find
    for w in running(seen):
        os.kill(w, signal.SIGKILL)


def test_sigterm_stops_a_run_at_once_keeps_its_chunks_says_how_to_resume_and_leaves_no_worker(tmp_path, cli, scaled,
                                                                                              workers_of):
    games = scaled(STOPPED_GAMES, least=STOPPED_LEAST)
    folder = tmp_path / "run.parquet"
    p = start_run(folder, games)
    started = wait_for_parts(p, folder)
    workers = workers_of(p.pid)
    assert len(workers) == 2, workers
    t0 = time.monotonic()
    p.terminate()  # `kill PID`: the main process only
    p.wait(timeout=HANG_SECONDS)  # not communicate(): a worker left behind would hold its pipes open
    took = time.monotonic() - t0
    assert wait_gone(workers, stop_bound(started, GONE_SECONDS)) == [], "workers outlived the stopped run"
    out, err = p.communicate(timeout=HANG_SECONDS)
    assert took < stop_bound(started), f"the run took {took:.1f} s to stop (its start {started:.1f} s)"
    assert p.returncode == INTERRUPTED, err
    lines = [x for x in err.splitlines() if x.strip()]
    assert lines == [f"canasta-lab: interrupted; every finished chunk is kept in {folder}: the same command "
                     "again finishes the run"], err
    kept = read(folder).games
    assert 0 < len(kept) < games
    again = cli(*PLAY, "--games", str(games), "--out", str(folder), "--quiet")
    assert again.returncode == 0, again.stderr
    assert f"resuming: {len(kept)} games already in" in again.stdout
    finished = read(folder).games
    same_games(finished[finished.game.isin(kept.game)].sort_values("game"), kept.sort_values("game"))
    same_games(finished, play("classic-2p", ["baseline", "random"], games, 5, workers=2).games)


def test_kill_9_of_a_run_leaves_no_worker_behind(tmp_path, workers_of):
    folder = tmp_path / "run.parquet"
    p = start_run(folder, LONG_RUN)
    started = wait_for_parts(p, folder)
    workers = workers_of(p.pid)
    assert len(workers) == 2, workers
    p.kill()
    p.wait(timeout=HANG_SECONDS)
    assert wait_gone(workers, stop_bound(started, GONE_SECONDS)) == [], "workers outlived their killed parent"
    p.communicate(timeout=HANG_SECONDS)
    assert p.returncode == -signal.SIGKILL
    assert len(read(folder).games) > 0


REAPED_SECONDS = 2.0  # a stopped worker's exit code recorded by the thread that reaped it


def test_an_interrupt_while_a_part_is_written_stops_the_workers_at_once(tmp_path):
    """Ctrl-C lands where the main process spends its time: waiting for the workers, or writing a part. In the
    second case too the workers stop at once, not after every game handed out to them."""
    from sim.run.experiment import Experiment
    from sim.run.runner import make_job

    class StoppedWhileWriting(Experiment):
        def _take(self, i, g0, g, h):
            super()._take(i, g0, g, h)
            self.pool_processes = list(self._pool.executor()._processes.values())
            self.stopped_at = time.monotonic()
            raise KeyboardInterrupt

    job = make_job("classic-2p", ["baseline", "random"], 5)
    t0 = time.monotonic()
    with StoppedWhileWriting([job], LONG_RUN, [tmp_path / "r"], workers=2) as exp:
        with pytest.raises(KeyboardInterrupt) as stopped:
            exp.advance()
        # the exception is still held, as an `except` block or a notebook (sys.last_traceback) holds it. A worker the
        # pool's manager thread reaped reads alive (multiprocessing's poll gets ECHILD) until that thread records its
        # exit code: a short join lets it, and a worker still playing would still be alive after it
        for p in exp.pool_processes:
            p.join(REAPED_SECONDS)
        alive = [p.is_alive() for p in exp.pool_processes]
        assert stopped.type is KeyboardInterrupt and alive == [False, False], "workers played on after the stop"
    took, started = time.monotonic() - exp.stopped_at, exp.stopped_at - t0
    assert took < stop_bound(started), f"the run took {took:.1f} s to stop (its start {started:.1f} s)"
    assert 0 < len(read(tmp_path / "r").games) < LONG_RUN


API_RUN = """
import os, signal, sys
import sim

def mine(signum, frame):
    pass

signal.signal(signal.SIGTERM, mine)  # a handler of the caller's (a notebook kernel's), to be left in place
try:
    sim.play("classic-2p", ["baseline", "random"], {games}, 5, out={folder!r}, workers=2)
except KeyboardInterrupt:
    print("interrupted", flush=True)
print("sigterm handler kept:", signal.getsignal(signal.SIGTERM) is mine, flush=True)
print("sigint handler kept:", signal.getsignal(signal.SIGINT) is signal.default_int_handler, flush=True)
sys.stdin.readline()  # alive until the test has looked for workers
"""


def test_an_interrupted_api_run_raises_keyboard_interrupt_keeps_its_chunks_and_leaves_no_worker(tmp_path,
                                                                                                 workers_of):
    folder = tmp_path / "run.parquet"
    p = start(["-c", API_RUN.format(games=LONG_RUN, folder=str(folder))])
    workers: list[int] = []
    hung: threading.Timer | None = None
    try:
        started = wait_for_parts(p, folder)
        workers = workers_of(p.pid)
        assert len(workers) == 2, workers
        hung = threading.Timer(stop_bound(started) * 3, p.kill)  # a call that never returns fails, not hangs
        hung.start()
        t0 = time.monotonic()
        p.send_signal(signal.SIGINT)  # a notebook kernel's interrupt
        first = p.stdout.readline().strip()
        took = time.monotonic() - t0
        lines = [first, p.stdout.readline().strip(), p.stdout.readline().strip()]
        assert lines == ["interrupted", "sigterm handler kept: True", "sigint handler kept: True"], \
            (lines, p.stderr.read() if p.poll() is not None else "")
        assert took < stop_bound(started), f"the call took {took:.1f} s to stop (its start {started:.1f} s)"
        # the call has returned and the process is still there: its workers must not be
        assert running(workers) == [] and running(children(p.pid)) == [], "workers outlived the interrupted call"
    finally:
        if hung is not None:
            hung.cancel()
        p.kill()
        p.wait(timeout=HANG_SECONDS)
        for w in running(workers):  # what a failure above left: not to outlive the test
            os.kill(w, signal.SIGKILL)
        p.communicate(timeout=HANG_SECONDS)
    kept = read(folder).games
    assert 0 < len(kept) < LONG_RUN


WATCHED = """
import multiprocessing, time
from sim.run.stopping import exit_with_parent

def worker(parent, death_signal, pipe):
    pipe.send(exit_with_parent(parent, death_signal=death_signal))
    time.sleep(600)

if __name__ == "__main__":
    here, there = multiprocessing.Pipe()
    ctx = multiprocessing.get_context("fork")
    w = ctx.Process(target=worker, args=(multiprocessing.current_process().pid, {death_signal}, there))
    w.start()
    print(w.pid, here.recv(), flush=True)
    time.sleep(600)
"""


@pytest.mark.parametrize("death_signal", [True, False], ids=["prctl", "watchdog"])
def test_a_worker_ends_when_its_parent_is_killed(death_signal):
    p = start(["-c", WATCHED.format(death_signal=death_signal)])
    worker = 0
    try:
        pid, how = p.stdout.readline().split()
        worker = int(pid)
        assert how == ("prctl" if death_signal else "watchdog")  # Linux has prctl (/proc: this module runs there)
        assert running([worker]) == [worker]
        p.kill()
        p.wait(timeout=HANG_SECONDS)
        assert wait_gone([worker], WATCH_SECONDS + 5) == [], f"the worker ({how}) outlived its killed parent"
    finally:
        p.kill()
        p.wait(timeout=HANG_SECONDS)
        if worker and running([worker]):
            os.kill(worker, signal.SIGKILL)
        p.communicate(timeout=HANG_SECONDS)


def test_sigterm_raises_keyboard_interrupt_while_a_run_plays_and_the_handler_before_comes_back():
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers are set from the main thread only")
    calls: list[int] = []

    def mine(signum, frame):
        calls.append(signum)

    before = signal.signal(signal.SIGTERM, mine)
    try:
        with pytest.raises(KeyboardInterrupt), sigterm_interrupts():
            assert signal.getsignal(signal.SIGTERM) is not mine
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
        assert signal.getsignal(signal.SIGTERM) is mine and calls == []
        with sigterm_interrupts():  # a second SIGTERM goes to the handler before
            with pytest.raises(KeyboardInterrupt):
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(5)
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.1)
            assert calls == [signal.SIGTERM]
        assert signal.getsignal(signal.SIGTERM) is mine
        seen = []

        def elsewhere() -> None:  # a run started from another thread sets nothing (it could not)
            with sigterm_interrupts():
                seen.append(signal.getsignal(signal.SIGTERM))

        t = threading.Thread(target=elsewhere)
        t.start()
        t.join()
        assert seen == [mine]
    finally:
        signal.signal(signal.SIGTERM, before)


def test_a_ctrl_c_in_a_runs_progress_update_stops_its_workers_at_once():
    """A Ctrl-C that lands while the run counts a finished chunk (a progress bar's update), not while it waits for
    one, stops the workers at once as well, even though the traceback, and with it the run's frame, is kept (a
    notebook keeps it): they are not left to run until the generator is collected."""
    from sim.run.runner import POOL_MIN_GAMES, Pool, iter_chunks, make_job

    def update(n: int) -> None:
        raise KeyboardInterrupt

    job = make_job("classic-4p", ["random", "random"], seed=1)
    pool = Pool(2)
    try:
        with pytest.raises(KeyboardInterrupt) as caught:
            for _ in iter_chunks([job], [(0, 0, POOL_MIN_GAMES)], workers=2, chunk=POOL_MIN_GAMES // 4,
                                 update=update, pool=pool):
                pass
        assert caught.value.__traceback__ is not None and pool.broken
    finally:
        pool.abort()
