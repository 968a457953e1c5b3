"""`canasta-lab analyse`, `learn` and `train`: the value of each option at one decision, discard weights learned
from a lookahead player's choices, and the network of the `learned` player trained by self-play."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from sim.cli.common import CliError, natural, positive
from sim.rules import get_variant
from strategies import parse_strategy

if TYPE_CHECKING:
    from sim.analysis.selfplay import MarginTrial, Round


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


NOT_INSTALLED = 1  # train's exit status when --install found no trial in which the network beats expert


def cmd_train(args: argparse.Namespace) -> int:
    from sim.analysis.selfplay import (
        DEFAULT_LABELLER,
        LABEL_MARGINS,
        MARGIN_GAMES,
        MARGIN_SEED,
        MARGINS,
        MAX_CAPPED_EXCESS,
        MAX_LABEL_SAMPLES,
        VALUE_MARGIN,
        VALUE_UNITS,
        best_trial,
        ends_its_hands,
        expert_hands,
        install,
        installable,
        network_hands,
        provenance,
        single_acts,
        train,
        try_margins,
        try_points,
    )
    from sim.analysis.tune import MIRROR_GAMES
    from strategies.knobs import family_of

    v = get_variant(args.variant)
    if args.install and args.install not in (v.name, family_of(v.name)):
        raise CliError(f"--install {args.install}: a network trained at {v.name} is installed for {v.name} or for its "
                       f"family {family_of(v.name)}")
    if not 0 <= args.explore < 1:
        raise CliError(f"--explore {args.explore}: give a share of the decisions, at least 0 and below 1")
    if not 0 <= args.label <= MAX_LABEL_SAMPLES:
        raise CliError(f"--label {args.label}: give the rollouts an option is played out on, 1 to {MAX_LABEL_SAMPLES} "
                       "(or 0: the hand's margin as the target)")
    if not 0 < args.label_share <= 1:
        raise CliError(f"--label-share {args.label_share}: give a share of the decisions, above 0 and at most 1")
    default_margins = LABEL_MARGINS if args.label else MARGINS
    if args.margins is None:
        args.margins = ",".join(f"{m:g}" for m in default_margins)
    try:
        margins = tuple(float(x) for x in args.margins.split(","))
    except ValueError:
        margins = ()
    if not margins or not all(0 <= m <= 1 for m in margins):
        raise CliError(f"--margins {args.margins}: give margins between 0 and 1 (thousands of points; results with "
                       "--label-value result), separated by commas, e.g. 0.1,0.2,0.3,0.5")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise CliError(f"--out {args.out}: a file, not a folder; give a folder (new, or one a run of this command "
                       "began, to resume it)")
    command = (f"canasta-lab train {v.name} --rounds {args.rounds} --games {args.games} --seed {args.seed} "
               f"--explore {args.explore:g}" + (f" --label {args.label} --label-share {args.label_share:g}"
                                                 if args.label else "")
               + (f" --label-with {args.label_with}" if args.label_with != DEFAULT_LABELLER else "")
               + (f" --label-value {args.label_value}" if args.label_value != VALUE_MARGIN else "") + " --out DIR"
               + " --also DIR" * len(args.also))
    # train refuses a bad --label-with (and learned without a network at the preset) before any game
    rounds = train(v.name, args.rounds, args.games, args.seed, out, args.explore, progress=not args.quiet,
                   label=args.label, label_share=args.label_share, label_with=args.label_with, workers=args.workers,
                   also=tuple(Path(a) for a in args.also), value=args.label_value)
    print(f"{v.name}: {len(rounds)} rounds of {args.games:,} self-play games (`{command}`)")
    for name in rounds[-1].also:
        print(f"  each fit also had the rows of {name}")
    print(f"{'round':>5} {'games':>7} {'rows':>9} {'rows fitted':>11} {'CPU s':>8} {'held-out loss':>13} "
          f"{'mean only':>9}")
    for r in rounds:
        print(f"{r.round:>5} {r.games:>7,} {r.rows:>9,} {r.rows_total:>11,} {r.cpu_seconds:>8.0f} "
              f"{r.held_out_loss:>13.4f} {r.held_out_base:>9.4f}")
    if args.label:
        print(f"(rows: one per option of the decisions labelled, {sum(r.labelled for r in rounds):,} in all, each "
              f"option played out {args.label} times by {args.label_with}; losses: squared error of an option's value "
              f"less its decision's mean, {VALUE_UNITS[args.label_value]}, on the held-out fifth of the games; `mean "
              "only` predicts the fitted rows' mean)")
    else:
        print("(losses: squared error of the hand margin in thousands of points on the held-out fifth of the games; "
              "`mean only` predicts the fitted rows' mean)")
    if args.install is not None:
        scope = args.install or v.name
        trials = try_margins(v.name, rounds[-1].net(), args.seed, margins, args.margin_games, not args.quiet)
        trials += try_points(v.name, rounds[-1].net(), args.seed, best_trial(trials), args.margin_games,
                             not args.quiet)
        print(f"the last round's network against expert on {args.margin_games:,} games a trial (deals of seed "
              f"{MARGIN_SEED + args.seed}): each margin, then at the best one each decision point closed in turn "
              "(expert's choice played there), kept closed where that gained:")
        for t in trials:
            print(f"  margin {t.label()}: win rate {t.win_rate:.3f}, Elo {t.elo:+.1f} [{t.elo_low:+.1f}, "
                  f"{t.elo_high:+.1f}]")
        best = best_trial(trials)
        if not installable(trials):
            print(f"not installed: in no trial did the network beat expert beyond chance (best: margin "
                  f"{best.label()}, Elo {best.elo:+.1f} [{best.elo_low:+.1f}, {best.elo_high:+.1f}]); its rounds stay "
                  f"in {out}")
            return NOT_INSTALLED
        own, own_turns = network_hands(v.name, rounds[-1].net(), best, args.seed)
        teacher, turns = expert_hands(v.name, args.seed)
        print(f"against itself ({MIRROR_GAMES} games, deals of seed {MARGIN_SEED + args.seed}): {own:.1%} of its hands "
              f"ended by the turn cap, {own_turns:.1f} turns a hand (expert's own: {teacher:.1%}, {turns:.1f})")
        if single_acts(v.name) and not ends_its_hands(own, own_turns, teacher, turns):
            best, own = single_ladder(v.name, rounds[-1], args, best, trials, teacher, turns)
            if not installable(trials):
                print(f"not installed: with {best.label()} the network does not beat expert beyond chance; its rounds "
                      f"stay in {out}")
                return NOT_INSTALLED
        if own > teacher + MAX_CAPPED_EXCESS:
            print(f"not installed: against itself the network leaves {own:.1%} of its hands to the turn cap, more "
                  f"than expert's {teacher:.1%} by over {MAX_CAPPED_EXCESS:.0%}; a check player whose own games do "
                  f"not end cannot check an answer; its rounds stay in {out}")
            return NOT_INSTALLED
        print(f"installed with margin {best.label()}")
        command += f" --install{' ' + args.install if args.install else ''}" + (
            f" --margins {args.margins}" if margins != default_margins else "") + (
            f" --margin-games {args.margin_games}" if args.margin_games != MARGIN_GAMES else "")
        path = install(scope, rounds[-1].net(), provenance(v.name, rounds, args.seed, args.explore, command, trials,
                                                            args.label, args.label_share,
                                                            {"network": own, "expert": teacher}, args.label_with,
                                                            args.label_value))
        where = f"at {scope}" if scope == v.name else f"at every {scope} preset without a network of its own"
        print(f"the network written to {path}: `learned` plays it {where}")
    return 0


def single_ladder(variant: str, rnd: Round, args: argparse.Namespace, base: MarginTrial,
                  trials: list[MarginTrial], teacher: float, turns: float) -> tuple[MarginTrial, float]:
    """train --install at Buraco, for round rnd's network, whose own hands stall or last too long: its best setting
    again with each `single` of SINGLES in turn (appended to `trials`) until its own games end and last at most
    MAX_LONGER more turns a hand than expert's (`turns`); the last tried and the share of its own hands the turn cap
    ended."""
    from sim.analysis.selfplay import MAX_LONGER, SINGLES, ends_its_hands, network_hands, try_single
    from strategies.learned import single_name

    W = rnd.net()
    tried = ", ".join(str(single_name(n)) for n in SINGLES)
    print(f"again with single=N (Buraco: up to turn N of a hand the network takes a pile of one card as it likes, "
          f"then only where expert does), in turn {tried}, until its games against itself end and last at most "
          f"{MAX_LONGER:.0%} more turns a hand than expert's ({turns:.1f}):")
    for single in SINGLES:
        best = try_single(variant, W, args.seed, base, single, args.margin_games, not args.quiet)
        trials.append(best)
        own, own_turns = network_hands(variant, W, best, args.seed)
        print(f"  margin {best.label()}: win rate {best.win_rate:.3f}, Elo {best.elo:+.1f} [{best.elo_low:+.1f}, "
              f"{best.elo_high:+.1f}]; against itself {own:.1%} of its hands ended by the turn cap, {own_turns:.1f} "
              "turns a hand")
        if ends_its_hands(own, own_turns, teacher, turns):
            break
    return best, own


def add(sub: argparse._SubParsersAction) -> None:
    """Add analyse, learn and train."""
    from sim.analysis.selfplay import (
        DEFAULT_LABELLER,
        LABEL_MARGINS,
        LABEL_SHARE,
        LABEL_VALUES,
        LABELLERS,
        MARGIN_GAMES,
        MARGINS,
        VALUE_MARGIN,
    )

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

    p = sub.add_parser("train", help="train the `learned` player's network for a preset by self-play "
                                     "(scikit-learn, the `learn` extra): rounds of games, a network fitted after each")
    p.add_argument("variant", help="the preset whose games train the network (see `canasta-lab variants`)")
    p.add_argument("--rounds", type=positive, default=2, help="rounds: the first plays expert's choices, each next "
                                                               "one the network of the round before (default 2)")
    p.add_argument("--games", type=positive, required=True, help="self-play games a round; the last fifth of each "
                                                                  "round's measure the fit")
    p.add_argument("--seed", type=natural, required=True, help="master seed (non-negative)")
    p.add_argument("--explore", type=float, default=0.1, help="the share of decisions played at random in the "
                                                              "self-play (default 0.1)")
    p.add_argument("--out", metavar="FOLDER", required=True,
                   help="where each round's rows and network are saved as it ends; the same command with the same "
                        "folder resumes after its last round")
    p.add_argument("--install", nargs="?", const="", metavar="FAMILY",
                   help="write the last round's network, with its provenance, into strategies/learned_nets.py for the "
                        "preset (or, given its family's name, for every preset of the family without its own)")
    p.add_argument("--label", type=natural, default=0, metavar="ROLLOUTS",
                   help="targets: each option's value, played out this many times by expert on the same samples of "
                        "the hidden cards, at a share of the decisions (--label-share), instead of the hand's margin "
                        "(default 0: the hand's margin)")
    p.add_argument("--label-with", default=DEFAULT_LABELLER, metavar="PLAYER",
                   help="with --label: the player that plays the options out, " + " or ".join(LABELLERS) + " (the "
                        "network installed at the preset, several times the CPU; expert iteration's next step) "
                        "(default %(default)s)")
    p.add_argument("--label-value", default=VALUE_MARGIN, metavar="VALUE",
                   help="with --label: an option's value, " + " or ".join(LABEL_VALUES) + " (its rollouts' share won "
                        "less their share lost: at a one-deal preset the game's result, what a win rate counts) "
                        "(default %(default)s: the mean hand margin)")
    p.add_argument("--label-share", type=float, default=LABEL_SHARE,
                   help="with --label: the share of the decisions with a choice whose options are played out "
                        "(default %(default)s)")
    p.add_argument("--also", action="append", default=[], metavar="FOLDER",
                   help="another run's folder at this preset (targets of the same kind) whose rows each fit has too, "
                        "before this run's: expert iteration keeps its earlier rounds' rows; repeat for more. Resumed "
                        "with other folders, the last round is fitted again, not played")
    p.add_argument("--margins", default=None,
                   help="with --install: the margins the last network is played at against expert before it is "
                        "installed with the best (default " + ",".join(f"{m:g}" for m in MARGINS) + "; with --label "
                        + ",".join(f"{m:g}" for m in LABEL_MARGINS) + ")")
    p.add_argument("--margin-games", type=positive, default=MARGIN_GAMES,
                   help="with --install: games against expert at each margin (default %(default)s)")
    p.add_argument("--workers", type=natural, default=0,
                   help="processes playing a round's games (default 0: every core); the rows and networks are the "
                        "same for any number, the CPU seconds reported are all of theirs")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_train)
