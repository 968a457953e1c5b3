"""A study of knobs at one preset (studies 01 to 04, Buraco's and your own): each knob is one question. Every
player checked sweeps the knob against itself at its defaults on the same duplicate deals (`baseline`, then the
strongest fast player the strength record measured at the preset: `expert`, or `learned` where its network measured
above it), the decisions the knob turns are counted where they are made, and the answer is
a record (sim.report.answer) from which every sentence, table and chart of the study is written (sim.report.say).

Sizing: a sequential design looks at the rows after 2,000, 4,000, 8,000 and 16,000 games a setting and stops at
the first look where the question's verdict is decided (anything but undecided, and a "do X" whose check can see
a reversal of its size); each test is then at Pocock's level for four looks. Asked with a number of games (or
CANASTA_LAB_GAMES), the study plays that many games a setting, once, at the plain 5%. The games are the
question's own study cache, so the question's report, the view across presets, the cards and the notebooks read
one record computed from the same games."""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.analysis.changes import changed_decisions, point_numbers
from sim.analysis.sweep import row_deals, sweep
from sim.report import say
from sim.report.answer import (
    CONFIDENCE_Z,
    MARGIN,
    Answer,
    Check,
    Frequency,
    Strongest,
    Sweep,
    Verdict,
    judge,
    player_result,
    sequential_alpha,
    write_answer,
)
from sim.report.common import (
    GAMES_ENV,
    KNOB_GAMES,
    SEARCH,
    SEED,
    STRONG,
    STRONG_NOTE,
    VARIANT,
    Headline,
    NotApplicable,
    Setup,
    Study,
    knob_text,
    looks,
    rules_text,
    setup,
    study_meta,
)
from sim.rules import Variant
from sim.run.output import folder_name, whole_deals
from sim.run.seating import Seating
from sim.stats.selection import games_for_power, reversal_power
from strategies import StrategyError, parse_strategy

FREQUENCY_GAMES = 500  # games of the default on every seat whose decisions of the knob's kind are asked again
CHECK_BUDGET_HOURS = 5 / 60  # a stronger player's check of one answer is played when it costs at most this (measured)
ANSWERS = "answers"  # the folder of answer records, in a study cache and beside the reports


@dataclass(frozen=True)
class Part:
    """One knob, one question: swept for `player` (a strategy with fixed knobs) against the same strategy at its
    defaults, and for `strong_player` against `strong_opponent`."""

    knob: str
    values: tuple[Any, ...]
    question: str = ""  # as a player asks it; default: the study's title
    player: str = "baseline"
    strong_player: str = STRONG
    note: str = ""
    strong_opponent: str = ""  # default: the strong player's strategy at its defaults
    decision: str = ""  # the decision the knob varies, in words ("discarding a wild to freeze the pile")
    points: tuple[str, ...] = ()  # the decision points it acts at (sim.analysis.changes.POINTS); none: not counted

    def __post_init__(self) -> None:
        point_numbers(self.points)  # an unknown name is a mistake in the study, found at import

    @property
    def opponent(self) -> str:
        return self.player.split(":")[0]

    @property
    def strong_against(self) -> str:
        return self.strong_opponent or self.strong_player.split(":")[0]

    def at(self, v: Variant) -> Part:
        """This part as it is played at `v`: STRONG names the strongest fast player the strength record measured
        there (`learned` where its network measured above expert, else expert), in the players and the note."""
        strong = strong_player_at(v)
        return replace(self, strong_player=_as_strong(self.strong_player, strong),
                       strong_opponent=_as_strong(self.strong_opponent, strong),
                       note=self.note.replace(STRONG_NOTE, strong))

    def sweeps(self) -> list[tuple[str, str, str]]:
        """(player, opponent, cache folder) of each player checked, the question's own first."""
        return [(self.player, self.opponent, f"{self.knob}-{folder_name(self.player)}"),
                (self.strong_player, self.strong_against,
                 f"{self.knob}-{folder_name(self.strong_player)}-vs-{folder_name(self.strong_against)}")]


def strong_player_at(v: Variant) -> str:
    """The strongest fast player of the strength record at `v`: the check of every answer there."""
    from sim.analysis.strength import load, record_for, strongest_fast

    return strongest_fast(record_for(load(), v.name))


