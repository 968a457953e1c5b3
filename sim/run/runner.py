"""Runs games: seeds, chunks, worker processes. Results depend on (variant, strategies, master seed,
game index) only, never on the number of workers or the chunk size."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.engine import layout as L
from sim.engine.decorators import process_local
from sim.engine.sources import source_hash
from sim.rules import Variant, get_variant, pack
from sim.run.stopping import start_worker
from strategies import REGISTRY, StrategyChoice, StrategySpec, parse_strategy

# the engine's and the strategies' sources as this process imported them (just above): a worker process imports them
# anew, so a source edited while a run goes on (a network installed into strategies/learned_nets.py, whose `net` knob
# is an index into the networks' list) would have it play other code than the run's own process chose its knobs for
SOURCES_AT_IMPORT = source_hash()


class EngineError(RuntimeError):
    """A game could not be played: an illegal strategy choice, a broken invariant, a stuck engine."""


@dataclass(frozen=True)
class Job:
    """Everything a worker needs; plain data, so it pickles to any process or machine."""

    variant: Variant
    strategies: tuple[StrategyChoice, ...]
    seed: int
    check: bool = False
    # each deal once, on its base seating: the run's game k is deal k (the engine's game k * sides). With one
    # strategy on every seat the other rotations of a duplicate deal replay the same game
    one_rotation: bool = False
    sources: str = ""  # SOURCES_AT_IMPORT of the process that made the job: a worker that imported others refuses it

    @property
    def rotations(self) -> int:
        """The seatings each deal is played on, in turn: one per side (duplicate deals), or the base one only."""
        return 1 if self.one_rotation else self.variant.n_sides

    def engine_game(self, game: int) -> int:
        """The engine's number of the run's game `game`: its deal, its seating and its play stream."""
        return game * self.variant.n_sides if self.one_rotation else game

    def functions(self) -> list:
        """The run's distinct strategy functions, in order of first seat (each strategy's own, then
        its base's): the engine's function table, before padding."""
        fns: list = []
        for c in self.strategies:
            for f in c.spec.functions():
                if not any(g is f for g in fns):
                    fns.append(f)
        return fns

    def seat_tables(self) -> tuple[np.ndarray, np.ndarray]:
        """Per position of the strategy list: (function slot, base slot or -1), and the knobs. Seats
        take the strategies in order, repeating the list (DESIGN.md)."""
        seat_fns = np.full((L.MAXP, 2), -1, np.int64)
        prm = np.zeros((L.MAXP, L.NPRM), np.float64)
        fns = self.functions()
        for p in range(self.variant.players):
            c = self.strategies[p % len(self.strategies)]
            for j, f in enumerate(c.spec.functions()):
                seat_fns[p, j] = next(i for i, g in enumerate(fns) if g is f)
            prm[p] = c.params
        return seat_fns, prm

    def engine_fns(self) -> tuple:
        """The function table the kernels take, compiled (or loaded) first: the first time for this
        source version, with one line saying so."""
        fns = self.functions()
        prepare_engine(fns)
        return function_table(fns)

    def seat_labels(self, game: int) -> list[str]:
        """Strategy label of each seat in a given game (duplicate deals rotate the seating)."""
        n = self.variant.players
        rot = game % self.rotations
        base = [self.strategies[p % len(self.strategies)].label for p in range(n)]
        return [base[(p - rot) % n] for p in range(n)]


def function_table(fns: Sequence) -> tuple:
    """Pad the run's strategy functions to the MAXF slots the kernels take: one compiled engine
    whatever the strategies."""
    if not fns:
        raise ValueError("a run needs at least one strategy function")
    if len(fns) > L.MAXF:
        raise ValueError(f"at most {L.MAXF} distinct strategy functions in one run (user strategies and their "
                         f"bases), got {len(fns)}")
    return tuple(fns) + (fns[0],) * (L.MAXF - len(fns))


def _warm_engine(fns: Sequence) -> Callable[[], None]:
    def warm() -> None:
        from sim.engine.game import play_batch_nb
        from sim.engine.state import new_state

        R = pack(get_variant("classic-4p"))
        S = new_state(R)
        seat_fns = np.zeros((L.MAXP, 2), np.int64)
        play_batch_nb(R, S, function_table(list(fns)), seat_fns, np.zeros((L.MAXP, L.NPRM)), 0, 0, 0,
                      np.zeros((0, L.GF), np.int64), np.zeros((0, L.HF), np.int64), 0)

    return warm


def prepare_engine(fns: Sequence | None = None) -> None:
    """Compile or load the engine and the run's strategy functions `fns` (None: every built-in
    strategy) before any game is played, in this process, so worker processes load them from disk.
    A run compiles only what it plays: a built-in strategy it does not use is compiled by the first
    run that does (one line says so)."""
    from sim.engine.compiling import compile_once
    from sim.engine.contract import DECIDE_SIG
    from sim.engine.game import play_batch_nb

    every: list = []
    for f in [s.decide for s in REGISTRY.values() if not s.is_user] if fns is None else fns:
        if not any(f is g for g in every):
            every.append(f)
    compile_once(every, DECIDE_SIG, play_batch_nb, _warm_engine(every[:1]))


def prepare_jobs(jobs: Sequence[Job], in_workers: bool) -> None:
    """Before any game: compile the engine and the jobs' strategies if numba's cache does not hold
    them for these sources (one line says so), so workers load them from disk instead of each
    compiling them. When only worker processes will play built-in strategies that are already
    compiled, this process does not load the engine at all: it would hold about 60 MB for nothing."""
    from sim.engine.cache import is_compiled
    from sim.engine.contract import DECIDE_SIG
    from sim.engine.game import play_batch_nb

    fns = [f for job in jobs for f in job.functions()]
    built_in = {id(s.decide) for s in REGISTRY.values() if not s.is_user}
    if in_workers and all(id(f) in built_in for f in fns) and is_compiled(play_batch_nb, fns, DECIDE_SIG):
        return
    prepare_engine(fns)


def whole_number(name: str, value: Any, minimum: int = 1) -> int:
    """A count or a seed from the Python API, checked as the command line checks it: one line."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ValueError(f"{name} must be a whole number of at least {minimum}, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be a whole number of at least {minimum}, got {value}")
    return int(value)


