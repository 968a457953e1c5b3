"""`canasta-lab play`, `compare`, `tournament` and `transcript`: games between strategies, their results,
a comparison on duplicate deals, a round robin, and one game's transcript."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from sim.cli.common import (
    RESUME,
    CliError,
    chosen_seating,
    natural,
    positive,
    running_options,
    seating_line,
    seating_option,
    setup_options,
    setup_variant,
    wants_progress,
)
from sim.run.runner import make_job
from sim.run.seating import Seating

if TYPE_CHECKING:
    from sim.run.experiment import Experiment


def cmd_play(args: argparse.Namespace) -> None:
    from sim.run.experiment import Experiment

    v = setup_variant(args)
    if args.hands and not args.out:
        raise CliError("--hands records one row per hand in the run folder; give --out FOLDER with it")
    job = make_job(v, args.strategy, args.seed)
    with Experiment([job], args.games, [args.out] if args.out else None, hands=args.hands, workers=args.workers,
                    progress=wants_progress(args), scheduler=args.scheduler, force=args.force,
                    describe="this command", per_game=False) as exp:
        print(seating_line(job), flush=True)  # once the output is checked: a refusal prints one line only
        _say_resumed(exp, args)
        exp.advance()
    t = exp.totals(0)  # running totals: nothing is kept per game, so memory stays flat at any size
    print(exp.win_rates(0).to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    print(f"{args.games} games, {t['n_hands']} hands, {t['capped_hands']} hands ended by the turn cap, "
          f"{t['capped_game']} games by the hand cap, {exp.wall:.2f} s"
          + (f"; results in {args.out}" if args.out else ""))


def _say_resumed(exp: Experiment, args: argparse.Namespace) -> None:
    done = sum(exp.resumed)
    if done:
        print(f"resuming: {done} games already in {args.out} are not played again")


def cmd_compare(args: argparse.Namespace) -> None:
    from sim.analysis.compare import compare

    v = setup_variant(args)
    if len(args.strategy) < 2:
        raise CliError("compare needs at least two strategies (-s A -s B)")
    if args.batch is not None and args.sprt is None:
        raise CliError("--batch sets the looks of a sequential test; give --sprt with it")
    from sim.analysis.compare import SPRT_BATCH_GAMES

    seating = chosen_seating(args, [v])
    c = compare(v, args.strategy, args.games, args.seed, workers=args.workers, out=args.out, sprt=args.sprt,
                batch=args.batch or SPRT_BATCH_GAMES, progress=wants_progress(args), scheduler=args.scheduler,
                force=args.force, seating=seating)
    if c.meta.get("resumed_games"):
        print(f"resumed: {c.meta['resumed_games']} games were already in {args.out} and were not played again")
    print(c.table())
    if args.out:
        out = Path(args.out)
        print(f"report: {out / 'report.md'}  chart: {out / 'win_rates.png'}  pairs: {out / 'pairs.parquet'}  "
              f"games: {out / 'games.parquet'}")


def cmd_tournament(args: argparse.Namespace) -> None:
    from sim.analysis.compare import tournament

    args.strategy = args.strategies
    v = setup_variant(args, seats_limit=False)
    seating = chosen_seating(args, [v])
    t = tournament(v, args.strategies, args.games, args.seed, workers=args.workers, out=args.out,
                   progress=wants_progress(args), scheduler=args.scheduler, force=args.force, seating=seating)
    print(t.table())
    if args.out:
        print(f"report: {Path(args.out) / 'report.md'}; tables pairs.parquet, ranking.parquet, matrix.parquet and "
              "one run folder per pair")


def cmd_transcript(args: argparse.Namespace) -> None:
    from sim.records.transcript import write_transcript

    v = setup_variant(args)
    n = write_transcript(v, args.strategy, args.seed, args.game, args.out, args.force)
    print(f"wrote {n} events to {args.out}")


def add(sub: argparse._SubParsersAction) -> None:
    """Add play, compare, tournament and transcript."""
    p = sub.add_parser("play", help="play N games and write one row per game")
    setup_options(p)
    p.add_argument("--games", type=positive, required=True, help="number of games (positive)")
    p.add_argument("--out", metavar="FOLDER", help="run folder of Parquet parts (e.g. run.parquet): " + RESUME)
    p.add_argument("--hands", action="store_true", help="also record one row per hand in the run folder")
    running_options(p, "replace a run folder that holds another run")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("compare", help="head to head on duplicate deals: pair counts, intervals, Elo, SPRT")
    setup_options(p)
    p.add_argument("--games", type=positive, required=True,
                   help="number of games, rounded up to whole deals (with --sprt: the budget)")
    p.add_argument("--sprt", metavar="H0,H1",
                   help="stop when decided: elo0=0,elo1=10 (or p0=0.5,p1=0.52, or margin0=0,margin1=50), "
                        "optionally ,alpha=0.05,beta=0.05")
    p.add_argument("--batch", type=positive, help="with --sprt: games between two looks (default 2000, at least 100)")
    seating_option(p, Seating.ALTERNATE.value, "how two strategies share the sides")
    p.add_argument("--out", metavar="FOLDER",
                   help="report folder (report.md, win_rates.png, pairs.parquet, games.parquet run folder): " + RESUME)
    running_options(p, "replace a report folder that holds another run")
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("tournament", help="round robin on duplicate deals: matrix, ranking by Elo, Holm")
    p.add_argument("variant", help="a variant name (see `canasta-lab variants`)")
    p.add_argument("strategies", nargs="+", metavar="STRATEGY", help="two or more strategies with optional knobs")
    p.add_argument("--games", type=positive, required=True, help="games per pair, rounded up to whole deals")
    p.add_argument("--seed", type=natural, required=True, help="master seed (non-negative)")
    p.add_argument("--players", type=positive, help="player count, with a family name (classic --players 3)")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE", help="a house rule (repeatable)")
    p.add_argument("--load", action="append", default=[], metavar="FILE.py",
                   help="Python file defining user strategies (strategies.user); repeatable")
    p.add_argument("--out", metavar="FOLDER", help="tables, report and one run folder per pair: " + RESUME)
    seating_option(p, Seating.REST.value, "how the two strategies of each pair share the sides")
    running_options(p, "replace run folders that hold another run")
    p.set_defaults(func=cmd_tournament)

    p = sub.add_parser("transcript", help="write one game's full transcript (JSON Lines)")
    setup_options(p)
    p.add_argument("--game", type=natural, required=True, help="game index within the run")
    p.add_argument("--out", required=True, help="output file (.jsonl)")
    running_options(p, "overwrite an existing file", cluster=False)
    p.set_defaults(func=cmd_transcript)
