"""The version of the compiled code: hashes of the sources whose code numba compiles (the engine's kernels and the
strategies'), by content, never by path. A run records `source_hash` (the games it plays), and each compiled module's
cache folder is named by the hash of the sources its machine code can contain (`group_hashes`; sim/engine/cache.py
puts numba's cache there). This file holds no compiled code (a test checks it), so it is outside every hash."""

from __future__ import annotations

import ast
import functools
import hashlib
import platform
from collections.abc import Iterable
from pathlib import Path

import numba
import numpy as np
from numba.core import config

PACKAGE_ROOT = Path(__file__).resolve().parents[2]
# engine files with no compiled code, outside every hash: the glue that finds, names and announces compiled code
UNCOMPILED = ("cache.py", "compiling.py", "fence.py", "folders.py", "sources.py")
ENGINE_DIR = "sim/engine"
STRATEGY_DIR = "strategies"
SOURCE_DIRS = (ENGINE_DIR, STRATEGY_DIR)  # everything the compiled code can contain
LAYOUT = "2"  # the folders' scheme: content-addressed engine and strategy folders (issue 24)


def _versions(linking: str = "") -> bytes:
    """What shapes the machine code besides the sources: the versions, numba's optimisation settings and how
    kernels are linked (`linking`: the separate kernels called by symbol, or linked into every caller where numba
    changed what that needs: sim/engine/fence.py)."""
    parts = (numba.__version__, np.__version__, platform.python_version(), platform.machine(),
             str(config.OPT), str(config.BOUNDSCHECK), linking)
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


def _digest(root: Path, files: Iterable[Path], layout: str = "", linking: str = "") -> str:
    h = hashlib.sha256(layout.encode() + _versions(linking))
    for p in sorted(files):
        st = p.stat()
        h.update(p.relative_to(root).as_posix().encode() + b"\0")
        h.update(_file_bytes(p, st.st_mtime_ns, st.st_size) + b"\0")
    return h.hexdigest()[:16]


def source_hash(root: Path = PACKAGE_ROOT) -> str:
    """Hash of every engine and strategy source file: the version of the games a run plays (recorded
    in results and run folders, compared with Dask workers)."""
    return _digest(root, source_files(root))


def engine_hash(root: Path = PACKAGE_ROOT, linking: str = "") -> str:
    """Hash of the engine's sources alone: the engine folder's name. The engine never imports a
    strategy (a test checks it), so nothing outside sim/engine can change its machine code."""
    return _digest(root, engine_files(root), LAYOUT, linking)


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


def group_hashes(root: Path = PACKAGE_ROOT, linking: str = "") -> dict[Path, tuple[str, str]]:
    """Each compiled source file -> (its cache folder's name, the content hash that names it)."""
    eng = engine_hash(root, linking)
    out: dict[Path, tuple[str, str]] = {p: (f"engine-{eng}", eng) for p in engine_files(root)}
    imports = strategy_imports(root)
    engine = engine_files(root)
    for stem in imports:
        files = engine + [root / STRATEGY_DIR / f"{s}.py" for s in strategy_closure(stem, imports)]
        h = _digest(root, files, LAYOUT, linking)
        out[root / STRATEGY_DIR / f"{stem}.py"] = (f"strategy-{stem.strip('_') or 'init'}-{h}", h)
    return out


def user_hash(path: Path, root: Path = PACKAGE_ROOT, linking: str = "") -> str:
    """The cache folder's hash of a file outside the package compiled with the project's decorators (a user's
    strategy file, a test's helpers): its own bytes and every compiled source of the package, which it may call
    or inline."""
    h = hashlib.sha256(_versions(linking) + path.read_bytes() + b"\0")
    h.update(source_hash(root).encode())
    return h.hexdigest()[:16]
