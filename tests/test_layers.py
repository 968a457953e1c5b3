"""Issue 25: the package's folders are its layers, and imports flow one way, deferred ones included.

Each folder of `sim/` (and the `strategies` package) sits on a floor; a module may import its own
folder and any lower floor, never a higher one nor another folder of its own floor. No import cycle
anywhere, between modules of one folder included, and none through a package's `__init__` either: a
module that imports its own package back (`from . import NAME` for a name the package's `__init__`
defines) is a cycle like any other (issue 36: strategies/registry.py holds what strategies/__init__.py
re-exports). docs/architecture.md draws the same table.

What counts as an import (issue 36): `import x` and `from x import y`, at the top, in a function or under
TYPE_CHECKING, and the dynamic imports `importlib.import_module("x")` and `__import__("x")` called with a
string literal (a relative literal, `import_module(".x", __package__)`, is resolved against the module's own
package). A name built at run time cannot be read from the source: such a call is allowed only in a module
declared below, either with the table its names come from (sim/__init__.py's lazy API, `API`: each module
named in it is read as an import of `sim`, the public surface on top of every layer), or with the reason its
names never reach another layer of the project (UNREAD). A new one anywhere else fails
`test_every_dynamic_import_is_read_or_declared`.

The checks run on any copy of the tree; the tests at the end plant upward, sideways, dynamic and cyclic
imports in a temporary copy and see each caught.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOPS = ("sim", "strategies")
FLOORS: dict[str, int] = {
    "sim.version": 0,  # the version string, imported by records that stamp it
    "sim.engine": 0,  # compiled kernels: no other layer
    "sim.rules": 1,  # the variants as data, packed for the engine
    "sim.stats": 1,  # statistics
    "sim.plots": 1,  # charts
    "strategies": 2,  # decide through the contract
    "sim.run": 3,  # jobs, workers, run folders, experiments
    "sim.records": 4,  # the results as tables, read back and written
    "sim.analysis": 5,  # comparisons, sweeps, profiles, traces, tuning
    "sim.report": 6,  # the studies and their reports
    "sim.cli": 7,  # the command line
    "sim": 8,  # the public API (sim/__init__.py)
}
# the libraries outside the standard library each folder may import (docs/architecture.md's last column): the
# engine alone compiles with numba, nothing below the runner touches pandas' or Arrow's tables but statistics and
# charts, the command line reads only tables
LIBRARIES: dict[str, frozenset[str]] = {
    "sim.version": frozenset(),
    "sim.engine": frozenset({"numba", "numpy"}),
    "sim.rules": frozenset({"numpy"}),
    "sim.stats": frozenset({"numpy", "pandas", "scipy"}),
    "sim.plots": frozenset({"matplotlib", "numpy", "pandas"}),
    "strategies": frozenset({"numpy"}),
    "sim.run": frozenset({"distributed", "numpy", "pandas", "pyarrow", "tqdm"}),
    "sim.records": frozenset({"numpy", "pandas", "pyarrow"}),
    "sim.analysis": frozenset({"numpy", "optuna", "pandas", "pyarrow", "sklearn"}),
    "sim.report": frozenset({"matplotlib", "numpy", "pandas", "scipy"}),
    "sim.cli": frozenset({"pandas"}),
    "sim": frozenset(),
}
# modules that import by a name built at run time, and the module-level table the names come from: every string
# in it that names a module of the project is read as an import (sim/__init__.py: `import_module(module)` with
# the modules of the lazy API)
TABLES: dict[str, str] = {"sim": "API"}
# modules that import by a name built at run time that the source cannot tell, and why that name never reaches
# another layer of the project
UNREAD: dict[str, str] = {
    "sim.engine.link": "the module of a kernel marked separate, from numba's descriptor of it: link.separate marks "
                       "engine kernels only",
    "sim.engine.fence": "numba's own modules (numba.core.*), whose private parts the compile glue checks",
}
DYNAMIC = ("import_module", "__import__")  # importlib.import_module, however imported, and the builtin


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def sources(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the project under `root` (the checkout, or a copy of it) -> its file."""
    return {module_name(p, root): p for top in TOPS for p in sorted((root / top).rglob("*.py"))}


SOURCES = sources()


def dynamic_call(node: ast.AST) -> ast.Call | None:
    """`import_module(...)`, `importlib.import_module(...)` or `__import__(...)`, else None."""
    if not isinstance(node, ast.Call):
        return None
    f = node.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
    return node if name in DYNAMIC and node.args else None


