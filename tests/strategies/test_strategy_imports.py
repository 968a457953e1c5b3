"""Strategies import the contract and two declared engine modules, nothing else of the engine (issue 25,
docs/strategies.md "Writing your own strategy"): `sim.engine.contract` (what a strategy receives and returns),
`sim.engine.rulehelp` (the engine's rule checks a strategy may call) and `sim.engine.planning` (what `search`
needs to play ahead). Every import is read, deferred ones and those under TYPE_CHECKING included."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

STRATEGIES = Path(__file__).resolve().parents[2] / "strategies"
ENGINE_API = {"sim.engine.contract", "sim.engine.rulehelp", "sim.engine.planning"}
# The one other layer a strategy module reads: the rules, for the knobs' scope (strategies/knobs.py: a knob acts
# where its features are in the variant's rules, `Variant` under TYPE_CHECKING) and for naming a variant with its
# house rules (strategies/registry.py's variant_text reads `PRESETS`). Never the engine's internals.
RULES = "sim.rules"
RULES_READERS = {"registry", "knobs"}


def modules() -> list[str]:
    """Every strategy module, as its path below strategies/ without `.py` (`heuristic`, `frozen/reference`)."""
    return sorted(p.relative_to(STRATEGIES).with_suffix("").as_posix() for p in STRATEGIES.rglob("*.py"))


def sim_imports(name: str, folder: Path = STRATEGIES) -> list[str]:
    """Every module of `sim` that <folder>/<name>.py imports, as a dotted name (`from sim.engine import x`
    names sim.engine.x)."""
    out = []
    for node in ast.walk(ast.parse((folder / f"{name}.py").read_text())):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names if a.name.split(".")[0] == "sim"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "sim":
            if node.module in ("sim", "sim.engine"):
                out += [f"{node.module}.{a.name}" for a in node.names]
            else:
                out.append(node.module)
    return out


def test_every_strategy_module_is_read():
    assert {"__init__", "registry", "heuristic", "buraco", "search", "library", "user", "knobs", "random_",
            "frozen/reference", "frozen/reference_buraco"} <= set(modules())


@pytest.mark.parametrize("name", modules())
def test_strategies_import_only_the_contract_rulehelp_and_planning_of_the_engine(name):
    allowed = ENGINE_API | ({RULES} if name in RULES_READERS else set())
    bad = [m for m in sim_imports(name) if m not in allowed]
    assert bad == [], f"strategies/{name}.py imports {bad}; a strategy imports only {sorted(allowed)}"


def test_the_import_check_sees_deferred_and_aliased_imports(tmp_path):
    """The check is not fooled by an import inside a function, `import sim.engine.x` or `from sim.engine import x`."""
    (tmp_path / "probe.py").write_text(
        "from sim.engine import goout\n"
        "def f():\n    import sim.engine.game\n    from sim.engine.sample import sample_nb\n")
    assert sim_imports("probe", tmp_path) == ["sim.engine.goout", "sim.engine.game", "sim.engine.sample"]


@pytest.mark.parametrize("facade", ["rulehelp", "planning"])
def test_the_declared_engine_modules_only_re_export_the_engines_own(facade):
    """rulehelp and planning define nothing of their own: a strategy compiles the very code the engine plays.
    Each lists what it offers (`__all__`), and nothing else of the engine is reachable through it."""
    import importlib

    path = STRATEGIES.parent / "sim" / "engine" / f"{facade}.py"
    tree = ast.parse(path.read_text())
    assert not [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    mod = importlib.import_module(f"sim.engine.{facade}")
    public = {n for n in vars(mod) if not n.startswith("_")}
    assert set(mod.__all__) == public
    for name in mod.__all__:
        value = getattr(mod, name)
        if callable(value):
            home = getattr(value, "__module__", "")
            assert home.startswith("sim.engine.") and home != mod.__name__, f"{facade}.{name} is defined there"