def _as_strong(player: str, strong: str) -> str:
    """`player` with STRONG, the placeholder of the strongest fast player, replaced by `strong` (its knobs kept)."""
    name, sep, knobs = player.partition(":")
    return strong + sep + knobs if name == STRONG else player


QUESTIONS: dict[str, tuple[Part, ...]] = {}  # the library's question studies and their parts, as each registers


def register(study: str, parts: tuple[Part, ...]) -> tuple[Part, ...]:
    """A study's parts, kept by name so that a refusal elsewhere can point to the studies asked there."""
    QUESTIONS[study] = parts
    return parts


def asked_at(v: Variant) -> list[str]:
    """The registered studies whose questions arise at `v` (every knob they vary acts there)."""
    return [name for name, parts in QUESTIONS.items()
            if all(parse_strategy(pl).spec.knob(p.knob).acts_at(v)
                   for p in (q.at(v) for q in parts) for pl in (p.player, p.strong_player))]


def applies(name: str, parts: Sequence[Part], v: Variant) -> None:
    """Refuse, with one line, a preset where a knob the study varies never acts (its answer would be a tie
    of identical games), naming the studies that ask that preset's own questions."""
    for part in (p.at(v) for p in parts):
        for player in dict.fromkeys((part.player, part.strong_player)):
            knob = parse_strategy(player).spec.knob(part.knob)
            if not knob.acts_at(v):
                what = f" ({part.decision})" if part.decision else ""
                there = [s for s in asked_at(v) if s != name]
                raise NotApplicable(f"{name} does not apply at {v.name}: `{part.knob}`{what} needs "
                                    f"{knob.missing(v)}, which {v.name} lacks"
                                    + (f"; its questions there: {', '.join(there)}" if there else ""))


def knob_value(player: str, knob: str, v: Variant) -> str:
    """The knob's value a strategy plays at `v` (its default there, or the value fixed on it)."""
    c = parse_strategy(player).at(v)
    k = c.spec.knob(knob)
    return k.show(float(c.params[k.slot]))


def _opponent_plays(opponent: str, knob: str, v: Variant) -> str:
    """What the opponent plays of the knob, or "" where it has no such knob (a user strategy against `expert`:
    no row is the opponent's own play)."""
    try:
        return knob_value(opponent, knob, v)
    except StrategyError:
        return ""


def _identity(**what: Any) -> str:
    from sim.engine.sources import source_hash

    return json.dumps({**what, "sources": source_hash()}, sort_keys=True, default=str)


def _frequency(part: Part, st: Setup, v: Variant, default: str) -> tuple[tuple[Frequency, ...], int, int, int]:
    """The decisions each setting turns at the default's own decisions of the knob's kind (cached beside the
    games: the same sources, preset, player and settings read it back)."""
    if not part.points:
        return (), 0, 0, 0
    others = [knob_text(x) for x in part.values if knob_text(x) != default]
    games = min(FREQUENCY_GAMES, max(st.looks))
    ident = _identity(variant=v.to_dict(), player=part.player, knob=part.knob, values=others, points=part.points,
                      games=games, seed=st.seed)
    path = st.root / f"{part.knob}-{folder_name(part.player)}-changes.json"
    if path.exists():
        try:
            cached = json.loads(path.read_text())
            if cached["identity"] == ident:
                return (tuple(Frequency(**f) for f in cached["rows"]), cached["decisions"], cached["side_hands"],
                        cached["games"])
        except (ValueError, KeyError, TypeError):
            pass  # a damaged cache file is computed again
    c = changed_decisions(v, part.player, part.knob, others, part.points, games, st.seed)
    rows = tuple(Frequency(str(r.setting), int(r.changed), float(r.per_side_hand), float(r.share))
                 for r in c.table.itertuples())
    from sim.run.store import write_text_atomic

    st.root.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, json.dumps({"identity": ident, "decisions": c.decisions, "side_hands": c.side_hands,
                                       "games": c.games, "rows": [r.__dict__ for r in rows]}))
    return rows, c.decisions, c.side_hands, c.games


