"""Where the compiled engine lives, and compiling it once, saying so.

numba's disk cache checks only the source file of each cached function, so code inlined or linked
from another file (an engine helper, or a strategy called by the engine) could be served stale after
an edit. Here the cache folder's name is a hash of every engine and strategy source file and of the
numba, numpy and Python versions: any edit anywhere compiles afresh, and nothing older than its
sources can ever be loaded. The folder sits in a per-user cache (or under NUMBA_CACHE_DIR when that is
set), chosen by the package itself, so the command line, notebooks, the tests and `make` share it.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import platform
import shutil
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numba
import numpy as np
from numba import njit
from numba.core import config
from numba.core.errors import NumbaExperimentalFeatureWarning

# strategies reach the engine as first-class functions, a feature numba marks experimental; this use
# (one fixed signature, no closures) is the documented one and the tests exercise it
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

PACKAGE_ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIRS = ("sim/engine", "strategies")  # everything the compiled code can contain
MARKER = "compiled.json"  # written once the engine and the built-in strategies are compiled
KEEP = 4  # cache folders of other source versions kept (the most recently used)
DEFAULT_COMPILE_SECONDS = 60  # the estimate shown before the first compile ever on this machine
# numba's compiler makes millions of short-lived objects; with Python's default thresholds the
# collector scans the growing heap over and over, about a tenth of a cold compile. These thresholds
# keep that to a few seconds for about 80 MB more peak memory (docs/performance.md).
COMPILE_GC_THRESHOLDS = (50_000, 20, 50)


def engine_jit(fn: Callable | None = None, *, inline: str = "never") -> Any:
    """numba's njit as every engine kernel uses it: cached on disk, and compiled without numba's
    reference counting (`_nrt=False`).

    The kernels allocate nothing: every array comes from `new_state()` and is owned by the Python
    caller for the whole call. Counting references to those arrays was pure cost: the atomic
    increments and decrements on every call and every view took about 70% of all cycles
    (docs/performance.md). Without the runtime, an allocation inside a kernel fails to compile, so
    this cannot silently leak. Strategies keep numba's defaults; they may allocate."""
    options = {"cache": True, "_nrt": False, "inline": inline}
    return njit(**options) if fn is None else njit(**options)(fn)


def source_files(root: Path = PACKAGE_ROOT) -> list[Path]:
    return sorted(p for d in SOURCE_DIRS for p in (root / d).glob("*.py"))


