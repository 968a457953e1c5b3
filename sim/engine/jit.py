"""The compile options every kernel shares, and the pieces of numba glue that shape machine code: a
strategy's one signature, and a strategy as a function value linked into compiled code.

Where the compiled code is kept, and saying when anything is compiled, is sim/engine/cache.py: it
holds no compiled code, so editing it never recompiles the engine."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from numba.core import config
from numba.core.errors import NumbaExperimentalFeatureWarning

from .contract import strategy_jit

# strategies reach the engine as first-class functions, a feature numba marks experimental; this use
# (one fixed signature, no closures) is the documented one and the tests exercise it
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)


def engine_jit(fn: Callable | None = None, *, inline: str = "never") -> Any:
    """numba's njit as every engine kernel uses it: the contract's `strategy_jit`, cached on disk and
    compiled without numba's reference counting (`_nrt=False`).

    The kernels allocate nothing: every array comes from `new_state()` and is owned by the Python
    caller for the whole call. Counting references to those arrays was pure cost: the atomic
    increments and decrements on every call and every view took about 70% of all cycles
    (docs/performance.md). Without the runtime, an allocation inside a kernel fails to compile, so
    this cannot silently leak. The built-in strategies that allocate nothing use the same options
    (`contract.strategy_jit`); `search`, which allocates, keeps numba's defaults."""
    return strategy_jit(fn, inline=inline)


def compile_strategy(f: Any) -> None:
    """Give a strategy function its one compiled signature (from the cache when it is there) and
    close it to others: numba types a tuple of such functions as one first-class function type,
    so the engine is compiled once whatever the strategies."""
    from .compiling import compile_strategy as compile_with
    from .contract import DECIDE_SIG

    compile_with(f, DECIDE_SIG)


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