def _read_sweep(part: Part, st: Setup, v: Variant, player: str, opponent: str, folder: str, games: int,
                df: pd.DataFrame) -> Sweep:
    """A played sweep read deal by deal (sim.analysis.sweep.row_deals), its rows in the part's order."""
    root = st.root / folder
    opp = df.attrs["opponent"]
    settings = tuple(knob_text(x) for x in part.values)
    frames = []
    for s in settings:
        label = df.loc[[knob_text(x) == s for x in df[part.knob]], "strategy"].iat[0]
        frames.append(row_deals(root / f"{folder_name(label)}.parquet", label, opp, games).set_index("deal"))
    deals = frames[0].index
    for f in frames[1:]:
        deals = deals.intersection(f.index)
    share = np.column_stack([f.loc[deals, "share"].to_numpy(float) for f in frames])
    score = np.column_stack([f.loc[deals, "score"].to_numpy(float) for f in frames])
    hands = np.column_stack([f.loc[deals, "hands"].to_numpy(float) for f in frames])
    capped = np.array([f["capped"].sum() / max(f["hands"].sum(), 1) for f in frames])
    same = []
    for i in range(len(settings)):
        twin = next((settings[j] for j in range(i) if np.array_equal(share[:, i], share[:, j])
                     and np.array_equal(score[:, i], score[:, j]) and np.array_equal(hands[:, i], hands[:, j])), "")
        same.append(twin)
    fair = float(frames[0]["fair"].mean())
    return Sweep(player, opponent, _opponent_plays(opponent, part.knob, v), settings, share, score, fair,
                 whole_deals(games, v.n_sides), capped, tuple(same), float(df.attrs.get("wall_seconds", 0.0)))


def strongest_at(v: Variant, checked: Sequence[str]) -> Strongest | None:
    """The strongest player the strength record measured at `v` (highest Elo against `reference`) and the cost
    of a game of it there; None where the preset has no record."""
    from sim.analysis.strength import load, record_for

    record = record_for(load(), v.name)
    if not record or not record.get("rows"):
        return None
    top = max(record["rows"], key=lambda r: (float(r["elo"]), float(r["elo_low"])))
    names = {c.split(":")[0] for c in checked}
    per_game = float(top["wall_seconds"]) / max(int(top["games"]), 1)
    cpus = record.get("machine", {}).get("cpus", "?")
    return Strongest(top["strategy"], float(top["elo"]), top["strategy"] in names, per_game,
                     f"{top['games']} games in {top['wall_seconds']:.1f} s on {cpus} cores (`{record['command']}`)")


def _check_cost(s: Strongest | None, gain: float, se: float, games: int) -> Strongest | None:
    """What checking the headline with the strongest player would take: games a setting for the design's power
    to see a reversal of the headline's size, and their hours at the measured speed (two settings)."""
    if s is None or s.fast or not math.isfinite(gain) or gain == 0:
        return s
    from sim.report.answer import POWER

    need = games_for_power(gain, se * math.sqrt(games), 1, POWER)  # from one game's spread
    return replace(s, games_needed=need, hours=2 * need * s.seconds_per_game / 3600)


def _search_check(part: Part, st: Setup, v: Variant, default: str, head: str, games: int) -> Check | None:
    """The default and the headline setting against `search`, `games` games a setting (none: no check)."""
    if games <= 0:
        return None
    st = replace(st, check=games)
    values = [default] if not head or head == default else [default, head]
    df = st.run(sweep, v, part.player, {part.knob: values}, SEARCH, games=st.check, seed=st.seed, seating=st.seating,
                out=f"{part.knob}-{folder_name(part.player)}-vs-search")
    d = df[[knob_text(x) == default for x in df[part.knob]]].iloc[0]
    if len(values) == 1:
        return Check(SEARCH, int(d["games"]), float(d["win_rate"]), "", math.nan, math.nan, math.nan, math.nan)
    r = df[[knob_text(x) == head for x in df[part.knob]]].iloc[0]
    se = math.hypot((r["win_high"] - r["win_low"]) / 3.92, (d["win_high"] - d["win_low"]) / 3.92)
    diff = float(r["win_rate"] - d["win_rate"])
    return Check(SEARCH, int(d["games"]), float(d["win_rate"]), head, float(r["win_rate"]), diff, se,
                 reversal_power(diff, se))


