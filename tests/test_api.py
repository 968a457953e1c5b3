"""Issue 25: one public API. Every name of `sim.API` resolves, docs/api.md documents each of them, and the
README, the docs and the notebooks reach the analysis layers through it rather than their modules."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import sim

ROOT = Path(__file__).resolve().parents[1]
# what a user may import besides `sim` itself: the engine's contract (for strategies) and the strategies
ALLOWED = re.compile(r"^(sim|sim\.engine\.contract|sim\.engine\.layout|sim\.rules|sim\.stats|strategies(\.\w+)?)$")


@pytest.mark.parametrize("name", sorted(sim.API))
def test_every_api_name_resolves_and_is_documented(name: str) -> None:
    assert getattr(sim, name) is not None
    assert f"`{name}" in (ROOT / "docs" / "api.md").read_text(), f"docs/api.md does not document {name}"


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'plya'"):
        sim.plya  # noqa: B018


def test_import_sim_loads_no_layer_above_the_rules() -> None:
    """The names load on first use, so a worker that only plays games never imports pandas' analysis
    layers through `import sim`."""
    code = "import sys, sim; print(sorted(m for m in sys.modules if m.startswith('sim.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert eval(out.stdout) == ["sim.version"]


def code_of(path: Path) -> str:
    if path.suffix == ".ipynb":
        return "\n".join("".join(c["source"]) for c in json.loads(path.read_text())["cells"])
    return path.read_text()


@pytest.mark.parametrize("path", [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
                                  *sorted((ROOT / "notebooks").glob("*.ipynb"))], ids=lambda p: p.name)
def test_readme_docs_and_notebooks_use_the_public_api(path: Path) -> None:
    found = re.findall(r"^\s*\"?\s*from (sim[\w.]*) import ([\w, ]+)", code_of(path), flags=re.M)
    internal = [f"from {m} import {names}" for m, names in found
                if not ALLOWED.match(m) and any(n.strip() in sim.API for n in names.split(","))]
    assert not internal, f"{path.name} imports public names from internal modules: {internal}"
