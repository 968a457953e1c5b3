"""Parameter sweeps: one strategy's knobs over a grid (a matrix of parameter rows) against a fixed
opponent. Knobs are data to the kernels, so no row compiles anything.

Every row plays the same deals (same master seed, duplicate rotation), so rows differ by the knobs,
not by the cards: common random numbers make the comparison between rows sharper.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.records.outputs import SWEEP_FILE
from sim.records.results import write_parquet
from sim.records.tidy import knob_column
from sim.rules import Variant, get_variant
from sim.run.experiment import Experiment
from sim.run.output import folder_name, prepare_output, whole_deals, write_output_record
from sim.run.runner import Progress, make_job
from sim.run.seating import Seating, parse_seating, seat_list, seating_text, side_strategies, what_seating
from sim.stats import ALPHA_HOLM, CONFIDENCE, holm
from strategies import StrategyChoice, StrategyError, StrategySpec, parse_strategy


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
            if isinstance(values, str) or not isinstance(values, Sequence | np.ndarray | pd.Index):
                raise StrategyError(f"knob {name!r}: give a list of values, e.g. {{{name!r}: [1, 3, 5]}}, "
                                    f"got {values!r}")
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
    seen: dict[str, dict[str, Any]] = {}
    for row in rows:
        label = spec.choice(**{**dict(base.overrides), **row}).label
        if label in seen:
            raise StrategyError(f"the grid gives {label} twice ({seen[label]} and {row}); give each value once")
        seen[label] = row
    return rows


def sweep(variant: str | Variant, strategy: str | StrategySpec | StrategyChoice,
          grid: Mapping[str, Sequence[Any]] | pd.DataFrame, opponent: str | StrategySpec | StrategyChoice = "baseline",
          games: int = 200, seed: int = 0, workers: int = 0, progress: Progress = None,
          out: str | Path | None = None, scheduler: Any = None, force: bool = False,
          seating: str | Seating = Seating.REST) -> pd.DataFrame:
    """Play `games` games (rounded up to whole deals) per parameter row against `opponent`; one row of
    results per parameter row, read as a head to head on the deals (sim.stats.head_to_head).

    `strategy` may carry fixed knobs (`"baseline:meld=three"`); the grid varies the others. The
    result has the knob values (typed, sim.records.tidy: numbers as numbers), then games and wins, the pair
    counts, the win rate, the score margin per deal and the Elo difference with their 95% intervals
    on the deals, and `real`: whether the row differs from the opponent after Holm's correction for
    the number of rows. With `out`, each row's games go to their own run folder under it, and
    `sweep.parquet` holds the table; a stopped sweep resumes, and one asked again with other values (one more, or
    fewer) plays only the rows not yet there. Where a game has three sides or more, `seating` says
    how the row and the opponent share them (sim.run.seating: one against the rest, or alternating)."""
    v = get_variant(variant) if isinstance(variant, str) else variant
    mode = parse_seating(seating)
    base = parse_strategy(strategy)
    opp = parse_strategy(opponent)
    fixed = dict(base.overrides)
    rows = grid_rows(base, grid)
    base.spec.refuse_idle(dict.fromkeys(k for row in rows for k in row), v)  # one that never acts: equal rows
    choices = [base.spec.choice(**{**fixed, **row}) for row in rows]
    jobs = [make_job(v, seat_list(v, c, opp, mode), seed) for c in choices]
    budget = whole_deals(games, v.n_sides)
    what = {"command": "sweep", "rules": v.to_dict(), "seed": seed, "strategy": base.label, "opponent": opp.label,
            "rows": [c.label for c in choices], **what_seating(v, mode)}
    root = prepare_output(out, force, what, grows=("rows",)) if out is not None else None  # a row more: only it plays
    outs = [root / f"{folder_name(c.label)}.parquet" for c in choices] if root else None
    with Experiment(jobs, budget, outs, workers=workers, progress=progress, scheduler=scheduler, force=force,
                    describe="this sweep row", parents=True, command="sweep") as exp:
        exp.advance()
    out_rows = []
    for k, (row, c) in enumerate(zip(rows, choices, strict=True)):
        rec: dict[str, Any] = {name: c.spec.knob(name).show(c.params[c.spec.knob(name).slot]) for name in row}
        rec["strategy"] = c.label
        sides = side_strategies(v, "row", "opponent", mode)
        h2h = exp.summary(k, "row", "opponent", budget, labels=sides, confidence=CONFIDENCE)
        rates = exp.win_rates(k, labels=sides)  # from the running totals: no table of the row's games
        rec.update({"games": budget, "wins": int(rates.loc[rates["strategy"] == "row", "wins"].sum())})
        rec.update({k2: h2h[k2] for k2 in SWEEP_COLUMNS})
        out_rows.append(rec)
    df = pd.DataFrame(out_rows)
    for name in (rows[0] if rows else {}):  # numbers as numbers (sim.records.tidy): a curve plots against the knob
        df[name] = knob_column(list(df[name]), base.spec.knob(name))
    df["real"] = holm(df["p_value"].to_numpy(), ALPHA_HOLM)
    df.attrs.update({"variant": v.name, "opponent": opp.label, "seed": seed, "games_per_row": budget,
                     "seating": mode.value, "seating_text": seating_text(v, mode, "the row", opp.label),
                     "strategy": base.label, "grid": {k: [str(x) for x in vals] for k, vals in grid.items()}
                     if not isinstance(grid, pd.DataFrame) else grid.to_dict("list"),
                     **{k: exp.run_meta(0)[k] for k in ("rules", "house_rules", "package_version", "code_version",
                                                          "machine")},
                     "wall_seconds": round(exp.wall, 3)})
    if root is not None:
        write_parquet(df, dict(df.attrs), root / SWEEP_FILE)
        write_output_record(root, what)
    return df


SWEEP_COLUMNS = ("deals", "won_all", "split", "lost_all", "win_rate", "win_low", "win_high", "margin", "margin_low",
                 "margin_high", "elo", "elo_low", "elo_high", "p_value")


def row_deals(folder: str | Path, row: str, opponent: str, games: int) -> pd.DataFrame:
    """One sweep row's first `games` games read deal by deal: the row's share of the games won on each deal
    (`share`: the rotations one of its sides won, over the rotations played; `fair`: its sides over all) and its
    head-to-head score against the opponent (`score`, sim.stats.pair_values), with the hands ended by the turn cap.
    Rows of one sweep share their deals, so two rows compare deal by deal (sim.stats.selection)."""
    from sim.records.results import read
    from sim.stats import pair_values

    g = read(folder, games=games).games
    k = sum(1 for c in g.columns if c.startswith("score_"))
    labels = np.column_stack([g[f"strategy_{s}"].astype(str).to_numpy() for s in range(k)])
    present = set(labels.ravel())
    row_side = next((x for x in present if set(x.split("+")) == {row}), row)  # partners: `A+A`
    opp_side = next((x for x in present if set(x.split("+")) == {opponent}), opponent)
    if row_side == opp_side:  # the row is its opponent's own play: every seat the same, even by construction
        deals = np.unique(g["deal"].to_numpy())
        per = g.groupby("deal", sort=True).agg(hands=("n_hands", "sum"), capped=("capped_hands", "sum"))
        fair = 1 / k
        return pd.DataFrame({"deal": deals, "share": fair, "fair": fair, "hands": per["hands"].to_numpy(),
                             "capped": per["capped"].to_numpy(), "score": 0.5})
    mine = labels == row_side
    if not mine.any(axis=1).all():
        raise ValueError(f"{str(folder)!r}: {row!r} does not play every game; labels present: "
                         f"{sorted(set(labels.ravel()))}")
    winner = g["winner_side"].to_numpy()
    won = mine[np.arange(len(g)), np.clip(winner, 0, k - 1)] & (winner >= 0)
    per = pd.DataFrame({"deal": g["deal"].to_numpy(), "won": won.astype(float), "fair": mine.sum(axis=1) / k,
                        "hands": g["n_hands"].to_numpy(), "capped": g["capped_hands"].to_numpy()})
    out = per.groupby("deal", sort=True).agg(share=("won", "mean"), fair=("fair", "mean"), hands=("hands", "sum"),
                                             capped=("capped", "sum"))
    pv = pair_values(g, row_side, opp_side)
    out = out.loc[pv.deal_ids]  # complete deals only, as the head to head reads them
    out["score"] = pv.deal_x
    return out.reset_index()
