"""The compiled engine is never stale, is found by every way in, and its first compile says so.

numba checks only a cached function's own source file, so an edit to a strategy or an engine helper
in another file could leave old machine code in use. The cache folder is therefore named by a hash
of the engine's and strategy sources (sim/engine/cache.py), and strategies reach the engine as
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

from sim.engine import cache as jit
from sim.engine import compiling, sources
from sim.engine.folders import IN_USE, user_cache_root
from tests.conftest import HANG_SECONDS

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


def copy_package(dest: Path) -> Path:
    for d in ("sim", "strategies"):
        shutil.copytree(ROOT / d, dest / d, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def folders(root: Path) -> dict[str, str]:
    """Each compiled source file (relative path) -> the name of its cache folder."""
    return {p.relative_to(root).as_posix(): name for p, (name, _) in sources.group_hashes(root).items()}


def test_cache_folders_are_named_by_content_not_by_path(tmp_path):
    copy = copy_package(tmp_path)
    assert folders(copy) == folders(ROOT)  # another checkout of the same sources finds the same folders


@pytest.mark.parametrize("edited", ["sim/engine/cards.py", "sim/engine/contract.py", "sim/engine/goout.py"])
def test_an_engine_edit_renames_the_engine_folder_and_every_strategy_folder(tmp_path, edited):
    copy = copy_package(tmp_path)
    with open(copy / edited, "a") as f:
        f.write("\n# edited\n")
    before, after = folders(ROOT), folders(copy)
    assert all(before[k] != after[k] for k in before)  # strategies inline engine helpers: all compiled afresh


def test_a_heuristic_edit_renames_only_the_heuristic_and_what_links_it(tmp_path):
    copy = copy_package(tmp_path)
    with open(copy / "strategies/heuristic.py", "a") as f:
        f.write("\n# edited\n")
    before, after = folders(ROOT), folders(copy)
    changed = {k for k in before if before[k] != after[k]}
    assert {"strategies/heuristic.py", "strategies/search.py"} <= changed  # search links baseline's kernel
    assert not any(k.startswith("sim/engine/") for k in changed)  # the engine is loaded, not compiled
    assert "strategies/random_.py" not in changed and "strategies/buraco.py" not in changed
    assert not any(k.startswith("strategies/frozen/") for k in changed)  # reference is not the heuristic


def test_the_frozen_reference_compiles_into_a_folder_of_its_own_that_only_its_sources_rename(tmp_path):
    """strategies/frozen/ (issue 36): its modules are strategy modules like any other, each with its own folder,
    named by its dotted module; an edit there renames its folder and what imports it, nothing else."""
    named = folders(ROOT)
    assert named["strategies/frozen/reference.py"].startswith("strategy-frozen.reference-")
    assert named["strategies/frozen/reference_buraco.py"].startswith("strategy-frozen.reference_buraco-")
    strategy = [name for k, name in named.items() if k.startswith("strategies/")]
    assert len(set(strategy)) == len(strategy)  # every strategy module its own folder
    copy = copy_package(tmp_path)
    with open(copy / "strategies/frozen/reference_buraco.py", "a") as f:
        f.write("\n# edited\n")
    after = folders(copy)
    changed = {k for k in named if named[k] != after[k]}
    assert changed == {"strategies/frozen/reference_buraco.py", "strategies/frozen/reference.py",
                       "strategies/library.py", "strategies/__init__.py"}  # the package imports the library
    assert sources.source_hash(copy) != sources.source_hash(ROOT)  # and the games' version follows


def test_random_strategy_folder_ignores_the_heuristic(tmp_path):
    imports = sources.strategy_imports(ROOT)
    assert sources.strategy_closure("random_", imports) == {"random_"}
    assert "buraco" in sources.strategy_closure("heuristic", imports)
    # a subpackage's relative imports, one and two levels up, are followed
    assert sources.strategy_closure("frozen.reference", imports) == {"frozen.reference", "frozen.reference_buraco",
                                                                     "knobs"}
    assert "frozen.reference" in imports["library"]
    assert "heuristic" not in sources.strategy_closure("frozen.reference", imports)


def test_the_cache_module_holds_no_compiled_code_so_editing_it_recompiles_nothing(tmp_path):
    """sim/engine/cache.py is outside every hash; that is sound only while it compiles nothing."""
    for name in sources.UNCOMPILED:
        text = (ROOT / "sim" / "engine" / name).read_text()
        for word in ("engine_jit", "njit", "jit(", "register_jitable", "intrinsic", "@overload"):
            assert word not in text.replace("from .jit import compile_strategy", ""), f"{name} holds {word}"
    copy = copy_package(tmp_path)
    with open(copy / "sim" / "engine" / "cache.py", "a") as f:
        f.write("\n# edited\n")
    assert folders(copy) == folders(ROOT)


def test_a_file_outside_the_compiled_code_leaves_the_cache_alone(tmp_path):
    copy = copy_package(tmp_path)
    (copy / "sim" / "stats" / "pairs.py").write_text((copy / "sim" / "stats" / "pairs.py").read_text() + "\n# edited\n")
    assert folders(copy) == folders(ROOT) and sources.source_hash(copy) == sources.source_hash(ROOT)


def run_in(copy: Path, cache: Path, code: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(copy), "NUMBA_CACHE_DIR": str(cache)}
    r = subprocess.run([sys.executable, "-c", code], cwd=copy, env=env, capture_output=True, text=True,
                       timeout=HANG_SECONDS)
    assert r.returncode == 0, r.stderr
    return r


PLAY_CLI = ("import sys; from sim.cli import main; "
            "sys.exit(main(['play', 'classic-4p', '-s', 'baseline', '-s', 'random', '--games', '4', '--seed', '1', "
            "'--quiet']))")
PLAY_API = ("from sim import play; from sim.engine import compiling as jit; "
            "g = play('classic-4p', ['baseline', 'random'], games=4, seed=1).games; "
            "print('scores', g.score_0.tolist(), g.score_1.tolist()); "
            "print('compiled', sorted(jit.compiled_here()))")


def scores(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("scores"))


def listed(out: str, what: str) -> list:
    """The list a child printed on its line `what [...]`."""
    line = next(line for line in out.splitlines() if line.startswith(what + " "))
    return ast.literal_eval(line.removeprefix(what + " "))


def compiled(out: str) -> list[str]:
    return listed(out, "compiled")


def run_shared(code: str) -> subprocess.CompletedProcess:
    """`code` in a child of this checkout with the suite's own cache (the glue in use)."""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=HANG_SECONDS,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr
    return r


