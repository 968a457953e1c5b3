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


def strategy_files(root: Path = PACKAGE_ROOT) -> list[Path]:
    """The strategies' source files, those of its subpackages included (strategies/frozen/)."""
    return sorted((root / STRATEGY_DIR).rglob("*.py"))


def strategy_module(path: Path, root: Path = PACKAGE_ROOT) -> str:
    """A strategy source file's module within the package: `heuristic`, `__init__`, `frozen.reference`,
    `frozen.__init__`."""
    return ".".join(path.relative_to(root / STRATEGY_DIR).with_suffix("").parts)


def strategy_path(module: str, root: Path = PACKAGE_ROOT) -> Path:
    return (root / STRATEGY_DIR).joinpath(*module.split(".")).with_suffix(".py")


def source_files(root: Path = PACKAGE_ROOT) -> list[Path]:
    return engine_files(root) + strategy_files(root)


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
    """For each strategy module (by its module within the package: `heuristic`, `frozen.reference`; `__init__`
    for a package's own file), the strategy modules it imports directly, relative imports of any depth and a name
    taken from a package (its `__init__`) included."""
    modules = {strategy_module(p, root): p for p in strategy_files(root)}

    def known(parts: list[str]) -> str | None:
        """The module these dotted parts (below `strategies`) name: a module, else a package's __init__."""
        name = ".".join(parts)
        if name in modules:
            return name
        init = ".".join([*parts, "__init__"])
        return init if init in modules else None

    out: dict[str, set[str]] = {}
    for mod, p in modules.items():
        package = mod.split(".")[:-1]  # the package the module is in, as parts below `strategies`
        deps: set[str] = set()
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.ImportFrom):
                name = node.module or ""
                if node.level:
                    if node.level - 1 > len(package):
                        continue  # above the strategies package
                    base = package[:len(package) - node.level + 1]
                elif name == STRATEGY_DIR or name.startswith(STRATEGY_DIR + "."):
                    base, name = [], name.removeprefix(STRATEGY_DIR).lstrip(".")
                else:
                    continue
                parts = base + (name.split(".") if name else [])
                for a in node.names:  # `from pkg import x`: the module x, or a name of pkg's __init__
                    dep = known([*parts, a.name]) or known(parts)
                    if dep:
                        deps.add(dep)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name == STRATEGY_DIR or a.name.startswith(STRATEGY_DIR + "."):
                        dep = known(a.name.split(".")[1:])
                        if dep:
                            deps.add(dep)
        out[mod] = deps - {mod}
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
    for mod in imports:
        files = engine + [strategy_path(m, root) for m in strategy_closure(mod, imports)]
        h = _digest(root, files, LAYOUT, linking)
        out[strategy_path(mod, root)] = (f"strategy-{folder_label(mod)}-{h}", h)
    return out


def folder_label(module: str) -> str:
    """The name a strategy module's cache folders go by: `heuristic`, `random` (random_), `init` (the package's
    __init__), `frozen.reference` (a module of a subpackage, by its dotted name)."""
    return ".".join(part.strip("_") or "init" for part in module.split("."))


def user_hash(path: Path, root: Path = PACKAGE_ROOT, linking: str = "") -> str:
    """The cache folder's hash of a file outside the package compiled with the project's decorators (a user's
    strategy file, a test's helpers): its own bytes and every compiled source of the package, which it may call
    or inline."""
    h = hashlib.sha256(_versions(linking) + path.read_bytes() + b"\0")
    h.update(source_hash(root).encode())
    return h.hexdigest()[:16]
