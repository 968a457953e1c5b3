"""Study 06: your own strategy, defined in a cell of its notebook, swept and checked like the others."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sim.records.results import ResultsError
from sim.report.common import SEED, STRONG, VARIANT, Study, checkout_root
from sim.report.knob_study import Part, knob_study
from sim.run.seating import Seating

OWN_NOTEBOOK = "06_your_own_strategy.ipynb"


OWN_TAG = "strategy"  # the notebook cell that defines the strategy (and MY_STRATEGY, MY_GRID)


def own_strategy_cell(notebook: str | Path | None = None) -> str:
    """The source of notebook 06's strategy cell: the report plays exactly what the notebook writes."""
    path = Path(notebook) if notebook is not None else (checkout_root() or Path.cwd()) / "notebooks" / OWN_NOTEBOOK
    if not path.exists():
        raise ResultsError(f"{str(path)!r} does not exist: the your_own_strategy report plays the strategy that "
                           "notebook defines; run it from a checkout of canasta-lab")
    cells = json.loads(path.read_text())["cells"]
    for c in cells:
        if OWN_TAG in c.get("metadata", {}).get("tags", []):
            return "".join(c["source"])
    raise ResultsError(f"{str(path)!r} has no cell tagged {OWN_TAG!r}")


def own_parts(notebook: str | Path | None = None) -> tuple[str, list[Part]]:
    """The strategy notebook 06 defines (running its strategy cell) and one study part per knob of its grid."""
    scope: dict[str, Any] = {"__name__": "canasta_lab_notebook"}
    exec(compile(own_strategy_cell(notebook), OWN_NOTEBOOK, "exec"), scope)  # noqa: S102 - our own notebook
    name, grid = scope["MY_STRATEGY"], scope["MY_GRID"]
    return name, [Part(k, tuple(values), player=name, strong_player=name, strong_opponent=STRONG)
                  for k, values in grid.items()]


def your_own_strategy(games: int | None = None, seed: int = SEED, check_games: int | None = None,
                      out: str | Path | None = None, rules: Sequence[str] = (), workers: int = 0,
                      progress: Any = None, scheduler: Any = None, notebook: str | Path | None = None,
                      variant: str = VARIANT, seating: str | Seating = Seating.REST) -> Study:
    """The strategy notebook 06 writes, its own knob swept against `baseline` and `expert`."""
    name, parts = own_parts(notebook)
    knobs = ", ".join(f"`{p.knob}`" for p in parts)
    study = knob_study("your_own_strategy", f"Your own strategy: `{name}`",
                       f"Does `{name}`'s own knob {knobs} make it stronger than `baseline`, and at which value?",
                       parts,
                       games, seed, check_games if check_games is not None else 0, out, rules, workers, progress,
                       scheduler, variant, seating)
    study.method += (f"\n\nThe strategy is the cell tagged `{OWN_TAG}` of `notebooks/{OWN_NOTEBOOK}`; its opponent is "
                     f"`{name}` at its defaults, which is `baseline` wherever the strategy defers to it.")
    return study
