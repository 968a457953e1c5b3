"""`canasta-lab analyse` and `learn`: the value of each option at one decision, and discard weights learned
from a lookahead player's choices."""

from __future__ import annotations

import argparse
from pathlib import Path

from sim.cli.common import CliError, natural, positive
from sim.rules import get_variant
from strategies import parse_strategy


def cmd_analyse(args: argparse.Namespace) -> None:
    from sim.analysis.analyse import command

    print(command(args.transcript, args.decision, args.position, args.list, args.samples, args.seed, args.rollout,
                  args.out, args.force))


def cmd_learn(args: argparse.Namespace) -> None:
    import pandas as pd

    from sim.analysis.learn import CHECK_SEED, fit_games, learn_discards, save

    v = get_variant(args.variant, args.players)
    for s in [args.strategy, *args.against]:
        parse_strategy(s).refuse_idle(v)
    if args.out is not None and Path(args.out).exists():
        raise CliError(f"--out {args.out}: already exists; give a new folder (nothing was written)")
    r = learn_discards(v, args.strategy, args.against or ["expert"], args.games, args.seed, args.workers, args.check)
    fast = parse_strategy(r.fast).at(v).knob_values()
    print(f"{v.name}: discard weights learned from {r.player}'s ranked discards against "
          f"{', '.join(r.opponents)} ({r.decisions} decisions of {fit_games(r.games)} games; "
          f"`{r.command}`)\n")
    table = pd.DataFrame({"knob": list(r.weights), "learned": list(r.weights.values()),
                          r.fast: [fast[k] for k in r.weights]})
    print(table.to_string(index=False))
    print(f"\nheld-out games ({r.held_out} decisions): the learned weights pick {r.player}'s card at "
          f"{r.agree:.3f} of its discards, {r.fast}'s at {r.agree_fast:.3f}")
    if r.check is not None:
        c = r.check
        print(f"{r.fast} with them against {r.fast} without, {int(c['games']):,} games on fresh deals (seed "
              f"{r.seed + CHECK_SEED}): win rate {c['win_rate']:.3f} [{c['win_low']:.3f}, {c['win_high']:.3f}], "
              f"Elo {c['elo']:+.1f} [{c['elo_low']:+.1f}, {c['elo_high']:+.1f}]")
    print(f"play them: {r.fast}:{r.setting}")
    if args.out is not None:
        print(f"training data and provenance: {save(r, args.out)}")


def add(sub: argparse._SubParsersAction) -> None:
    """Add analyse and learn."""
    p = sub.add_parser("analyse", help="the value of each legal option at one decision of a transcript (or a position "
                                       "written by hand): mean hand margin and win chance over rollouts, best first")
    p.add_argument("transcript", nargs="?", help="a transcript written by `canasta-lab transcript`")
    p.add_argument("--decision", type=natural, metavar="N", help="the decision, numbered from 0 as --list lists them")
    p.add_argument("--list", action="store_true", help="list the transcript's decisions with their numbers")
    p.add_argument("--position", metavar="FILE", help="a position written by hand (docs/analysis.md) instead")
    p.add_argument("--samples", type=positive, help="samples of the hidden cards (default 200)")
    p.add_argument("--seed", type=natural, help="seed of the samples (default 0)")
    p.add_argument("--rollout", help="the fast player of the rollouts, on every seat (default expert; as search's "
                                     "rollout knob)")
    p.add_argument("--out", metavar="FILE", help="also write the table, .csv or .json")
    p.add_argument("--force", action="store_true", help="replace an existing --out file")
    p.set_defaults(func=cmd_analyse)

    p = sub.add_parser("learn", help="learn the discard scorer's weights (knobs d_*, at Buraco bd_*) from a "
                                     "lookahead player's choices (scikit-learn, the `learn` extra)")
    p.add_argument("variant", help="a variant name (see `canasta-lab variants`)")
    p.add_argument("-s", "--strategy", default="search:rollout=expert",
                   help="the player whose discards are learned (default search:rollout=expert)")
    p.add_argument("--against", action="append", default=[], metavar="STRATEGY",
                   help="its opponents (default expert; repeat for more seats)")
    p.add_argument("--games", type=positive, required=True, help="games traced; the last fifth measure the weights")
    p.add_argument("--seed", type=natural, required=True, help="master seed (non-negative)")
    p.add_argument("--players", type=positive, help="player count, with a family name (classic --players 3)")
    p.add_argument("--workers", type=positive, default=1, help="processes tracing games (default 1)")
    p.add_argument("--check", type=natural, default=0, metavar="GAMES",
                   help="also play the fast player with the learned weights against itself without them, head to "
                        "head on fresh deals (seed + 1,000,000): the games that say whether to keep them")
    p.add_argument("--out", metavar="FOLDER", help="a new folder for the training data (decisions.parquet) and the "
                                                   "weights with their provenance (weights.json)")
    p.set_defaults(func=cmd_learn)
