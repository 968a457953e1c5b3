"""Saying when anything compiles, and what: one line on standard error, from numba's own compile event (so it
cannot be skipped), naming what compiles (the engine, a built-in strategy, a user's strategy file) by the
outermost function numba compiles, and only when numba really compiles (a load from the cache says nothing). The
time a compile took is kept per kind for the next line's estimate.

This file holds no compiled code, so it is outside every hash (sim/engine/sources.py)."""

from __future__ import annotations

import gc
import json
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from numba.core import config, event

from . import folders as F
from .cache import ON_CONFIGURE, cache_root, configure, folder_of, index_holds
from .fence import check

TIMES = "compile-times.json"  # the last compile's seconds on this machine, per kind, for the estimate
# the estimate shown before the first compile ever on this machine: the engine with baseline, a strategy module
# alone against a compiled engine, a user's strategy file (docs/performance.md)
DEFAULT_SECONDS = {"engine": 55, "strategies": 15, "user": 1}
# numba's compiler makes millions of short-lived objects; with Python's default thresholds the collector scans the
# growing heap over and over, about a tenth of a cold compile. These thresholds keep that to a few seconds for
# about 80 MB more peak memory (docs/performance.md).
COMPILE_GC_THRESHOLDS = (50_000, 20, 50)


def notify_stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _times_path() -> Path:
    return cache_root() / TIMES


def compile_estimate(what: str = "engine") -> int:
    """Seconds the last compile of this kind took on this machine (any source version), or the default: `engine`,
    a strategy module's kind (`strategy-heuristic`: each by its own last compile, since `random` compiles in a
    fraction of a second and `search` in many) or `user`. Never under one second."""
    default = DEFAULT_SECONDS.get(what, DEFAULT_SECONDS["strategies"])
    try:
        seconds = float(json.loads(_times_path().read_text())[what])
    except (OSError, ValueError, KeyError, TypeError):
        return default
    return max(1, math.ceil(seconds))


def _record_time(what: str, seconds: float) -> None:
    try:
        times = json.loads(_times_path().read_text())
        if not isinstance(times, dict):
            times = {}
    except (OSError, ValueError):
        times = {}
    times[what] = round(seconds, 1)
    tmp = _times_path().with_name(f".{TIMES}.{os.getpid()}")
    try:
        tmp.write_text(json.dumps(times))
        os.replace(tmp, _times_path())
    except OSError:  # the estimate is a courtesy; an unwritable cache still plays
        pass


class CompileWatch(event.Listener):
    """numba's compile event for every function with the project's cache: the outermost compile of a burst says
    what compiles, once, before it starts; each is counted by folder."""

    def __init__(self) -> None:
        self.say: Callable[[str], None] = notify_stderr
        self.announced = False
        self.compiled: dict[str, int] = {}  # folder name -> functions compiled in this process
        self.depth = 0  # nested compiles: numba compiles a kernel's callees inside its own compile
        self.outermost: dict[str, Any] = {}  # the function and folder of the compile that started a burst
        self.engine_loaded: bool | None = None  # known inside compile_once: then a strategy compiled first says so
        self._installed = False

    def install(self) -> None:
        if not self._installed:
            event.register("numba:compile", self)
            self._installed = True

    def on_start(self, ev: event.Event) -> None:
        disp = ev.data.get("dispatcher")
        folder = folder_of(disp) if disp is not None else None
        self.depth += 1
        if self.depth == 1:
            self.outermost = {"fn": disp, "folder": folder}
        if folder is None:
            return
        self.compiled[folder.name] = self.compiled.get(folder.name, 0) + 1
        top = self.outermost.get("folder") or folder
        if not self.announced:
            self.announced = True
            self.say(self.message(top, self.outermost.get("fn") or disp))

    def on_end(self, ev: event.Event) -> None:
        self.depth = max(0, self.depth - 1)

    def message(self, folder: Path, fn: Any = None) -> str:
        kind = F.family(folder.name)
        if kind == "engine" or (self.engine_loaded is False and kind.startswith("strategy-")):
            kept = (f"later runs, in any checkout of the same sources, load it from {cache_root()}" if check("cache")
                    else "this numba keeps nothing on disk: every process compiles it")
            return (f"canasta-lab: compiling the engine once for these sources, about {compile_estimate('engine')} s "
                    f"({kept})...")
        if kind == "user":
            py = getattr(fn, "py_func", None)
            where = f"`{py.__name__}` of {Path(py.__code__.co_filename).name}" if py is not None else "a strategy"
            return (f"canasta-lab: compiling {where} for its content (once: later runs load it), about "
                    f"{compile_estimate('user')} s...")
        return (f"canasta-lab: compiling the strategy `{kind.removeprefix('strategy-')}` for these sources (its "
                f"code changed; the engine is loaded), about {compile_estimate(kind)} s...")


WATCH = CompileWatch()
ON_CONFIGURE.append(WATCH.install)  # every compile or load configures the cache first: the line is in place
_READY = False


def compile_strategy(f: Any, sig: Any) -> None:
    """Give a strategy function its one compiled signature (from the cache when it is there) and close it to
    others: numba types a tuple of such functions as one first-class function type, so the engine is compiled
    once whatever the strategies."""
    if hasattr(f, "compile") and getattr(f, "_can_compile", False):
        f.compile(sig)
        f.disable_compile()
        keep_on_disk(f, sig)


def keep_on_disk(f: Any, sig: Any) -> None:
    """File f's machine code under `sig` when this process had it from a kernel that calls f (learned calls the
    heuristic): numba files that under the call's argument types and `f.compile(sig)` then finds it in memory and
    saves nothing, so every later process, each worker of a run, would compile f again."""
    if folder_of(f) is None or index_holds(f, sig):
        return
    from numba.core import sigutils

    args, _ = sigutils.normalize_signature(sig)
    cres = f.overloads.get(tuple(args))
    if cres is not None:
        f._cache.save_overload(sig, cres)


def compile_once(fns: Sequence[Any], sig: Any, entry: Any, warm: Callable[[], None],
                 notify: Callable[[str], None] = notify_stderr) -> None:
    """Compile (or load from the cache) every strategy function in `fns` with the strategy signature `sig`, and the
    engine, whose entry point `entry` `warm()` calls once. numba's compile event says when anything is compiled
    (one line, before it starts) and the time it took is kept for the next estimate."""
    global _READY
    if config.DISABLE_JIT:
        return
    configure()
    WATCH.announced = False  # each compile says so, even a second one in this process
    before = dict(WATCH.compiled)
    WATCH.say = notify
    WATCH.engine_loaded = _READY or index_holds(entry)
    t0 = time.perf_counter()
    thresholds = gc.get_threshold()
    gc.set_threshold(*COMPILE_GC_THRESHOLDS)
    try:
        for f in fns:
            compile_strategy(f, sig)
        if not _READY:
            warm()
    finally:
        gc.set_threshold(*thresholds)
        WATCH.say = notify_stderr
        WATCH.engine_loaded = None
    seconds = time.perf_counter() - t0
    compiled = {F.family(k) for k, n in WATCH.compiled.items() if n > before.get(k, 0)}
    if compiled:  # the time goes to the engine when it compiled, else to each strategy or user file that did
        for what in ["engine"] if "engine" in compiled else sorted(compiled):
            _record_time(what, seconds)
    _READY = True


def compiled_here() -> dict[str, int]:
    """Functions of the project numba compiled in this process, by cache folder (the tests read it)."""
    return dict(WATCH.compiled)