def after_check(verdict: Verdict, advice: tuple[str, ...], why: str, check: Check | None,
                knob: str) -> tuple[Verdict, tuple[str, ...], str]:
    """A "do X" that the stronger player's check turns round (X does worse than the default against it, beyond
    its 95% interval) is no advice: the answer depends on the player."""
    if check is None or not check.setting or not check.diff + CONFIDENCE_Z * check.se < 0:
        return verdict, advice, why
    return (Verdict.DEPENDS, (), f"against `{check.player}`, `{knob}={check.setting}` does worse than the default "
                                 f"beyond chance ({100 * check.diff:+.1f} points, {check.games} games a setting)")


def part_answer(study: str, title: str, part: Part, st: Setup, margin: float = MARGIN,
                report: Callable[[str], None] | None = None, check_games: int | None = None) -> Answer:
    """The part's answer record, played look by look until its verdict is decided (module docstring). The
    strongest player measured at the preset checks a "do X" when it is not one of the players checked: with
    `check_games` games a setting, or (None) at the size its power needs where that costs at most
    CHECK_BUDGET_HOURS at its measured speed; a check that turns the answer round makes it depend on the
    player."""
    t0 = time.perf_counter()
    v = st.variant()
    part = part.at(v)
    default = knob_value(part.player, part.knob, v)
    settings = tuple(knob_text(x) for x in part.values)
    if default not in settings:
        raise ValueError(f"{study}: the default {part.knob}={default} at {v.name} is not among the settings "
                         f"{', '.join(settings)}")
    alpha = sequential_alpha(len(st.looks))
    freq, decisions, side_hands, fgames = _frequency(part, st, v, default)
    strongest0 = strongest_at(v, [p for p, _, _ in part.sweeps()])
    for k, n in enumerate(st.looks):
        last = k == len(st.looks) - 1
        sweeps = []
        for player, opponent, folder in part.sweeps():
            df = st.run(sweep, v, player, {part.knob: list(part.values)}, opponent, games=n, seed=st.seed,
                        seating=st.seating, out=folder)
            sweeps.append(_read_sweep(part, st, v, player, opponent, folder, n, df))
        results = [player_result(sw, default, alpha, margin) for sw in sweeps]
        players = [p for p, _ in results]
        stats = [s for _, s in results]
        j = judge(players, stats, default, settings, freq, whole_deals(n, v.n_sides), alpha, last, margin)
        if report is not None:
            report(f"{study} {part.knob} at {v.name}, {whole_deals(n, v.n_sides)} games a setting: {j.verdict.value}")
        if j.verdict.value != "undecided" or last:
            break
    head = j.headline
    strongest = strongest0
    if head:
        i, r = settings.index(head), settings.index(default)
        strongest = _check_cost(strongest0, j.players[0].row(head).effect, float(stats[0].se[i, r]),
                                whole_deals(n, v.n_sides))
    verdict, advice, why, players = j.verdict, j.advice, j.why, j.players
    size = check_games
    if size is None:
        affordable = (strongest is not None and not strongest.fast and strongest.player == SEARCH
                      and verdict == Verdict.DO and 0 < strongest.hours <= CHECK_BUDGET_HOURS)
        size = strongest.games_needed if affordable else 0
    check = _search_check(part, st, v, default, head if verdict == Verdict.DO else "", size)
    verdict, advice, why = after_check(verdict, advice, why, check, part.knob)
    from sim.run.seating import seating_text

    return Answer(
        study=study, question=part.question or title, knob=part.knob, preset=v.name, default=default,
        settings=settings, decision=part.decision, points=part.points, players=players, sides=v.n_sides,
        partners=any(len(side) > 1 for side in v.sides), seating=st.seating.value,
        seating_text=seating_text(v, st.seating, "the row", "the opponents"), verdict=verdict, advice=advice,
        headline=head, margin=margin, alpha=alpha, games=whole_deals(n, v.n_sides),
        looks=tuple(whole_deals(x, v.n_sides) for x in st.looks), decisions=decisions, side_hands=side_hands,
        frequency_games=fgames, frequency=freq, strongest=strongest, undecided_games=j.undecided_games, why=why,
        seed=st.seed, leader=j.leader, rules=st.rules, check=check, wall_seconds=time.perf_counter() - t0,
        code_version=study_meta()["code_version"])


