"""Runs games: seeds, chunks, worker processes. Results depend on (variant, strategies, master seed,
game index) only, never on the number of workers or the chunk size."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

import numpy as np

from strategies import REGISTRY, StrategyChoice, StrategySpec, parse_strategy

from .engine import layout as L
from .rules import Variant, get_variant, pack


class EngineError(RuntimeError):
    """A game could not be played: an illegal strategy choice, a broken invariant, a stuck engine."""


@dataclass(frozen=True)
class Job:
    """Everything a worker needs; plain data, so it pickles to any process or machine."""

    variant: Variant
    strategies: tuple[StrategyChoice, ...]
    seed: int
    check: bool = False

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
        rot = game % self.variant.n_sides
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
        from .engine.game import play_batch_nb
        from .engine.state import new_state

        R = pack(get_variant("classic-4p"))
        S = new_state(R)
        seat_fns = np.zeros((L.MAXP, 2), np.int64)
        play_batch_nb(R, S, function_table(list(fns)), seat_fns, np.zeros((L.MAXP, L.NPRM)), 0, 0, 0,
                      np.zeros((0, L.GF), np.int64), np.zeros((0, L.HF), np.int64), 0)

    return warm


def prepare_engine(fns: Sequence = ()) -> None:
    """Compile or load the engine, every built-in strategy and `fns` before any game is played."""
    from .engine.jit import compile_once

    every: list = []
    for f in [s.decide for s in REGISTRY.values() if not s.is_user] + list(fns):
        if not any(f is g for g in every):
            every.append(f)
    compile_once(every, _warm_engine(every[:1]))


def make_job(variant: str | Variant, strategies: Sequence[str | StrategySpec | StrategyChoice], seed: int,
             check: bool = False) -> Job:
    v = get_variant(variant) if isinstance(variant, str) else variant
    if isinstance(strategies, str | StrategySpec | StrategyChoice):
        strategies = [strategies]  # one name is one strategy on every seat, not a list of letters
    if not strategies:
        raise ValueError("give at least one strategy (-s NAME)")
    chosen = tuple(parse_strategy(s) for s in strategies)
    if len(chosen) > v.players:
        raise ValueError(f"{v.name} has {v.players} seats; give 1 to {v.players} strategies, not {len(chosen)}")
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    job = Job(v, chosen, int(seed), check)
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
    """Play games g0..g0+n-1 in this process; returns (game rows, hand rows)."""
    from .engine.game import play_batch_nb
    from .engine.state import new_state

    R = pack(job.variant)
    S = new_state(R)
    seat_fns, prm = job.seat_tables()
    fns = job.engine_fns()
    out_g = np.zeros((n, L.GF), np.int64)
    cap = n * 12 if want_hands else 0
    while True:
        out_h = np.zeros((cap, L.HF), np.int64)
        nh = play_batch_nb(R, S, fns, seat_fns, prm, job.seed, g0, n, out_g, out_h, 1 if job.check else 0)
        if S.st[L.S_ERR] != 0:
            raise EngineError(describe_error(job, S.st))
        if nh >= 0:
            return out_g, out_h[:nh]
        cap = -nh


def chunks(n_games: int, chunk: int) -> list[tuple[int, int]]:
    return [(g, min(chunk, n_games - g)) for g in range(0, n_games, chunk)]


Progress = Callable[[int], Any] | Any  # a function of the games just finished, a tqdm bar, or True


PROGRESS_SECONDS = 0.5  # with a progress display, a chunk of games lasts about this long
PROGRESS_TASK = 64  # with a progress display and worker processes, games per task


def check_progress(progress: Progress) -> None:
    if progress is None or isinstance(progress, bool) or callable(getattr(progress, "update", None)) \
            or callable(progress):
        return
    raise TypeError(f"progress={progress!r}: give True, a tqdm bar, or a function taking the number of games "
                    "just finished")


def progress_callback(progress: Progress, total: int) -> tuple[Callable[[int], Any] | None, Callable[[], None]]:
    """(update, close) for what the caller gave: None, True (a tqdm bar made here, closed here), a
    tqdm-like bar (its `update`), or a function called with the number of games just finished."""
    check_progress(progress)
    if progress is None or progress is False:
        return None, lambda: None
    if progress is True:
        from tqdm.auto import tqdm

        bar = tqdm(total=total, unit="game")
        return bar.update, bar.close
    if callable(getattr(progress, "update", None)):
        return progress.update, lambda: None
    return progress, lambda: None


def run_jobs(jobs: Sequence[Job], n_games: int, workers: int = 1, chunk: int = 2000, want_hands: bool = False,
             progress: Progress = None) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """Play n_games of every job, sharing one pool of workers; per job (game rows, hand rows, wall
    seconds of the whole call). With `progress`, chunks are kept short (about PROGRESS_SECONDS) so
    the display moves at least every second; results never depend on the chunking."""
    if n_games <= 0:
        raise ValueError(f"game count must be a positive integer, got {n_games}")
    if workers <= 0:
        workers = os.cpu_count() or 1
    check_progress(progress)
    t0 = time.perf_counter()
    # compile here, once, before any worker starts (and before a progress bar): forked workers
    # inherit the compiled code and spawned ones find it on disk, instead of each compiling it
    prepare_engine([f for job in jobs for f in job.functions()])
    update, close = progress_callback(progress, n_games * len(jobs))
    parts: dict[int, list[tuple[int, np.ndarray, np.ndarray]]] = {i: [] for i in range(len(jobs))}
    try:
        if workers == 1:
            for i, job in enumerate(jobs):
                for g0, g, h in _in_process(job, n_games, chunk, want_hands, update):
                    parts[i].append((g0, g, h))
        else:
            size = max(1, min(chunk, -(-n_games * len(jobs) // (4 * workers))))
            if update is not None:
                size = min(size, PROGRESS_TASK)
            tasks = [(i, g0, n) for i in range(len(jobs)) for g0, n in chunks(n_games, size)]
            with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as ex:
                futures = {ex.submit(run_chunk, jobs[i], g0, n, want_hands): (i, g0, n) for i, g0, n in tasks}
                for fut in as_completed(futures):
                    i, g0, n = futures[fut]
                    g, h = fut.result()
                    parts[i].append((g0, g, h))
                    if update is not None:
                        update(n)
    finally:
        close()
    wall = time.perf_counter() - t0
    results = []
    for i in range(len(jobs)):
        mine = sorted(parts[i], key=lambda x: x[0])
        results.append((np.concatenate([g for _, g, _ in mine]), np.concatenate([h for _, _, h in mine]), wall))
    return results


def _in_process(job: Job, n_games: int, chunk: int, want_hands: bool,
                update: Callable[[int], Any] | None) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """Chunks of `chunk` games; with a progress display, chunks sized to last about PROGRESS_SECONDS."""
    out = []
    g0 = 0
    size = chunk if update is None else min(chunk, 8)
    while g0 < n_games:
        n = min(size, n_games - g0)
        t = time.perf_counter()
        g, h = run_chunk(job, g0, n, want_hands)
        out.append((g0, g, h))
        g0 += n
        if update is not None:
            update(n)
            dt = max(time.perf_counter() - t, 1e-3)
            size = max(1, min(chunk, int(n * PROGRESS_SECONDS / dt)))
    return out


def run(job: Job, n_games: int, workers: int = 1, chunk: int = 2000, want_hands: bool = False,
        progress: Progress = None) -> tuple[np.ndarray, np.ndarray, float]:
    """Play n_games; returns (game rows, hand rows, wall seconds)."""
    return run_jobs([job], n_games, workers, chunk, want_hands, progress)[0]
