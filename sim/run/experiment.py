"""Experiments at scale: the games of one or more jobs, played in chunks that go to disk as they
finish (sim.run.store), resumed where a stopped run left off, and summed as they finish (`play` and
`profile` need no more). The few columns the statistics on deals need (the winner and the final
scores: 9 bytes a game at two sides) go to a scratch file and are read back a block of deals at a
time into running sums, so memory stays flat however many games.

Every playing command and API call goes through `Experiment`: `play`, `compare` (with or without a
sequential test), `tournament` and `sweep`.
"""

from __future__ import annotations

import hashlib
import inspect
import platform
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.engine import layout as L
from sim.run.frames import games_frame, hands_frame, metadata, side_labels
from sim.run.runner import (
    MAX_TASK,
    Job,
    Pool,
    Progress,
    check_progress,
    cpu_count,
    dask_client,
    in_workers,
    iter_chunks,
    prepare_jobs,
    progress_callback,
    resolve_workers,
    whole_number,
)
from sim.run.stopping import sigterm_interrupts
from sim.run.store import PLAY, RunFolder, arrow_errors, damaged, open_run, release_arrow
from sim.stats import CONFIDENCE, DealStats, Moments, pair_values, summarize_pairs, wilson
from sim.version import __version__

COUNT_COLUMNS = ("n_hands", "capped_hands", "capped_game")  # summed as games finish (Totals)
# games whose pair values are computed at once (rounded up to whole deals): about 300 bytes a game of
# temporaries, so a few MB a block (120,000 games took 36 MB, which a million-game compare went over 300 MB with)
PAIR_BLOCK = 16_384
HANDS_TASK = 512  # games a chunk at most when the hands are recorded (about 1,800 hands; 4,096 games took 390 MB)


class Played:
    """The games of a job played so far, as sorted disjoint ranges [a, b): held by the ranges (a
    handful, as parts finish in about their order), never by the games."""

    def __init__(self) -> None:
        self.ranges: list[tuple[int, int]] = []

    def add(self, a: int, b: int) -> None:
        merged: list[tuple[int, int]] = []
        for x, y in sorted([*self.ranges, (a, b)]):
            if merged and x <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], y))
            else:
                merged.append((x, y))
        self.ranges = merged

    @property
    def total(self) -> int:
        return sum(b - a for a, b in self.ranges)

    def count(self) -> int:
        """Games 0..k-1 all played: k."""
        return self.ranges[0][1] if self.ranges and self.ranges[0][0] == 0 else 0

    def gaps(self, target: int) -> list[tuple[int, int]]:
        """The ranges below `target` not played yet."""
        out, at = [], 0
        for a, b in self.ranges:
            if a >= target:
                break
            if a > at:
                out.append((at, a))
            at = max(at, b)
        if at < target:
            out.append((at, target))
        return out


@dataclass
class Totals:
    """A job's games summed as they finish, per rotation of the seating (`r`, the game's index modulo
    the job's rotations: the sides, or 1 where each deal is played once) and side (`s`): what `play` prints,
    whatever the number of games, in a few numbers."""

    games: np.ndarray  # [r]
    wins: np.ndarray  # [r, s]
    score: np.ndarray  # [r, s], summed exactly
    counts: np.ndarray  # [COUNT_COLUMNS]

    @classmethod
    def empty(cls, sides: int, rotations: int | None = None) -> Totals:
        """No games yet; `rotations` of the seating (default one per side, as duplicate deals play them)."""
        rots = sides if rotations is None else rotations
        return cls(np.zeros(rots, np.int64), np.zeros((rots, sides), np.int64), np.zeros((rots, sides), np.int64),
                   np.zeros(len(COUNT_COLUMNS), np.int64))

    def add(self, game: np.ndarray, winner: np.ndarray, scores: np.ndarray, counts: np.ndarray) -> None:
        rots, sides = self.wins.shape
        rot = game % rots
        self.games += np.bincount(rot, minlength=rots)
        for s in range(sides):
            self.wins[:, s] += np.bincount(rot[winner == s], minlength=rots)
            for r in range(rots):
                self.score[r, s] += int(scores[rot == r, s].sum(dtype=np.int64))
        self.counts += counts.sum(axis=0, dtype=np.int64)


