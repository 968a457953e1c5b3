"""The decorators compiled code is written with, engine and strategies alike: numba's njit kept in the project's
cache (sim/engine/cache.py), and announced when it compiles (sim/engine/compiling.py). Re-exported by the contract,
which a strategy imports."""

from collections.abc import Callable
from typing import Any

from numba import njit

from .cache import cached
from .compiling import WATCH  # noqa: F401 - imported for its hook: every compile of a kernel says so


def cached_jit(fn: Callable | None = None, **options: Any) -> Any:
    """numba's njit with the project's cache (sim/engine/cache.py: found by the sources' content, made only when a
    command compiles or loads), for compiled code that allocates and so keeps numba's reference counting
    (`search`'s planning, an analysis kernel, a test's helper)."""

    def decorate(f: Callable) -> Any:
        return cached(njit(**options)(f))

    return decorate if fn is None else decorate(fn)


def process_jit(fn: Callable) -> Any:
    """numba's njit for a kernel made at run time over constants of this process (a training round's network,
    strategies/learned.py): compiled here and never cached, as its constants are in no source file. Its games are
    played in this process (sim.run.runner.iter_chunks): a worker process could not rebuild it."""
    out = njit(fn)
    setattr(out, PROCESS_LOCAL, True)
    return out


PROCESS_LOCAL = "_canasta_lab_process_local"  # the mark of a kernel only this process holds (process_jit)


def process_local(fn: Any) -> bool:
    """Whether `fn` is a kernel made by process_jit, which only this process can play."""
    return bool(getattr(fn, PROCESS_LOCAL, False))


def strategy_jit(fn: Callable | None = None, *, inline: str = "never") -> Any:
    """numba's njit for strategy code that allocates nothing: cached, and compiled without numba's
    reference counting, as the engine's kernels are (sim/engine/jit.py). The arrays a strategy reads
    are owned by the engine's caller for the whole call, so counting references to them protects
    nothing and cost the built-in heuristic about a seventh of its time (docs/performance.md). A
    function that allocates (np.zeros, a list) fails to compile with it instead of leaking: such code
    uses `cached_jit`, as `search` does."""
    return cached_jit(fn, _nrt=False, inline=inline)
