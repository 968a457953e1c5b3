"""The engine's layout by phase (docs/engine.md): imports flow downward, every rule value is read by
the one module of its rule, every kernel is cached and compiled without reference counting, every
phase says which rules it implements, and codes and sizes are named, never bare numbers."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import numpy as np
import pytest
from numba.core import config

from sim.engine import contract, layout

ENGINE = Path(__file__).resolve().parents[2] / "sim" / "engine"

# lowest first: a module may import only modules before it
GLUE = ["sources", "folders", "fence", "link", "cache", "compiling", "decorators"]  # compiled code kept: no rule
ORDER = [*GLUE, "rulearray", "contract", "layout", "jit", "cards", "rng", "state", "log", "table", "meldtable",
         "seqtable", "opening", "score", "invariants", "observe", "decide", "gorules", "gosearch", "goout", "rulehelp",
         "deal", "packet", "sample", "pile", "meld", "ask", "discard", "stockend", "draw", "turn", "buraco", "game",
         "planning"]  # what a planning strategy needs (search): sample and resume, above the game
PHASES = ["deal", "packet", "draw", "pile", "meldtable", "seqtable", "opening", "meld", "ask", "gorules", "gosearch",
          "goout", "discard", "stockend", "score", "turn", "buraco", "game"]
SHAPE = {"R_PLAYERS", "R_NSIDES", "R_LEN"}  # the table's shape, read wherever seats or sides are walked
# define or check the layout, or re-export for strategies (rulehelp, planning): play no rule
NOT_PHASES = {"rulearray", "contract", "layout", "invariants", "state", "rulehelp", "planning"}
MAX_LINES = 500  # an engine file longer than this does two jobs: split it (docs/engine.md)


def modules() -> list[str]:
    return sorted(p.stem for p in ENGINE.glob("*.py") if p.stem != "__init__")


def tree(name: str) -> ast.Module:
    return ast.parse((ENGINE / f"{name}.py").read_text())


def engine_imports(t: ast.AST) -> set[str]:
    """The engine modules a module imports: `from .layout import X` and `from . import layout as L`."""
    out = set()
    for node in ast.walk(t):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            out |= {node.module} if node.module else {a.name for a in node.names}
    return out


def names_used(t: ast.AST) -> set[str]:
    """Every name a module reads, bare (`S_CUR`) or through a namespace import (`L.S_CUR`)."""
    return {n.id for n in ast.walk(t) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(t) if isinstance(n, ast.Attribute)}


def test_every_engine_module_has_a_place_in_the_order():
    assert sorted(ORDER) == modules()


@pytest.mark.parametrize("name", ORDER)
def test_imports_flow_downward(name):
    for module in engine_imports(tree(name)):
        assert ORDER.index(module) < ORDER.index(name), f"{name} imports {module}"


def test_a_namespace_import_is_seen_as_an_import():
    t = ast.parse("from . import layout as L\nfrom .cards import rank_of_nb\nx = L.S_CUR")
    assert engine_imports(t) == {"layout", "cards"} and "S_CUR" in names_used(t)


@pytest.mark.parametrize("name", ORDER)
def test_no_engine_file_is_over_500_lines(name):
    lines = len((ENGINE / f"{name}.py").read_text().splitlines())
    assert lines <= MAX_LINES, f"{name}.py has {lines} lines"


def test_the_going_out_search_works_on_plain_arrays():
    """gosearch.py is the search alone: its kernels are given the rules array, the work area and numbers,
    never the state, and read no rule value themselves (they ask gorules.py and meldtable.py); what
    the state holds goout.py loads into the work area."""
    t = tree("gosearch")
    assert sorted(n for n in names_used(t) if re.match(r"(S|HC|SD|R)_[A-Z0-9]", n)) == []
    for fn in [n for n in t.body if isinstance(n, ast.FunctionDef)]:
        assert "S" not in [a.arg for a in fn.args.args], f"gosearch.{fn.name} is given the state"
    assert engine_imports(t) <= {"cards", "gorules", "jit", "layout", "meldtable"}


def test_every_rule_value_is_read_by_the_one_module_of_its_rule():
    fields = [n for n in dir(contract) if n.startswith("R_") and n not in SHAPE]
    readers: dict[str, set[str]] = {f: set() for f in fields}
    for name in modules():
        if name in NOT_PHASES:
            continue
        used = names_used(tree(name))
        for f in fields:
            if f in used:
                readers[f].add(name)
    assert {f: r for f, r in readers.items() if len(r) != 1} == {}


@pytest.mark.skipif(config.DISABLE_JIT, reason="plain Python functions under NUMBA_DISABLE_JIT")
def test_every_kernel_is_cached_and_compiled_without_reference_counting():
    seen = 0
    for name in modules():
        mod = importlib.import_module(f"sim.engine.{name}")
        for attr, value in vars(mod).items():
            if attr.endswith("_nb") and getattr(value, "__module__", None) == mod.__name__:
                assert type(value._cache).__name__ != "NullCache", f"{name}.{attr} is not cached"
                assert value.targetoptions.get("_nrt") is False, f"{name}.{attr} counts references"
                seen += 1
    assert seen > 60


@pytest.mark.parametrize("name", PHASES)
def test_every_phase_says_which_rules_it_implements(name):
    t = tree(name)
    doc = ast.get_docstring(t) or ""
    assert re.search(r"§\d|R-\d\d", doc), f"{name}: the module docstring names no rule"
    for node in t.body:
        if isinstance(node, ast.FunctionDef) and node.name.endswith("_nb"):
            assert ast.get_docstring(node), f"{name}.{node.name} has no docstring"


@pytest.mark.parametrize("name", [m for m in ORDER if m not in ("contract", "layout", "jit", "rng", "state", *GLUE)])
def test_no_bare_codes_or_sizes_in_kernels(name):
    """Codes (decision points, options, methods, answers, meld and canasta kinds, end reasons) and sizes
    (the canasta's seven cards, suits, ranks) are named constants; a kernel's own literals are 0, 1,
    -1 and 2 (a pair, or the two cards a player keeps)."""
    for fn in [n for n in tree(name).body if isinstance(n, ast.FunctionDef)]:
        for node in ast.walk(fn):
            if isinstance(node, ast.Constant) and type(node.value) is int:
                assert node.value in (-1, 0, 1, 2), f"{name}.{fn.name}: literal {node.value}"


def called_kernels() -> set[str]:
    """Kernels numba compiles as functions of their own (engine_jit without inline="always")."""
    names = set()
    for name in modules():
        for fn in [n for n in tree(name).body if isinstance(n, ast.FunctionDef)]:
            for d in fn.decorator_list:
                if isinstance(d, ast.Name) and d.id == "engine_jit":
                    names.add(fn.name)
                elif isinstance(d, ast.Call) and getattr(d.func, "id", "") == "engine_jit" and not any(
                        k.arg == "inline" and getattr(k.value, "value", None) == "always" for k in d.keywords):
                    names.add(fn.name)
    return names


def test_a_called_kernel_is_never_given_a_constant():
    """numba compiles a called kernel once per constant it is given (a constant is a type of its own):
    log_write_nb was compiled 24 times. Call sites pass np.int64(...) instead (docs/engine.md)."""
    kernels = called_kernels()
    assert {"turn_nb", "log_write_nb", "step_search_nb"} <= kernels
    bad = []
    for name in modules():
        for node in ast.walk(tree(name)):
            called = node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else (
                node.func.attr if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) else "")
            if called in kernels:
                for a in node.args:
                    if isinstance(a, ast.UnaryOp) and isinstance(a.op, ast.USub):
                        a = a.operand
                    ident = a.id if isinstance(a, ast.Name) else a.attr if isinstance(a, ast.Attribute) else ""
                    if isinstance(a, ast.Constant) or re.fullmatch(r"[A-Z][A-Z0-9_]+", ident):
                        bad.append(f"{name}.py:{node.lineno} {called}(... {ast.unparse(a)} ...)")
    assert bad == []


def test_observation_blocks_are_fixed_and_disjoint():
    """Named blocks at fixed offsets, so later variants fill reserved room without moving anything a
    strategy reads; the meld rows, whose length depends on the variant, come last."""
    C = contract
    blocks = [(C.OB_HANDS, C.MAXP), (C.OB_FEET, C.MAXP), (C.OB_SCORE, C.MAXS), (C.OB_SMELDED, C.MAXS),
              (C.OB_SREQ, C.MAXS), (C.OB_RED3, C.MAXS), (C.OB_CANASTAS, C.MAXS), (C.OB_NM, C.MAXS),
              (C.OB_PACKETS_TAKEN, C.MAXP), (C.OB_SEAT_TURNS, C.MAXP), (C.OB_CANK, C.MAXS * C.NCK),
              (C.OB_SEAT_LAID, C.MAXP), (C.OB_HAND, C.NK), (C.OB_HR, C.NR), (C.OB_PILEK, C.NK),
              (C.OB_MOR, C.MAXS * C.NR)]
    scalars = [getattr(contract, n) for n in dir(contract) if n.startswith("OB_") and getattr(contract, n) < 32]
    assert max(scalars) < contract.OB_HANDS
    end = contract.OB_HANDS
    for start, size in sorted(blocks):
        assert start >= end, f"block at {start} overlaps the one before"
        end = start + size
    assert end <= contract.OB_MELDS
    assert contract.OB_SPARE + 64 == contract.OB_HAND  # 64 slots of room before the hand
    # after the meld rows of every side: the known cards, then the strategy's scratch at the very end
    for maxm in (1, 16):
        obs = np.zeros(contract.obs_len(maxm), np.int64)
        obs[contract.OB_MAXM] = maxm
        assert contract.ob_known(obs) == contract.OB_MELDS + contract.MAXS * maxm * contract.NMF
        assert contract.ob_known(obs) + contract.OB_KNOWN_LEN + contract.OB_SCRATCH == len(obs)


def test_result_rows_come_from_one_schema():
    """Each kind of result row is one schema (layout.ResultRow): its fields at offsets 0, 1, ... in order, each
    once, named by their results column; a derived column reads a field; the per-side blocks follow. The
    kernels' G_*/H_* integers are those offsets, plain integers."""
    for columns, first_block, width, blocks in (
            (layout.GAME_COLUMNS, layout.G_SCORE, layout.GF, [layout.MAXS]),
            (layout.HAND_COLUMNS, layout.H_COMP, layout.HF,
             [layout.MAXS * layout.NC, layout.MAXS, layout.MAXS * layout.NCKR, layout.MAXS * layout.NSC])):
        fields = [(name, offset) for name, offset, kind in columns if kind != layout.COL_SIDE]
        assert [offset for _, offset in fields] == list(range(len(fields)))
        assert len({name for name, _, _ in columns}) == len(columns)
        assert all(offset < len(fields) for _, offset, _ in columns)
        assert first_block == len(fields) and width == first_block + sum(blocks)
    named = {"game": layout.G_GAME, "deal": layout.G_DEAL, "winner_side": layout.G_WINNER, "n_hands": layout.G_NHANDS,
             "capped_hands": layout.G_CAPPED_HANDS, "capped_game": layout.G_CAPPED_GAME,
             "decisions": layout.G_DECISIONS, "turns": layout.G_TURNS}
    assert {name: offset for name, offset, _ in layout.GAME_COLUMNS} == named
    assert all(type(v) is int for v in named.values())
    hand = {name: offset for name, offset, _ in layout.HAND_COLUMNS}
    assert (hand["reason"], hand["out_seat"], hand["out_side"], hand["yes_answers"]) == (
        layout.H_REASON, layout.H_OUT, layout.H_OUT, layout.H_YES)
    assert (layout.H_CUM, layout.H_CANK, layout.H_SCOUNT) == (
        layout.H_COMP + layout.MAXS * layout.NC, layout.H_COMP + layout.MAXS * (layout.NC + 1),
        layout.H_COMP + layout.MAXS * (layout.NC + 1 + layout.NCKR))


def test_unknown_option_kinds_are_errors_not_guesses():
    assert contract.option_name(contract.O_TAKE) == "take"
    with pytest.raises(ValueError, match="unknown option kind 99"):
        contract.option_name(99)


def test_heuristic_refuses_an_option_kind_it_does_not_know():
    import numpy as np

    from sim import get_variant
    from sim.rules import pack
    from sim.run.runner import prepare_engine
    from strategies.heuristic import heuristic_decide_nb

    prepare_engine()
    obs = np.zeros(contract.obs_len(16), np.int64)
    obs[contract.OB_DP] = contract.DP_DISCARD
    opts = np.zeros((contract.MAXOPT, contract.OPT_FIELDS), np.int64)
    opts[0, contract.OPT_KIND] = contract.O_DISCARD
    opts[1, contract.OPT_KIND] = contract.O_TAKE  # a take is no discard
    with pytest.raises(ValueError, match="unknown option kind"):
        heuristic_decide_nb(pack(get_variant("classic-4p")), obs, opts, 2, np.zeros(contract.NPRM))


def test_enums_name_the_codes_the_kernels_use():
    assert layout.END_NAMES == {1: "out", 2: "stock", 3: "cap", 4: "sevens"}
    assert [c.name.lower() for c in layout.Component] == list(layout.COMPONENTS)
    assert contract.DP_NAMES[contract.DP_ANSWER] == "answer-partner"
    assert (contract.TAKE_M1, contract.TAKE_M2, contract.TAKE_M3) == (1, 2, 3)


def test_a_big_pack_preset_leaves_a_classic_state_its_own_size():
    """The state is sized by the variant it plays (state.new_state): a 216-card Pennies game or a 648-card
    Railroad game for six adds no slot to a Classic game's stock, pile, meld table or observation. The
    face-down packets lie at the far end of the stock's own array (table.py), so a Classic game carries
    no room for them."""
    from sim import PRESETS, get_variant
    from sim.engine.state import new_state
    from sim.rules import pack

    big = {name for name, v in PRESETS.items() if v.table.foot_size > 0}
    assert {"pennies-6p", "railroad-6p"} <= big
    for name, cards, rows in (("classic-4p", 108, 16), ("classic-6p", 162, 16)):
        S = new_state(pack(get_variant(name)))
        assert S.stock.shape == S.pile.shape == (cards,)
        assert S.melds.shape[1] == rows
        assert S.obs.shape == (layout.obs_len(rows),)
    assert new_state(pack(get_variant("railroad-6p"))).stock.shape == (648,)
