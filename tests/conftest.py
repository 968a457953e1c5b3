"""Test setup: the one way the tests run the command line (`cli`); the random-play size (`scaled`, set by
CANASTA_TEST_SCALE); the `compile` tests first. The compiled engine is found where the package keeps it
(sim/engine/jit.py), the same folder the command line and notebooks use. The helpers are modules of the
`tests` package (`from tests.support import ...`): every test folder is a package, so two test files of one
name in two folders never clash."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent

# The replayer's assertion helpers (assert_clean, assert_tamper_flagged) came out of a test module: pytest
# rewrites their asserts as it did there, so a failure still shows the values compared.
pytest.register_assert_rewrite("tests.replay.canasta")

# The random-play size: the large game counts (the fuzz and invariant games, the plain-Python games, the
# stopped run) as a fraction of their full size. Unset (`make test`, CI): the full size, 1. `make
# test-fast` sets it small. A test asks for a count with the `scaled` fixture.
SCALE_ENV = "CANASTA_TEST_SCALE"
FULL_SCALE = 1.0

# Tests that compile from scratch in a child process (minutes each: the engine without its cache, a strategy after
# an edit) carry @pytest.mark.compile; `make test-fast` leaves them out (-m "not compile"). Under `make test`'s two
# processes they go first: pytest-xdist (--dist load) hands each process a run of consecutive tests, so the
# compile tests run one after the other in the first process while the second compiles the suite's engine
# and plays the tests after them, instead of at the end, alone. One of them compiles an engine: the others
# start from the suite's cache, ready by then, so a run from an empty cache compiles the engine twice, not three
# times (on a host that steals the CPU a cold compile took an hour).
COMPILE_MARK = "compile"

# How long a child process (a cold compile, a run to be stopped, a notebook's kernel) may take before its test
# calls it hung. A guard against a hang, never a measure of speed (benchmarks measure speed): a cold compile
# takes about 100 CPU seconds on a usual machine and over ten times that on a host that steals most of the
# CPU, where a tighter bound failed the compile tests of a suite that was only slow.
HANG_SECONDS = 3600


def random_play_scale() -> float:
    """CANASTA_TEST_SCALE as a fraction in (0, 1]; one clear line when it is anything else."""
    text = os.environ.get(SCALE_ENV, "").strip()
    if not text:
        return FULL_SCALE
    try:
        scale = float(text)
    except ValueError:
        scale = math.nan
    if not 0 < scale <= FULL_SCALE:  # NaN fails too
        raise pytest.UsageError(f"{SCALE_ENV}={text!r}: give the fraction of the full random-play size to "
                                f"play, above 0 and at most 1 (e.g. {SCALE_ENV}=0.05), or leave it unset")
    return scale


def pytest_configure(config: pytest.Config) -> None:
    random_play_scale()  # a bad value stops the run before any test, not in the first test that asks


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker(COMPILE_MARK) is None)


@pytest.fixture(scope="session")
def scaled() -> Callable[..., int]:
    """`scaled(full, least=1)`: `full` games (or random trials) under `make test`, CANASTA_TEST_SCALE of
    them, at least `least`, under `make test-fast`."""
    scale = random_play_scale()

    def size(full: int, least: int = 1) -> int:
        return full if scale == FULL_SCALE else max(least, round(full * scale))

    return size


@pytest.fixture(scope="session")
def cli() -> Callable[..., subprocess.CompletedProcess]:
    """`cli(*args, **kw)`: `canasta-lab ARGS` run as a new process from the checkout's root, its exit status,
    standard output and standard error kept as text (`.returncode`, `.stdout`, `.stderr`); `kw` goes to
    subprocess.run (e.g. cwd, env)."""

    def run(*args: str, **kw) -> subprocess.CompletedProcess:
        kw.setdefault("cwd", ROOT)
        return subprocess.run([sys.executable, "-m", "sim.cli", *args], capture_output=True, text=True, **kw)

    return run
