"""The fence around numba's internals: what the compile saving (sim/engine/link.py) and the content-addressed cache
(sim/engine/cache.py) rely on, checked before either is used.

Both use names numba does not promise to keep: link.py replaces two of numba's methods by versions of its own and
writes two private fields; cache.py subclasses numba's cache and reads its index. A numba release may rename or
rewrite any of them. Each is checked here against what the versions this project was tested with have (a hash of
the replaced methods' source, the presence of the other names); where one is missing or changed, that part is
skipped with one warning line, and the engine plays the same games: without the link patch every caller links the
kernels it calls (a slower first compile); without the cache glue nothing is kept on disk (every process compiles).
`make try-numba` runs the suite's compile checks against the newest numba in a scratch environment (docs/engine.md).

This file holds no compiled code, so it is outside every hash (sim/engine/sources.py)."""

from __future__ import annotations

import functools
import hashlib
import inspect
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numba

TESTED = ("0.68",)  # numba's minor versions the whole suite has passed with both parts in use
# the source of each method link.py replaces, as the tested versions have it (fingerprint() of the method)
REPLACED = {
    "numba.core.base.BaseContext.insert_user_function": {"8771da35bdf8f4b9"},
    "numba.core.bytecode.FunctionIdentity.from_function": {"4f6cfaa8f871e093"},
}
ENV_SKIP = "CANASTA_LAB_NUMBA_PATCHES"  # "off": use neither part (to compare, or to rule them out)


def fingerprint(fn: Callable[..., Any]) -> str:
    """A method's source, dedented, hashed: what changes when numba rewrites its body."""
    return hashlib.sha256(textwrap.dedent(inspect.getsource(fn)).encode()).hexdigest()[:16]


def _resolve(path: str) -> Any:
    """`numba.core.base.BaseContext.insert_user_function` -> the object, or AttributeError/ImportError."""
    module, _, rest = path.partition(".core.")
    obj: Any = __import__(f"{module}.core.{rest.split('.')[0]}", fromlist=["_"])
    for part in rest.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def _source_has(path: str, text: str) -> bool:
    try:
        return text in inspect.getsource(_resolve(path))
    except (AttributeError, ImportError, OSError, TypeError):
        return False


@dataclass(frozen=True)
class Part:
    """One part of the glue: whether numba still has what it needs, and if not, what is missing."""

    name: str
    ok: bool
    missing: str = ""


def _check_link() -> Part:
    for path, known in REPLACED.items():
        try:
            fn = _resolve(path)
        except (AttributeError, ImportError):
            return Part("link", False, f"`{path}` is missing")
        try:
            fp = fingerprint(getattr(fn, "__func__", fn))
        except (OSError, TypeError):  # its source cannot be read: not the method tested
            fp = ""
        if fp not in known:
            return Part("link", False, f"`{path}` changed")
    for path, text in (("numba.core.imputils.user_function", "def user_function"),
                       ("numba.core.base.BaseContext.__init__", "self._defns"),
                       ("numba.core.codegen.CodeLibrary.__init__", "self._reload_init")):
        if not _source_has(path, text):
            return Part("link", False, f"`{path}` no longer has `{text.split()[-1]}`")
    return Part("link", True)


def _check_cache() -> Part:
    for path, text in (("numba.core.dispatcher.Dispatcher.__init__", "self._cache = NullCache()"),
                       ("numba.core.dispatcher.Dispatcher.compile", "self._cache.load_overload"),
                       ("numba.core.caching.CacheImpl.__init__", "locator_classes"),
                       ("numba.core.caching.Cache._index_key", "def _index_key"),
                       ("numba.core.caching.IndexDataCacheFile._load_index", "def _load_index")):
        if not _source_has(path, text):
            return Part("cache", False, f"`{path}` no longer has `{text}`")
    for path in ("numba.core.caching._CacheLocator", "numba.core.caching.CompileResultCacheImpl",
                 "numba.core.caching.FunctionCache", "numba.core.caching._Cache"):
        try:
            _resolve(path)
        except (AttributeError, ImportError):
            return Part("cache", False, f"`{path}` is missing")
    return Part("cache", True)


WHAT = {"link": "the compile saving (separate kernels called by symbol)",
        "cache": "the compiled-code cache on disk"}
COST = {"link": "every caller links the kernels it calls, so a first compile takes longer",
        "cache": "nothing is kept on disk, so every process compiles the engine"}


def warn(part: Part) -> None:
    print(f"canasta-lab: numba {numba.__version__}: {part.missing}, which {WHAT[part.name]} relies on: going on "
          f"without it (the same games; {COST[part.name]}). Tested with numba {', '.join(TESTED)} (docs/engine.md, "
          "'numba versions')", file=sys.stderr, flush=True)


@functools.cache
def check(name: str) -> bool:
    """Whether the part `link` or `cache` may be used with this numba; says why not once, on standard error."""
    import os

    if os.environ.get(ENV_SKIP, "").lower() == "off":
        return False
    part = {"link": _check_link, "cache": _check_cache}[name]()
    if not part.ok:
        warn(part)
    return part.ok
