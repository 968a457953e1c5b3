"""Where numba keeps the compiled engine and strategies: in folders named by their sources' content, found by
every checkout of the same sources, never stale.

numba's disk cache checks only the source file of each cached function, so code inlined or linked from another
file (an engine helper inlined into a strategy, a strategy linked into `search`) could be served stale after an
edit; and it files every cached function under a folder named after the absolute path of its source folder, so a
second checkout of the same sources would compile everything again. So the project's kernels are decorated without
numba's own cache and get one of ours (`cached`), which numba asks to load and save as it would its own: it files
each function by the *content* of the sources its code can contain (sim/engine/sources.py):

* the engine (`sim/engine/*.py`) in `engine-<hash>`, the hash of every engine file;
* each strategy module in `strategy-<module>-<hash>`, the hash of the engine, the module and the strategy modules
  it imports (transitively): editing the heuristic recompiles it and `search` (which links it), never the engine;
* a file outside the package compiled with the project's decorators (a user's strategy file) in
  `user-<hash>`, the hash of that file and every compiled source of the package.

Nothing happens at import: the folders are worked out, numba's link patch installed (sim/engine/link.py) and old
folders pruned (sim/engine/folders.py) only when a command is about to compile or load (`configure`, which the
first load or save of any cached kernel calls). Every hash also covers the numba, numpy and Python versions,
numba's optimisation settings and how kernels are linked, so nothing older than its sources, or built another way,
is ever loaded. This file holds no compiled code (a test checks it), so it is outside every hash.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from numba.core import caching, config

from . import folders as F
from .sources import PACKAGE_ROOT, group_hashes, user_hash

_FOLDERS: dict[str, tuple[Path, str]] = {}  # real path of a compiled source -> (its folder, its stamp)
_STATE: dict[str, Any] = {}  # root, linking, the engine's folder: set by configure()
ON_CONFIGURE: list[Callable[[], None]] = []  # run once the cache is configured (sim/engine/compiling.py's line)


def folder_for(py_file: str) -> tuple[Path, str]:
    """The cache folder and stamp of a compiled source: the package's by its group, any other file by its own
    content and the package's (a user's strategy file)."""
    configure()
    real = os.path.realpath(py_file)
    if real not in _FOLDERS:
        h = user_hash(Path(real), linking=_STATE["linking"])
        _FOLDERS[real] = (_STATE["root"] / f"user-{h}", h)
    return _FOLDERS[real]


@functools.cache
def _cache_class() -> type:
    """numba's function cache, filed by the sources' content: subclasses of numba's private cache classes, made
    only once the fence has found them as the tested versions have them."""

    class SourceVersionLocator(caching._CacheLocator):
        """numba's cache locator for the project's compiled files: the folder of the sources' content, and that
        content hash as numba's freshness stamp. The folder is made when numba first saves there."""

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
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            return cls(py_func, py_file, *folder_for(py_file))

    class SourceCacheImpl(caching.CompileResultCacheImpl):
        """numba's cache of compile results, filed by SourceVersionLocator only (whatever
        NUMBA_CACHE_LOCATOR_CLASSES says: a user's setting applies to the user's own functions, not the project's)."""

        _locator_classes = [SourceVersionLocator]

        def __init__(self, py_func: Any) -> None:
            chosen, config.CACHE_LOCATOR_CLASSES = getattr(config, "CACHE_LOCATOR_CLASSES", ""), ""
            try:
                super().__init__(py_func)
            finally:
                config.CACHE_LOCATOR_CLASSES = chosen

    class SourceCache(caching.FunctionCache):
        _impl_class = SourceCacheImpl

    return SourceCache


class LazyCache:
    """The cache numba holds for one of the project's functions: made on its first load or save, when the
    command is about to compile or load, so that decorating a kernel at import touches nothing."""

    def __init__(self, py_func: Any) -> None:
        self._py_func = py_func
        self._real: Any = None
        self._enabled = True

    def real(self) -> Any:
        if self._real is None:
            import inspect

            from .fence import check

            try:
                kept = check("cache") and os.path.isfile(inspect.getfile(self._py_func))
            except TypeError:
                kept = False
            # a function typed into a notebook's cell has no file whose content could name its folder
            self._real = _cache_class()(self._py_func) if kept else caching.NullCache()
            if not self._enabled:
                self._real.disable()
        return self._real

    @property
    def cache_path(self) -> str:
        return self.real().cache_path

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        return self.real().load_overload(sig, target_context)

    def save_overload(self, sig: Any, data: Any) -> None:
        self.real().save_overload(sig, data)

    def enable(self) -> None:
        self._enabled = True
        if self._real is not None:
            self._real.enable()

    def disable(self) -> None:
        self._enabled = False
        if self._real is not None:
            self._real.disable()

    def flush(self) -> None:
        if self._real is not None:
            self._real.flush()


