"""`canasta-lab variants`, `strategies` and `rules`: what the lab knows (the presets, the strategies with
their knobs and strength, a variant's rules); `cache` and `bench`: the compiled engine, where it is kept and
how fast it plays."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from sim.cli.common import CliError, load_user_files, natural, positive
from sim.rules import PRESETS, Variant, get_variant, house_rules, with_rules
from strategies import REGISTRY, Knob, StrategyError, parse_strategy, variant_text

if TYPE_CHECKING:
    from strategies import StrategySpec


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
    _refuse_strategies_options(args)
    if args.measure is not None:
        _measure(args)
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
    _say_strength(data, v, record)
    first: dict[tuple, str] = {}  # a kernel and the values of its knobs acting at v: the first strategy with them
    for spec in REGISTRY.values():
        _say_strategy(spec, v, rows, first)


def _refuse_strategies_options(args: argparse.Namespace) -> None:
    """Options of `strategies` given without the option they go with, refused in one line."""
    if args.measure is None and (args.games is not None or args.seed is not None or args.games_for or args.only
                                 or args.versus):
        raise CliError("--games, --seed, --games-for, --only and --versus go with --measure VARIANT")
    if args.versus is not None and (args.only or args.games_for):
        raise CliError("--versus plays one head-to-head; give it without --only and --games-for (--games sets "
                       "its games)")
    if args.variant is None and (args.players is not None or args.rule):
        raise CliError("--players and --rule go with --variant VARIANT (the knobs that act there)")
    if args.variant is not None and (args.measure is not None or args.markdown):
        raise CliError("--variant lists the knobs that act at a variant; give it without --measure and --markdown")


def _measure(args: argparse.Namespace) -> None:
    """strategies --measure: each preset measured and written into the committed record as it is measured."""
    from sim.analysis import strength

    presets = _measure_presets(args.measure)
    if args.games is None or args.seed is None:
        raise CliError("strategies --measure needs --games and --seed")
    if args.versus is not None:
        _measure_versus(args, presets)
        return
    games_for = _games_for(args.games_for)
    only = [n.strip() for n in args.only.split(",")] if args.only else []
    bad = [n for n in only if n not in strength.library_names()]
    if bad or (args.only is not None and not only):
        raise CliError(f"--only {args.only}: give library strategies, comma-separated: "
                       f"{', '.join(strength.library_names())}")
    data = strength.load()
    missing = [p for p in presets if only and strength.record_for(data, p) is None]
    if missing:
        raise CliError(f"--only adds rows to a preset's record, and {missing[0]} has none: measure it whole first")
    records = []
    for name in presets:
        command = strength.command_line(name, args.games, args.seed, games_for, only)
        record = strength.measure(name, args.games, args.seed, games_for, names=only or None, workers=args.workers,
                                  command=command, report=lambda text: print(text, flush=True),
                                  profile_games=strength.PROFILE_GAMES)
        if only:
            record = strength.add_rows(strength.record_for(data, name), record)
        records.append(record)
        strength.write(records[-1:])  # each preset as it is measured: a stopped run keeps what it measured
    print(f"written: {strength.STRENGTH_FILE} ({', '.join(presets)})")


def _measure_versus(args: argparse.Namespace, presets: list[str]) -> None:
    """strategies --measure P --versus A,B: one head-to-head added to each preset's record, the rest kept."""
    from sim.analysis import strength

    pair = [t.strip() for t in args.versus.split(",")]
    if len(pair) != 2 or not all(pair) or pair[0] == pair[1]:
        raise CliError(f"--versus {args.versus!r}: give two different strategies separated by a comma, e.g. "
                       f"search:rollout=learned,search")
    for text in pair:
        try:
            parse_strategy(text)
        except StrategyError as e:
            raise CliError(f"--versus: {e}") from None
    data = strength.load()
    missing = [p for p in presets if strength.record_for(data, p) is None]
    if missing:
        raise CliError(f"--versus adds a head-to-head to a preset's record, and {missing[0]} has none: measure it "
                       f"whole first")
    for name in presets:
        command = strength.command_line(name, args.games, args.seed, {}, versus=pair)
        row = strength.measure_versus(name, pair[0], pair[1], args.games, args.seed, workers=args.workers,
                                      command=command)
        print(f"{name}: {pair[0]} against {pair[1]}: {strength.line(row)}", flush=True)
        record = strength.add_versus(strength.record_for(strength.load(), name), row)
        strength.write([record])  # each preset as it is measured: a stopped run keeps what it measured
    print(f"written: {strength.STRENGTH_FILE} ({', '.join(presets)})")


