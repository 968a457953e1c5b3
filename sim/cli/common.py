"""What the commands of `canasta-lab` share: the one-line error, the argument types, the user strategy files,
the variant and strategies checked before any work, the progress bar, the seating, and the option groups that
several commands take (the variant and strategies, running, seating)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sim.rules import Variant, get_variant, with_rules
from sim.run.runner import Job
from sim.run.seating import Seating, seating_acts, two_sides_text
from strategies import StrategyError, parse_strategy, variant_text


class CliError(Exception):
    """Bad input: printed as one line, exit status 2."""


def positive(text: str) -> int:
    """An argument type: a whole number above 0."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}") from None
    if n <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {n}")
    return n


def natural(text: str) -> int:
    """An argument type: a whole number, 0 or more."""
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


def setup_variant(args: argparse.Namespace, seats_limit: bool = True) -> Variant:
    """Resolve the variant (with --players and --rule) and parse every strategy before any work."""
    load_user_files(args.load)
    v = with_rules(get_variant(args.variant, args.players), args.rule)
    strategies = args.strategy if isinstance(args.strategy, list) else [args.strategy]
    for s in strategies + ([args.vs] if getattr(args, "vs", None) else []):
        parse_strategy(s).refuse_idle(v)  # a knob set where it never acts: refused before any work
    if seats_limit and len(strategies) > v.players:
        raise CliError(f"{v.name} has {v.players} seats; give 1 to {v.players} strategies, not {len(strategies)}")
    return v


def wants_progress(args: argparse.Namespace) -> bool:
    """A progress bar on standard error: with --progress, or by default when it is a terminal. The
    runner makes it once the engine is compiled, so the "compiling the engine once" line stands alone."""
    return bool(args.progress) if args.progress is not None else sys.stderr.isatty()


def seating_line(job: Job) -> str:
    """Who sits where in a job's first deal, and the sides, as `play` states it."""
    seats = job.seat_labels(0)
    sides = " vs ".join("+".join(seats[p] for p in side) for side in job.variant.sides)
    return (f"seating: {', '.join(f'seat {p} {s}' for p, s in enumerate(seats))} "
            f"(sides {sides}; duplicate deals rotate it)")


SEATING_ACTS = "three or more sides play each for himself"  # where --seating changes the games (sim.run.seating)


def chosen_seating(args: argparse.Namespace, variants: list[Variant]) -> str:
    """The command's seating: --seating as given, or the command's default when it is left out. A --seating
    given where every game has two sides is refused in one line before any game: there both seatings play
    the same games, so the choice would be recorded and change nothing."""
    if args.seating is None:
        return args.seating_default
    if not any(seating_acts(v) for v in variants):
        if len(variants) == 1:
            where = f"{variant_text(variants[0])} has two sides ({two_sides_text(variants[0])})"
        else:
            where = f"every preset asked has two sides ({', '.join(v.name for v in variants)})"
        raise CliError(f"--seating {args.seating}: {where}, where both seatings play the same games; --seating "
                       f"acts only where {SEATING_ACTS} (e.g. classic-3p): leave it out")
    return args.seating


# the option groups several commands share, as the commands' parsers add them

def setup_options(p: argparse.ArgumentParser, several: bool = True) -> None:
    """The variant, the strategies (-s), --seed, --players, --rule and --load."""
    p.add_argument("variant", help="a variant name (see `canasta-lab variants`)")
    p.add_argument("-s", "--strategy", action="append", required=True,
                   help="strategy with optional knobs, e.g. baseline:min_pile=5"
                        + ("; repeat for more seats" if several else ""))
    p.add_argument("--seed", type=natural, required=True, help="master seed (non-negative)")
    p.add_argument("--players", type=positive, help="player count, with a family name (classic --players 3)")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help="a house rule, e.g. target_score=3000 (repeatable; `canasta-lab rules VARIANT` lists "
                        "the keys); recorded in the results")
    p.add_argument("--load", action="append", default=[], metavar="FILE.py",
                   help="Python file defining user strategies (strategies.user); repeatable")


def running_options(p: argparse.ArgumentParser, force_help: str = "overwrite existing output files",
                    cluster: bool = True) -> None:
    """--workers and --scheduler (with `cluster`), --force, and --progress or --quiet."""
    if cluster:
        p.add_argument("--workers", type=natural, default=0,
                       help="worker processes on this machine (default 0: every core)")
        p.add_argument("--scheduler", metavar="ADDRESS",
                       help="play on a Dask cluster instead, e.g. tcp://10.0.0.5:8786 (README, 'A cluster')")
    p.add_argument("--force", action="store_true", help=force_help)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="show a progress bar (the default when standard error is a terminal)")
    g.add_argument("--quiet", dest="progress", action="store_false", help="no progress bar")


# the end of the help of an --out that a stopped run resumes in
RESUME = ("a folder, created; the same command again resumes a stopped run, and more --games extend it")


def seating_option(p: argparse.ArgumentParser, default: str, how: str) -> None:
    """--seating, with the command's default as `seating_default` (chosen_seating reads both)."""
    # left out, the command's default (seating_default); given, it is refused where every game has two sides
    p.add_argument("--seating", choices=[m.value for m in Seating], default=None,
                   help=f"at a game of three sides or more (each for himself): {how} (default {default}); "
                        "rest: one against the rest, alternate: the two take the sides in turn. Stated in the "
                        "output and recorded in the results; refused where every game has two sides (every "
                        "2-player game, every partnership game), where both play the same games")
    p.set_defaults(seating_default=default)