class GameColumns:
    """The winner and final scores of every game of a job, the columns the statistics on deals read: in an
    anonymous scratch file (removed when closed or when the process ends), a record of 9 bytes a game at
    two sides written where its game number says, so games finishing in any order need no memory, and a
    block of games is read back when the statistics ask for it."""

    def __init__(self, sides: int) -> None:
        self.dtype = np.dtype([("winner", np.int8), ("scores", np.int32, (sides,))])
        self._file = tempfile.TemporaryFile(prefix="canasta-lab-games-")

    def write(self, g0: int, winner: np.ndarray, scores: np.ndarray) -> None:
        """Games g0, g0 + 1, ... in order."""
        rec = np.empty(len(winner), self.dtype)
        rec["winner"], rec["scores"] = winner, scores
        self._file.seek(g0 * self.dtype.itemsize)
        self._file.write(rec.tobytes())

    def read(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        """The winners and the scores (one column a side) of games start..stop-1, all written before."""
        size = self.dtype.itemsize
        self._file.seek(start * size)
        raw = self._file.read((stop - start) * size)
        if len(raw) != (stop - start) * size:
            raise ValueError(f"games {start}..{stop - 1} were not all recorded")
        rec = np.frombuffer(raw, self.dtype)
        return rec["winner"], rec["scores"]

    def close(self) -> None:
        self._file.close()


def strategy_code(job: Job) -> list[str]:
    """A hash of each user strategy's Python source: a user strategy edited between a stopped run and
    its resumption is another strategy. Built-in ones are covered by the engine's source hash."""
    out = []
    for c in job.strategies:
        if not c.spec.is_user:
            out.append("")
            continue
        fn = getattr(c.spec.decide, "py_func", c.spec.decide)
        try:
            text = inspect.getsource(fn).encode()
        except (OSError, TypeError):  # defined where the source is not kept (an exec'd string)
            text = fn.__code__.co_code + repr(fn.__code__.co_consts).encode()
        out.append(hashlib.sha256(text).hexdigest()[:16])
    return out


def identity(job: Job) -> dict[str, Any]:
    """What a run folder must match to be resumed: the same games, game for game."""
    from sim.engine.sources import source_hash

    return {
        "variant": job.variant.name,
        "rules": job.variant.to_dict(),
        "strategies": [{"label": c.label, "name": c.spec.name, "knobs": c.knob_values(), "code": code}
                       for c, code in zip(job.strategies, strategy_code(job), strict=True)],
        "seed": job.seed,
        "check": job.check,
        "engine": source_hash(),
        **({"one_rotation": True} if job.one_rotation else {}),  # other games: a run of every rotation is not one
    }


CODE_PATHS = ("sim", "strategies", "pyproject.toml")  # what plays and writes the results: `+dirty` is of these only


def git_commit(root: Path | None = None) -> str | None:
    """The checkout's commit (with `+dirty` for uncommitted edits of the code, CODE_PATHS), when the package runs
    from one. Reports and notebooks written into the checkout do not make it dirty: a committed report's footer
    names the code that wrote it, not the report itself."""
    from sim.engine.sources import PACKAGE_ROOT

    root = PACKAGE_ROOT if root is None else root
    if not (root / ".git").exists():
        return None
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"],
                              capture_output=True, text=True, timeout=5, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no",
                                "--", *CODE_PATHS], capture_output=True, text=True, timeout=5,
                               check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("+dirty" if dirty else "")


def code_version() -> dict[str, Any]:
    from sim.engine.sources import source_hash

    return {"package": __version__, "engine_sources": source_hash(), "git": git_commit()}


def machine() -> dict[str, Any]:
    return {"host": platform.node(), "system": platform.platform(), "processor": platform.machine(),
            "cpus": cpu_count(), "python": platform.python_version()}


