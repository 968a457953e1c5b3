"""Runs games: seeds, chunks, worker processes. Results depend on (variant, strategies, master seed,
game index) only, never on the number of workers or the chunk size."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

from strategies import StrategyChoice, StrategySpec, engine_sid, parse_strategy

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

    def user_fns(self) -> list:
        """The distinct user functions of the run, in order of first seat."""
        fns: list = []
        for c in self.strategies:
            if c.spec.fn is not None and not any(f is c.spec.fn for f in fns):
                fns.append(c.spec.fn)
        return fns

    def seat_tables(self) -> tuple[np.ndarray, np.ndarray]:
        """Seats take the strategies in order, repeating the list (DESIGN.md)."""
        sids = np.zeros(L.MAXP, np.int64)
        prm = np.zeros((L.MAXP, L.NPRM), np.float64)
        fns = self.user_fns()
        for p in range(self.variant.players):
            c = self.strategies[p % len(self.strategies)]
            slot = next((i for i, f in enumerate(fns) if f is c.spec.fn), -1) if c.spec.fn is not None else -1
            sids[p] = engine_sid(c.spec, slot)
            prm[p] = c.params
        return sids, prm

    def engine_fns(self) -> tuple:
        from .engine.dispatch import user_functions

        return user_functions(self.user_fns())

    def seat_labels(self, game: int) -> list[str]:
        """Strategy label of each seat in a given game (duplicate deals rotate the seating)."""
        n = self.variant.players
        rot = game % self.variant.n_sides
        base = [self.strategies[p % len(self.strategies)].label for p in range(n)]
        return [base[(p - rot) % n] for p in range(n)]


def make_job(variant: str | Variant, strategies: Sequence[str | StrategySpec | StrategyChoice], seed: int,
             check: bool = False) -> Job:
    v = get_variant(variant) if isinstance(variant, str) else variant
    if not strategies:
        raise ValueError("give at least one strategy (-s NAME)")
    chosen = tuple(parse_strategy(s) for s in strategies)
    if len(chosen) > v.players:
        raise ValueError(f"{v.name} has {v.players} seats; give 1 to {v.players} strategies, not {len(chosen)}")
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    job = Job(v, chosen, int(seed), check)
    job.engine_fns()  # refuses more user strategies than the engine has slots for
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
        what = "5.8 invariant" if which <= 7 else "going-out legality (1.9) check"
        return (f"engine {what} {which} of VARIANTS.md broken in game {game}, "
                f"hand {int(st[L.S_HANDNO])}, turn {int(st[L.S_TURN])}")
    if err == L.ERR_STUCK:
        return f"engine found no legal continuation in game {game}, hand {int(st[L.S_HANDNO])}"
    if err == L.ERR_LOG_FULL:
        return f"transcript buffer full in game {game}"
    return f"engine error {err} in game {game}"


def run_chunk(job: Job, g0: int, n: int, want_hands: bool) -> tuple[np.ndarray, np.ndarray]:
    """Play games g0..g0+n-1 in this process; returns (game rows, hand rows)."""
    from .engine.kernel import play_batch_nb
    from .engine.state import new_state

    R = pack(job.variant)
    S = new_state(R)
    sids, prm = job.seat_tables()
    out_g = np.zeros((n, L.GF), np.int64)
    cap = n * 12 if want_hands else 0
    while True:
        out_h = np.zeros((cap, L.HF), np.int64)
        nh = play_batch_nb(R, S, job.engine_fns(), sids, prm, job.seed, g0, n, out_g, out_h,
                           1 if job.check else 0)
        if S.st[L.S_ERR] != 0:
            raise EngineError(describe_error(job, S.st))
        if nh >= 0:
            return out_g, out_h[:nh]
        cap = -nh


def _run_chunk_args(args: tuple[Job, int, int, bool]) -> tuple[np.ndarray, np.ndarray]:
    return run_chunk(*args)


def chunks(n_games: int, chunk: int) -> list[tuple[int, int]]:
    return [(g, min(chunk, n_games - g)) for g in range(0, n_games, chunk)]


def run_jobs(jobs: Sequence[Job], n_games: int, workers: int = 1, chunk: int = 2000, want_hands: bool = False,
             progress: Callable[[int], None] | None = None) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """Play n_games of every job, sharing one pool of workers; per job (game rows, hand rows, wall
    seconds of the whole call)."""
    if n_games <= 0:
        raise ValueError(f"game count must be a positive integer, got {n_games}")
    if workers <= 0:
        workers = os.cpu_count() or 1
    t0 = time.perf_counter()
    size = chunk if workers == 1 else max(1, min(chunk, -(-n_games * len(jobs) // (4 * workers))))
    tasks = [(job, g0, n, want_hands) for job in jobs for g0, n in chunks(n_games, size)]
    out: list[tuple[np.ndarray, np.ndarray]] = []
    if workers == 1 or len(tasks) == 1:
        for t in tasks:
            out.append(run_chunk(*t))
            if progress:
                progress(t[2])
    else:
        with ProcessPoolExecutor(max_workers=workers) as ex:
            for res, t in zip(ex.map(_run_chunk_args, tasks), tasks, strict=True):
                out.append(res)
                if progress:
                    progress(t[2])
    wall = time.perf_counter() - t0
    results = []
    for job in jobs:
        mine = [r for r, t in zip(out, tasks, strict=True) if t[0] is job]
        results.append((np.concatenate([g for g, _ in mine]), np.concatenate([h for _, h in mine]), wall))
    return results


def run(job: Job, n_games: int, workers: int = 1, chunk: int = 2000, want_hands: bool = False,
        progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, np.ndarray, float]:
    """Play n_games; returns (game rows, hand rows, wall seconds)."""
    return run_jobs([job], n_games, workers, chunk, want_hands, progress)[0]