def _say_strength(data: dict | None, v: Variant | None, record: dict | None) -> None:
    """The lines above the list of strategies: the strength measured at v's preset, or where to find it."""
    from sim.analysis import strength

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


def _say_strategy(spec: StrategySpec, v: Variant | None, rows: dict, first: dict[tuple, str]) -> None:
    """One strategy: its description, its strength, and its knobs (those that act at v, with v)."""
    from sim.analysis import strength

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
        _say_knob(k, v)
    idle = [k.name for k in spec.knobs if v is not None and not k.acts_at(v)]
    if idle:
        print(f"    never acting at {v.name} (refused there): {', '.join(idle)}")


def _say_knob(k: Knob, v: Variant | None) -> None:
    """A knob's default (at v), meaning and accepted values; without v also its defaults by variant and where
    it acts."""
    print(f"    {k.name:<12} default {k.show(k.default_at(v)):<6} {k.meaning}")
    if v is None and k.at:
        print(f"    {'':<12} defaults by variant: {', '.join(f'{s} {k.show(x)}' for s, x in k.at)}")
    print(f"    {'':<12} accepted: {k.accepted()}")
    if v is None:
        print(f"    {'':<12} acts at: {_acts_at(k)}")


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
    d = jit.cache_dir()
    from sim.engine.contract import DECIDE_SIG
    from sim.engine.game import play_batch_nb

    engine = "compiled" if jit.is_compiled(play_batch_nb) else "not compiled yet (the next run compiles it)"
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
            compiled = jit.index_holds(spec.decide, DECIDE_SIG)
            state = "compiled" if compiled else "not compiled yet (its first run compiles it)"
            print(f"  {', '.join(names)}: {folder.name if folder else '-'}: {state}")
    others = jit.other_folders()
    print(f"  other source versions kept: {len(others)} ({sum(folder_size(p) for p in others) / 1e6:.1f} MB); "
          f"`canasta-lab cache --clear` removes them all")


def add(sub: argparse._SubParsersAction) -> None:
    """Add variants, strategies and rules."""
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
    p.add_argument("--only", metavar="NAMES",
                   help="with --measure: measure only these library strategies (comma-separated) and add their rows "
                        "to each preset's record, the other rows and their command kept")
    p.add_argument("--versus", metavar="A,B",
                   help="with --measure, --games and --seed: play only strategy A against B (knobs allowed, "
                        "search:rollout=learned,search) and add that head-to-head to each preset's record")
    p.add_argument("--games", type=positive, help="with --measure: games per strategy")
    p.add_argument("--seed", type=natural, help="with --measure: master seed")
    p.add_argument("--games-for", action="append", default=[], metavar="NAME=GAMES",
                   help="with --measure: another game count for one strategy (a slow one), repeatable")
    p.add_argument("--workers", type=natural, default=0, help="with --measure: worker processes (0: every core)")
    p.add_argument("--variant", metavar="VARIANT",
                   help="list only the knobs that act at VARIANT (a knob set elsewhere is refused), with their "
                        "defaults and ranges")
    p.add_argument("--players", type=positive, help="with --variant: player count, with a family name")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help="with --variant: a house rule (repeatable); the knobs that act follow the rules")
    p.set_defaults(func=cmd_strategies)

    p = sub.add_parser("rules", help="the rules in force for a variant, from the data the engine reads")
    p.add_argument("variant", nargs="?", help="a variant name (see `canasta-lab variants`)")
    p.add_argument("--players", type=positive, help="player count, with a family name (classic --players 3)")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help="a house rule, e.g. target_score=3000 (repeatable; keys as listed)")
    p.add_argument("--markdown", action="store_true", help="a Markdown table")
    p.add_argument("--all", action="store_true", help="every preset side by side (with --markdown: docs/presets.md)")
    p.set_defaults(func=cmd_rules)


def add_engine(sub: argparse._SubParsersAction) -> None:
    """Add cache and bench."""
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