def literal(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def resolve(mod: str, level: int, package: str) -> str:
    """The absolute name of `mod` imported `level` dots up from inside `package`."""
    if not level:
        return mod
    base = package.split(".")
    base = base[:len(base) - level + 1]
    return ".".join(base + ([mod] if mod else []))


def table_names(tree: ast.Module, table: str) -> list[tuple[str, int]]:
    """Every string naming a module of the project in the module-level assignment `table`, with its line."""
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (node.targets[0] if isinstance(node, ast.Assign)
                                                                      and len(node.targets) == 1 else None)
        if isinstance(target, ast.Name) and target.id == table and node.value is not None:
            return [(s, c.lineno) for c in ast.walk(node.value) if (s := literal(c)) and s.split(".")[0] in TOPS]
    raise AssertionError(f"the table {table} its dynamic imports read is gone")


def imports(name: str, srcs: dict[str, Path] = SOURCES) -> list[tuple[str, int]]:
    """Every project module `name` imports, at the top or deferred in a function, statically or by a dynamic
    import with a literal name, with the line; for a module in TABLES, every module its table names too."""
    path = srcs[name]
    package = name if is_package(path) else name.rpartition(".")[0]
    tree = ast.parse(path.read_text())
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mod = resolve(node.module or "", node.level, package)
            # `from pkg import sub` names a module when sub is one
            found += [(f"{mod}.{a.name}" if f"{mod}.{a.name}" in srcs else mod, node.lineno) for a in node.names]
        elif (call := dynamic_call(node)) and (text := literal(call.args[0])):
            dots = len(text) - len(text.lstrip("."))
            found.append((resolve(text[dots:], dots, package), node.lineno))
    if name in TABLES:
        found += table_names(tree, TABLES[name])
    out = []
    for t, line in found:
        while t and t not in srcs:
            t = t.rpartition(".")[0]
        if t and t != name:
            out.append((t, line))
    return out


def unread_dynamic(name: str, srcs: dict[str, Path] = SOURCES) -> list[int]:
    """The lines of `name` that import by a name that is not a literal."""
    tree = ast.parse(srcs[name].read_text())
    return [node.lineno for node in ast.walk(tree) if (call := dynamic_call(node)) and literal(call.args[0]) is None]


def undeclared_dynamic(srcs: dict[str, Path] = SOURCES) -> dict[str, list[int]]:
    """The modules that import by a name built at run time though neither TABLES nor UNREAD declares them."""
    return {m: lines for m in srcs if (lines := unread_dynamic(m, srcs)) and m not in TABLES and m not in UNREAD}


def folder(name: str) -> str:
    """The layer a module belongs to: the longest entry of FLOORS it lies in."""
    return max((k for k in FLOORS if name == k or name.startswith(k + ".")), key=len)


def wrong_way(name: str, srcs: dict[str, Path] = SOURCES) -> list[str]:
    """The imports of `name` that go up the layers or sideways, one line each."""
    here = folder(name)
    return [f"line {line}: {target} ({folder(target)}, floor {FLOORS[folder(target)]})"
            for target, line in imports(name, srcs)
            if folder(target) != here and FLOORS[folder(target)] >= FLOORS[here]]


def cycles(srcs: dict[str, Path] = SOURCES) -> list[list[str]]:
    """The import cycles found walking the graph depth first: each as its modules, the first repeated last."""
    graph = {m: sorted({t for t, _ in imports(m, srcs)}) for m in srcs}
    state: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in graph[m]:
            if state.get(t) == 1:
                found.append(stack[stack.index(t):] + [t])
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in graph:
        if m not in state:
            visit(m)
    return found


def test_every_module_lies_in_a_layer() -> None:
    assert {folder(m) for m in SOURCES} <= set(FLOORS)
    assert all(folder(m) != "sim" for m in SOURCES if m != "sim"), "a module directly in sim/ has no layer"


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_imports_flow_down_the_layers(name: str) -> None:
    wrong = wrong_way(name)
    assert not wrong, f"{name} ({folder(name)}, floor {FLOORS[folder(name)]}) imports upward or sideways: {wrong}"


def test_no_import_cycle_anywhere() -> None:
    found = cycles()
    assert not found, "import cycles: " + "; ".join(" -> ".join(c) for c in found)


def test_every_dynamic_import_is_read_or_declared() -> None:
    undeclared = undeclared_dynamic()
    assert not undeclared, f"imports by a name built at run time, neither read nor declared: {undeclared}"
    assert all(unread_dynamic(m) for m in {*TABLES, *UNREAD}), "a declared dynamic import is gone: drop it"


def test_the_public_api_table_is_read_as_imports_of_sim() -> None:
    """sim/__init__.py imports its names lazily, `import_module(module)` from the API table: each module the
    table names is an import of `sim`, the top floor."""
    import sim

    read = {t for t, _ in imports("sim")}
    assert {module for module, _ in sim.API.values()} <= read
    assert {"sim.analysis.tune", "sim.report.answer", "sim.records.results", "sim.stats"} <= read


# planted imports: each is caught in a copy of the tree

def copy_tree(dest: Path) -> dict[str, Path]:
    for top in TOPS:
        shutil.copytree(ROOT / top, dest / top, ignore=shutil.ignore_patterns("__pycache__"))
    return sources(dest)


def plant(srcs: dict[str, Path], name: str, code: str) -> None:
    path = srcs[name]
    path.write_text(path.read_text() + "\n\n" + code + "\n")


@pytest.mark.parametrize("name,code,caught", [
    # upward, deferred in a function
    ("sim.engine.cards", "def _planted():\n    from sim.cli import main\n    return main", "sim.cli"),
    # sideways: another folder of the same floor
    ("sim.stats.pairs", "import sim.plots", "sim.plots"),
    # dynamic, with a literal name: importlib.import_module, the builtin __import__, a relative literal
    ("sim.engine.cards", "import importlib\n\n\ndef _planted():\n"
                         "    return importlib.import_module('sim.report.studies')", "sim.report.studies"),
    ("strategies.knobs", "def _planted():\n    return __import__('sim.run.runner', fromlist=['_'])", "sim.run.runner"),
    ("sim.run.runner", "from importlib import import_module\n\n\ndef _planted():\n"
                       "    return import_module('..analysis.compare', __package__)", "sim.analysis.compare"),
])
def test_an_upward_or_sideways_import_planted_in_a_copy_is_caught(tmp_path, name, code, caught):
    srcs = copy_tree(tmp_path)
    assert not wrong_way(name, srcs)
    plant(srcs, name, code)
    wrong = wrong_way(name, srcs)
    assert len(wrong) == 1 and f": {caught} (" in wrong[0], wrong


@pytest.mark.parametrize("name,code,cycle", [
    # a module importing its package back, for a name the package's __init__ re-exports (issue 36: no exemption)
    ("strategies.library", "def _planted():\n    from . import REGISTRY\n    return REGISTRY",
     {"strategies", "strategies.library"}),
    ("strategies.knobs", "def _planted():\n    from strategies.registry import REGISTRY\n    return REGISTRY",
     {"strategies.knobs", "strategies.registry"}),
    # within one folder, through a dynamic import
    ("sim.engine.cards", "import importlib\n\n\ndef _planted():\n    return importlib.import_module('sim.engine.deal')",
     {"sim.engine.cards", "sim.engine.deal"}),
])
def test_an_import_cycle_planted_in_a_copy_is_caught(tmp_path, name, code, cycle):
    srcs = copy_tree(tmp_path)
    assert not any(cycle <= set(c) for c in cycles(srcs))
    plant(srcs, name, code)
    found = cycles(srcs)
    assert any(cycle <= set(c) for c in found), found


def test_a_dynamic_import_by_a_name_built_at_run_time_is_refused_where_undeclared(tmp_path):
    srcs = copy_tree(tmp_path)
    assert not undeclared_dynamic(srcs)
    plant(srcs, "sim.stats.pairs", "import importlib\n\n\ndef _planted(name):\n"
                                   "    return importlib.import_module(name)")
    assert list(undeclared_dynamic(srcs)) == ["sim.stats.pairs"]


def third_party(path: Path) -> set[str]:
    """The top-level names of the libraries outside the standard library and the project a module imports."""
    import sys

    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
            [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else [])
        for n in names:
            top = n.split(".")[0]
            if top not in sys.stdlib_module_names and top not in TOPS and top != "__future__":
                out.add(top)
    return out


def test_every_folder_imports_only_the_libraries_its_floor_allows():
    for name, path in SOURCES.items():
        floor = max((f for f in FLOORS if name == f or name.startswith(f + ".")), key=len)
        extra = third_party(path) - LIBRARIES[floor]
        assert not extra, f"{name} imports {sorted(extra)}, which {floor} may not (LIBRARIES; docs/architecture.md)"


def test_the_architecture_table_states_the_floors_and_libraries_the_test_holds():
    """docs/architecture.md's table is what a reader trusts: its floors and libraries are the test's."""
    rows = {}
    for line in (ROOT / "docs" / "architecture.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].isdigit():
            folder = cells[1].strip("`").removesuffix("/").removesuffix(".py").replace("/", ".")
            folder = "sim" if folder == "sim.__init__" else folder
            libs = frozenset() if cells[4] in ("none", "") else frozenset(x.strip() for x in cells[4].split(","))
            rows[folder] = (int(cells[0]), libs)
    assert rows == {f: (FLOORS[f], LIBRARIES[f]) for f in FLOORS}