def cached(dispatcher: Any) -> Any:
    """A numba dispatcher with the project's cache (decorated without numba's `cache=True`, which would pick its
    folder, and make it, at import). Under NUMBA_DISABLE_JIT a plain function, returned as it is."""
    if hasattr(dispatcher, "py_func") and hasattr(dispatcher, "_cache"):
        dispatcher._cache = LazyCache(dispatcher.py_func)
    return dispatcher


def configure() -> Path:
    """Point the project's cache at this source version's folders, install numba's link patch where the fence
    allows, prune old folders and start saying when anything compiles: when a command is about to compile or load,
    never at import. Runs once a process; returns the engine's folder."""
    if _STATE:
        return _STATE["engine"]
    from . import link

    linking = link.install()
    root = F.cache_root()
    groups = group_hashes(linking=linking)
    for path, (name, stamp) in groups.items():
        _FOLDERS[os.path.realpath(path)] = (root / name, stamp)
    names = {name for name, _ in groups.values()}
    F.mark_in_use(root / name for name in names)
    F.prune(root, names)
    engine = _FOLDERS[os.path.realpath(next(p for p in groups if "/engine/" in p.as_posix()))][0]
    _STATE.update(root=root, linking=linking, engine=engine)
    for hook in ON_CONFIGURE:
        hook()
    return engine


def cache_dir() -> Path:
    """The engine's folder for these sources."""
    return configure()


def cache_root() -> Path:
    configure()
    return _STATE["root"]


def folder_of(fn: Any) -> Path | None:
    """The cache folder of a function compiled with the project's cache (None for anyone else's)."""
    if not isinstance(getattr(fn, "_cache", None), LazyCache):
        return None
    import inspect

    try:
        return folder_for(inspect.getfile(fn.py_func))[0]
    except (TypeError, OSError):
        return None


def index_holds(fn: Any, sig: Any = None) -> bool:
    """Whether numba's on-disk index for `fn` holds machine code of its present source: for the signature `sig`
    exactly, the one `fn.compile(sig)` loads (a strategy's), or None: for any signature (the engine's entry point,
    compiled at its first call). numba files code compiled where another kernel calls `fn` under that call's
    argument types, a key `fn.compile(sig)` never finds: counting it would say a strategy is compiled when every
    worker would compile it again."""
    if config.DISABLE_JIT:
        return True
    cache = getattr(fn, "_cache", None)
    cache = cache.real() if isinstance(cache, LazyCache) else cache
    if not isinstance(cache, caching.Cache):
        return False
    key = cache._index_key(sig, fn.targetctx.codegen())
    try:
        index = cache._cache_file._load_index()
    except Exception:  # a torn or foreign index file: numba would compile again
        return False
    return key in index if sig is not None else any(k[1:] == key[1:] for k in index)


def is_compiled(entry: Any, fns: Sequence[Any] = (), sig: Any = None) -> bool:
    """True when numba's index holds the engine's entry point `entry` (sim.engine.game.play_batch_nb, which the
    caller names, as it names the strategies' signature `sig`: this module sits below every kernel) and every
    given strategy function, compiled with `sig`, for these sources."""
    return bool(config.DISABLE_JIT) or (index_holds(entry) and all(index_holds(f, sig) for f in fns
                                                                   if folder_of(f) is not None))


def version_folders() -> list[Path]:
    """This source version's folders: the engine's and each strategy module's."""
    root = cache_root()
    return sorted({root / name for name, _ in group_hashes(linking=_STATE["linking"]).values()})


def other_folders() -> list[Path]:
    mine = set(version_folders())
    return sorted(p for p in cache_root().iterdir()
                  if p.is_dir() and p.name.startswith(F.FAMILIES) and p not in mine)


def clear() -> list[Path]:
    """Remove every compiled version of the engine and strategies in this machine's cache folder."""
    import shutil

    gone = [p for p in cache_root().iterdir() if p.is_dir() and p.name.startswith(F.FAMILIES)]
    for p in gone:
        shutil.rmtree(p, ignore_errors=True)
    return gone


__all__ = ["PACKAGE_ROOT", "LazyCache", "cache_dir", "cache_root", "cached", "clear",
           "configure", "folder_of", "index_holds", "is_compiled", "other_folders", "version_folders"]
