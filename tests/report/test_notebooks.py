"""The study notebooks (notebooks/NN_*.ipynb): each runs top to bottom at a small size, draws at least one
chart and says its answer in Markdown. The notebooks are read, executed in a fresh kernel and never
written back: their committed outputs are the full-size ones."""

from __future__ import annotations

from pathlib import Path

import nbclient
import nbformat
import pytest

from sim.report import studies
from tests.conftest import HANG_SECONDS

NOTEBOOKS_DIR = Path(__file__).resolve().parents[2] / "notebooks"
NOTEBOOKS = sorted(NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb"))
EXPECTED = [
    "01_freezing_the_pile.ipynb",
    "02_black_threes.ipynb",
    "03_asking_to_go_out.ipynb",
    "04_taking_the_pile.ipynb",
    "05_variant_balance.ipynb",
    "06_your_own_strategy.ipynb",
    "07_across_variants.ipynb",
    "08_value_of_a_choice.ipynb",
    "09_buraco_choices.ipynb",
]
NOT_STUDIES = {"08_value_of_a_choice.ipynb"}  # `analyse` at one decision (docs/analysis.md): no study behind it
SMALL_GAMES = "40"
ANSWER_TAG = "answer"  # the code cell that displays the study's answer


def tagged(nb: nbformat.NotebookNode, tag: str) -> list[nbformat.NotebookNode]:
    return [c for c in nb.cells if tag in c.get("metadata", {}).get("tags", [])]


def test_every_study_has_its_notebook():
    assert [p.name for p in NOTEBOOKS] == EXPECTED
    assert [f"{stem}.ipynb" for stem in studies.NOTEBOOKS.values()] == [n for n in EXPECTED if n not in NOT_STUDIES]


@pytest.mark.notebook  # a kernel and a study each: make test-fast leaves them out
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_at_small_size_and_answers_with_a_chart(path, monkeypatch, tmp_path):
    monkeypatch.setenv(studies.GAMES_ENV, SMALL_GAMES)  # the kernel inherits this process's environment
    monkeypatch.setenv(studies.OUT_ENV, str(tmp_path))  # the study cache: not the checkout's out/
    nb = nbformat.read(path, as_version=4)
    answer = tagged(nb, ANSWER_TAG)
    assert len(answer) == 1 and answer[0].cell_type == "code", f"{path.name}: one code cell tagged {ANSWER_TAG!r}"
    client = nbclient.NotebookClient(nb, timeout=HANG_SECONDS, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOKS_DIR)}})
    client.execute()  # a failing cell raises CellExecutionError, naming the cell and the error
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs), f"{path.name} drew no chart"
    shown = [o for o in tagged(nb, ANSWER_TAG)[0].outputs if "text/markdown" in o.get("data", {})]
    assert shown and shown[0].data["text/markdown"].strip(), f"{path.name}: the answer cell showed no Markdown"
    assert (tmp_path / "studies").is_dir(), f"{path.name}: the kernel did not keep its games in {studies.OUT_ENV}"


def test_strategy_cell_of_notebook_06_defines_the_strategy_and_its_grid():
    scope: dict = {"__name__": "test_notebook_06"}
    exec(compile(studies.own_strategy_cell(), studies.OWN_NOTEBOOK, "exec"), scope)  # noqa: S102
    name, grid = scope["MY_STRATEGY"], scope["MY_GRID"]
    from strategies import REGISTRY

    spec = REGISTRY[name]
    assert spec.is_user
    assert grid and all(spec.knob(knob) for knob in grid)
    assert all(len(values) > 1 for values in grid.values())


def test_variant_balance_notebook_names_no_preset():
    nb = nbformat.read(NOTEBOOKS_DIR / "05_variant_balance.ipynb", as_version=4)
    named = [c.source for c in nb.cells if "classic-" in c.source]
    assert not named, "notebook 05 must show the presets the study returns, not name them"