class Experiment:
    """The games 0..budget-1 of each job, played on demand up to any target (`advance`): in one
    pool of workers for all jobs, written part by part to each job's run folder when it has one.

    Finished games found in a folder are not played again; a folder of another run, or of another
    `command` than the one writing them, is refused before any game (sim.run.store.open_run)."""

    def __init__(self, jobs: Sequence[Job], budget: int, outs: Sequence[str | Path | None] | None = None,
                 hands: bool = False, keep_rows: bool = False, workers: int = 0, chunk: int = MAX_TASK,
                 progress: Progress = None, scheduler: Any = None, force: bool = False,
                 describe: str = "", parents: bool = False, pool: Pool | None = None, command: str = PLAY,
                 per_game: bool = True) -> None:
        whole_number("games", budget)
        resolve_workers(workers)
        check_progress(progress)
        self.jobs = list(jobs)
        self.budget = budget
        self.hands = hands
        self.keep_rows = keep_rows
        # a chunk's hands are about 1.5 kB a hand and its tables several times that: with hands, chunks of
        # HANDS_TASK games keep the main process (and each worker's table of hands) small
        self.workers, self.chunk, self.progress = workers, min(chunk, HANDS_TASK) if hands else chunk, progress
        # the cluster is reached, and its workers checked, before any folder is touched or game played
        self.scheduler = dask_client(scheduler) if scheduler is not None else None
        self._own_client = scheduler is not None and self.scheduler is not scheduler
        outs = list(outs) if outs is not None else [None] * len(self.jobs)
        self.played_ranges = [Played() for _ in self.jobs]
        self.sums = [Totals.empty(j.variant.n_sides, j.rotations) for j in self.jobs]
        # per game, for the statistics on deals (`per_game`; `play` needs only the totals), on disk
        self.per_game = per_game
        self.columns = [GameColumns(j.variant.n_sides) for j in self.jobs] if per_game else []
        self.rows: list[list[tuple[int, np.ndarray, np.ndarray]]] = [[] for _ in self.jobs]
        self.folders: list[RunFolder | None] = []
        try:
            for j, o in zip(self.jobs, outs, strict=True):
                self.folders.append(open_run(o, identity(j), hands, force, describe, parents, command)
                                    if o is not None else None)
            for i, f in enumerate(self.folders):
                if f is not None and f.done:
                    self._load(i, f)
        except BaseException:  # a later folder refused, or a part unreadable: the ones made for this call go again
            for f in self.folders:
                if f is not None:
                    f.discard_if_empty()
            for c in self.columns:
                c.close()
            if self.scheduler is not None and scheduler is not self.scheduler:
                self.scheduler.close()
            raise
        self.resumed = [p.total for p in self.played_ranges]
        self.played = 0
        self.wall = 0.0
        self._bar: tuple[Any, Any] | None = None
        self._started = False
        self._recorded = False
        # its processes start with the first game played; a pool given by the caller (a tuner's trials, one
        # Experiment each) is kept open for the next one, so each trial does not start its workers afresh
        self._own_pool = pool is None
        self._pool = pool if pool is not None else Pool(resolve_workers(workers))
        self._part_meta: dict[int, dict[str, Any]] = {}
        self._code = code_version()
        self._machine = machine()

    def _load(self, i: int, f: RunFolder) -> None:
        """The per-game columns of the games already in the folder, read part by part."""
        import pyarrow.parquet as pq

        if self.keep_rows:
            raise ValueError("keep_rows is for runs without a folder")
        sides = self.jobs[i].variant.n_sides
        score_cols = [f"score_{s}" for s in range(sides)]
        for (a, b), path in zip(f.done, f.parts(), strict=True):
            if a >= self.budget:
                continue
            try:  # every page was decoded when the folder was opened (sim.run.store._load): in case it changed since
                with pq.ParquetFile(path) as pf:  # not pq.read_table: a dataset's set-up took 2/3 of the time
                    t = pf.read(columns=["game", "winner_side", *score_cols, *COUNT_COLUMNS])
            except arrow_errors():
                raise damaged(path, "its data cannot be read") from None
            g = t.column("game").to_numpy()
            keep = g < self.budget
            g = g[keep]
            winner = t.column("winner_side").to_numpy()[keep]
            scores = np.stack([t.column(c).to_numpy()[keep] for c in score_cols], axis=1)
            counts = np.stack([t.column(c).to_numpy()[keep] for c in COUNT_COLUMNS], axis=1)
            self.played_ranges[i].add(a, min(b, self.budget))
            self.sums[i].add(g, winner, scores, counts)
            if self.per_game and len(g):  # a part holds consecutive games, and `keep` cuts only its end
                self.columns[i].write(int(g[0]), winner, scores)

    def missing(self, target: int) -> list[tuple[int, int, int]]:
        """(job, first game, count) of every game below `target` not played yet."""
        return [(i, a, b - a) for i, p in enumerate(self.played_ranges) for a, b in p.gaps(target)]

    def _start(self) -> None:
        todo = sum(n for _, _, n in self.missing(self.budget))
        prepare_jobs(self.jobs, in_workers(self.workers, self.scheduler, todo))  # the compile line before the bar
        total = self.budget * len(self.jobs)
        self._bar = progress_callback(self.progress, total, total - todo)
        extra = {"machine": self._machine, "code": self._code,
                 "workers": "dask" if self.scheduler is not None else resolve_workers(self.workers)}
        for i, f in enumerate(self.folders):
            if f is not None:
                f.start_session(self.budget, extra, self.run_meta(i))
        self._started = True

    def advance(self, target: int | None = None) -> None:
        """Play every missing game below `target` (default: the budget) of every job. Ctrl-C, or a SIGTERM
        while the games play (sim.run.stopping), stops at once with KeyboardInterrupt: the finished parts
        stay in the run folders and the workers end."""
        target = self.budget if target is None else min(target, self.budget)
        ranges = self.missing(target)
        if not ranges:
            return
        with sigterm_interrupts():
            if not self._started:
                self._start()
            update = self._bar[0] if self._bar else None
            t0 = time.perf_counter()
            chunks = iter_chunks(self.jobs, ranges, self.workers, self.chunk, self.hands, update, self.scheduler,
                                 self._pool)
            try:
                for i, g0, g, h in chunks:
                    self._take(i, g0, g, h)
            finally:
                # an exception here (Ctrl-C while a part is written) stops the workers as one in the pool's wait
                # does: without it they went on playing every game handed out, and the pool's close waited for them
                chunks.close()
                self.wall += time.perf_counter() - t0
                release_arrow()  # what writing the parts left in Arrow's pool, before the statistics are read
                if self._pool.broken:
                    self._pool = Pool(resolve_workers(self.workers))
                    self._own_pool = True

    def _take(self, i: int, g0: int, g: np.ndarray, h: np.ndarray) -> None:
        job = self.jobs[i]
        n = len(g)
        f = self.folders[i]
        hands = hands_frame(job, h) if self.hands and (f is not None or self.reads_hands) else None
        if f is not None:
            if i not in self._part_meta:  # once per job: the code version asks git, the machine the system
                self._part_meta[i] = {**metadata(job, self.budget, 0.0), "code_version": self._code,
                                      "machine": self._machine}
            f.write(g0, games_frame(job, g), hands, self._part_meta[i])
        if hands is not None and self.reads_hands:
            self.take_hands(i, hands)  # the one hands table of the chunk, written and read alike
        del hands
        if self.keep_rows:
            self.rows[i].append((g0, g, h))
        winner = g[:, L.G_WINNER]
        scores = g[:, L.G_SCORE:L.G_SCORE + job.variant.n_sides]
        counts = g[:, [L.G_NHANDS, L.G_CAPPED_HANDS, L.G_CAPPED_GAME]]
        self.played_ranges[i].add(g0, g0 + n)
        self.sums[i].add(np.arange(g0, g0 + n), winner, scores, counts)
        if self.per_game:
            self.columns[i].write(g0, winner, scores)
        self.played += n

    reads_hands = False  # a subclass that reads each chunk's hands table (take_hands) sets it

    def take_hands(self, i: int, hands: pd.DataFrame) -> None:
        """Job `i`'s hands table of a finished chunk, for a subclass that reads it (sim.analysis.profile)."""

    def close(self) -> None:
        """Close the progress display and record this session (wall time, games played) in each folder."""
        if self._own_pool:
            self._pool.close()
        if self._own_client:
            self.scheduler.close()
            self._own_client = False
        if self._bar is not None:
            self._bar[1]()
            self._bar = None
        for f in self.folders:
            if f is not None and not f.done:
                f.discard_if_empty()
        if self._started:
            for f in self.folders:
                if f is not None and f.path.exists():
                    f.end_session(self.wall, self.played)
            self._started = False
            self._recorded = True

    def kept_rows(self, i: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """With keep_rows: job `i`'s game rows and hand rows (empty unless hands) in game order."""
        rows = sorted(self.rows[i], key=lambda r: r[0])
        return np.concatenate([r[1] for r in rows]), np.concatenate([r[2] for r in rows])

    def release(self) -> None:
        """Remove the per-game columns' scratch files once the statistics are read."""
        for c in self.columns:
            c.close()
        self.columns = []
        release_arrow()

    def __enter__(self) -> Experiment:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def count(self, i: int = 0) -> int:
        """Games 0..k-1 all played: k."""
        return min(self.played_ranges[i].count(), self.budget)

    def deal_stats(self, i: int, a: str, b: str, upto: int,
                   labels: Sequence[str] | None = None) -> tuple[DealStats, tuple[Moments, Moments]]:
        """A's per-deal values against B over games 0..upto-1 summed (DealStats), and the moments of its
        per-game values, a block of whole deals at a time: neither the games nor their deals ever stand
        in memory, whatever their number."""
        rot = self.jobs[i].rotations
        step = -(-PAIR_BLOCK // rot) * rot
        total: DealStats | None = None
        gx, gm = Moments(0, 0.0, 0.0), Moments(0, 0.0, 0.0)
        for g in range(0, upto, step):
            pv = pair_values(self.frame(i, upto=min(g + step, upto), labels=labels, start=g), a, b)
            gx, gm = gx + Moments.of(pv.game_x), gm + Moments.of(pv.game_margin)
            block = DealStats.of(pv)
            total = block if total is None else total + block
        if total is None:
            raise ValueError(f"no games to read the pair from (upto={upto})")
        return total, (gx, gm)

    def summary(self, i: int, a: str, b: str, upto: int, labels: Sequence[str] | None = None,
                confidence: float = CONFIDENCE) -> dict[str, Any]:
        """sim.stats.head_to_head of A against B over games 0..upto-1."""
        deals, moments = self.deal_stats(i, a, b, upto, labels)
        return summarize_pairs(deals, confidence, moments)

    def frame(self, i: int = 0, upto: int | None = None, labels: Sequence[str] | None = None,
              start: int = 0) -> pd.DataFrame:
        """The compact games table of job `i`, games 0..upto-1: game, deal, winner_side, score_i and
        strategy_i (categorical), the columns statistics read. `labels`, one per side of the base
        seating, renames them (a sweep calls its sides "row" and "opponent" whatever the strategies)."""
        if not self.per_game:
            raise ValueError("this experiment keeps totals only (per_game=False): no table of its games")
        v = self.jobs[i].variant
        rots = self.jobs[i].rotations
        n = self.count(i) if upto is None else upto
        game = np.arange(start, n, dtype=np.int64)
        winner, scores = self.columns[i].read(start, n)
        df = pd.DataFrame({"game": game, "deal": game // rots, "winner_side": winner})
        for s in range(v.n_sides):
            df[f"score_{s}"] = scores[:, s]
        cats, code = self._side_codes(i, labels)
        rot = game % rots
        for s in range(v.n_sides):
            df[f"strategy_{s}"] = pd.Categorical.from_codes(code[:, s].astype(np.int8)[rot], cats)
        return df

    def _side_codes(self, i: int, labels: Sequence[str] | None) -> tuple[list[str], np.ndarray]:
        """The strategy labels (sorted) and, per rotation of the seating and side, the index of the side's
        label: `labels`, one per side of the base seating, rename them (Experiment.frame)."""
        job = self.jobs[i]
        v = job.variant
        if labels is None:
            per_rot = [side_labels(job, r) for r in range(job.rotations)]
        else:  # rotate the seats as the engine does (Job.seat_labels), then read each side's first seat
            if len(labels) != v.n_sides:
                raise ValueError(f"give one label per side ({v.n_sides}), got {len(labels)}")
            base = [labels[v.seat_side(p)] for p in range(v.players)]
            per_rot = [[base[(side[0] - r) % v.players] for side in v.sides] for r in range(job.rotations)]
        cats = sorted({x for row in per_rot for x in row})
        return cats, np.array([[cats.index(x) for x in row] for row in per_rot], np.int64)

    def win_rates(self, i: int = 0, labels: Sequence[str] | None = None,
                  confidence: float = CONFIDENCE) -> pd.DataFrame:
        """sim.stats.win_rates of job `i`'s games played (`labels` as in `frame`), from the running totals:
        no table of every game is made (the long form of 200,000 games alone took 60 MB)."""
        cats, code = self._side_codes(i, labels)
        t = self.sums[i]
        games = np.zeros(len(cats), np.int64)
        wins = np.zeros(len(cats), np.int64)
        score = np.zeros(len(cats), np.int64)
        for (r, s), k in np.ndenumerate(code):
            games[k] += t.games[r]
            wins[k] += t.wins[r, s]
            score[k] += t.score[r, s]
        rows = []
        for k, label in enumerate(cats):
            if games[k]:
                lo, hi = wilson(int(wins[k]), int(games[k]), confidence)
                rows.append({"strategy": label, "games": int(games[k]), "wins": int(wins[k]),
                             "win_rate": wins[k] / games[k], "ci_low": lo, "ci_high": hi,
                             "mean_score": score[k] / games[k]})
        return pd.DataFrame(rows)

    def totals(self, i: int = 0) -> dict[str, int]:
        """Job `i`'s games played, summed: hands, hands ended by the turn cap, games ended by the hand cap."""
        return {name: int(n) for name, n in zip(COUNT_COLUMNS, self.sums[i].counts, strict=True)}

    def run_meta(self, i: int = 0) -> dict[str, Any]:
        """The DESIGN metadata record of job `i` for the games played so far."""
        f = self.folders[i]
        wall = self.wall
        if f is not None:  # earlier sessions, and this one once close() has recorded it
            wall = sum(x["wall_seconds"] for x in f.record.get("sessions", [])) + (0.0 if self._recorded else wall)
        meta = metadata(self.jobs[i], self.count(i), wall)
        meta.update({"code_version": self._code, "machine": self._machine,
                     "workers": "dask" if self.scheduler is not None else resolve_workers(self.workers)})
        return meta
