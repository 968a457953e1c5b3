"""The `canasta-lab` command line (DESIGN.md: names and formats are a contract).

One module per command or group of related commands, each with its `cmd_*` functions and an `add(sub)` that
adds its subparsers: `info` (variants, strategies, rules; cache and bench), `play` (play, compare,
tournament, transcript), `sweep` (sweep, profile, overrides), `analyse` (analyse, learn), `report`, `tune`;
what they share (the one-line error, argument types, option groups, seating) in `common`. Heavy imports stay
inside the commands, so `canasta-lab --version` and `--help` load no more than the parsers need.
"""

from __future__ import annotations

import argparse
import sys

from sim.cli import analyse, info, play, report, sweep, tune
from sim.cli.common import CliError
from sim.cli.report import REPORTS_DIR
from sim.rules import RulesError
from sim.version import __version__
from strategies import StrategyError

__all__ = ["INTERRUPTED", "REPORTS_DIR", "CliError", "OneLineParser", "build_parser", "main"]

INTERRUPTED = 130  # the exit status of a command stopped by Ctrl-C or by SIGTERM (kill PID: the run layer turns it
# into the same KeyboardInterrupt while games play), as shells report Ctrl-C


class OneLineParser(argparse.ArgumentParser):
    """Usage errors as one line naming what was wrong (DESIGN.md, "Errors and bad input")."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    ap = OneLineParser(prog="canasta-lab", description="Monte Carlo strategy analysis for Canasta.")
    ap.add_argument("--version", action="version", version=f"canasta-lab {__version__}")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=OneLineParser)
    # the commands in the order of `canasta-lab --help`
    info.add(sub)  # variants, strategies, rules
    play.add(sub)  # play, compare, tournament, transcript
    sweep.add(sub)  # sweep, profile, overrides
    analyse.add(sub)  # analyse, learn, train
    info.add_engine(sub)  # cache, bench
    report.add(sub)
    tune.add(sub)
    return ap


def main(argv: list[str] | None = None) -> int:
    from sim.records.results import ResultsError
    from sim.run.runner import EngineError, SchedulerError

    ap = build_parser()
    args = ap.parse_args(argv)
    try:
        code = args.func(args)  # a command whose work ended without its result (train's network not installed): 1
    except (RulesError, StrategyError, CliError, ResultsError, ValueError) as exc:
        print(f"canasta-lab: error: {exc}", file=sys.stderr)
        return 2
    except EngineError as exc:
        print(f"canasta-lab: engine error: {exc}", file=sys.stderr)
        return 3
    except SchedulerError as exc:
        print(f"canasta-lab: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        out = getattr(args, "out", None)
        if out:
            kept = f"every finished chunk is kept in {out}: the same command again finishes the run"
        elif hasattr(args, "out"):  # a command that can keep its games
            kept = "nothing was kept (give --out FOLDER to keep a run's games as they finish)"
        else:
            kept = "nothing was kept"
        print(f"\ncanasta-lab: interrupted; {kept}", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return 0
    return code or 0
