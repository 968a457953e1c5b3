"""Issue 25: the package's folders are its layers, and imports flow one way, deferred ones included.

Each folder of `sim/` (and the `strategies` package) sits on a floor; a module may import its own
folder and any lower floor, never a higher one nor another folder of its own floor. No import cycle
anywhere, between modules of one folder included. docs/architecture.md draws the same table.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FLOORS: dict[str, int] = {
    "sim.version": 0,  # the version string, imported by records that stamp it
    "sim.engine": 0,  # compiled kernels: no other layer
    "sim.rules": 1,  # the variants as data, packed for the engine
    "sim.stats": 1,  # statistics: numpy and scipy only
    "sim.plots": 1,  # charts: matplotlib only
    "strategies": 2,  # decide through the contract
    "sim.run": 3,  # jobs, workers, run folders, experiments
    "sim.records": 4,  # the results as tables, read back and written
    "sim.analysis": 5,  # comparisons, sweeps, profiles, traces, tuning
    "sim.report": 6,  # the studies and their reports
    "sim.cli": 7,  # the command line
    "sim": 8,  # the public API (sim/__init__.py)
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


SOURCES = {module_name(p): p for top in ("sim", "strategies") for p in sorted((ROOT / top).rglob("*.py"))}


def imports(name: str) -> list[tuple[str, int]]:
    """Every project module `name` imports, at the top or deferred in a function, with the line."""
    path = SOURCES[name]
    package = name if is_package(path) else name.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            # `from pkg import sub` names a module when sub is one
            targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in SOURCES else mod for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in SOURCES:
                t = t.rpartition(".")[0]
            if t and t != name:
                out.append((t, node.lineno))
    return out


def folder(name: str) -> str:
    """The layer a module belongs to: the longest entry of FLOORS it lies in."""
    return max((k for k in FLOORS if name == k or name.startswith(k + ".")), key=len)


def test_every_module_lies_in_a_layer() -> None:
    assert {folder(m) for m in SOURCES} <= set(FLOORS)
    assert all(folder(m) != "sim" for m in SOURCES if m != "sim"), "a module directly in sim/ has no layer"


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_imports_flow_down_the_layers(name: str) -> None:
    here = folder(name)
    wrong = [f"line {line}: {target} ({folder(target)}, floor {FLOORS[folder(target)]})"
             for target, line in imports(name)
             if folder(target) != here and FLOORS[folder(target)] >= FLOORS[here]]
    assert not wrong, f"{name} ({here}, floor {FLOORS[here]}) imports upward or sideways: {wrong}"


def test_no_import_cycle_anywhere() -> None:
    graph = {m: sorted({t for t, _ in imports(m)}) for m in SOURCES}
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in graph[m]:
            if state.get(t) == 1:
                cycles.append(stack[stack.index(t):] + [t])
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in graph:
        if m not in state:
            visit(m)
    # a package's __init__ importing its own modules, and they the package's names, is one module's parts
    real = [c for c in cycles if not any(is_package(SOURCES[x]) and all(y.startswith(x) for y in c) for x in c)]
    assert not real, "import cycles: " + "; ".join(" -> ".join(c) for c in real)
