"""Where the compiled engine and strategies live, found by their sources' content, and compiling
them once, saying so. This file holds no compiled code (a test checks it), so it is outside every
hash below: editing it recompiles nothing.

numba's disk cache checks only the source file of each cached function, so code inlined or linked
from another file (an engine helper inlined into a strategy, a strategy linked into `search`) could
be served stale after an edit. And numba files every cached function under a folder named after
the absolute path of its source folder, so a second checkout of the same sources would compile
everything again. Here a cache locator of our own (numba picks it before its own ones) files each
function by the *content* of the sources its code can contain:

* the engine (`sim/engine/*.py`) in `engine-<hash>`, the hash of every engine file;
* each strategy module in `strategy-<module>-<hash>`, the hash of the engine, the module and the
  strategy modules it imports (transitively): editing the heuristic recompiles it and `search`
  (which links it), never the engine;
* anything else compiled with `cache=True` while the package is imported (a user's strategy) under
  `user-<hash of every compiled source>`.

Every hash also covers the numba, numpy and Python versions and numba's optimisation settings. Any
edit gives a new folder, so nothing older than its sources can be loaded; the same sources in any
folder (another clone, a git worktree, CI) find the same compiled code. The folders sit in a
per-user cache (or under NUMBA_CACHE_DIR when that is set), so the command line, notebooks, the
tests and `make` share them. Whenever numba compiles a function of the package, one line on
standard error says so (numba's own compile event, so it cannot be skipped), and whether a version is
compiled is read from numba's own index files, never from a marker of ours.
"""

from __future__ import annotations

import ast
import functools
import gc
import hashlib
import inspect
import json
import math
import os
import platform
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numba
import numpy as np
from numba.core import caching, config, event

from .jit import compile_strategy

PACKAGE_ROOT = Path(__file__).resolve().parents[2]
UNCOMPILED = ("cache.py",)  # engine files with no compiled code, outside every hash (this one)
ENGINE_DIR = "sim/engine"
STRATEGY_DIR = "strategies"
SOURCE_DIRS = (ENGINE_DIR, STRATEGY_DIR)  # everything the compiled code can contain
LAYOUT = "2"  # the folders' scheme: content-addressed engine and strategy folders (issue 24)
FAMILIES = ("engine-", "strategy-", "user-")  # the cache folders' names start so
TIMES = "compile-times.json"  # the last compile's seconds on this machine, for the estimate
KEEP = 4  # folders of other source versions kept per group (the most recently used)
# the estimate shown before the first compile ever on this machine: the engine with baseline, and a
# strategy module alone against a compiled engine (docs/performance.md)
DEFAULT_SECONDS = {"engine": 55, "strategies": 15}
# numba's compiler makes millions of short-lived objects; with Python's default thresholds the
# collector scans the growing heap over and over, about a tenth of a cold compile. These thresholds
# keep that to a few seconds for about 80 MB more peak memory (docs/performance.md).
COMPILE_GC_THRESHOLDS = (50_000, 20, 50)


def _versions() -> bytes:
    """What shapes the machine code besides the sources."""
    parts = (numba.__version__, np.__version__, platform.python_version(), platform.machine(),
             str(config.OPT), str(config.BOUNDSCHECK))
    return b"".join(v.encode() + b"\0" for v in parts)


def engine_files(root: Path = PACKAGE_ROOT) -> list[Path]:
    """The engine's source files that can hold compiled code."""
    return sorted(p for p in (root / ENGINE_DIR).glob("*.py") if p.name not in UNCOMPILED)


def source_files(root: Path = PACKAGE_ROOT) -> list[Path]:
    return engine_files(root) + sorted((root / STRATEGY_DIR).glob("*.py"))


@functools.cache
def _file_bytes(path: Path, mtime_ns: int, size: int) -> bytes:
    """A source file's bytes, read once per version of it: every strategy folder's hash covers the
    engine's files, so start-up would otherwise read each of them once per strategy module."""
    return path.read_bytes()


def _digest(root: Path, files: Iterable[Path], layout: str = "") -> str:
    h = hashlib.sha256(layout.encode() + _versions())
    for p in sorted(files):
        st = p.stat()
        h.update(p.relative_to(root).as_posix().encode() + b"\0")
        h.update(_file_bytes(p, st.st_mtime_ns, st.st_size) + b"\0")
    return h.hexdigest()[:16]


