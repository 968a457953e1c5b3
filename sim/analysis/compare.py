"""Head-to-head comparisons and round robins on duplicate deals, read with pair statistics.

A deal is played once per rotation of the seating (two games with two sides, three with three), so
the luck of the cards falls on both strategies alike; every interval here is computed on the deals,
not on the games as if they were independent (sim.stats.head_to_head). A comparison may stop early
under a sequential probability ratio test (`sprt`), looking at the deals in fixed batches so that the
decision does not depend on the number of workers.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.records.outputs import Comparison, Tournament, write_comparison, write_tournament
from sim.records.tidy import knob_table, with_knobs, with_pair_knobs
from sim.rules import Variant, get_variant
from sim.run.experiment import Experiment
from sim.run.frames import side_labels
from sim.run.output import folder_name, prepare_output, whole_deals, write_output_record
from sim.run.runner import Job, Progress, make_job, whole_number
from sim.run.seating import (
    Seating,
    parse_seating,
    refuse_mixed_sides,
    seat_list,
    seating_text,
    short,
    side_labels0,
    side_strategies,
    what_seating,
)
from sim.stats import (
    ALPHA_HOLM,
    CONFIDENCE,
    SprtSpec,
    elo_ranking,
    holm,
    parse_sprt,
    sprt_estimate,
    sprt_status,
    sprt_values,
)
from strategies import StrategyChoice, StrategySpec, parse_strategy

SPRT_BATCH_GAMES = 2000  # games between two looks of a sequential test (rounded up to whole deals)
SPRT_MIN_BATCH = 100  # fewer games a look would estimate the deals' spread from too few of them
RUN_DIR = "games.parquet"  # a comparison's run folder inside its output folder


def pair_rows(exp: Experiment, labels: Sequence[str], games: int) -> pd.DataFrame:
    rows = [{**exp.summary(0, a, b, games, confidence=CONFIDENCE), "a": short(a), "b": short(b)}
            for a, b in itertools.combinations(labels, 2)]
    return pairs_frame(rows)


def pairs_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The pairs as a typed table: `a` and `b` first, each with its name and knob columns (sim.records.tidy)."""
    df = pd.DataFrame(rows)
    return with_pair_knobs(df[["a", "b", *(c for c in df.columns if c not in ("a", "b"))]])


