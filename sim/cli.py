"""The `canasta-lab` command line (DESIGN.md: names and formats are a contract)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sim.report.studies import KNOB_GAMES, NUMBERS, PRESET_STUDIES, STUDIES, VARIANT
from sim.rules import PRESETS, RulesError, Variant, get_variant, house_rules, with_rules
from sim.run.runner import Job, make_job
from sim.run.seating import Seating, seating_acts, two_sides_text
from sim.version import __version__
from strategies import REGISTRY, Knob, StrategyError, parse_strategy, variant_text

REPORTS_DIR = "reports"  # where `canasta-lab report` writes by default

if TYPE_CHECKING:
    from sim.run.experiment import Experiment


INTERRUPTED = 130  # the exit status of a command stopped by Ctrl-C, as shells report it


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


def _setup(args: argparse.Namespace, seats_limit: bool = True) -> Variant:
    """Resolve the variant (with --players and --rule) and parse every strategy before any work."""
    load_user_files(args.load)
    v = with_rules(get_variant(args.variant, args.players), args.rule)
    strategies = args.strategy if isinstance(args.strategy, list) else [args.strategy]
    for s in strategies + ([args.vs] if getattr(args, "vs", None) else []):
        parse_strategy(s).refuse_idle(v)  # a knob set where it never acts: refused before any work
    if seats_limit and len(strategies) > v.players:
        raise CliError(f"{v.name} has {v.players} seats; give 1 to {v.players} strategies, not {len(strategies)}")
    return v


def _progress(args: argparse.Namespace) -> bool:
    """A progress bar on standard error: with --progress, or by default when it is a terminal. The
    runner makes it once the engine is compiled, so the "compiling the engine once" line stands alone."""
    return bool(args.progress) if args.progress is not None else sys.stderr.isatty()


def seating_line(job: Job) -> str:
    seats = job.seat_labels(0)
    sides = " vs ".join("+".join(seats[p] for p in side) for side in job.variant.sides)
    return (f"seating: {', '.join(f'seat {p} {s}' for p, s in enumerate(seats))} "
            f"(sides {sides}; duplicate deals rotate it)")


SEATING_ACTS = "three or more sides play each for himself"  # where --seating changes the games (sim.run.seating)
SEATING_IDLE_STUDIES = ("variant_balance",)  # studies with one strategy on every seat: no seating to choose


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


STUDY_NAMES = list(STUDIES)
STUDY_NUMBERS = [str(NUMBERS[n]) for n in STUDIES]


def cmd_variants(args: argparse.Namespace) -> None:
    for v in PRESETS.values():
        print(f"{v.name:<12} {v.players} players  {v.description}")


def _games_for(items: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        name, eq, n = item.partition("=")
        if not eq or not n.strip().isdigit() or int(n) < 1 or name.strip() not in REGISTRY:
            raise CliError(f"--games-for {item!r}: give NAME=GAMES with a strategy name and a whole number of "
                           f"at least 1, e.g. search=400")
        out[name.strip()] = int(n)
    return out


def _measure_presets(text: str) -> list[str]:
    """--measure's presets: one, several separated by commas, or `all`."""
    names = list(PRESETS) if text.strip() == "all" else [t.strip() for t in text.split(",") if t.strip()]
    unknown = [n for n in names if n not in PRESETS]
    if unknown or not names:
        raise CliError(f"--measure {text!r}: {unknown[0] if unknown else 'no preset'} is not a preset; give presets "
                       f"separated by commas, or all: {', '.join(PRESETS)}")
    return names