def answer_tables(a: Answer) -> dict[str, pd.DataFrame]:
    """The record's rows as tables, one per player (the report's tables, the notebooks' frames)."""
    out = {}
    names = [p.name for p in a.players]
    for p in a.players:
        df = pd.DataFrame([r.__dict__ for r in p.rows])
        f = {x.setting: x for x in a.frequency}
        df["changed_per_side_hand"] = [f[s].per_side_hand if s in f else (0.0 if s == a.default else math.nan)
                                       for s in df["setting"]]
        df.attrs.update({"player": p.player, "opponent": p.opponent, "opponent_plays": p.opponent_plays,
                         "knob": a.knob, "preset": a.preset})
        twin = names.count(p.name) > 1 and p is not a.players[0]  # your own strategy, against itself then expert
        out[f"{a.knob}_{p.name}" + (f"_vs_{p.opponent.split(':')[0]}" if twin else "")] = df
    return out


def _charts(a: Answer) -> dict[str, tuple[str, Callable[[Any], Any]]]:
    from sim import plots  # matplotlib only when a chart is drawn: the command line starts faster

    def curve(ax: Any) -> Any:
        return plots.share_curve(ax, say.chart_table(a), a.knob, fair=a.fair, players=[p.name for p in a.players],
                                 title=say.chart_title(a))

    return {f"{a.knob}_curve": (say.chart_caption(a), curve)}


def knob_study(name: str, title: str, question: str, parts: Sequence[Part], games: int | None = None,
               seed: int = SEED, check_games: int | None = None, out: str | Path | None = None,
               rules: Sequence[str] = (), workers: int = 0, progress: Any = None, scheduler: Any = None,
               variant: str = VARIANT, seating: str | Seating = Seating.REST, margin: float = MARGIN,
               report: Callable[[str], None] | None = None) -> Study:
    """A question about knobs at one preset: each part's record (`part_answer`) and the study written from the
    records. A preset where a knob never acts is refused (NotApplicable) before any game."""
    sized = games is not None or os.environ.get(GAMES_ENV) is not None
    st = setup(name, games if sized else KNOB_GAMES, seed, 0, out, rules, workers, progress, scheduler, variant,
               seating)
    st = st.with_looks((st.games,) if sized else looks(KNOB_GAMES))
    v = st.variant()
    applies(name, parts, v)
    t0 = time.perf_counter()
    if check_games is not None and check_games < 0:
        raise ValueError(f"check_games={check_games}: give 0 (no check against search) or more")
    answers = [part_answer(name, title, part, st, margin, report, check_games) for part in parts]
    for a in answers:
        write_answer(a, st.root / ANSWERS)
    tables: dict[str, pd.DataFrame] = {}
    charts: dict[str, tuple[str, Callable[[Any], Any]]] = {}
    for a in answers:
        tables.update(answer_tables(a))
        charts.update(_charts(a))
    tables["summary"] = say.summary_table(answers)
    method = say.study_method(answers, [p.at(v).note for p in parts if p.note], rules_text(st))
    heads = [Headline(f"{a.preset}: {a.knob}", a.players[0].row(a.headline).effect if a.headline else 0.0,
                      a.players[0].row(a.headline).effect_low if a.headline else 0.0,
                      a.players[0].row(a.headline).effect_high if a.headline else 0.0,
                      a.players[0].rows[0].deals, settled=a.verdict.value != "undecided") for a in answers]
    meta = {**study_meta(), "seating": st.seating.value, "seating_text": st.seating_text()}
    return Study(name, title, question, method, tables, charts, "\n\n".join(say.answer_text(a) for a in answers),
                 "\n\n".join([say.strongest_text(answers[0])] + [say.players_text(a, strongest=False)
                                                                   for a in answers]),
                 heads, max(a.games for a in answers), seed,
                 time.perf_counter() - t0, meta, v.name, answers=answers)
