"""Large kernels compiled once, not once per caller (docs/engine.md, "Compile time").

numba links the machine code of every kernel a function calls into that function's own module, then
optimises the whole module and generates its machine code again. A chain of called kernels is
therefore compiled once per level above it: the meld phase inside the turn, inside the hand, inside
the game, inside the batch, five times. A kernel marked `separate` is compiled once: its callers
declare it and call it by its symbol, which numba's JIT linker resolves among the modules already
loaded in the process. So that the symbol is there when a caller is loaded from the disk cache, the
caller carries a reload hook (numba runs those before it links a cached function) that loads, or
compiles, the separate kernel first.

Only large kernels are marked: a call to a separate kernel can never be inlined by LLVM, which is
what the small helpers need to stay free at run time. This file changes how calls are lowered, not
what any kernel computes.

The two replacements of numba's methods are installed by `install()`, which the cache calls when a command is about
to compile or load (never at import), and only where sim/engine/fence.py finds numba's methods as the tested
versions have them; elsewhere every caller links the kernels it calls, as numba does by itself.

A caller names a separate kernel by its symbol, and numba's symbols carry a number it counts up at
every compile of the process (`v423` in `...turn_nb...B4v423...`). Two processes compiling the same
sources at once (pytest's workers from an empty cache) therefore each wrote entries naming their own
`turn_nb`, and a later process loading one's caller and the other's kernel stopped with LLVM's "Symbol
not found". A separate kernel's number is therefore taken from its name (`stable_uid`), the same in
every process, so any mix of cached entries of one source version links."""

from __future__ import annotations

import importlib
import zlib
from functools import partial
from typing import Any

from numba.core import base, bytecode, imputils

_SEPARATE: set[tuple[str, str]] = set()  # (module, qualified name) of the kernels compiled apart
_HOOKS: dict[tuple, partial] = {}  # one reload hook per kernel and signature (reload_init is a set)
STABLE_UID_BASE = 10**9  # above any count numba reaches in a process, so a stable number never meets one


def separate(fn: Any) -> Any:
    """Mark an engine kernel (a dispatcher) to be compiled once and called by symbol from its callers.
    Under NUMBA_DISABLE_JIT a kernel is a plain function and the mark changes nothing."""
    py = getattr(fn, "py_func", fn)
    _SEPARATE.add((py.__module__, py.__qualname__))
    return fn


def load_separate(module: str, qualname: str, argtypes: tuple) -> None:
    """Reload hook of a cached caller: load (or compile) the separate kernel it calls, so that the
    kernel's symbol is defined before the caller's machine code is linked."""
    getattr(importlib.import_module(module), qualname).compile(argtypes)


def _reload_hook(fndesc: Any) -> partial:
    key = (fndesc.modname, fndesc.qualname, tuple(fndesc.argtypes))
    if key not in _HOOKS:
        _HOOKS[key] = partial(load_separate, *key)
    return _HOOKS[key]


_ORIGINAL: dict[str, Any] = {}  # numba's own methods, kept when ours replace them


def insert_user_function(self: Any, func: Any, fndesc: Any, libs: tuple = ()) -> None:
    """numba's registration of a compiled function for calls from other compiled code; for a
    separate kernel, without its library (the code numba would link in) and with the reload hook."""
    if (fndesc.modname, fndesc.qualname) not in _SEPARATE:
        _ORIGINAL["insert_user_function"](self, func, fndesc, libs)
        return
    impl = imputils.user_function(fndesc, ())
    hook = _reload_hook(fndesc)

    def call(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        context.active_code_library._reload_init.add(hook)
        return impl(context, builder, sig, args)

    call.signature = impl.signature
    call.libs = ()
    self._defns[func].append(call, call.signature)


def stable_uid(module: str, qualname: str) -> int:
    """The number in a separate kernel's symbol: from its name, not from the process's compile count."""
    return STABLE_UID_BASE + zlib.crc32(f"{module}:{qualname}".encode())


def from_function(cls: Any, pyfunc: Any) -> Any:
    """numba's identity of a function being compiled; a separate kernel's gets its stable number."""
    ident = _ORIGINAL["from_function"](cls, pyfunc)
    if (ident.modname, ident.func_qualname) in _SEPARATE:
        ident.unique_id = stable_uid(ident.modname, ident.func_qualname)
        ident.unique_name = f"{ident.func_qualname}${ident.unique_id}"
    return ident


def install() -> str:
    """Put the two replacements in place where the fence allows it, once; returns how kernels are linked in this
    process ("separate" or "linked"), which the cache folders' names carry: machine code linked one way is
    never loaded by a process linking the other."""
    if _ORIGINAL:
        return SEPARATE
    from .fence import check

    if not check("link"):
        return LINKED
    _ORIGINAL["insert_user_function"] = base.BaseContext.insert_user_function
    _ORIGINAL["from_function"] = bytecode.FunctionIdentity.from_function.__func__
    base.BaseContext.insert_user_function = insert_user_function
    bytecode.FunctionIdentity.from_function = classmethod(from_function)
    return SEPARATE


def installed() -> bool:
    return bool(_ORIGINAL)


SEPARATE, LINKED = "separate", "linked"