def make_job(variant: str | Variant, strategies: Sequence[str | StrategySpec | StrategyChoice], seed: int,
             check: bool = False, one_rotation: bool = False) -> Job:
    v = get_variant(variant) if isinstance(variant, str) else variant
    if isinstance(strategies, str | StrategySpec | StrategyChoice):
        strategies = [strategies]  # one name is one strategy on every seat, not a list of letters
    if not strategies:
        raise ValueError("give at least one strategy (-s NAME)")
    chosen = tuple(parse_strategy(s).at(v) for s in strategies)  # the knobs left alone: their defaults at v
    for c in chosen:
        c.refuse_idle(v)  # a knob set where it never acts would play exactly as without it
    if len(chosen) > v.players:
        raise ValueError(f"{v.name} has {v.players} seats; give 1 to {v.players} strategies, not {len(chosen)}")
    whole_number("seed", seed, minimum=0)
    job = Job(v, chosen, int(seed), check, one_rotation, SOURCES_AT_IMPORT)
    function_table(job.functions())  # refuses more strategy functions than the engine has slots for
    return job


def describe_error(job: Job, st: np.ndarray) -> str:
    err = int(st[L.S_ERR])
    game = int(st[L.S_GAME])
    if err == L.ERR_CHOICE:
        seat, dp, choice = int(st[L.S_ERR_A]), int(st[L.S_ERR_B]), int(st[L.S_ERR_C])
        label = job.seat_labels(game)[seat]
        return (f"strategy {label!r} (seat {seat}, game {game}) returned illegal choice {choice} "
                f"at decision point {L.DP_NAMES.get(dp, dp)}")
    if err == L.ERR_INVARIANT:
        which = int(st[L.S_ERR_A])
        what = f"invariant {which}" if which <= 7 else "going-out legality check"
        return (f"engine {what} (docs/rules.md, 'Invariants the engine checks') broken in game {game}, "
                f"hand {int(st[L.S_HANDNO])}, turn {int(st[L.S_TURN])}")
    if err == L.ERR_STUCK:
        return f"engine found no legal continuation in game {game}, hand {int(st[L.S_HANDNO])}"
    if err == L.ERR_LOG_FULL:
        return f"transcript buffer full in game {game}"
    if err == L.ERR_RULE:
        return f"the engine met a rule value it does not play in game {game} (sim.rules.validate should refuse it)"
    return f"engine error {err} in game {game}"


