"""`canasta-lab sweep`, `profile` and `overrides`: one strategy's knobs swept against an opponent, how
strategies play, and where a lookahead player chooses otherwise than its fast player."""

from __future__ import annotations

import argparse
from pathlib import Path

from sim.cli.common import (
    RESUME,
    CliError,
    chosen_seating,
    positive,
    running_options,
    seating_option,
    setup_options,
    setup_variant,
    wants_progress,
)
from sim.run.seating import Seating
from strategies import parse_strategy


def _grid(items: list[str]) -> dict[str, list[str]]:
    grid: dict[str, list[str]] = {}
    for item in items:
        name, eq, values = item.partition("=")
        if not eq or not values.strip():
            raise CliError(f"--grid {item!r}: write knob=value,value,..., e.g. --grid min_pile=1,3,5")
        if name.strip() in grid:
            raise CliError(f"--grid {name.strip()} is given twice; give each knob once, with all its values")
        grid[name.strip()] = [x.strip() for x in values.split(",")]
    return grid


def cmd_sweep(args: argparse.Namespace) -> None:
    from sim.analysis.sweep import grid_rows, sweep

    if len(args.strategy) > 1:
        raise CliError(f"sweep varies one strategy, got {len(args.strategy)} (-s {' -s '.join(args.strategy)}); "
                       "give one -s and the fixed opponent with --vs")
    args.strategy = args.strategy[0]
    v = setup_variant(args)
    base = parse_strategy(args.strategy)
    opp = parse_strategy(args.vs)
    grid = _grid(args.grid)
    grid_rows(base, grid)  # every value checked before the output path and any game
    seating = chosen_seating(args, [v])
    df = sweep(v, args.strategy, grid, args.vs, args.games, args.seed, args.workers, progress=wants_progress(args),
               out=args.out, scheduler=args.scheduler, force=args.force, seating=seating)
    print(f"{v.name}: {base.label} against {opp.label}, {df.attrs['games_per_row']} games per row "
          f"({df['deals'].iat[0]} duplicate deals), seed {args.seed}; seating: {df.attrs['seating_text']}")
    print(df.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    print(f"real: the row differs from {opp.label} at a family-wise 5% (Holm's correction over {len(df)} rows)")
    if args.out:
        print(f"table: {Path(args.out) / 'sweep.parquet'}; one run folder per row")


def cmd_profile(args: argparse.Namespace) -> None:
    from sim.analysis.profile import markdown, profile, table, to_json
    from sim.records.outputs import PROFILE_FILE

    v = setup_variant(args, seats_limit=not args.mirror)
    df = profile(v, args.strategy, args.games, args.seed, mirror=args.mirror, workers=args.workers, out=args.out,
                 progress=wants_progress(args), scheduler=args.scheduler, force=args.force)
    if args.json:
        print(to_json(df))
    elif args.markdown:
        print(markdown(df))
    else:
        print(table(df))
        if args.out:
            print(f"table: {Path(args.out) / PROFILE_FILE}; games and hands in the run folder(s) beside it")


def cmd_overrides(args: argparse.Namespace) -> None:
    from sim.analysis.overrides import overrides

    v = setup_variant(args)
    if args.fast is not None:
        parse_strategy(args.fast).refuse_idle(v)
    o = overrides(v, args.strategy[0], args.fast, args.games, args.seed, opponents=args.strategy[1:] or ["baseline"])
    real = o.decisions[o.decisions["n"] > 1]
    print(f"{v.name}: {o.player} overrides {o.fast} at {int(real['override'].sum())} of {len(real)} decisions with "
          f"more than one option ({args.games} games, seed {args.seed}); `{o.command}`\n")
    print(o.summary.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    for name, t in (("stock left", o.by_stock), ("pile size", o.by_pile)):
        print(f"\nshare of decisions overridden, by {name}:")
        wide = t.pivot(index=t.columns[1], columns="point", values="overridden")
        print(wide.to_string(float_format=lambda x: f"{x:.2f}"))


def add(sub: argparse._SubParsersAction) -> None:
    """Add sweep, profile and overrides."""
    p = sub.add_parser("sweep", help="play a grid of knob values against a fixed opponent, one row each")
    setup_options(p, several=False)
    p.add_argument("--vs", default="baseline", help="the fixed opponent (default baseline)")
    p.add_argument("--grid", action="append", required=True, metavar="KNOB=V1,V2,...",
                   help="values of one knob; repeat for more knobs (the rows are every combination)")
    p.add_argument("--games", type=positive, required=True, help="games per parameter row, rounded up to whole deals")
    p.add_argument("--out", metavar="FOLDER", help="sweep.parquet and one run folder per row: " + RESUME)
    seating_option(p, Seating.REST.value, "how each row and the opponent share the sides")
    running_options(p, "replace run folders that hold another run")
    p.set_defaults(func=cmd_sweep)

    p = sub.add_parser("profile", help="how strategies play: hands, turns, how hands end, canastas, scores, takes, "
                                       "freezes, asks")
    setup_options(p)
    p.add_argument("--games", type=positive, required=True, help="games (per strategy with --mirror), rounded up to "
                                                                 "whole deals")
    p.add_argument("--mirror", action="store_true",
                   help="each strategy plays its own games against itself (one row each), not against the others")
    p.add_argument("--out", metavar="FOLDER", help="profile.parquet and the run folder(s) with every hand: " + RESUME)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true", help="one JSON document instead of the table")
    g.add_argument("--markdown", action="store_true", help="a Markdown table (docs/strategies.md)")
    running_options(p, "replace run folders that hold another run")
    p.set_defaults(func=cmd_profile)

    p = sub.add_parser("overrides", help="where a lookahead player (search) chooses otherwise than its fast player, "
                                         "by decision point and situation")
    setup_options(p)
    p.add_argument("--games", type=positive, required=True, help="games of the first strategy against the others "
                                                                 "(default opponent baseline)")
    p.add_argument("--fast", help="the fast player to compare with (default the first strategy's rollout player)")
    p.set_defaults(func=cmd_overrides)
