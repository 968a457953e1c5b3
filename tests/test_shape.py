"""The code's shape holds (docs/architecture.md, "Shape"): no function longer than MAX_LINES lines or with more
than the McCabe complexity ruff's configuration allows, outside the frozen players (strategies/frozen/, never
edited). A long kernel is split into inlined steps used once, so its machine code stays one function."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("sim", "strategies", "benchmarks")
FROZEN = ROOT / "strategies" / "frozen"
MAX_LINES = 120


def _sources() -> list[Path]:
    return [p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py")) if FROZEN not in p.parents]


def long_functions(paths: list[Path], limit: int = MAX_LINES, root: Path = ROOT) -> list[str]:
    out = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    out.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({lines} lines)")
    return out


def test_no_function_is_longer_than_120_lines():
    assert long_functions(_sources()) == []


def test_the_length_check_sees_a_long_function(tmp_path: Path):
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    (tmp_path / "long.py").write_text(f"def long():\n{body}\n")
    assert len(long_functions([tmp_path / "long.py"], root=tmp_path)) == 1


def _ruff() -> list[str]:
    exe = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if exe is None:
        pytest.skip("ruff is not installed (it comes with the test extra)")
    return [exe]


def test_the_complexity_limit_is_configured():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]["lint"]
    assert "C90" in config["select"] and config["mccabe"]["max-complexity"] == 25


def test_no_function_is_more_complex_than_ruff_allows():
    done = subprocess.run([*_ruff(), "check", "--select", "C901", "--output-format", "concise", *PACKAGES],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_complexity_check_sees_a_complex_function(tmp_path: Path):
    branches = "\n".join(f"    if x == {i}:\n        return {i}" for i in range(30))
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    (tmp_path / "complex.py").write_text(f"def complex_(x):\n{branches}\n    return -1\n")
    done = subprocess.run([*_ruff(), "check", "--select", "C901", "complex.py"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 1 and "complex_" in done.stdout