def cmd_strategies(args: argparse.Namespace) -> None:
    from sim.analysis import strength

    load_user_files(args.load)
    if args.measure is None and (args.games is not None or args.seed is not None or args.games_for):
        raise CliError("--games, --seed and --games-for go with --measure VARIANT")
    if args.variant is None and (args.players is not None or args.rule):
        raise CliError("--players and --rule go with --variant VARIANT (the knobs that act there)")
    if args.variant is not None and (args.measure is not None or args.markdown):
        raise CliError("--variant lists the knobs that act at a variant; give it without --measure and --markdown")
    if args.measure is not None:
        presets = _measure_presets(args.measure)
        if args.games is None or args.seed is None:
            raise CliError("strategies --measure needs --games and --seed")
        games_for = _games_for(args.games_for)
        records = []
        for name in presets:
            command = strength.command_line(name, args.games, args.seed, games_for)
            records.append(strength.measure(name, args.games, args.seed, games_for, workers=args.workers,
                                            command=command, report=lambda text: print(text, flush=True)))
            strength.write(records[-1:])  # each preset as it is measured: a stopped run keeps what it measured
        print(f"written: {strength.STRENGTH_FILE} ({', '.join(presets)})")
        return
    data = strength.load()
    if args.markdown:
        if data is None:
            raise CliError(f"no strength measurement in {strength.STRENGTH_FILE}; make one with --measure")
        print(strength.markdown(data), end="")
        return
    v = with_rules(get_variant(args.variant, args.players), args.rule) if args.variant is not None else None
    record = strength.record_for(data, v.name) if v is not None and PRESETS.get(v.name) == v else None
    rows = strength.by_name(record)  # none with house rules: a measurement of the preset says nothing of them
    if record is not None:
        print(f"strength against {record['reference']} at {record['variant']}, from `{record['command']}`")
        for r in record.get("versus", []):
            print(f"{r['strategy']} against {r['against']}: {strength.line(r)}")
        for r in record.get("play", []):
            print(f"{r['strategy']} in mirror play: {r['hands_per_game']:.2f} hands a game, ended by going out "
                  f"{r['ended_out']:.3f}, by the stock {r['ended_stock']:.3f}, by the turn cap {r['ended_cap']:.3f}")
        print()
    elif v is None and data is not None:
        print(f"strength against {data['reference']} at {len(data['presets'])} presets: "
              "`canasta-lab strategies --variant V` shows V's, `--markdown` all of them\n")
    if v is not None:
        print(f"the knobs that act at {variant_text(v)}, with each strategy's defaults and what each accepts "
              "(`canasta-lab strategies` lists every knob and where it acts)\n")
    first: dict[tuple, str] = {}  # a kernel and the values of its knobs acting at v: the first strategy with them
    for spec in REGISTRY.values():
        origin = f" (user, over {spec.base.name})" if spec.base is not None else ""
        print(f"{spec.name}{origin}: {spec.description}")
        if spec.name in rows:
            print(f"    strength     {strength.line(rows[spec.name])}")
        knobs = spec.knobs if v is None else spec.acting(v)
        if v is not None and spec.base is None and spec.knobs:
            same = first.setdefault((id(spec.decide), tuple((k.name, k.default_at(v)) for k in knobs)), spec.name)
            if same != spec.name:  # a relative whose own defaults differ from `same`'s only where they never act
                print(f"    at {v.name} it plays as {same}: its knobs that act here have {same}'s values")
        for k in knobs:
            print(f"    {k.name:<12} default {k.show(k.default_at(v)):<6} {k.meaning}")
            if v is None and k.at:
                print(f"    {'':<12} defaults by variant: {', '.join(f'{s} {k.show(x)}' for s, x in k.at)}")
            print(f"    {'':<12} accepted: {k.accepted()}")
            if v is None:
                print(f"    {'':<12} acts at: {_acts_at(k)}")
        idle = [k.name for k in spec.knobs if v is not None and not k.acts_at(v)]
        if idle:
            print(f"    never acting at {v.name} (refused there): {', '.join(idle)}")


def _acts_at(k: Knob) -> str:
    """Where knob k acts: the rule features it needs and the presets that have them."""
    if not k.needs:
        return "every variant"
    at = [name for name, v in PRESETS.items() if k.acts_at(v)]
    idle = [name for name in PRESETS if name not in at]
    presets = ("every preset" if not idle else f"every preset but {', '.join(idle)}" if len(at) > len(idle)
               else ", ".join(at) if at else "no preset")
    return f"{k.where()}: {presets}"


def cmd_rules(args: argparse.Namespace) -> None:
    from sim.rules import presets_markdown, rules_table

    if args.all:
        if args.variant or args.rule or args.players:
            raise CliError("rules --all lists every preset as it is; give no variant, --players or --rule with it")
        if not args.markdown:
            raise CliError("rules --all needs --markdown (it writes docs/presets.md); or give one VARIANT")
        print(presets_markdown(), end="")
        return
    if not args.variant:
        raise CliError(f"rules needs a VARIANT (one of {', '.join(PRESETS)}) or --all --markdown")
    v = with_rules(get_variant(args.variant, args.players), args.rule)
    rows = rules_table(v)
    changed = {r.split("=", 1)[0] for r in house_rules(v)}
    if args.markdown:
        print(f"| rule | {v.name} | meaning |\n|---|---|---|")
        for key, value, meaning in rows:
            print(f"| `{key}` | `{value}`{' (house rule)' if key in changed else ''} | {meaning} |")
        return
    print(f"{v.name}: the rules in force, as the engine reads them (docs/rules.md explains them)")
    width = max(len(k) for k, _, _ in rows)
    for key, value, meaning in rows:
        mark = "*" if key in changed else " "
        print(f"{mark} {key:<{width}}  {value}")
        print(f"  {'':<{width}}  {meaning}")
    if changed:
        print("* house rule (--rule), differs from the preset")