PROBE = ("from sim.engine import compiling as jit; from sim.engine.probe import probe_nb; "
         "print('probe', probe_nb(40)); print('compiled', sorted(jit.compiled_here()))")


def test_an_engine_helper_edit_recompiles_the_engine_code_that_inlines_it(tmp_path):
    """numba checks only a function's own file: a kernel inlining a helper of another engine file must
    not be served stale after that helper changes. A small kernel stands in for the engine here."""
    copy = copy_package(tmp_path / "pkg")
    cache = tmp_path / "cache"
    (copy / "sim" / "engine" / "probe.py").write_text(
        "from .cards import rank_of_nb\nfrom .jit import engine_jit\n\n\n"
        "@engine_jit\ndef probe_nb(k):\n    return rank_of_nb(k)\n")
    first = run_in(copy, cache, PROBE)
    assert "probe 10" in first.stdout and compiled(first.stdout)[0].startswith("engine-")  # 40 // 4
    assert "compiling" in first.stderr  # numba compiled: the line said so
    loaded = run_in(copy, cache, PROBE)
    assert "probe 10" in loaded.stdout and compiled(loaded.stdout) == [] and "compiling" not in loaded.stderr
    cards = copy / "sim" / "engine" / "cards.py"
    text = cards.read_text()
    assert "return RK_JK if k == JOKER else k // SUITS" in text
    cards.write_text(text.replace("return RK_JK if k == JOKER else k // SUITS",
                                  "return RK_JK if k == JOKER else k // SUITS + 1"))
    edited = run_in(copy, cache, PROBE)
    assert "probe 11" in edited.stdout, edited.stdout
    assert compiled(edited.stdout)[0].startswith("engine-") and compiled(edited.stdout) != compiled(first.stdout)