def run_chunk(job: Job, g0: int, n: int, want_hands: bool) -> tuple[np.ndarray, np.ndarray]:
    """Play games g0..g0+n-1 in this process; returns (game rows, hand rows). A job of one rotation plays
    the engine's games one by one, every `sides`-th, and numbers their rows as the run's games."""
    from sim.engine.game import play_batch_nb
    from sim.engine.state import new_state

    if job.sources and job.sources != SOURCES_AT_IMPORT:
        raise EngineError(f"the engine's or the strategies' sources changed while this run was going: its process "
                          f"imported version {job.sources}, this worker {SOURCES_AT_IMPORT}; start the run again, "
                          "once the sources are as they should be")
    R = pack(job.variant)
    S = new_state(R)
    seat_fns, prm = job.seat_tables()
    fns = job.engine_fns()

    def batch(e0: int, ne: int) -> tuple[np.ndarray, np.ndarray]:
        """The engine's games e0..e0+ne-1."""
        out_g = np.zeros((ne, L.GF), np.int64)
        cap = ne * HANDS_PER_GAME if want_hands else 0
        while True:
            out_h = np.zeros((cap, L.HF), np.int64)
            nh = play_batch_nb(R, S, fns, seat_fns, prm, job.seed, e0, ne, out_g, out_h, 1 if job.check else 0)
            if S.st[L.S_ERR] != 0:
                raise EngineError(describe_error(job, S.st))
            if nh >= 0:
                return out_g, out_h[:nh]
            cap = -nh

    if not job.one_rotation:
        return batch(g0, n)
    rows = [batch(job.engine_game(g), 1) for g in range(g0, g0 + n)]
    out_g = np.concatenate([g for g, _ in rows])
    out_h = np.concatenate([h for _, h in rows])
    out_g[:, L.G_GAME] //= job.variant.n_sides  # the engine's game k * sides is the run's game k
    out_h[:, L.H_GAME] //= job.variant.n_sides
    return out_g, out_h


HANDS_PER_GAME = 12  # room for hand rows a game at first: a chunk that needs more is played again with room enough


def chunks(n_games: int, chunk: int, g0: int = 0) -> list[tuple[int, int]]:
    return [(g, min(chunk, g0 + n_games - g)) for g in range(g0, g0 + n_games, chunk)]


Progress = Callable[[int], Any] | Any  # a function of the games just finished, a tqdm bar, or True

PROGRESS_SECONDS = 0.5  # with a progress display, an in-process chunk of games lasts about this long
TASKS_PER_WORKER = 8  # a pool's work is cut into about this many tasks per worker: all busy to the end
MIN_TASK = 64  # games; smaller tasks cost more in handing out than they play
MAX_TASK = 4096  # games; a finished task is a part on disk, so a kill loses at most this much per worker
POOL_MIN_GAMES = 256  # fewer games are played in this process when it holds the engine: a pool costs more
PROGRESS_FIRST = 8  # games; with a progress display, the first update comes after at most this many


