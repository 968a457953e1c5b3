"""Test setup: make tests/support.py importable. The compiled engine is found where the package
keeps it (sim/engine/jit.py), the same folder the command line and notebooks use."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

# Tests that compile an engine of their own from scratch (minutes each) go first: under `make test`'s two
# processes, pytest-xdist hands the first test to one process and the second to the other, so this compile
# runs beside the other process's first compile of the suite's engine instead of at the end, alone.
FIRST = ("test_jit.py::test_editing_a_builtin_strategy_changes_the_results_in_a_new_process",)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: not item.nodeid.endswith(FIRST))