CALLED = ("import numpy as np\nfrom .decorators import strategy_jit\n\n\n"
          "@strategy_jit\ndef probe_decide_nb(R, obs, opts, n, prm):\n    return n - 1\n\n\n"
          "@strategy_jit\ndef probe_caller_nb(R, obs, opts, n, prm):\n"
          "    return probe_decide_nb(R, obs, opts, n, prm)\n")
CALLED_RUN = ("import numpy as np; from sim.engine import compiling, cache; "
              "from sim.engine.contract import DECIDE_SIG; from sim.engine.jit import compile_strategy; "
              "from sim.engine.probe import probe_caller_nb, probe_decide_nb; "
              "{first}"
              "print('before', cache.index_holds(probe_decide_nb, DECIDE_SIG), cache.index_holds(probe_decide_nb)); "
              "compile_strategy(probe_decide_nb); "
              "print('after', cache.index_holds(probe_decide_nb, DECIDE_SIG)); "
              "print('compiled', sorted(compiling.compiled_here()))")
CALL_FIRST = ("z = np.zeros(4, np.int64); print('called', probe_caller_nb(z, z, np.zeros((2, 2), np.int64), 3, "
              "np.zeros(2))); ")


def test_a_strategy_compiled_where_another_kernel_calls_it_is_kept_for_its_own_signature(tmp_path):
    """learned calls the heuristic: a process that compiled learned first had the heuristic from that call, which
    numba files under the call's argument types, a key `compile(DECIDE_SIG)` never finds. Counted as compiled, a
    run let every worker compile the heuristic again; the strategy's own signature is now what counts, and it is
    kept on disk even when this process had the code from the call."""
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("no compiled code")
    copy = copy_package(tmp_path / "pkg")
    cache = tmp_path / "cache"
    (copy / "sim" / "engine" / "probe.py").write_text(CALLED)
    first = run_in(copy, cache, CALLED_RUN.format(first=CALL_FIRST))
    assert "called 2" in first.stdout, first.stdout
    # the call's code is on disk under the call's types only: not the strategy's signature
    assert "before False True" in first.stdout and "after True" in first.stdout, first.stdout
    fresh = run_in(copy, cache, CALLED_RUN.format(first=""))  # a worker: the strategy alone, loaded
    assert "before True True" in fresh.stdout and compiled(fresh.stdout) == [], fresh.stdout + fresh.stderr


def test_command_line_api_and_tests_use_one_cache_folder():
    code = "from sim.engine import cache as jit; print(jit.cache_dir())"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/")
    assert r.stdout.strip() == str(jit.cache_dir())
    cli = subprocess.run([sys.executable, "-m", "sim.cli", "cache"], capture_output=True, text=True)
    assert str(jit.cache_root()) in cli.stdout and jit.cache_dir().name in cli.stdout


def test_numba_cache_dir_is_honoured(tmp_path):
    code = "from sim.engine import cache as jit; print(jit.cache_dir())"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert Path(r.stdout.strip()).parent == tmp_path / "canasta-lab"


SEPARATE_PROBE = """
import sys
from numba import njit, types
from sim.engine.link import install, separate

assert install() == "separate"  # what a command does before it compiles

for i in range(int(sys.argv[1])):  # compiles before: numba's count of them goes into every symbol
    njit(lambda x: x + i)(1)

def plain(x):
    return x + 1

def apart(x):
    return x + 2

plain = njit(plain)
apart = separate(njit(apart))
for f in (plain, apart):
    f.compile((types.int64,))
print(plain.overloads[(types.int64,)].fndesc.mangled_name)
print(apart.overloads[(types.int64,)].fndesc.mangled_name)
"""


