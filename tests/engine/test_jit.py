"""The compiled engine is never stale, is found by every way in, and its first compile says so.

numba checks only a cached function's own source file, so an edit to a strategy or an engine helper
in another file could leave old machine code in use. The cache folder is therefore named by a hash
of every engine and strategy source file (sim/engine/jit.py), and strategies reach the engine as
function values, never compiled into it.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sim.engine import jit

ROOT = Path(__file__).resolve().parents[2]


def test_engine_never_imports_strategy_code():
    for path in sorted((ROOT / "sim" / "engine").glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            assert not any(n == "strategies" or n.startswith("strategies.") for n in names), \
                f"{path.name} imports {names}"


def test_strategies_see_only_the_contract_and_engine_helpers():
    """Strategy modules import the contract (and card helpers), never the engine's state or kernels.
    The one exception is `search`, which plays sampled states forward: it may make states, sample them
    and resume a hand through the engine's own entry points for that, and nothing else of it."""
    # opening and goout: the pure searches over rank counts (the minimum a hand can reach, whether it
    # can go out) that the heuristic runs on the observation to plan its opening and its going out;
    # meldtable: the composition rule (how many more wilds a meld may take, R-14, R-65) they share
    allowed = {"sim.engine.contract", "sim.engine.cards", "sim.engine.opening", "sim.engine.goout",
               "sim.engine.meldtable"}
    search = allowed | {"sim.engine.layout", "sim.engine.state", "sim.engine.sample", "sim.engine.game",
                        "sim.engine.jit"}
    for path in sorted((ROOT / "strategies").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("sim.engine"):
                assert node.module in (search if path.name == "search.py" else allowed), \
                    f"{path.name} imports {node.module}"
                if node.module == "sim.engine.game":
                    assert [a.name for a in node.names] == ["resume_hand_nb"], f"{path.name} imports the game's kernels"


def copy_package(dest: Path) -> Path:
    for d in ("sim", "strategies"):
        shutil.copytree(ROOT / d, dest / d, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


@pytest.mark.parametrize("edited", ["strategies/random_.py", "strategies/heuristic.py", "sim/engine/cards.py",
                                    "sim/engine/contract.py", "sim/engine/goout.py"])
def test_cache_folder_name_changes_with_any_engine_or_strategy_file(tmp_path, edited):
    copy = copy_package(tmp_path)
    assert jit.source_hash(copy) == jit.source_hash(ROOT)  # the name depends on contents, not on the path
    with open(copy / edited, "a") as f:
        f.write("\n# edited\n")
    assert jit.source_hash(copy) != jit.source_hash(ROOT)


def test_a_file_outside_the_compiled_code_leaves_the_cache_alone(tmp_path):
    copy = copy_package(tmp_path)
    (copy / "sim" / "stats.py").write_text((copy / "sim" / "stats.py").read_text() + "\n# edited\n")
    assert jit.source_hash(copy) == jit.source_hash(ROOT)


def run_in(copy: Path, cache: Path, code: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(copy), "NUMBA_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-c", code], cwd=copy, env=env, capture_output=True, text=True,
                          timeout=900)


PLAY_CLI = ("import sys; from sim.cli import main; "
            "sys.exit(main(['play', 'classic-4p', '-s', 'random', '--games', '4', '--seed', '1', '--quiet']))")
PLAY_API = ("from sim.results import play; from sim.engine.game import play_batch_nb; "
            "g = play('classic-4p', ['random'], games=4, seed=1).games; "
            "print('scores', g.score_0.tolist(), g.score_1.tolist()); "
            "print('misses', sum(play_batch_nb.stats.cache_misses.values()))")


def scores(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("scores"))


def test_editing_a_builtin_strategy_changes_the_results_in_a_new_process(tmp_path):
    """Issue 7's reproduction: edit `random` to always choose option 0 and play in a new process: the
    results must differ from the unchanged sources', and the edited sources must then load without
    compiling. The edited copy is the one engine compiled from scratch here (with its first-compile
    line); the unchanged sources play from the suite's own cache (this test runs first, beside the
    other process's first compile: tests/conftest.py)."""
    copy = copy_package(tmp_path / "pkg")
    cache = tmp_path / "cache"
    src = copy / "strategies" / "random_.py"
    text = src.read_text()
    assert "return (obs[OB_RAND] * n) >> 32" in text
    src.write_text(text.replace("return (obs[OB_RAND] * n) >> 32", "return 0"))
    edited = run_in(copy, cache, PLAY_API)
    assert edited.returncode == 0, edited.stderr
    # a first run with an empty cache says what it does, once, before playing
    assert edited.stderr.count("compiling the engine once, about") == 1, edited.stderr
    # the command line in another process finds the same compiled code: no compiling, no word
    cli = run_in(copy, cache, PLAY_CLI)
    assert cli.returncode == 0, cli.stderr
    assert "compiling" not in cli.stderr
    again = run_in(copy, cache, PLAY_API)
    assert scores(again.stdout) == scores(edited.stdout)
    assert "misses 0" in again.stdout and "compiling" not in again.stderr
    unchanged = subprocess.run([sys.executable, "-c", PLAY_API], cwd=ROOT, capture_output=True, text=True,
                               env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=900)
    assert unchanged.returncode == 0, unchanged.stderr
    assert scores(unchanged.stdout) != scores(edited.stdout)


def test_command_line_api_and_tests_use_one_cache_folder():
    code = "from sim.engine import jit; print(jit.cache_dir())"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/")
    assert r.stdout.strip() == str(jit.cache_dir())
    cli = subprocess.run([sys.executable, "-m", "sim.cli", "cache"], capture_output=True, text=True)
    assert str(jit.cache_dir()) in cli.stdout


def test_numba_cache_dir_is_honoured(tmp_path):
    code = "from sim.engine import jit; print(jit.cache_dir())"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert Path(r.stdout.strip()).parent == tmp_path / "canasta-lab"
