"""Parameter sweeps: one strategy's knobs over a grid (a matrix of parameter rows) against a fixed
opponent. Knobs are data to the kernels, so no row compiles anything.

Every row plays the same deals (same master seed, duplicate rotation), so rows differ by the knobs,
not by the cards: common random numbers make the comparison between rows sharper.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from strategies import StrategyChoice, StrategyError, StrategySpec, parse_strategy

from .rules import Variant, get_variant
from .runner import Job, make_job, run_jobs
from .stats import mean_interval, wilson


def grid_rows(base: StrategyChoice, grid: Mapping[str, Sequence[Any]] | pd.DataFrame) -> list[dict[str, Any]]:
    """The parameter rows: the Cartesian product of a {knob: values} grid, or the rows of a frame.
    A knob fixed on the strategy (`baseline:meld=three`) may not be swept as well."""
    spec = base.spec
    if isinstance(grid, pd.DataFrame):
        rows = grid.to_dict("records")
    else:
        if not grid:
            raise StrategyError("a sweep needs at least one knob with values, e.g. min_pile=1,3,5")
        for name, values in grid.items():
            spec.knob(name)
            if len(values) == 0:
                raise StrategyError(f"knob {name!r} has no values in the sweep")
        names = list(grid)
        rows = [dict(zip(names, combo, strict=True)) for combo in itertools.product(*grid.values())]
    fixed = {k for k, _ in base.overrides}
    for row in rows:
        clash = sorted(fixed & set(row))
        if clash:
            raise StrategyError(f"knob {clash[0]!r} is both fixed in {base.label} and swept by the grid; "
                                "give it once")
        spec.choice(**row)  # every value is checked before any game is played
    return rows


def seating(variant: Variant, a: StrategyChoice, b: StrategyChoice) -> list[StrategyChoice]:
    """`a` on every seat of side 0, `b` on every other seat (so in a 3-player game, b twice)."""
    return [a if variant.seat_side(p) == 0 else b for p in range(variant.players)]


def row_stats(job: Job, games: np.ndarray) -> dict[str, float]:
    """Wins and the per-deal score margin of the strategy seated on side 0 of the base seating."""
    from .engine import layout as L

    v = job.variant
    rot = games[:, L.G_GAME] % v.n_sides
    own = np.array([v.seat_side(int(r) % v.players) for r in rot])
    scores = games[:, L.G_SCORE:L.G_SCORE + v.n_sides].astype(float)
    mine = scores[np.arange(len(games)), own]
    others = (scores.sum(axis=1) - mine) / (v.n_sides - 1)
    won = games[:, L.G_WINNER] == own
    margin = pd.Series(mine - others).groupby(games[:, L.G_DEAL]).mean().to_numpy()
    k, n = int(won.sum()), len(games)
    lo, hi = wilson(k, n)
    m, mlo, mhi = mean_interval(margin)
    return {"games": n, "wins": k, "win_rate": k / n, "ci_low": lo, "ci_high": hi,
            "margin": m, "margin_low": mlo, "margin_high": mhi}


def sweep(variant: str | Variant, strategy: str | StrategySpec | StrategyChoice,
          grid: Mapping[str, Sequence[Any]] | pd.DataFrame, opponent: str | StrategySpec | StrategyChoice = "baseline",
          games: int = 200, seed: int = 0, workers: int = 1,
          progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """Play `games` games per parameter row; one row of results per parameter row.

    `strategy` may carry fixed knobs (`"baseline:meld=three"`); the grid varies the others. The
    result has the knob values, then games, wins, win_rate with its Wilson interval, and margin:
    the mean final-score lead over the opponents per duplicate deal, with its t interval.
    """
    v = get_variant(variant) if isinstance(variant, str) else variant
    base = parse_strategy(strategy)
    opp = parse_strategy(opponent)
    fixed = dict(base.overrides)
    rows = grid_rows(base, grid)
    choices = [base.spec.choice(**{**fixed, **row}) for row in rows]
    jobs = [make_job(v, seating(v, c, opp), seed) for c in choices]
    results = run_jobs(jobs, games, workers=workers, progress=progress)
    out = []
    for row, c, job, (g, _, _) in zip(rows, choices, jobs, results, strict=True):
        rec: dict[str, Any] = {k: c.spec.knob(k).show(c.params[c.spec.knob(k).slot]) for k in row}
        rec["strategy"] = c.label
        rec.update(row_stats(job, g))
        out.append(rec)
    df = pd.DataFrame(out)
    df.attrs.update({"variant": v.name, "opponent": opp.label, "seed": seed, "games_per_row": games})
    return df
