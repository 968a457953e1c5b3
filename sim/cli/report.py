"""`canasta-lab report`: a study's question answered, its report written with the command that writes it, at
every preset asked, and a view across the presets."""

from __future__ import annotations

import argparse
from pathlib import Path

from sim.cli.common import (
    SEATING_ACTS,
    CliError,
    chosen_seating,
    natural,
    positive,
    running_options,
    seating_option,
    wants_progress,
)
from sim.report.studies import KNOB_GAMES, NUMBERS, PRESET_STUDIES, STUDIES, VARIANT, Study
from sim.rules import get_variant, with_rules
from sim.run.seating import Seating, seating_acts

REPORTS_DIR = "reports"  # where `canasta-lab report` writes by default
SEATING_IDLE_STUDIES = ("variant_balance",)  # studies with one strategy on every seat: no seating to choose
STUDY_NAMES = list(STUDIES)
STUDY_NUMBERS = [str(NUMBERS[n]) for n in STUDIES]
Entry = tuple[str, str | None, list[str]]  # a report to write: study, preset (None: it plays its presets), presets


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


def refuse_idle_seating(args: argparse.Namespace, plan: list[Entry]) -> None:
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
    from sim.report import studies as S

    names = list(S.STUDIES) if args.study == "all" else [S.get_study(args.study).__name__]
    if args.from_records:
        _from_records(args, names)
        return
    plan, skipped = _plan(args, names)
    refuse_idle_seating(args, plan)
    for line in skipped:
        print(f"skipped: {line}")
    several = len(names) > 1
    answers: dict[str, list] = {}
    for name, preset, presets in plan:
        study = _write_study(args, name, preset, presets, several)
        if preset is not None:
            answers.setdefault(name, []).append(study)
    for name, done in answers.items():
        if len(done) > 1:  # one view of how the answer changes across the presets asked
            _write_view(args, name, done, skipped)


def _from_records(args: argparse.Namespace, names: list[str]) -> None:
    """The view across presets and the cards written again from the answer records in the output folder, playing
    no game: after the answers of some presets were played again (`report STUDY --variant PRESET --force`), the
    view and the cards state the records as they now are."""
    from sim.report import studies as S
    from sim.report.across_variants import from_records

    if names != ["across_variants"]:
        raise CliError(f"--from-records writes the view across presets and the cards, not {args.study}: give "
                       "`canasta-lab report across_variants --from-records`")
    played = [f"--{k.replace('_', '-')}" for k in ("games", "check_games", "variants", "cache")
              if getattr(args, k) is not None] + (["--rule"] if args.rule else [])
    if played:
        raise CliError(f"--from-records plays no game, so {played[0]} has nothing to act on; accepted with it: "
                       "--out, --seed, --force")
    folder = Path(args.out) / S.ANSWERS
    try:
        view = from_records(folder, args.seed)
    except ValueError as e:
        raise CliError(f"--from-records: {e}") from None
    S.check_report_target(args.out, "across_variants", args.force)
    answers = view.answers
    command = "canasta-lab report across_variants --from-records" + (
        f" --out {args.out}" if args.out != REPORTS_DIR else "")
    path = S.write_report(view, args.out, command, args.force)
    print(f"# {view.title}\n\nwritten from {len(answers)} answer records in {folder}, no game played\n")
    print(f"report: {path}; cards: {Path(args.out) / S.CARDS}/PRESET.md, one a preset\n")


def _plan(args: argparse.Namespace, names: list[str]) -> tuple[list[Entry], list[str]]:
    """The reports to write, every study checked before the first game, and the lines of those skipped."""
    from sim.report import studies as S

    plan: list[Entry] = []
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
        plan += _check_study(args, name, presets)
    return plan, skipped


def _check_study(args: argparse.Namespace, name: str, presets: list[str]) -> list[Entry]:
    """One study at its presets: every report it would write and its settings checked; its entries of the plan."""
    from sim.report import studies as S

    plan: list[Entry] = []
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
    return plan


def _write_study(args: argparse.Namespace, name: str, preset: str | None, presets: list[str],
                 several: bool) -> Study:
    """Play one entry of the plan, write its report (across_variants: each question's too) and say so."""
    from sim.report import studies as S

    if preset is not None:
        kw: dict = {"variant": preset}
    elif name == "across_variants":  # each question picks its presets among those named, skipping the others
        kw = {"presets": args.variants}
    else:
        kw = {"presets": presets}
    seating = report_seating(args, name, [preset] if preset is not None else presets)
    study = S.STUDIES[name](games=args.games, seed=args.seed, check_games=args.check_games,
                           out=Path(args.cache) / name if args.cache and several else args.cache,
                           rules=args.rule, workers=args.workers, progress=wants_progress(args),
                           scheduler=args.scheduler, seating=seating, **kw)
    path = S.write_report(study, args.out, report_command(args, name, preset, seating), args.force)
    _say_study(args, name, preset, study, path)
    for sub in study.meta.get("studies", []):  # across_variants: each question's own report at each preset
        sub_seating = report_seating(args, sub.name, [sub.variant])
        sub_path = S.write_report(sub, args.out, report_command(args, sub.name, sub.variant, sub_seating),
                                  args.force)
        print(f"report: {sub_path}")
    if name == "across_variants" and study.answers:
        print(f"cards: {Path(args.out) / S.CARDS}/PRESET.md, one a preset; answer records: "
              f"{Path(args.out) / S.ANSWERS}/\n")
    return study


def _say_study(args: argparse.Namespace, name: str, preset: str | None, study: Study, path: Path) -> None:
    """A report written: its title, its answers (or tables and answer), a note of wide intervals, its file."""
    from sim.report import say
    from sim.report import studies as S

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


def _write_view(args: argparse.Namespace, name: str, done: list[Study], skipped: list[str]) -> None:
    """One view of how a study's answer changes across the presets asked."""
    from sim.report import studies as S

    view = S.across([a for s in done for a in s.answers], skipped, name=name)
    seating = report_seating(args, name, [s.variant for s in done])
    path = S.write_report(view, args.out, report_command(args, name, seating=seating), args.force)
    print(f"# {view.title}\n\n{view.answer}\n")
    print(f"report: {path} (chart in {Path(args.out) / view.stem}/)\n")


def add(sub: argparse._SubParsersAction) -> None:
    """Add report."""
    p = sub.add_parser("report", help="answer a study's question: writes reports/STUDY.md and its charts")
    p.add_argument("study", help=f"{', '.join(STUDY_NAMES)} (or their numbers {', '.join(STUDY_NUMBERS)}), or all; "
                                 "across_variants answers every question at every preset and writes a strategy "
                                 "card per preset, reports/cards/PRESET.md")
    p.add_argument("--games", type=positive, default=None,
                   help=f"games per setting, played once (default: each knob study's sequential design, up to "
                        f"{KNOB_GAMES} games a setting, stopping when the answer is decided)")
    p.add_argument("--check-games", type=natural, default=None,
                   help="games per setting against search for an advised setting (default: where the strongest "
                        "player measured at the preset is search and checking costs at most a quarter of an hour at "
                        "its measured speed, the games that give it 80%% power; 0: never)")
    p.add_argument("--seed", type=natural, default=1, help="master seed (default 1)")
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
    p.add_argument("--from-records", action="store_true",
                   help="across_variants only: write the view across presets and the cards again from the answer "
                        "records in the output folder (FOLDER/answers), playing no game")
    seating_option(p, Seating.REST.value, "how the swept player and its opponent share the sides")
    running_options(p, "replace an existing report of canasta-lab")
    p.set_defaults(func=cmd_report)