def cpu_count() -> int:
    """The cores this process may use (a container's or a batch system's limit, not the machine's)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def resolve_workers(workers: int) -> int:
    if workers < 0:
        raise ValueError(f"workers must be 0 (every core) or a positive number of processes, got {workers}")
    return workers or cpu_count()


def engine_here() -> bool:
    """Whether this process already holds the compiled engine (an earlier run in it loaded it: a
    notebook's, a test's), so that a handful of games costs nothing more to play here."""
    from sim.engine.game import play_batch_nb

    overloads = getattr(play_batch_nb, "overloads", None)  # None: numba's JIT is off, nothing to load
    return overloads is None or bool(overloads)


def in_workers(workers: int, scheduler: Any, games: int) -> bool:
    """Whether `games` are played by other processes (a pool or a cluster) rather than this one,
    whatever the number of `workers`: one worker is a process of its own too. This process, which
    writes the parts and keeps the statistics, loads the compiled engine (about 60 MB, which took a
    run with --workers 1, or of a handful of games, over 300 MB) only to play a handful of games
    (under POOL_MIN_GAMES) when it already holds it: a pool costs them more than it gives."""
    return scheduler is not None or games >= POOL_MIN_GAMES or not engine_here()


def check_progress(progress: Progress) -> None:
    if progress is None or isinstance(progress, bool) or callable(getattr(progress, "update", None)) \
            or callable(progress):
        return
    raise TypeError(f"progress={progress!r}: give True, a tqdm bar, or a function taking the number of games "
                    "just finished")


def progress_callback(progress: Progress, total: int, done: int = 0,
                      desc: str | None = None) -> tuple[Callable[[int], Any] | None, Callable[[], None]]:
    """(update, close) for what the caller gave: None, True (a tqdm bar made here, closed here: in
    a notebook tqdm's widget when one is available, else text), a tqdm-like bar (its `update`), or a
    function called with the number of games just finished. `done` games were played before."""
    check_progress(progress)
    if progress is None or progress is False:
        return None, lambda: None
    if progress is True:
        from tqdm.auto import tqdm

        bar = tqdm(total=total, initial=done, unit="game", desc=desc, smoothing=0.1)
        return bar.update, bar.close
    if callable(getattr(progress, "update", None)):
        return progress.update, lambda: None
    return progress, lambda: None


Task = tuple[int, int, int]  # (job index, first game, games)


def split_tasks(ranges: Sequence[Task], size: int) -> list[Task]:
    return [(i, a, n) for i, g0, m in ranges for a, n in chunks(m, size, g0)]


def pool_task_size(total: int, workers: int, chunk: int, progress: bool = False) -> int:
    """Games a task: about TASKS_PER_WORKER tasks a worker. A handful of games played in a pool (this
    process does not hold the engine) with a progress display go in tasks as small as the first
    update's, so the display moves."""
    least = PROGRESS_FIRST if progress and total < POOL_MIN_GAMES else MIN_TASK
    return max(least, min(chunk, MAX_TASK, -(-total // (TASKS_PER_WORKER * workers))))


def iter_chunks(jobs: Sequence[Job], ranges: Sequence[Task], workers: int = 0, chunk: int = 2000,
                want_hands: bool = False, update: Callable[[int], Any] | None = None,
                scheduler: Any = None, pool: Pool | None = None) -> Iterator[tuple[int, int, np.ndarray, np.ndarray]]:
    """Play the given ranges of games of each job; yield (job index, first game, game rows, hand
    rows) chunk by chunk as they finish, in whatever order (results never depend on the order, the
    chunking or the number of workers). The engine is compiled or loaded before anything starts.
    `pool` (a Pool) keeps the worker processes from one call to the next, as a sequential test's
    looks need; it is left broken (`pool.broken`) after an interruption."""
    total = sum(n for _, _, n in ranges)
    prepare_jobs(jobs, in_workers(workers, scheduler, total))
    if total == 0:
        return
    here = any(process_local(f) for job in jobs for f in job.functions())  # a kernel no worker could rebuild
    if scheduler is not None and not here:
        yield from _on_dask(jobs, ranges, scheduler, chunk, want_hands, update)
        return
    if here or not in_workers(workers, scheduler, total):
        for i, g0, n in ranges:
            yield from _in_process(i, jobs[i], g0, n, chunk, want_hands, update)
        return
    workers = resolve_workers(workers)
    tasks = split_tasks(ranges, pool_task_size(total, workers, chunk, update is not None))
    own = pool is None
    if own:
        pool = Pool(min(workers, len(tasks)))
    calls = {(i, g0, n): (run_chunk, (jobs[i], g0, n, want_hands)) for i, g0, n in tasks}
    for (i, g0, n), (g, h) in pool_results(pool, calls):
        if update is not None:
            update(n)
        yield i, g0, g, h
    if own:
        pool.close()


def pool_results(pool: Pool, calls: dict[Any, tuple[Callable[..., Any], tuple]]) -> Iterator[tuple[Any, Any]]:
    """Run each call (function, arguments) on the pool's workers; yield (its key, its result) as each finishes, in
    whatever order. Ctrl-C, an error or a caller that stops early ends the workers at once (the pool is then
    broken); what was yielded is kept by the caller."""
    ex = pool.executor()
    try:
        futures = {ex.submit(fn, *args): key for key, (fn, args) in calls.items()}
        for fut in as_completed(futures):
            key = futures.pop(fut)  # a finished future holds its result: let it go once yielded
            yield key, fut.result()
    except BaseException:
        pool.abort()
        raise


class Pool:
    """Worker processes made when first needed and kept until closed. Each worker leaves Ctrl-C to this
    process, ends at once on SIGTERM, and ends by itself when this process ends, however it ends
    (sim.run.stopping.start_worker): a `kill -9` or a notebook kernel's restart leaves no worker behind."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._ex: ProcessPoolExecutor | None = None
        self.broken = False

    def executor(self) -> ProcessPoolExecutor:
        if self._ex is None:
            ctx = multiprocessing.get_context()
            # a forked or spawned worker is a child of this process; a forkserver's is the server's (which
            # ends when this process does), so the worker takes its parent as it finds it
            parent = os.getpid() if ctx.get_start_method() in ("fork", "spawn") else None
            self._ex = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx, initializer=start_worker,
                                           initargs=(parent,))
        return self._ex

    def abort(self) -> None:
        """Stop at once: the tasks not started are dropped, the workers ended (and waited for, at most
        ABORT_SECONDS) however far into a task they are."""
        ex, self._ex, self.broken = self._ex, None, True  # first: a second Ctrl-C below leaves nothing to wait for
        if ex is not None:
            # no public handle on the pool's processes, and shutdown() lets go of the private one
            procs = list((getattr(ex, "_processes", None) or {}).values())
            ex.shutdown(wait=False, cancel_futures=True)
            end_processes(procs)

    def close(self) -> None:
        if self._ex is not None:
            self._ex.shutdown()
        self._ex = None


ABORT_SECONDS = 5.0  # a worker told to end (SIGTERM) is waited for this long, then killed


def end_processes(procs: Sequence[Any]) -> None:
    """End multiprocessing processes: SIGTERM, then SIGKILL for any still there after ABORT_SECONDS; each
    waited for until it has ended (its sentinel is ready a moment before: its files close first)."""
    from multiprocessing.connection import wait

    for proc in procs:
        with contextlib.suppress(ValueError, OSError):  # closed, or already gone
            proc.terminate()
    left = {}
    for proc in procs:
        with contextlib.suppress(ValueError):  # a closed process object has no sentinel
            left[proc.sentinel] = proc
    deadline = time.monotonic() + ABORT_SECONDS
    while left and time.monotonic() < deadline:
        for s in wait(list(left), deadline - time.monotonic()):
            left.pop(s)
    for proc in left.values():
        with contextlib.suppress(ValueError, OSError):
            proc.kill()
    for proc in procs:
        with contextlib.suppress(ValueError, AssertionError, OSError):  # closed, or not this process's child
            proc.join(ABORT_SECONDS)


def _in_process(i: int, job: Job, g0: int, n_games: int, chunk: int, want_hands: bool,
                update: Callable[[int], Any] | None) -> Iterator[tuple[int, int, np.ndarray, np.ndarray]]:
    """Chunks of `chunk` games; with a progress display, chunks sized to last about PROGRESS_SECONDS."""
    at, end = g0, g0 + n_games
    size = min(chunk, MAX_TASK) if update is None else min(chunk, PROGRESS_FIRST)
    while at < end:
        n = min(size, end - at)
        t = time.perf_counter()
        g, h = run_chunk(job, at, n, want_hands)
        at += n
        if update is not None:
            update(n)
            dt = max(time.perf_counter() - t, 1e-3)
            size = max(1, min(chunk, MAX_TASK, int(n * PROGRESS_SECONDS / dt)))
        yield i, at - n, g, h


class SchedulerError(RuntimeError):
    """A Dask scheduler that cannot be reached, or workers that would not play the same games."""


def dask_client(scheduler: Any) -> Any:
    """A distributed.Client for an address (or the client given), checked: every worker must run the
    same engine and strategy sources as this machine, or its games would differ from a local run."""
    try:
        from distributed import Client
    except ImportError:  # declared in pyproject.toml; a trimmed install may lack it
        raise SchedulerError("--scheduler needs dask.distributed: pip install 'dask[distributed]'") from None
    from sim.engine.sources import source_hash

    if isinstance(scheduler, Client):
        client = scheduler
    else:
        try:
            client = Client(str(scheduler), timeout=SCHEDULER_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            raise SchedulerError(f"cannot reach the Dask scheduler at {scheduler!r} ({type(exc).__name__}); give "
                                 "its address as tcp://HOST:PORT (see README, 'A cluster')") from None
    mine = source_hash()
    try:
        theirs = client.run(worker_source_hash)
    except Exception as exc:  # the worker's own error, whatever it is
        raise SchedulerError(f"the Dask workers at {scheduler!r} cannot import canasta-lab ({type(exc).__name__}: "
                             f"{exc}); install the same version on every worker") from None
    if not theirs:
        raise SchedulerError(f"the Dask scheduler at {scheduler!r} has no workers; start some with "
                             f"`dask worker {scheduler}`")
    for addr, h in theirs.items():
        if h != mine:
            raise SchedulerError(f"Dask worker {addr} runs other engine sources ({h}) than this machine ({mine}); "
                                 "install the same canasta-lab on every worker")
    return client


SCHEDULER_TIMEOUT = "10s"


def worker_source_hash() -> str:
    """Run on each Dask worker: the hash of the engine and strategy sources it would play."""
    from sim.engine.sources import source_hash

    return source_hash()


def _on_dask(jobs: Sequence[Job], ranges: Sequence[Task], scheduler: Any, chunk: int, want_hands: bool,
             update: Callable[[int], Any] | None) -> Iterator[tuple[int, int, np.ndarray, np.ndarray]]:
    from distributed import as_completed as dask_completed

    client = dask_client(scheduler)
    workers = max(1, sum(client.nthreads().values()))
    tasks = split_tasks(ranges, pool_task_size(sum(n for _, _, n in ranges), workers, chunk))
    futures = []
    try:
        for i, g0, n in tasks:
            fut = client.submit(run_chunk, jobs[i], g0, n, want_hands, pure=False)
            fut.task = (i, g0, n)  # type: ignore[attr-defined]
            futures.append(fut)
        where = {f.key: f.task for f in futures}  # type: ignore[attr-defined]
        for fut in dask_completed(futures):
            i, g0, n = where[fut.key]
            g, h = fut.result()
            fut.release()
            if update is not None:
                update(n)
            yield i, g0, g, h
    except BaseException:
        client.cancel(futures)
        raise
    finally:
        if client is not scheduler:
            client.close()