def source_hash(root: Path = PACKAGE_ROOT) -> str:
    """Hash of every engine and strategy source file (names and contents) and of the versions that
    shape the machine code; the cache folder's name."""
    h = hashlib.sha256()
    for v in (numba.__version__, np.__version__, platform.python_version(), platform.machine(),
              str(config.OPT), str(config.BOUNDSCHECK)):
        h.update(v.encode() + b"\0")
    for p in source_files(root):
        h.update(p.relative_to(root).as_posix().encode() + b"\0")
        h.update(p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def user_cache_root() -> Path:
    """$NUMBA_CACHE_DIR/canasta-lab when set, else the platform's per-user cache folder."""
    env = os.environ.get("NUMBA_CACHE_DIR")
    if env:
        return Path(env) / "canasta-lab"
    if sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    elif os.name == "nt":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "canasta-lab"


def _usable(d: Path) -> bool:
    try:
        d.mkdir(parents=True, exist_ok=True)
        return os.access(d, os.W_OK)
    except OSError:
        return False


def _prune(current: Path) -> None:
    """Keep the current folder and the KEEP most recently used others; old versions go."""
    others = [p for p in current.parent.glob("engine-*") if p != current and p.is_dir()]
    others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    for p in others[KEEP:]:
        shutil.rmtree(p, ignore_errors=True)


CACHE_DIR: Path | None = None


def configure() -> Path:
    """Point numba's cache at this source version's folder. Runs when sim.engine is imported, before
    any kernel or strategy is decorated (numba fixes a function's cache folder at decoration)."""
    global CACHE_DIR
    name = f"engine-{source_hash()}"
    d = user_cache_root() / name
    if not _usable(d):  # an unwritable home: a private folder under the temporary directory
        d = Path(tempfile.gettempdir()) / f"canasta-lab-{os.getuid() if hasattr(os, 'getuid') else 'user'}" / name
        d.mkdir(parents=True, exist_ok=True)
    os.utime(d)
    _prune(d)
    config.CACHE_DIR = str(d)
    CACHE_DIR = d
    return d


def cache_dir() -> Path:
    return CACHE_DIR if CACHE_DIR is not None else configure()


def is_compiled() -> bool:
    """True when this source version's engine is on disk (or no compiling happens at all)."""
    return bool(config.DISABLE_JIT) or (cache_dir() / MARKER).exists()


def compile_estimate() -> int:
    """Seconds the last compile took on this machine (any source version), or the default."""
    best: tuple[float, int] | None = None
    for m in cache_dir().parent.glob(f"engine-*/{MARKER}"):
        try:
            s = int(round(json.loads(m.read_text())["seconds"]))
        except (OSError, ValueError, KeyError, TypeError):
            continue
        when = m.stat().st_mtime
        if best is None or when > best[0]:
            best = (when, s)
    return best[1] if best else DEFAULT_COMPILE_SECONDS


def notify_stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


_READY = False


def compile_once(fns: Sequence[Any], warm: Callable[[], None],
                 notify: Callable[[str], None] = notify_stderr) -> None:
    """Compile (or load from the cache) every strategy function in `fns` and the engine, whose
    entry point `warm()` calls once. The first time for this source version, say so before starting
    and record how long it took."""
    global _READY
    if config.DISABLE_JIT:
        return
    if _READY:  # the engine is loaded in this process: only a new user function may need compiling
        for f in fns:
            compile_strategy(f)
        return
    fresh = not is_compiled()
    if fresh:
        notify(f"canasta-lab: compiling the engine once, about {compile_estimate()} s "
               f"(later runs load it from {cache_dir()})...")
    t0 = time.perf_counter()
    thresholds = gc.get_threshold()
    gc.set_threshold(*COMPILE_GC_THRESHOLDS)
    try:
        for f in fns:
            compile_strategy(f)
        warm()
    finally:
        gc.set_threshold(*thresholds)
    seconds = time.perf_counter() - t0
    if fresh:
        tmp = cache_dir() / f".{MARKER}.{os.getpid()}"
        tmp.write_text(json.dumps({"seconds": round(seconds, 1), "numba": numba.__version__}))
        os.replace(tmp, cache_dir() / MARKER)
    _READY = True


def compile_strategy(f: Any) -> None:
    """Give a strategy function its one compiled signature (from the cache when it is there) and
    close it to others: numba types a tuple of such functions as one first-class function type,
    so the engine is compiled once whatever the strategies."""
    from .contract import DECIDE_SIG

    if hasattr(f, "compile") and getattr(f, "_can_compile", False):
        f.compile(DECIDE_SIG)
        f.disable_compile()


def function_value(fn: Any) -> Any:
    """A strategy function as a first-class function value inside compiled code: `get = function_value(f)`,
    then `get()` in a numba function gives `f` typed as DECIDE_SIG's function type, ready for a table the
    kernels take (a search strategy's rollouts). numba's own conversion of a global function keeps a
    pointer to the Python object, and a function holding one can never be cached; this value links the
    compiled function in statically, so its caller is cached like any kernel. Under NUMBA_DISABLE_JIT
    `get()` returns the plain function."""
    if config.DISABLE_JIT:
        return lambda: fn

    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic

    from .contract import DECIDE_SIG

    fnty = types.FunctionType(DECIDE_SIG)

    @intrinsic
    def get(typingctx: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            cres = fn.get_compile_result(DECIDE_SIG)
            voidptr = context.get_value_type(types.voidptr)
            value = cgutils.create_struct_proxy(fnty)(context, builder)
            cfunc = cgutils.get_or_insert_function(builder.module, context.get_value_type(fnty.ftype).pointee,
                                                   cres.fndesc.llvm_cfunc_wrapper_name)
            value.c_addr = builder.bitcast(cfunc, voidptr)
            value.jit_addr = builder.bitcast(context.declare_function(builder.module, cres.fndesc), voidptr)
            value.py_addr = context.get_constant_null(types.voidptr)  # no Python object: cacheable
            context.active_code_library.add_linking_library(cres.library)
            return value._getvalue()

        return fnty(), codegen

    return get


def folder_size(d: Path) -> int:
    return sum(p.stat().st_size for p in d.rglob("*") if p.is_file())


def clear() -> list[Path]:
    """Remove every compiled version of the engine in this machine's cache folder."""
    gone = [p for p in cache_dir().parent.glob("engine-*") if p.is_dir()]
    for p in gone:
        shutil.rmtree(p, ignore_errors=True)
    return gone