def cmd_play(args: argparse.Namespace) -> None:
    from sim.run.experiment import Experiment

    v = _setup(args)
    if args.hands and not args.out:
        raise CliError("--hands records one row per hand in the run folder; give --out FOLDER with it")
    job = make_job(v, args.strategy, args.seed)
    with Experiment([job], args.games, [args.out] if args.out else None, hands=args.hands, workers=args.workers,
                    progress=_progress(args), scheduler=args.scheduler, force=args.force,
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

    v = _setup(args)
    if len(args.strategy) < 2:
        raise CliError("compare needs at least two strategies (-s A -s B)")
    if args.batch is not None and args.sprt is None:
        raise CliError("--batch sets the looks of a sequential test; give --sprt with it")
    from sim.analysis.compare import SPRT_BATCH_GAMES

    seating = chosen_seating(args, [v])
    c = compare(v, args.strategy, args.games, args.seed, workers=args.workers, out=args.out, sprt=args.sprt,
                batch=args.batch or SPRT_BATCH_GAMES, progress=_progress(args), scheduler=args.scheduler,
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
    v = _setup(args, seats_limit=False)
    seating = chosen_seating(args, [v])
    t = tournament(v, args.strategies, args.games, args.seed, workers=args.workers, out=args.out,
                   progress=_progress(args), scheduler=args.scheduler, force=args.force, seating=seating)
    print(t.table())
    if args.out:
        print(f"report: {Path(args.out) / 'report.md'}; tables pairs.parquet, ranking.parquet, matrix.parquet and "
              "one run folder per pair")


def cmd_transcript(args: argparse.Namespace) -> None:
    from sim.records.transcript import write_transcript

    v = _setup(args)
    n = write_transcript(v, args.strategy, args.seed, args.game, args.out, args.force)
    print(f"wrote {n} events to {args.out}")


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
    v = _setup(args)
    base = parse_strategy(args.strategy)
    opp = parse_strategy(args.vs)
    grid = _grid(args.grid)
    grid_rows(base, grid)  # every value checked before the output path and any game
    seating = chosen_seating(args, [v])
    df = sweep(v, args.strategy, grid, args.vs, args.games, args.seed, args.workers, progress=_progress(args),
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

    v = _setup(args, seats_limit=not args.mirror)
    df = profile(v, args.strategy, args.games, args.seed, mirror=args.mirror, workers=args.workers, out=args.out,
                 progress=_progress(args), scheduler=args.scheduler, force=args.force)
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

    v = _setup(args)
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


def cmd_bench(args: argparse.Namespace) -> None:
    from sim.analysis.bench import bench, cold_start

    variants = args.variants or ["classic-4p"]
    for v in variants:
        get_variant(v)
    cold = None if args.no_cold_start else cold_start(variants[0])
    for v in variants:
        r = bench(v, args.seconds, cold)
        if args.json:
            print(json.dumps(r))
        else:
            cold_text = "not measured" if cold is None else f"{cold:.0f} s"
            print(f"{v}: {r['hands_per_second']:,.0f} hands/s, {r['games_per_second']:,.0f} games/s "
                  f"(baseline vs baseline, {r['hands_per_game']} hands a game); "
                  f"{r['us_per_decision']:.2f} us/decision (random vs random); "
                  f"warm start {r['warm_start_seconds']:.2f} s; cold start (empty cache) {cold_text}; "
                  f"a user strategy plays its first game {r['user_first_game_seconds']:.2f} s after its definition")


def cmd_cache(args: argparse.Namespace) -> None:
    from sim.engine import cache as jit
    from sim.engine.folders import folder_size

    if args.clear:
        gone = jit.clear()
        print(f"removed {len(gone)} compiled folder(s) of the engine and strategies from {jit.cache_root()}")
        return
    from strategies import REGISTRY

    d = jit.cache_dir()
    engine = "compiled" if jit.is_compiled() else "not compiled yet (the next run compiles it)"
    print(f"compiled code for these sources, in {jit.cache_root()} (found by the sources' content, "
          "whatever the checkout's folder):")
    print(f"  engine: {d.name}: {engine}; {folder_size(d) / 1e6:.1f} MB")
    kernels: dict[int, list[str]] = {}
    for spec in REGISTRY.values():
        if not spec.is_user:
            kernels.setdefault(id(spec.decide), []).append(spec.name)
    for spec in REGISTRY.values():
        names = kernels.pop(id(spec.decide), None)
        if names:
            folder = jit.folder_of(spec.decide)
            state = "compiled" if jit.index_holds(spec.decide) else "not compiled yet (its first run compiles it)"
            print(f"  {', '.join(names)}: {folder.name if folder else '-'}: {state}")
    others = jit.other_folders()
    print(f"  other source versions kept: {len(others)} ({sum(folder_size(p) for p in others) / 1e6:.1f} MB); "
          f"`canasta-lab cache --clear` removes them all")


def report_command(args: argparse.Namespace, study: str, preset: str | None = None,
                   seating: str = Seating.REST.value) -> str:
    """The exact command that writes this report, for its first line; `seating` as this report played it
    (a --seating given is left out of a report where it does not act, which would refuse it alone)."""
    parts = ["canasta-lab report", study]
    if study in PRESET_STUDIES and args.variants:
        parts.append(f"--presets {args.variants}")
    elif preset is None and args.variants:  # the view across the presets asked
        parts.append(f"--variant {args.variants}")
    elif preset is not None and preset != VARIANT:
        parts.append(f"--variant {preset}")
    if args.games is not None:
        parts.append(f"--games {args.games}")
    if args.check_games is not None:
        parts.append(f"--check-games {args.check_games}")
    parts.append(f"--seed {args.seed}")
    if seating != Seating.REST.value:
        parts.append(f"--seating {seating}")
    parts += [f"--rule {r}" for r in args.rule]
    if args.out != REPORTS_DIR:
        parts.append(f"--out {args.out}")
    return " ".join(parts)


def seating_acts_in(args: argparse.Namespace, study: str, presets: list[str]) -> bool:
    """Whether the seating changes a study's games at `presets`: a study of two strategies (not one on every
    seat) at a preset of three sides or more."""
    return study not in SEATING_IDLE_STUDIES and any(seating_acts(with_rules(get_variant(p), args.rule))
                                                     for p in presets)


def report_seating(args: argparse.Namespace, study: str, presets: list[str]) -> str:
    """The seating a study plays at `presets`: --seating where it acts there, the default elsewhere, so a
    report where every game has two sides records and states nothing that changed nothing."""
    given = args.seating is not None and seating_acts_in(args, study, presets)
    return args.seating if given else args.seating_default


def refuse_idle_seating(args: argparse.Namespace, plan: list[tuple[str, str | None, list[str]]]) -> None:
    """A --seating given to reports where it acts at none of their presets: one line, before any game."""
    if args.seating is None:
        return
    studies = [(name, [preset] if preset is not None else presets) for name, preset, presets in plan]
    if any(seating_acts_in(args, name, presets) for name, presets in studies):
        return
    paired = [p for name, presets in studies if name not in SEATING_IDLE_STUDIES for p in presets]
    if not paired:
        raise CliError(f"--seating {args.seating}: {', '.join(SEATING_IDLE_STUDIES)} plays one strategy on every "
                       f"seat, so there is no seating to choose; --seating acts in the studies that play two "
                       f"strategies where {SEATING_ACTS}: leave it out")
    chosen_seating(args, [with_rules(get_variant(p), args.rule) for p in dict.fromkeys(paired)])


def cmd_report(args: argparse.Namespace) -> None:
    from sim.report import say
    from sim.report import studies as S

    names = list(S.STUDIES) if args.study == "all" else [S.get_study(args.study).__name__]
    plan: list[tuple[str, str | None, list[str]]] = []  # (study, preset or None: it plays its presets itself, presets)
    skipped: list[str] = []
    for name in names:  # everything checked before the first game
        if name == "your_own_strategy":
            S.own_strategy_cell()
        try:
            presets, skip = S.choose_presets(name, args.variants, args.rule)
        except S.NotApplicable as e:
            if len(names) == 1:
                raise CliError(str(e)) from None
            skipped.append(str(e))
            continue
        skipped += skip
        for preset in ([None] if name in S.PRESET_STUDIES else presets):
            stem = name if preset in (None, VARIANT) else f"{name}-{preset}"
            S.check_report_target(args.out, stem, args.force)
            S.setup(name, args.games, args.seed, args.check_games, args.cache, args.rule, args.workers, None, None,
                    preset or VARIANT, args.seating or args.seating_default)
            plan.append((name, preset, presets))
        if name not in S.PRESET_STUDIES and len(presets) > 1:
            S.check_report_target(args.out, f"{name}-{S.ACROSS}", args.force)
        if name == "across_variants":  # it writes every question's report at every preset asked beside the view
            for q in S.QUESTIONS:
                for p in presets:
                    if S.why_not(q, p, args.rule) is None:
                        S.check_report_target(args.out, q if p == VARIANT else f"{q}-{p}", args.force)
    refuse_idle_seating(args, plan)
    for line in skipped:
        print(f"skipped: {line}")
    several = len(names) > 1
    answers: dict[str, list] = {}
    for name, preset, presets in plan:
        if preset is not None:
            kw: dict = {"variant": preset}
        elif name == "across_variants":  # each question picks its presets among those named, skipping the others
            kw = {"presets": args.variants}
        else:
            kw = {"presets": presets}
        seating = report_seating(args, name, [preset] if preset is not None else presets)
        study = S.STUDIES[name](games=args.games, seed=args.seed, check_games=args.check_games,
                               out=Path(args.cache) / name if args.cache and several else args.cache,
                               rules=args.rule, workers=args.workers, progress=_progress(args),
                               scheduler=args.scheduler, seating=seating, **kw)
        path = S.write_report(study, args.out, report_command(args, name, preset, seating), args.force)
        print(f"# {study.title}" + (f" ({study.variant})" if preset is not None else "") + "\n")
        if study.answers and name != "across_variants":
            print("\n".join(f"{a.question}\n  {say.verdict_sentence(a)}" for a in study.answers) + "\n")
        else:
            for heading, table in S.report_tables(study):
                print(f"{heading}\n{table}\n")
            print(f"{study.answer}\n")
        for h in ([] if study.answers else study.wide_headlines()):
            print(f"note: {h.what}: 95% interval +-{100 * h.half_width:.2f} points from {h.deals} deals: short of "
                  "+-1 point from 1000 deals or more; give more --games")
        print(f"report: {path} (charts in {Path(args.out) / study.stem}/)\n")
        for sub in study.meta.get("studies", []):  # across_variants: each question's own report at each preset
            sub_seating = report_seating(args, sub.name, [sub.variant])
            sub_path = S.write_report(sub, args.out, report_command(args, sub.name, sub.variant, sub_seating),
                                      args.force)
            print(f"report: {sub_path}")
        if name == "across_variants" and study.answers:
            print(f"cards: {Path(args.out) / S.CARDS}/PRESET.md, one a preset; answer records: "
                  f"{Path(args.out) / S.ANSWERS}/\n")
        if preset is not None:
            answers.setdefault(name, []).append(study)
    for name, done in answers.items():
        if len(done) > 1:  # one view of how the answer changes across the presets asked
            view = S.across([a for s in done for a in s.answers], skipped, name=name)
            seating = report_seating(args, name, [s.variant for s in done])
            path = S.write_report(view, args.out, report_command(args, name, seating=seating), args.force)
            print(f"# {view.title}\n\n{view.answer}\n")
            print(f"report: {path} (chart in {Path(args.out) / view.stem}/)\n")


def cmd_tune(args: argparse.Namespace) -> None:
    from sim.analysis.tune import tune

    load_user_files(args.load)
    v = with_rules(get_variant(args.variant, args.players), args.rule)
    save = args.save if args.save is not None else f"{args.name}.py"
    r = tune(v, args.strategy, args.vs, args.knobs, args.budget, seed=args.seed, trials=args.trials,
             confirm=args.confirm, workers=args.workers, scheduler=args.scheduler, name=args.name, save=save,
             force=args.force, progress=not args.quiet, loads=args.load)
    print(r.table())


class OneLineParser(argparse.ArgumentParser):
    """Usage errors as one line naming what was wrong (DESIGN.md, "Errors and bad input")."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    ap = OneLineParser(prog="canasta-lab", description="Monte Carlo strategy analysis for Canasta.")
    ap.add_argument("--version", action="version", version=f"canasta-lab {__version__}")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=OneLineParser)

    p = sub.add_parser("variants", help="list the variants with players and one-line description")
    p.set_defaults(func=cmd_variants)
    p = sub.add_parser("strategies", help="list strategies, their knobs and their strength against reference at a "
                                          "preset")
    p.add_argument("--load", action="append", default=[], metavar="FILE.py",
                   help="also list the user strategies this Python file defines (repeatable)")
    p.add_argument("--markdown", action="store_true",
                   help="print the strength table of docs/strategies.md from the committed measurement")
    p.add_argument("--measure", metavar="PRESETS",
                   help="measure every library strategy against reference at these presets (comma-separated, or "
                        "all) and write them into the committed "
                        "record (strategies/strength.json); needs --games and --seed")
    p.add_argument("--games", type=_positive, help="with --measure: games per strategy")
    p.add_argument("--seed", type=_natural, help="with --measure: master seed")
    p.add_argument("--games-for", action="append", default=[], metavar="NAME=GAMES",
                   help="with --measure: another game count for one strategy (a slow one), repeatable")
    p.add_argument("--workers", type=_natural, default=0, help="with --measure: worker processes (0: every core)")
    p.add_argument("--variant", metavar="VARIANT",
                   help="list only the knobs that act at VARIANT (a knob set elsewhere is refused), with their "
                        "defaults and ranges")
    p.add_argument("--players", type=_positive, help="with --variant: player count, with a family name")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help="with --variant: a house rule (repeatable); the knobs that act follow the rules")
    p.set_defaults(func=cmd_strategies)

    p = sub.add_parser("rules", help="the rules in force for a variant, from the data the engine reads")
    p.add_argument("variant", nargs="?", help="a variant name (see `canasta-lab variants`)")
    p.add_argument("--players", type=_positive, help="player count, with a family name (classic --players 3)")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help="a house rule, e.g. target_score=3000 (repeatable; keys as listed)")
    p.add_argument("--markdown", action="store_true", help="a Markdown table")
    p.add_argument("--all", action="store_true", help="every preset side by side (with --markdown: docs/presets.md)")
    p.set_defaults(func=cmd_rules)

    def setup(p: argparse.ArgumentParser, several: bool = True) -> None:
        p.add_argument("variant", help="a variant name (see `canasta-lab variants`)")
        p.add_argument("-s", "--strategy", action="append", required=True,
                       help="strategy with optional knobs, e.g. baseline:min_pile=5"
                            + ("; repeat for more seats" if several else ""))
        p.add_argument("--seed", type=_natural, required=True, help="master seed (non-negative)")
        p.add_argument("--players", type=_positive, help="player count, with a family name (classic --players 3)")
        p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                       help="a house rule, e.g. target_score=3000 (repeatable; `canasta-lab rules VARIANT` lists "
                            "the keys); recorded in the results")
        p.add_argument("--load", action="append", default=[], metavar="FILE.py",
                       help="Python file defining user strategies (strategies.user); repeatable")

    def running(p: argparse.ArgumentParser, force_help: str = "overwrite existing output files",
                cluster: bool = True) -> None:
        if cluster:
            p.add_argument("--workers", type=_natural, default=0,
                           help="worker processes on this machine (default 0: every core)")
            p.add_argument("--scheduler", metavar="ADDRESS",
                           help="play on a Dask cluster instead, e.g. tcp://10.0.0.5:8786 (README, 'A cluster')")
        p.add_argument("--force", action="store_true", help=force_help)
        g = p.add_mutually_exclusive_group()
        g.add_argument("--progress", dest="progress", action="store_true", default=None,
                       help="show a progress bar (the default when standard error is a terminal)")
        g.add_argument("--quiet", dest="progress", action="store_false", help="no progress bar")

    resume = ("a folder, created; the same command again resumes a stopped run, and more --games extend it")

    def seating(p: argparse.ArgumentParser, default: str, how: str) -> None:
        # left out, the command's default (seating_default); given, it is refused where every game has two sides
        p.add_argument("--seating", choices=[m.value for m in Seating], default=None,
                       help=f"at a game of three sides or more (each for himself): {how} (default {default}); "
                            "rest: one against the rest, alternate: the two take the sides in turn. Stated in the "
                            "output and recorded in the results; refused where every game has two sides (every "
                            "2-player game, every partnership game), where both play the same games")
        p.set_defaults(seating_default=default)

    p = sub.add_parser("play", help="play N games and write one row per game")
    setup(p)
    p.add_argument("--games", type=_positive, required=True, help="number of games (positive)")
    p.add_argument("--out", metavar="FOLDER", help="run folder of Parquet parts (e.g. run.parquet): " + resume)
    p.add_argument("--hands", action="store_true", help="also record one row per hand in the run folder")
    running(p, "replace a run folder that holds another run")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("compare", help="head to head on duplicate deals: pair counts, intervals, Elo, SPRT")
    setup(p)
    p.add_argument("--games", type=_positive, required=True,
                   help="number of games, rounded up to whole deals (with --sprt: the budget)")
    p.add_argument("--sprt", metavar="H0,H1",
                   help="stop when decided: elo0=0,elo1=10 (or p0=0.5,p1=0.52, or margin0=0,margin1=50), "
                        "optionally ,alpha=0.05,beta=0.05")
    p.add_argument("--batch", type=_positive, help="with --sprt: games between two looks (default 2000, at least 100)")
    seating(p, Seating.ALTERNATE.value, "how two strategies share the sides")
    p.add_argument("--out", metavar="FOLDER",
                   help="report folder (report.md, win_rates.png, pairs.parquet, games.parquet run folder): " + resume)
    running(p, "replace a report folder that holds another run")
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("tournament", help="round robin on duplicate deals: matrix, ranking by Elo, Holm")
    p.add_argument("variant", help="a variant name (see `canasta-lab variants`)")
    p.add_argument("strategies", nargs="+", metavar="STRATEGY", help="two or more strategies with optional knobs")
    p.add_argument("--games", type=_positive, required=True, help="games per pair, rounded up to whole deals")
    p.add_argument("--seed", type=_natural, required=True, help="master seed (non-negative)")
    p.add_argument("--players", type=_positive, help="player count, with a family name (classic --players 3)")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE", help="a house rule (repeatable)")
    p.add_argument("--load", action="append", default=[], metavar="FILE.py",
                   help="Python file defining user strategies (strategies.user); repeatable")
    p.add_argument("--out", metavar="FOLDER", help="tables, report and one run folder per pair: " + resume)
    seating(p, Seating.REST.value, "how the two strategies of each pair share the sides")
    running(p, "replace run folders that hold another run")
    p.set_defaults(func=cmd_tournament)

    p = sub.add_parser("transcript", help="write one game's full transcript (JSON Lines)")
    setup(p)
    p.add_argument("--game", type=_natural, required=True, help="game index within the run")
    p.add_argument("--out", required=True, help="output file (.jsonl)")
    running(p, "overwrite an existing file", cluster=False)
    p.set_defaults(func=cmd_transcript)

    p = sub.add_parser("sweep", help="play a grid of knob values against a fixed opponent, one row each")
    setup(p, several=False)
    p.add_argument("--vs", default="baseline", help="the fixed opponent (default baseline)")
    p.add_argument("--grid", action="append", required=True, metavar="KNOB=V1,V2,...",
                   help="values of one knob; repeat for more knobs (the rows are every combination)")
    p.add_argument("--games", type=_positive, required=True, help="games per parameter row, rounded up to whole deals")
    p.add_argument("--out", metavar="FOLDER", help="sweep.parquet and one run folder per row: " + resume)
    seating(p, Seating.REST.value, "how each row and the opponent share the sides")
    running(p, "replace run folders that hold another run")
    p.set_defaults(func=cmd_sweep)

    p = sub.add_parser("profile", help="how strategies play: hands, turns, how hands end, canastas, scores, takes, "
                                       "freezes, asks")
    setup(p)
    p.add_argument("--games", type=_positive, required=True, help="games (per strategy with --mirror), rounded up to "
                                                                  "whole deals")
    p.add_argument("--mirror", action="store_true",
                   help="each strategy plays its own games against itself (one row each), not against the others")
    p.add_argument("--out", metavar="FOLDER", help="profile.parquet and the run folder(s) with every hand: " + resume)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true", help="one JSON document instead of the table")
    g.add_argument("--markdown", action="store_true", help="a Markdown table (docs/strategies.md)")
    running(p, "replace run folders that hold another run")
    p.set_defaults(func=cmd_profile)

    p = sub.add_parser("overrides", help="where a lookahead player (search) chooses otherwise than its fast player, "
                                         "by decision point and situation")
    setup(p)
    p.add_argument("--games", type=_positive, required=True, help="games of the first strategy against the others "
                                                                  "(default opponent baseline)")
    p.add_argument("--fast", help="the fast player to compare with (default the first strategy's rollout player)")
    p.set_defaults(func=cmd_overrides)

    p = sub.add_parser("analyse", help="the value of each legal option at one decision of a transcript (or a position "
                                       "written by hand): mean hand margin and win chance over rollouts, best first")
    p.add_argument("transcript", nargs="?", help="a transcript written by `canasta-lab transcript`")
    p.add_argument("--decision", type=_natural, metavar="N", help="the decision, numbered from 0 as --list lists them")
    p.add_argument("--list", action="store_true", help="list the transcript's decisions with their numbers")
    p.add_argument("--position", metavar="FILE", help="a position written by hand (docs/analysis.md) instead")
    p.add_argument("--samples", type=_positive, help="samples of the hidden cards (default 200)")
    p.add_argument("--seed", type=_natural, help="seed of the samples (default 0)")
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
    p.add_argument("--games", type=_positive, required=True, help="games traced; the last fifth measure the weights")
    p.add_argument("--seed", type=_natural, required=True, help="master seed (non-negative)")
    p.add_argument("--players", type=_positive, help="player count, with a family name (classic --players 3)")
    p.add_argument("--workers", type=_positive, default=1, help="processes tracing games (default 1)")
    p.add_argument("--check", type=_natural, default=0, metavar="GAMES",
                   help="also play the fast player with the learned weights against itself without them, head to "
                        "head on fresh deals (seed + 1,000,000): the games that say whether to keep them")
    p.add_argument("--out", metavar="FOLDER", help="a new folder for the training data (decisions.parquet) and the "
                                                   "weights with their provenance (weights.json)")
    p.set_defaults(func=cmd_learn)

    p = sub.add_parser("cache", help="where the compiled engine is kept, and clearing it")
    p.add_argument("--clear", action="store_true", help="remove every compiled version of the engine")
    p.set_defaults(func=cmd_cache)

    p = sub.add_parser("bench", help="measure hands/s, games/s, us/decision, warm and cold start on one core")
    p.add_argument("variants", nargs="*", help="variants (default classic-4p)")
    p.add_argument("--json", action="store_true", help="one JSON object per variant")
    p.add_argument("--seconds", type=float, default=3.0, help="minimum timed seconds per figure")
    p.add_argument("--no-cold-start", action="store_true",
                   help="skip cold_start_seconds (a fresh process compiling the engine from an empty cache, several "
                        "minutes)")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("report", help="answer a study's question: writes reports/STUDY.md and its charts")
    p.add_argument("study", help=f"{', '.join(STUDY_NAMES)} (or their numbers {', '.join(STUDY_NUMBERS)}), or all; "
                                 "across_variants answers every question at every preset and writes a strategy "
                                 "card per preset, reports/cards/PRESET.md")
    p.add_argument("--games", type=_positive, default=None,
                   help=f"games per setting, played once (default: each knob study's sequential design, up to "
                        f"{KNOB_GAMES} games a setting, stopping when the answer is decided)")
    p.add_argument("--check-games", type=_natural, default=None,
                   help="games per setting against search for an advised setting (default: where the strongest "
                        "player measured at the preset is search and checking costs at most a quarter of an hour at "
                        "its measured speed, the games that give it 80%% power; 0: never)")
    p.add_argument("--seed", type=_natural, default=1, help="master seed (default 1)")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help="a house rule for every variant the study plays (repeatable)")
    p.add_argument("--out", default=REPORTS_DIR, metavar="FOLDER",
                   help=f"where STUDY.md and its charts go (default {REPORTS_DIR})")
    p.add_argument("--cache", metavar="FOLDER",
                   help="where the study keeps its games (default out/studies/STUDY of the checkout, a folder per "
                        "preset); the same command again plays only what is missing")
    p.add_argument("--variant", "--presets", dest="variants", metavar="PRESETS",
                   help="the presets to answer at, comma-separated: presets, families (boat), player counts (4p) "
                        "or all (default classic-4p; variant_balance: all). One report per preset, "
                        "reports/STUDY-PRESET.md (STUDY.md at classic-4p); a preset where the question does not "
                        "arise is refused, or skipped with a line when a group names it")
    seating(p, Seating.REST.value, "how the swept player and its opponent share the sides")
    running(p, "replace an existing report of canasta-lab")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("tune", help="search a strategy's knobs against an opponent (Optuna TPE on duplicate deals), "
                                    "confirm the winner on fresh deals, save it as a strategy file")
    p.add_argument("strategy", help="the strategy to tune, optionally with knobs fixed, e.g. baseline:meld=three")
    p.add_argument("--vs", required=True, metavar="OPPONENT", help="the opponent every trial plays, with knobs")
    p.add_argument("--knobs", required=True, metavar="K1,K2,...",
                   help="the knobs to search, each over its range and named values, or K=LOW..HIGH (e.g. "
                        "min_pile,freeze=0..30)")
    p.add_argument("--budget", type=_positive, required=True, help="games for all the trials together")
    p.add_argument("--variant", default="classic-4p", help="a variant name (default classic-4p)")
    p.add_argument("--players", type=_positive, help="player count, with a family name (classic --players 3)")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE", help="a house rule (repeatable)")
    p.add_argument("--load", action="append", default=[], metavar="FILE.py",
                   help="Python file defining user strategies (strategies.user); repeatable")
    p.add_argument("--seed", type=_natural, default=0, help="master seed of the search deals (default 0); the "
                                                           "confirmation plays the deals of seed + 1000000")
    p.add_argument("--trials", type=_positive,
                   help="trials (default one per 2000 games of budget, at least 5, at most 25 per knob)")
    p.add_argument("--confirm", type=_positive,
                   help="games per confirmation match on fresh deals (default a quarter of the budget, at least 2000)")
    p.add_argument("--name", default="tuned", help="the tuned strategy's name (default tuned)")
    p.add_argument("--save", metavar="FILE.py", help="the strategy file to write (default NAME.py)")
    p.add_argument("--workers", type=_natural, default=0, help="worker processes on this machine (default 0: every "
                                                               "core)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="play on a Dask cluster instead (README, 'A cluster')")
    p.add_argument("--force", action="store_true", help="replace an existing strategy file")
    p.add_argument("--quiet", action="store_true", help="no line per trial")
    p.set_defaults(func=cmd_tune)
    return ap


def main(argv: list[str] | None = None) -> int:
    from sim.records.results import ResultsError
    from sim.run.runner import EngineError, SchedulerError

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
    return 0


if __name__ == "__main__":
    sys.exit(main())