def source_hash(root: Path = PACKAGE_ROOT) -> str:
    """Hash of every engine and strategy source file: the version of the games a run plays (recorded
    in results and run folders, compared with Dask workers)."""
    return _digest(root, source_files(root))


def engine_hash(root: Path = PACKAGE_ROOT) -> str:
    """Hash of the engine's sources alone: the engine folder's name. The engine never imports a
    strategy (a test checks it), so nothing outside sim/engine can change its machine code."""
    return _digest(root, engine_files(root), LAYOUT)


def strategy_imports(root: Path = PACKAGE_ROOT) -> dict[str, set[str]]:
    """For each strategy module, the strategy modules it imports directly (by stem; `__init__` for a
    name taken from the package itself)."""
    folder = root / STRATEGY_DIR
    stems = {p.stem for p in folder.glob("*.py")}
    out: dict[str, set[str]] = {}
    for p in folder.glob("*.py"):
        deps: set[str] = set()
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.ImportFrom):
                mod = node.module or ""
                if node.level == 1 or (node.level == 0 and (mod == STRATEGY_DIR or mod.startswith(STRATEGY_DIR + "."))):
                    sub = mod.removeprefix(STRATEGY_DIR).lstrip(".") if node.level == 0 else mod
                    if sub:
                        deps.add(sub.split(".")[0])
                    else:  # `from . import x`: a module, or a name of the package's __init__
                        for a in node.names:
                            deps.add(a.name if a.name in stems else "__init__")
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.startswith(STRATEGY_DIR + "."):
                        deps.add(a.name.split(".")[1])
                    elif a.name == STRATEGY_DIR:
                        deps.add("__init__")
        out[p.stem] = (deps & stems) - {p.stem}
    return out


def strategy_closure(stem: str, imports: dict[str, set[str]]) -> set[str]:
    """The module and every strategy module it reaches by imports."""
    seen, todo = {stem}, [stem]
    while todo:
        for d in imports.get(todo.pop(), ()):
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def group_hashes(root: Path = PACKAGE_ROOT) -> dict[Path, tuple[str, str]]:
    """Each compiled source file -> (its cache folder's name, the content hash that names it)."""
    eng = engine_hash(root)
    out: dict[Path, tuple[str, str]] = {p: (f"engine-{eng}", eng) for p in engine_files(root)}
    imports = strategy_imports(root)
    engine = engine_files(root)
    for stem in imports:
        files = engine + [root / STRATEGY_DIR / f"{s}.py" for s in strategy_closure(stem, imports)]
        h = _digest(root, files, LAYOUT)
        out[root / STRATEGY_DIR / f"{stem}.py"] = (f"strategy-{stem.strip('_') or 'init'}-{h}", h)
    return out


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


def _family(name: str) -> str:
    """`engine`, `strategy-heuristic` or `user`: the folders that are versions of one another."""
    return name.rsplit("-", 1)[0]


def _prune(root: Path, current: Iterable[str]) -> None:
    """Keep this version's folders and, per family, the KEEP most recently used others."""
    keep = set(current)
    families: dict[str, list[Path]] = {}
    for p in root.iterdir() if root.is_dir() else ():
        if p.is_dir() and p.name not in keep and "-" in p.name:
            families.setdefault(_family(p.name), []).append(p)
    for others in families.values():
        others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        for p in others[KEEP:]:
            shutil.rmtree(p, ignore_errors=True)