def compare(variant: str | Variant, strategies: Sequence[str | StrategySpec | StrategyChoice], games: int,
            seed: int, workers: int = 0, out: str | Path | None = None, sprt: str | SprtSpec | None = None,
            batch: int = SPRT_BATCH_GAMES, progress: Progress = None, scheduler: Any = None,
            force: bool = False, seating: str | Seating = Seating.ALTERNATE) -> Comparison:
    """Play `strategies` against each other on duplicate deals and read the pairs.

    `games` is rounded up to whole deals. With `sprt` ("elo0=0,elo1=10", "p0=0.5,p1=0.52" or
    "margin0=0,margin1=50", with optional alpha and beta), `games` is the budget: the test looks at
    the deals after every `batch` games and stops when it accepts a hypothesis. With `out`, the games
    go to `out/games.parquet` part by part, and the same call again resumes a stopped run.
    Two strategies at a game of three sides or more share them as `seating` says: `alternate` (the
    default: the strategies take the sides in turn, A, B, A, ...) or `rest` (A against a table of B).
    Everything is checked before any game is played."""
    v = get_variant(variant) if isinstance(variant, str) else variant
    if sprt is not None and not isinstance(sprt, str | SprtSpec):
        raise TypeError(f"sprt={sprt!r}: give a string such as 'elo0=0,elo1=10' (or a sim.stats.SprtSpec)")
    spec = parse_sprt(sprt) if isinstance(sprt, str) else sprt
    whole_number("games", games)
    if whole_number("batch", batch) < SPRT_MIN_BATCH:
        raise ValueError(f"batch must be at least {SPRT_MIN_BATCH} games: the test reads the spread of the deals "
                         f"at every look, which a handful of deals cannot show; got {batch}")
    if isinstance(strategies, str | StrategySpec | StrategyChoice):
        strategies = [strategies]  # refused below as one strategy, not read letter by letter
    mode = parse_seating(seating)
    strategies = list(strategies)
    if len(strategies) == 2 and mode == Seating.REST and v.n_sides > 2:
        a, b = (parse_strategy(s) for s in strategies)
        strategies = seat_list(v, a, b, mode)  # the strategies as listed take the seats in turn: alternate
    job = make_job(v, strategies, seed)
    refuse_mixed_sides(job)
    labels = side_labels0(job)
    if len(labels) < 2:
        raise ValueError(f"compare needs two different strategies, got only {labels[0]!r} (one strategy against "
                         "itself plays the same games on every duplicate deal: even by construction)")
    if spec is not None and len(labels) != 2:
        raise ValueError(f"--sprt tests two strategies, got {len(labels)}: {', '.join(labels)}")
    rot = v.n_sides
    budget = whole_deals(games, rot)
    paired = len(labels) == 2
    what = {"command": "compare", "rules": v.to_dict(), "seed": seed, "strategies": [c.label for c in job.strategies],
            **(what_seating(v, mode) if paired else {})}
    run_dir = prepare_output(out, force, what) / RUN_DIR if out is not None else None
    sprt_state = None
    with Experiment([job], budget, [run_dir] if run_dir else None, workers=workers, progress=progress,
                    scheduler=scheduler, force=force, describe="this comparison", parents=True,
                    command="compare") as exp:
        if spec is None:
            exp.advance()
            used = budget
        else:
            step = min(whole_deals(batch, rot), budget)
            used, looks = 0, 0
            while True:
                used = min(used + step, budget)
                looks += 1
                exp.advance(used)
                values = sprt_values(spec, exp.deal_stats(0, labels[0], labels[1], used)[0])
                sprt_state = sprt_status(spec, values)
                if sprt_state["decision"] is not None or used >= budget:
                    break
            early = sprt_state["decision"] is not None and used < budget
            sprt_state.update(sprt_estimate(spec, values, step // rot, early, budget // rot))
            sprt_state.update({"spec": spec_text(spec), "kind": spec.kind, "h0": spec.h0, "h1": spec.h1,
                               "alpha": spec.alpha, "beta": spec.beta, "looks": looks, "games": used,
                               "budget": budget, "stopped_early": early, "batch_games": step})
        pairs = pair_rows(exp, labels, used)
    meta = exp.run_meta(0)
    meta.update({"games": used, "resumed_games": exp.resumed[0], "same_strategy": same_strategy_pairs(job, labels)})
    if paired:
        meta.update({"seating_mode": mode.value, "seating_text": seating_text(v, mode, short(labels[0]),
                                                                             short(labels[1]))})
    exp.release()
    result = Comparison(v.name, [short(x) for x in labels], pairs, used, seed, sprt_state, meta)
    if out is not None:
        write_comparison(result, Path(out))
        write_output_record(Path(out), what)
    return result


def plays_alike(a: StrategyChoice, b: StrategyChoice) -> bool:
    """Two strategies that make the same decision everywhere: the same functions with the same knob values
    (at the variant: a knob left alone takes its default there, so `baseline` and `baseline:min_pile=3` play
    alike wherever 3 is min_pile's default)."""
    fa, fb = a.spec.functions(), b.spec.functions()
    return (len(fa) == len(fb) and all(f is g for f, g in zip(fa, fb, strict=True))
            and np.array_equal(a.params, b.params))


def same_strategy_pairs(job: Job, labels: Sequence[str]) -> list[list[str]]:
    """The pairs of side labels (short, as the pairs table names them) whose sides play alike seat for seat:
    a comparison of them measures nothing but the random draws of their decisions, if any."""
    sides = side_labels(job, 0)
    n = len(job.strategies)
    seats = {label: [job.strategies[p % n] for p in job.variant.sides[sides.index(label)]] for label in labels}
    return [[short(a), short(b)] for a, b in itertools.combinations(labels, 2)
            if all(plays_alike(x, y) for x, y in zip(seats[a], seats[b], strict=True))]


def spec_text(spec: SprtSpec) -> str:
    names = {"elo": ("elo0", "elo1"), "win_rate": ("p0", "p1"), "margin": ("margin0", "margin1")}[spec.kind]
    return f"{names[0]}={spec.h0:g},{names[1]}={spec.h1:g},alpha={spec.alpha:g},beta={spec.beta:g}"


# --- round robins -----------------------------------------------------------------------------------


def tournament(variant: str | Variant, strategies: Sequence[str | StrategySpec | StrategyChoice], games: int,
               seed: int, workers: int = 0, out: str | Path | None = None, progress: Progress = None,
               scheduler: Any = None, force: bool = False, seating: str | Seating = Seating.REST) -> Tournament:
    """Every pair of `strategies` plays `games` games (rounded up to whole deals) on the same duplicate
    deals: the matrix of win rates and margins, a ranking by Elo with intervals (least squares on the
    pairwise Elo differences), and which differences are real after Holm's correction for the number
    of pairs. With `out`, each pair's games go to their own run folder; a stopped round robin resumes.
    At a game of three sides or more each pair shares them as `seating` says (default `rest`: the first
    of the pair against a table of the second)."""
    v = get_variant(variant) if isinstance(variant, str) else variant
    mode = parse_seating(seating)
    whole_number("games", games)
    if isinstance(strategies, str | StrategySpec | StrategyChoice):
        strategies = [strategies]
    chosen = [parse_strategy(s) for s in strategies]
    if len(chosen) < 2:
        raise ValueError("a tournament needs at least two strategies")
    seen: dict[str, int] = {}
    for c in chosen:
        if c.label in seen:
            raise ValueError(f"strategy {c.label!r} is given twice; give each strategy once")
        seen[c.label] = 1
    pairs = list(itertools.combinations(range(len(chosen)), 2))
    jobs = [make_job(v, seat_list(v, chosen[i], chosen[j], mode), seed) for i, j in pairs]
    budget = whole_deals(games, v.n_sides)
    what = {"command": "tournament", "rules": v.to_dict(), "seed": seed, "strategies": [c.label for c in chosen],
            **what_seating(v, mode)}
    root = prepare_output(out, force, what) if out is not None else None
    outs = [root / f"{folder_name(chosen[i].label)}__vs__{folder_name(chosen[j].label)}.parquet"
            for i, j in pairs] if root else None
    with Experiment(jobs, budget, outs, workers=workers, progress=progress, scheduler=scheduler, force=force,
                    describe="this tournament", parents=True, command="tournament") as exp:
        exp.advance()
    rows = []
    for k, (i, j) in enumerate(pairs):
        rows.append({**exp.summary(k, "A", "B", budget, labels=side_strategies(v, "A", "B", mode),
                                  confidence=CONFIDENCE),
                     "a": chosen[i].label, "b": chosen[j].label})
    table = pairs_frame(rows)
    table["real"] = holm(table["p_value"].to_numpy(), ALPHA_HOLM)
    labels = [c.label for c in chosen]
    matrix = with_pair_knobs(long_matrix(table), "row", "column")
    ranking = with_knobs(elo_ranking(table[["a", "b", "elo", "elo_low", "elo_high"]]),
                         table=knob_table(labels, "varying"))
    meta = exp.run_meta(0)
    meta.update({"strategies": [{"label": c.label, "name": c.spec.name, "knobs": c.knob_values()} for c in chosen],
                 "games_per_pair": budget, "wall_seconds": round(exp.wall, 3), "seating_mode": mode.value,
                 "seating_text": seating_text(v, mode, "the first of a pair", "the second")})
    meta.pop("seating", None)
    result = Tournament(v.name, labels, table, matrix, ranking, budget, seed, meta)
    if root is not None:
        write_tournament(result, root)
        write_output_record(root, what)
    return result


def long_matrix(pairs: pd.DataFrame) -> pd.DataFrame:
    """Both directions of every pair: the row strategy's win rate and margin against the column's."""
    fwd = pd.DataFrame({"row": pairs["a"], "column": pairs["b"], "win_rate": pairs["win_rate"],
                        "win_low": pairs["win_low"], "win_high": pairs["win_high"], "margin": pairs["margin"],
                        "margin_low": pairs["margin_low"], "margin_high": pairs["margin_high"]})
    back = pd.DataFrame({"row": pairs["b"], "column": pairs["a"], "win_rate": 1 - pairs["win_rate"],
                         "win_low": 1 - pairs["win_high"], "win_high": 1 - pairs["win_low"],
                         "margin": -pairs["margin"] + 0.0, "margin_low": -pairs["margin_high"] + 0.0,
                         "margin_high": -pairs["margin_low"] + 0.0})
    return pd.concat([fwd, back], ignore_index=True)