def test_a_separate_kernel_has_the_same_symbol_in_every_process(tmp_path):
    """Its callers name it by symbol, so two processes compiling one source version at once (pytest's
    workers from an empty cache) must agree on it, or a caller cached by one and the kernel by the
    other do not link ("Symbol not found"). numba numbers a plain function by its compile count."""
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("no compiled code")
    (tmp_path / "probe_link.py").write_text(SEPARATE_PROBE)
    names = []
    for before in (0, 3):
        r = subprocess.run([sys.executable, "probe_link.py", str(before)], capture_output=True, text=True,
                           cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert r.returncode == 0, r.stderr
        names.append(r.stdout.split())
    assert names[0][0] != names[1][0]  # a plain function: the count shows in its symbol
    assert names[0][1] == names[1][1]  # a separate one: not


def test_the_compiling_line_estimates_each_strategy_by_its_own_last_compile(tmp_path, monkeypatch):
    """`random` compiles in a fraction of a second and the heuristic in several: one estimate for every
    strategy said "about 0 s" before a heuristic compile. Each is its own, never under a second."""
    monkeypatch.setattr(compiling, "_times_path", lambda: tmp_path / compiling.TIMES)
    assert compiling.compile_estimate("engine") == compiling.DEFAULT_SECONDS["engine"]  # nothing measured yet
    compiling._record_time("strategy-random", 0.3)
    compiling._record_time("strategy-heuristic", 7.5)
    compiling._record_time("engine", 54.2)
    assert compiling.compile_estimate("strategy-random") == 1
    assert compiling.compile_estimate("strategy-heuristic") == 8
    assert compiling.compile_estimate("strategy-search") == compiling.DEFAULT_SECONDS["strategies"]
    assert compiling.compile_estimate("engine") == 55
    folder = tmp_path / "strategy-heuristic-0123456789abcdef"
    line = compiling.CompileWatch().message(folder)  # the line numba's compile event prints
    assert "`heuristic` for these sources (its code changed; the engine is loaded), about 8 s" in line


LINK_PROBE = """
from numba import njit, types
from sim.engine import link

assert link.install() == "separate"

def apart(x):
    return x * 3 + 1

def caller(x):
    return apart(x) + 1

apart = link.separate(njit(apart))
caller = njit(caller)
caller.compile((types.int64,))
symbol = apart.overloads[(types.int64,)].fndesc.mangled_name
ir = caller.inspect_llvm((types.int64,))
print("defined", f"define" in ir and any(line.startswith("define") and symbol in line for line in ir.splitlines()))
print("declared", any(line.startswith("declare") and symbol in line for line in ir.splitlines()))
print("result", caller(4))
"""


def test_a_separate_kernel_is_called_by_symbol_and_never_linked_into_its_callers(tmp_path):
    """The compile saving (sim/engine/link.py): a caller declares a separate kernel and calls it by its symbol;
    numba by itself would link the kernel's whole code into every caller and compile it again there."""
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("no compiled code")
    (tmp_path / "probe_apart.py").write_text(LINK_PROBE)
    r = subprocess.run([sys.executable, "probe_apart.py"], capture_output=True, text=True, cwd=tmp_path,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr
    assert "defined False" in r.stdout and "declared True" in r.stdout and "result 14" in r.stdout, r.stdout


IMPORT_ALL = """
import importlib, pkgutil, sys, json
import numba
from numba.core import base, bytecode, caching, config, event
import sim, strategies

def snapshot():
    settings = {k: repr(v) for k, v in vars(config).items() if k.isupper()}
    return {"config": settings, "locators": [c.__name__ for c in caching.CacheImpl._locator_classes],
            "insert": base.BaseContext.insert_user_function.__module__,
            "identity": bytecode.FunctionIdentity.from_function.__func__.__module__,
            "listeners": {k: len(v) for k, v in event._registered.items()}}

before = snapshot()
names = []
for pkg in (sim, strategies):
    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
        if m.name.endswith(".__main__"):  # `python -m sim.cli` runs the command line: not an import
            continue
        importlib.import_module(m.name)
        names.append(m.name)
after = snapshot()
print(json.dumps({"same": before == after, "modules": len(names),
                  "changed": {k: (before[k], after[k]) for k in before if before[k] != after[k]}}))
"""


def test_importing_any_module_touches_no_file_and_changes_no_configuration(tmp_path):
    """Issue 36: reading a preset or importing a module must not configure numba, install the link patch or
    create, touch or prune a cache folder (another checkout's process may be using it)."""
    cache = tmp_path / "cache"
    root = cache / "canasta-lab"
    old = root / "engine-0123456789abcdef"  # another source version's folder, old enough to prune
    old.mkdir(parents=True)
    os.utime(old, (1, 1))
    os.utime(root, (1, 1))
    listing = {p: p.stat().st_mtime for p in cache.rglob("*")}
    for d in (root, cache):
        d.chmod(0o555)  # read-only: a write would fail loudly, not only show in the listing
    try:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(cache), "PYTHONDONTWRITEBYTECODE": "1",
               "MPLCONFIGDIR": str(tmp_path / "mpl")}
        r = subprocess.run([sys.executable, "-c", IMPORT_ALL], capture_output=True, text=True, env=env,
                           cwd=tmp_path, timeout=HANG_SECONDS)
    finally:
        for d in (cache, root):
            d.chmod(0o755)
    assert r.returncode == 0, r.stderr
    import json

    seen = json.loads(r.stdout.strip().splitlines()[-1])
    assert seen["modules"] > 50 and seen["same"], seen["changed"]
    assert {p: p.stat().st_mtime for p in cache.rglob("*")} == listing  # nothing made, touched or removed
    assert "compiling" not in r.stderr


def test_old_folders_go_only_when_no_process_uses_them_and_none_was_used_in_the_last_day(tmp_path):
    from sim.engine import folders

    now = 10 * folders.FRESH_SECONDS
    made = []
    for i in range(folders.KEEP + 3):  # more old engine folders than are kept
        d = tmp_path / f"engine-{i:016x}"
        d.mkdir()
        os.utime(d, (i, i))  # all long unused, the highest number most recently
        made.append(d)
    fresh = tmp_path / "engine-ffffffffffffffff"
    fresh.mkdir()
    os.utime(fresh, (now - 60, now - 60))  # used a minute ago by another checkout
    busy = made[0]
    (busy / folders.IN_USE).mkdir()
    (busy / folders.IN_USE / str(os.getppid())).touch()  # a living process (the test's parent) uses it
    os.utime(busy, (0, 0))  # ... and it is the oldest of all
    gone = folders.prune(tmp_path, {"engine-current"}, now=now)
    assert fresh.is_dir() and busy.is_dir()
    # the KEEP most recently used stay (the fresh one among them); of the others all but the busy one go
    assert sorted(gone) == sorted(made[1:folders.KEEP])
    assert all(d.is_dir() for d in made[folders.KEEP:])


FENCED = """
import numba.core.base as base
import numba.core.caching as caching

numba_own = base.BaseContext.insert_user_function


def insert_user_function(self, func, fndesc, libs=()):  # a numba release that rewrote the method link.py replaces
    numba_own(self, func, fndesc, libs)


base.BaseContext.insert_user_function = insert_user_function
del caching.CompileResultCacheImpl  # ... and dropped a name the cache glue subclasses
""" + PLAY_API


@pytest.mark.compile
def test_where_numba_changed_what_the_glue_needs_it_is_skipped_with_one_line_and_the_games_are_the_same(tmp_path):
    """The fence (sim/engine/fence.py): a replaced method whose source changed, or a private name gone, skips that
    part of the glue with one line each; the engine then compiles without the link saving and keeps nothing on
    disk, and plays exactly the same games. The first of the compile tests: its engine compiles from scratch beside
    the other test process's first compile, and the suite's cache, which its plain run uses, is then ready."""
    fenced = run_in(ROOT, tmp_path / "fenced", FENCED)
    usual = run_shared(PLAY_API)
    lines = [x for x in fenced.stderr.splitlines() if "relies on: going on without it" in x]
    assert len(lines) == 2, fenced.stderr
    assert "insert_user_function` changed" in lines[0] + lines[1]
    assert "CompileResultCacheImpl` is missing" in lines[0] + lines[1]
    # a first compile says what it does, once, before it starts, and that nothing of it is kept
    said = [x for x in fenced.stderr.splitlines() if "compiling the engine once" in x]
    assert len(said) == 1 and "keeps nothing on disk" in said[0], fenced.stderr
    assert scores(fenced.stdout) == scores(usual.stdout)
    assert not list((tmp_path / "fenced").rglob("*.nbi"))  # nothing kept on disk


FOLDERS = "; from sim.engine import cache; print('folders', [str(p) for p in cache.version_folders()])"


@pytest.mark.compile
def test_a_second_checkout_plays_without_compiling_and_a_heuristic_edit_recompiles_only_it(tmp_path, monkeypatch):
    """Issue 24: two copies of the same sources in different folders share one compile; an edit to
    the heuristic then recompiles the heuristic (with its own line), the engine is loaded, and the
    results follow the edit. The first copy is this checkout with the suite's own cache, copied into a
    folder of this test's: an engine compiled from scratch here would cost a second cold compile beside
    the fenced test's (the one that says it compiles, before this test: tests/conftest.py) and the
    other process's."""
    first = run_shared(PLAY_API + FOLDERS)
    cache = tmp_path / "cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))
    root = user_cache_root()  # where run_in's processes look for the compiled code
    monkeypatch.undo()
    kept = [Path(f) for f in listed(first.stdout, "folders") if Path(f).is_dir()]
    assert any(f.name.startswith("engine-") for f in kept), kept
    for folder in kept:  # numba's files of this source version, without the markers of the processes using them
        shutil.copytree(folder, root / folder.name, ignore=shutil.ignore_patterns(IN_USE))
    second = copy_package(tmp_path / "two")
    b = run_in(second, cache, PLAY_API)  # the same sources elsewhere, the cache elsewhere: numba's index holds it all
    assert "compiling" not in b.stderr and compiled(b.stdout) == [], b.stderr
    assert scores(b.stdout) == scores(first.stdout)
    cli = run_in(second, cache, PLAY_CLI)  # the command line finds the same compiled code
    assert "compiling" not in cli.stderr, cli.stderr

    src = second / "strategies" / "heuristic.py"
    text = src.read_text()
    head = "def heuristic_decide_nb(R, obs, opts, n, prm):\n"
    assert head in text
    src.write_text(text.replace(head, head + "    return 0  # edited: always the first option\n", 1))
    edited = run_in(second, cache, PLAY_API)
    assert edited.stderr.count("compiling the strategy `heuristic`") == 1, edited.stderr
    assert compiled(edited.stdout) and all(f.startswith("strategy-heuristic-") for f in compiled(edited.stdout))
    assert scores(edited.stdout) != scores(first.stdout)
    again = run_in(second, cache, PLAY_API)  # and the edited heuristic loads from then on
    assert compiled(again.stdout) == [] and scores(again.stdout) == scores(edited.stdout)
    assert "compiling" not in again.stderr


USER_FILE = (ROOT / "benchmarks" / "probe_user_file.py").read_text()  # a user strategy file


def test_a_user_file_compiles_once_for_its_content_saying_so_and_loads_from_then_on(tmp_path):
    """Issue 36, part 5: `--load` compiled the user's file on every run and said "compiling the engine"; it is
    kept by its content, the line names it, and a second run prints nothing: every compile of the project's code
    or a user file says so on stderr (sim/engine/compiling.py's CompileWatch, which the first run's line shows),
    so nothing compiled. How fast such a run starts beside a plain one is a benchmark's
    (benchmarks/user_file_start.py): on a host that steals the CPU, a run's CPU seconds varied far more than the
    file's compile costs (docs/performance.md)."""
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("no compiled code")

    (tmp_path / "mine.py").write_text(f"# {tmp_path}: a content of its own, so its first run compiles\n" + USER_FILE)
    common = ["compare", "classic-4p", "--games", "4", "--seed", "1", "--quiet", "--workers", "1"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def run(*args: str) -> subprocess.CompletedProcess:
        r = subprocess.run([sys.executable, "-m", "sim.cli", *common, *args], capture_output=True, text=True,
                           cwd=tmp_path, env=env, timeout=HANG_SECONDS)
        assert r.returncode == 0, r.stderr
        return r

    first = run("-s", "probe-high-discard", "-s", "expert", "--load", "mine.py")
    assert "compiling `probe_high_discard` of mine.py for its content" in first.stderr, first.stderr
    assert "compiling the engine" not in first.stderr
    again = run("-s", "probe-high-discard", "-s", "expert", "--load", "mine.py")
    assert again.stderr == "", again.stderr
    assert again.stdout == first.stdout  # the same games from the kept file as from the compile