class SourceVersionLocator(caching._CacheLocator):
    """numba's cache locator for the package's own compiled files: the folder of the sources'
    content (group_hashes), and that content hash as numba's freshness stamp."""

    def __init__(self, py_func: Any, py_file: str, folder: Path, stamp: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(folder)
        self._stamp = stamp

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        return self._stamp

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> SourceVersionLocator | None:
        entry = _FOLDERS.get(os.path.realpath(py_file))
        if entry is None:  # not one of the package's compiled sources: numba's own locators decide
            return None
        self = cls(py_func, py_file, *entry)
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self


_FOLDERS: dict[str, tuple[Path, str]] = {}  # real path of a compiled source -> (its folder, its stamp)
CACHE_ROOT: Path | None = None
CACHE_DIR: Path | None = None  # the engine's folder for these sources


def _install_locator() -> None:
    """Put SourceVersionLocator first, in the class list numba consults and in the list a user may
    give through NUMBA_CACHE_LOCATOR_CLASSES."""
    classes = caching.CacheImpl._locator_classes
    if SourceVersionLocator not in classes:
        classes.insert(0, SourceVersionLocator)
    chosen = getattr(config, "CACHE_LOCATOR_CLASSES", "")
    ours = f"{__name__}.SourceVersionLocator"
    if chosen and not chosen.startswith(ours):
        config.CACHE_LOCATOR_CLASSES = f"{ours},{chosen}"


def configure() -> Path:
    """Point numba's cache at this source version's folders. Runs when sim.engine is imported, before
    any kernel or strategy is decorated (numba fixes a function's cache folder at decoration)."""
    global CACHE_ROOT, CACHE_DIR
    root = user_cache_root()
    if not _usable(root):  # an unwritable home: a private folder under the temporary directory
        root = Path(tempfile.gettempdir()) / f"canasta-lab-{os.getuid() if hasattr(os, 'getuid') else 'user'}"
        root.mkdir(parents=True, exist_ok=True)
    groups = group_hashes()
    _FOLDERS.clear()
    for path, (name, stamp) in groups.items():
        _FOLDERS[os.path.realpath(path)] = (root / name, stamp)
    user = root / f"user-{source_hash()}"
    names = {name for name, _ in groups.values()} | {user.name}
    for name in names:  # made by numba when it first writes there; marked used when they exist
        if (root / name).is_dir():
            os.utime(root / name)
    _prune(root, names)
    _install_locator()
    config.CACHE_DIR = str(user)  # a user's own cached functions: numba's locator, beside ours
    CACHE_ROOT = root
    CACHE_DIR = _FOLDERS[os.path.realpath(engine_files()[0])][0]  # the engine's folder, hashed above
    _WATCH.install()
    return CACHE_DIR


def cache_dir() -> Path:
    """The engine's folder for these sources."""
    return CACHE_DIR if CACHE_DIR is not None else configure()


def cache_root() -> Path:
    cache_dir()
    assert CACHE_ROOT is not None
    return CACHE_ROOT


def folder_of(fn: Any) -> Path | None:
    """The cache folder of one of the package's compiled functions (None for anyone else's)."""
    try:
        entry = _FOLDERS.get(os.path.realpath(inspect.getfile(fn.py_func)))
    except (AttributeError, TypeError):
        return None
    return None if entry is None else entry[0]


def index_holds(fn: Any) -> bool:
    """Whether numba's on-disk index for `fn` holds machine code of its present source (any
    signature): then calling it loads instead of compiling."""
    cache = getattr(fn, "_cache", None)
    if config.DISABLE_JIT or not isinstance(cache, caching.Cache):
        return bool(config.DISABLE_JIT)
    tail = cache._index_key(None, fn.targetctx.codegen())[1:]
    try:
        index = cache._cache_file._load_index()
    except Exception:  # a torn or foreign index file: numba would compile again
        return False
    return any(key[1:] == tail for key in index)


def engine_entry() -> Any:
    from .game import play_batch_nb

    return play_batch_nb


def is_compiled(fns: Sequence[Any] = ()) -> bool:
    """True when numba's index holds the engine's entry point and every given strategy function for
    these sources (or nothing is compiled at all)."""
    return bool(config.DISABLE_JIT) or all(index_holds(f) for f in [engine_entry(), *fns]
                                           if folder_of(f) is not None or f is engine_entry())


def _times_path() -> Path:
    return cache_root() / TIMES


def compile_estimate(what: str = "engine") -> int:
    """Seconds the last compile of this kind took on this machine (any source version), or the default:
    `engine`, or a strategy module's family (`strategy-heuristic`): each strategy by its own last compile,
    since `random` compiles in a fraction of a second and `search` in many. Never under one second."""
    default = DEFAULT_SECONDS["engine" if what == "engine" else "strategies"]
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


def notify_stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class _CompileWatch(event.Listener):
    """numba's own compile event for every function of the package: the first one in a process says
    so on standard error (the cache did not hold it), and each is counted by folder."""

    def __init__(self) -> None:
        self.say: Callable[[str], None] = notify_stderr
        self.announced = False
        self.engine_loaded: bool | None = None  # known inside compile_once, before it compiles
        self.compiled: dict[str, int] = {}  # folder name -> functions compiled in this process
        self._installed = False

    def install(self) -> None:
        if not self._installed:
            event.register("numba:compile", self)
            self._installed = True

    def on_start(self, ev: event.Event) -> None:
        disp = ev.data.get("dispatcher")
        folder = folder_of(disp) if disp is not None else None
        if folder is None:
            return
        self.compiled[folder.name] = self.compiled.get(folder.name, 0) + 1
        if not self.announced:
            self.announced = True
            self.say(self.message(folder))

    def on_end(self, ev: event.Event) -> None:
        pass

    def message(self, folder: Path) -> str:
        engine = folder.name.startswith("engine-") if self.engine_loaded is None else not self.engine_loaded
        if engine:
            return (f"canasta-lab: compiling the engine once for these sources, about {compile_estimate('engine')} s "
                    f"(later runs, in any checkout of the same sources, load it from {cache_root()})...")
        family = _family(folder.name)
        return (f"canasta-lab: compiling the strategy `{family.removeprefix('strategy-')}` for these sources (its "
                f"code changed; the engine is loaded), about {compile_estimate(family)} s...")


_WATCH = _CompileWatch()
_READY = False


def compile_once(fns: Sequence[Any], warm: Callable[[], None],
                 notify: Callable[[str], None] = notify_stderr) -> None:
    """Compile (or load from the cache) every strategy function in `fns` and the engine, whose
    entry point `warm()` calls once. numba's compile event says when anything is compiled (one line,
    before it starts) and the time it took is kept for the next estimate."""
    global _READY
    if config.DISABLE_JIT:
        return
    _WATCH.announced = False  # each compile says so, even a second one in this process
    before = dict(_WATCH.compiled)
    _WATCH.say = notify
    _WATCH.engine_loaded = _READY or index_holds(engine_entry())
    t0 = time.perf_counter()
    thresholds = gc.get_threshold()
    gc.set_threshold(*COMPILE_GC_THRESHOLDS)
    try:
        for f in fns:
            compile_strategy(f)
        if not _READY:
            warm()
    finally:
        gc.set_threshold(*thresholds)
        _WATCH.say = notify_stderr
        engine_loaded, _WATCH.engine_loaded = _WATCH.engine_loaded, None
    seconds = time.perf_counter() - t0
    compiled = {_family(k) for k, n in _WATCH.compiled.items() if n > before.get(k, 0)}
    if compiled:  # the time goes to the engine when it compiled, else to each strategy that did
        engine = not engine_loaded and any(k.startswith("engine") for k in compiled)
        for what in ["engine"] if engine else sorted(k for k in compiled if k.startswith("strategy-")):
            _record_time(what, seconds)
    _READY = True


def compiled_here() -> dict[str, int]:
    """Functions of the package numba compiled in this process, by cache folder (the tests read it)."""
    return dict(_WATCH.compiled)


def folder_size(d: Path) -> int:
    return sum(p.stat().st_size for p in d.rglob("*") if p.is_file())


def version_folders() -> list[Path]:
    """This source version's folders: the engine's and each strategy module's."""
    root = cache_root()
    return sorted({root / name for name, _ in group_hashes().values()})


def other_folders() -> list[Path]:
    mine = set(version_folders()) | {Path(config.CACHE_DIR)}
    return sorted(p for p in cache_root().iterdir() if p.is_dir() and "-" in p.name and p not in mine)


def clear() -> list[Path]:
    """Remove every compiled version of the engine and strategies in this machine's cache folder."""
    gone = [p for p in cache_root().iterdir() if p.is_dir() and p.name.startswith(FAMILIES)]
    for p in gone:
        shutil.rmtree(p, ignore_errors=True)
    return gone
