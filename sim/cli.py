"""The `canasta-lab` command line (DESIGN.md: names and formats are a contract)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from strategies import REGISTRY, StrategyError, parse_strategy

from .rules import PRESETS, RulesError, get_variant


class CliError(Exception):
    """Bad input: printed as one line, exit status 2."""


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}") from None
    if n <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {n}")
    return n


def _natural(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative whole number, got {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative whole number, got {n}")
    return n


def load_user_files(paths: list[str]) -> None:
    """Run Python files that define user strategies (strategies.user), so their names resolve."""
    import runpy

    for path in paths:
        if not Path(path).is_file():
            raise CliError(f"--load {path}: no such file; give a Python file that defines user strategies")
        try:
            runpy.run_path(path, run_name="canasta_lab_user")
        except StrategyError:
            raise
        except Exception as exc:  # the user's file: report it in one line, whatever it raised
            raise CliError(f"--load {path}: {type(exc).__name__}: {exc}") from None


def _check_setup(args: argparse.Namespace) -> None:
    """Resolve the variant (and --players) and parse every strategy before any work starts."""
    load_user_files(args.load)
    args.variant = get_variant(args.variant, args.players).name
    for s in args.strategy:
        parse_strategy(s)
    players = get_variant(args.variant).players
    if len(args.strategy) > players:
        raise CliError(f"{args.variant} has {players} seats; give 1 to {players} strategies, not {len(args.strategy)}")


def cmd_variants(args: argparse.Namespace) -> None:
    for v in PRESETS.values():
        print(f"{v.name:<12} {v.players} players  {v.description}")


def cmd_strategies(args: argparse.Namespace) -> None:
    load_user_files(args.load)
    for spec in REGISTRY.values():
        origin = f" (user, over {spec.base})" if spec.fn is not None else ""
        print(f"{spec.name}{origin}: {spec.description}")
        for k in spec.knobs:
            print(f"    {k.name:<12} default {k.show(k.default):<6} {k.meaning}")
            print(f"    {'':<12} accepted: {k.accepted()}")


def cmd_play(args: argparse.Namespace) -> None:
    from .results import check_writable, play, write_parquet
    from .stats import win_rates

    _check_setup(args)
    out = check_writable(args.out, args.force) if args.out else None
    hands_out = check_writable(args.hands_out, args.force) if args.hands_out else None
    bar = None
    if args.progress:
        from tqdm import tqdm

        bar = tqdm(total=args.games, unit="game", file=sys.stderr)
    res = play(args.variant, args.strategy, args.games, args.seed, workers=args.workers,
               hands=hands_out is not None, progress=bar.update if bar else None)
    if bar:
        bar.close()
    if out:
        write_parquet(res.games, res.meta, out)
    if hands_out and res.hands is not None:
        write_parquet(res.hands, res.meta, hands_out)
    print(win_rates(res.games).to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    g = res.games
    print(f"{len(g)} games, {int(g.n_hands.sum())} hands, {int(g.capped_hands.sum())} hands ended by the turn cap, "
          f"{int(g.capped_game.sum())} games by the hand cap, {res.meta['wall_seconds']:.2f} s")


def cmd_compare(args: argparse.Namespace) -> None:
    from .reports import compare_report

    _check_setup(args)
    if len(args.strategy) < 2:
        raise CliError("compare needs at least two strategies (-s A -s B)")
    text = compare_report(args.variant, args.strategy, args.games, args.seed, Path(args.out), args.workers)
    print(text)


def cmd_transcript(args: argparse.Namespace) -> None:
    from .transcript import write_transcript

    _check_setup(args)
    n = write_transcript(args.variant, args.strategy, args.seed, args.game, args.out, args.force)
    print(f"wrote {n} events to {args.out}")


def _grid(items: list[str]) -> dict[str, list[str]]:
    grid: dict[str, list[str]] = {}
    for item in items:
        name, eq, values = item.partition("=")
        if not eq or not values.strip():
            raise CliError(f"--grid {item!r}: write knob=value,value,..., e.g. --grid min_pile=1,3,5")
        grid[name.strip()] = [x.strip() for x in values.split(",")]
    return grid


def cmd_sweep(args: argparse.Namespace) -> None:
    from . import __version__
    from .results import check_writable, write_parquet
    from .sweep import grid_rows, sweep

    load_user_files(args.load)
    args.variant = get_variant(args.variant, args.players).name
    base = parse_strategy(args.strategy)
    parse_strategy(args.vs)
    grid = _grid(args.grid)
    rows = grid_rows(base.spec, grid)
    out = check_writable(args.out, args.force) if args.out else None
    bar = None
    if args.progress:
        from tqdm import tqdm

        bar = tqdm(total=args.games * len(rows), unit="game", file=sys.stderr)
    df = sweep(args.variant, args.strategy, grid, args.vs, args.games, args.seed, args.workers,
               progress=bar.update if bar else None)
    if bar:
        bar.close()
    if out:
        meta = {**df.attrs, "strategy": base.label, "grid": grid, "package_version": __version__}
        write_parquet(df, meta, out)
    print(f"{args.variant}: {base.label} against {args.vs}, {args.games} games per row, seed {args.seed}")
    print(df.to_string(index=False, float_format=lambda x: f"{x:.3f}"))


def cmd_bench(args: argparse.Namespace) -> None:
    from .bench import bench

    variants = args.variants or ["classic-4p"]
    for v in variants:
        get_variant(v)
    for v in variants:
        r = bench(v, args.seconds)
        if args.json:
            print(json.dumps(r))
        else:
            print(f"{v}: {r['hands_per_second']:,.0f} hands/s, {r['games_per_second']:,.0f} games/s "
                  f"(baseline vs baseline, {r['hands_per_game']} hands a game); "
                  f"{r['us_per_decision']:.2f} us/decision (random vs random); "
                  f"warm start {r['warm_start_seconds']:.2f} s; a user strategy plays its first game "
                  f"{r['user_first_game_seconds']:.2f} s after its definition")


class OneLineParser(argparse.ArgumentParser):
    """Usage errors as one line naming what was wrong (DESIGN.md, "Errors and bad input")."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    ap = OneLineParser(prog="canasta-lab", description="Monte Carlo strategy analysis for Canasta.")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=OneLineParser)

    p = sub.add_parser("variants", help="list the variants with players and one-line description")
    p.set_defaults(func=cmd_variants)
    p = sub.add_parser("strategies", help="list strategies and their knobs")
    p.add_argument("--load", action="append", default=[], metavar="FILE.py",
                   help="also list the user strategies this Python file defines (repeatable)")
    p.set_defaults(func=cmd_strategies)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("variant", help="a variant name (see `canasta-lab variants`)")
        p.add_argument("-s", "--strategy", action="append", required=True,
                       help="strategy with optional knobs, e.g. baseline:min_pile=5; repeat for more seats")
        p.add_argument("--seed", type=_natural, required=True, help="master seed (non-negative)")
        p.add_argument("--players", type=_positive, help="player count, with a family name (classic --players 3)")
        p.add_argument("--load", action="append", default=[], metavar="FILE.py",
                       help="Python file defining user strategies (strategies.user); repeatable")

    p = sub.add_parser("play", help="play N games and write one row per game")
    common(p)
    p.add_argument("--games", type=_positive, required=True, help="number of games (positive)")
    p.add_argument("--out", help="results file (.parquet)")
    p.add_argument("--hands-out", help="also write one row per hand (.parquet)")
    p.add_argument("--workers", type=_natural, default=1, help="processes (0 = every core)")
    p.add_argument("--force", action="store_true", help="overwrite existing output files")
    p.add_argument("--progress", action="store_true", help="show a progress bar")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("compare", help="compare strategies: table, paired differences, chart and report")
    common(p)
    p.add_argument("--games", type=_positive, required=True)
    p.add_argument("--out", required=True, help="report folder (Markdown, PNG, Parquet)")
    p.add_argument("--workers", type=_natural, default=1)
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("transcript", help="write one game's full transcript (JSON Lines)")
    common(p)
    p.add_argument("--game", type=_natural, required=True, help="game index within the run")
    p.add_argument("--out", required=True, help="output file (.jsonl)")
    p.add_argument("--force", action="store_true", help="overwrite an existing file")
    p.set_defaults(func=cmd_transcript)

    p = sub.add_parser("sweep", help="play a grid of knob values against a fixed opponent, one row each")
    p.add_argument("variant", help="a variant name (see `canasta-lab variants`)")
    p.add_argument("-s", "--strategy", required=True, help="the strategy swept, with any fixed knobs")
    p.add_argument("--vs", default="baseline", help="the fixed opponent (default baseline)")
    p.add_argument("--grid", action="append", required=True, metavar="KNOB=V1,V2,...",
                   help="values of one knob; repeat for more knobs (the rows are every combination)")
    p.add_argument("--games", type=_positive, required=True, help="games per parameter row")
    p.add_argument("--seed", type=_natural, required=True, help="master seed (the same deals for every row)")
    p.add_argument("--players", type=_positive, help="player count, with a family name")
    p.add_argument("--workers", type=_natural, default=1, help="processes (0 = every core)")
    p.add_argument("--out", help="table file (.parquet, with the sweep in its metadata)")
    p.add_argument("--force", action="store_true", help="overwrite an existing output file")
    p.add_argument("--progress", action="store_true", help="show a progress bar")
    p.add_argument("--load", action="append", default=[], metavar="FILE.py",
                   help="Python file defining user strategies; repeatable")
    p.set_defaults(func=cmd_sweep)

    p = sub.add_parser("bench", help="measure hands/s, games/s, us/decision and warm start on one core")
    p.add_argument("variants", nargs="*", help="variants (default classic-4p)")
    p.add_argument("--json", action="store_true", help="one JSON object per variant")
    p.add_argument("--seconds", type=float, default=3.0, help="minimum timed seconds per figure")
    p.set_defaults(func=cmd_bench)
    return ap


def main(argv: list[str] | None = None) -> int:
    from .results import ResultsError
    from .runner import EngineError

    ap = build_parser()
    args = ap.parse_args(argv)
    try:
        args.func(args)
    except (RulesError, StrategyError, CliError, ResultsError, ValueError) as exc:
        print(f"canasta-lab: error: {exc}", file=sys.stderr)
        return 2
    except EngineError as exc:
        print(f"canasta-lab: engine error: {exc}", file=sys.stderr)
        return 3
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
