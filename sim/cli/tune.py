"""`canasta-lab tune`: a strategy's knobs searched against an opponent, the winner confirmed and saved."""

from __future__ import annotations

import argparse

from sim.cli.common import load_user_files, natural, positive
from sim.rules import get_variant, with_rules


def cmd_tune(args: argparse.Namespace) -> None:
    from sim.analysis.tune import tune

    load_user_files(args.load)
    v = with_rules(get_variant(args.variant, args.players), args.rule)
    save = args.save if args.save is not None else f"{args.name}.py"
    r = tune(v, args.strategy, args.vs, args.knobs, args.budget, seed=args.seed, trials=args.trials,
             confirm=args.confirm, workers=args.workers, scheduler=args.scheduler, name=args.name, save=save,
             force=args.force, progress=not args.quiet, loads=args.load)
    print(r.table())


def add(sub: argparse._SubParsersAction) -> None:
    """Add tune."""
    p = sub.add_parser("tune", help="search a strategy's knobs against an opponent (Optuna TPE on duplicate deals), "
                                    "confirm the winner on fresh deals, save it as a strategy file")
    p.add_argument("strategy", help="the strategy to tune, optionally with knobs fixed, e.g. baseline:meld=three")
    p.add_argument("--vs", required=True, metavar="OPPONENT", help="the opponent every trial plays, with knobs")
    p.add_argument("--knobs", required=True, metavar="K1,K2,...",
                   help="the knobs to search, each over its range and named values, or K=LOW..HIGH (e.g. "
                        "min_pile,freeze=0..30)")
    p.add_argument("--budget", type=positive, required=True, help="games for all the trials together")
    p.add_argument("--variant", default="classic-4p", help="a variant name (default classic-4p)")
    p.add_argument("--players", type=positive, help="player count, with a family name (classic --players 3)")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE", help="a house rule (repeatable)")
    p.add_argument("--load", action="append", default=[], metavar="FILE.py",
                   help="Python file defining user strategies (strategies.user); repeatable")
    p.add_argument("--seed", type=natural, default=0, help="master seed of the search deals (default 0); the "
                                                           "confirmation plays the deals of seed + 1000000")
    p.add_argument("--trials", type=positive,
                   help="trials (default one per 2000 games of budget, at least 5, at most 25 per knob)")
    p.add_argument("--confirm", type=positive,
                   help="games per confirmation match on fresh deals (default a quarter of the budget, at least 2000)")
    p.add_argument("--name", default="tuned", help="the tuned strategy's name (default tuned)")
    p.add_argument("--save", metavar="FILE.py", help="the strategy file to write (default NAME.py)")
    p.add_argument("--workers", type=natural, default=0, help="worker processes on this machine (default 0: every "
                                                              "core)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="play on a Dask cluster instead (README, 'A cluster')")
    p.add_argument("--force", action="store_true", help="replace an existing strategy file")
    p.add_argument("--quiet", action="store_true", help="no line per trial")
    p.set_defaults(func=cmd_tune)
