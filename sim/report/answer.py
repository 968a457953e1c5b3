"""The answer to one question at one preset, as a record before it is a sentence (DESIGN.md, "Strength and
answers"), and the one decision rule that gives its verdict.

A question is one knob: its settings are played by each player checked (`baseline` against itself, `expert`
against itself, each with the knob swept) on the same duplicate deals, and how often the knob's choice arises is
counted where it is made (sim.analysis.changes). From those the record holds, per player and setting, the share
of games won and its effect against the question's default (paired deal by deal), which settings beat the default
after Holm's correction, the confidence set of the best setting, and an equivalence test; then the verdict:

* do X: X (or each setting of a named range) beats the default after correction with every player checked and
  is among the best with every player (nothing beats it);
* the choice matters less than D points: every setting is within D of the default with every player (two one-sided
  tests);
* keep the default: the default is among the best with every player, and every other setting among the best is
  within D of it (a confidence set wide enough to hold settings that may be better by more is no answer yet);
* it depends on the player: no setting is among the best with every player;
* undecided: none of these yet, with the games that would decide it;
* it does not arise: no setting changes more than RARE decisions a side and hand, and none differs from the
  default.

The question's report, the view across presets, the strategy cards, the notebooks and the API all read this
record (`Answer`), written once as JSON beside the games it was computed from; the sentences come from it
(sim.report.say), never from a constant."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

import numpy as np

from sim.stats import elo_from_score
from sim.stats.selection import (
    ALPHA,
    Paired,
    beats,
    best_set,
    games_for_power,
    games_to_decide,
    loses,
    paired,
    reversal_power,
    within,
    z_two_sided,
)

FORMAT = 1  # the record's layout; a record of another format is computed again, never misread
MARGIN = 0.01  # D: a choice that moves the share of games won by less than one point matters less than that
RARE = 0.02  # a setting that changes fewer decisions than this a side and hand almost never plays otherwise
POWER = 0.8  # a published "do X" needs a check that sees a reversal of its size this often
CAP_SHARE = 0.01  # a row with more of its hands ended by the turn cap than this is flagged, never advice
POCOCK_Z = 2.361  # Pocock's bound for four equally spaced looks, two-sided 5% (Jennison & Turnbull, table 2.1)
CONFIDENCE_Z = z_two_sided(ALPHA)  # the printed intervals: 95%


def sequential_alpha(looks: int) -> float:
    """The level of each test where the games are looked at `looks` times (Pocock's bound for four looks; one
    look: the plain 5%)."""
    if looks <= 1:
        return ALPHA
    from scipy import special

    return float(2 * special.ndtr(-POCOCK_Z))


class Verdict(StrEnum):
    """What a player is told: the six answers a question can have at a preset."""

    DO = "do"
    SMALL = "matters less"
    KEEP = "keep the default"
    DEPENDS = "depends on the player"
    UNDECIDED = "undecided"
    NOT_ARISE = "does not arise"


@dataclass(frozen=True)
class Row:
    """One setting as one player played it, against the same player at its own defaults."""

    setting: str
    games: int
    deals: int
    share: float  # share of the games won by the row's side (one player, or a side of partners)
    share_low: float
    share_high: float
    fair: float  # its fair share: 1/2 side against side, 1/3 one against two, ...
    score: float  # head-to-head score against the opponents (ties a half), a different quantity where 3+ play
    score_low: float
    score_high: float
    effect: float  # share of games won minus the default setting's, paired deal by deal
    effect_low: float
    effect_high: float
    elo: float  # the effect in Elo (Bradley-Terry on the share of games won)
    elo_low: float
    elo_high: float
    beats: bool  # beats the default after Holm's correction
    loses: bool
    best: bool  # in the confidence set of the best setting
    within: bool  # within +-D of the default (equivalence test)
    own_play: bool  # the opponent's own setting: the row is the player against itself, even by construction
    capped: float  # share of its hands ended by the turn cap
    same_games_as: str = ""  # another setting whose games it plays exactly, if any


@dataclass(frozen=True)
class Player:
    """One player's sweep of the knob."""

    player: str  # the strategy swept, with any knob fixed for the study (`expert:answer_max=100`)
    opponent: str  # the strategy at its defaults on the other seats
    opponent_plays: str  # the knob's value the opponent plays at this preset
    rows: tuple[Row, ...]
    best: tuple[str, ...]  # the confidence set of the best setting
    power: float = math.nan  # this player's chance to see a reversal of the headline's size (the check's power)
    wall_seconds: float = 0.0

    def row(self, setting: str) -> Row:
        return next(r for r in self.rows if r.setting == setting)

    @property
    def name(self) -> str:
        return self.player.split(":")[0]


@dataclass(frozen=True)
class Frequency:
    """How often a setting chooses otherwise than the default, at the default's own decisions of the knob's kind."""

    setting: str
    changed: int
    per_side_hand: float
    share: float  # of the decisions of that kind that offered a choice


@dataclass(frozen=True)
class Strongest:
    """The strongest player measured at the preset (the strength record) and what checking with it would cost."""

    player: str
    elo: float  # against `reference`, as the strength record has it
    fast: bool  # one of the players checked (fast enough to play every setting at the study's size)
    seconds_per_game: float  # measured at this preset (the strength record's games and wall time)
    measured: str  # the measurement the cost comes from
    games_needed: int = 0  # games a setting for POWER to see a reversal of the headline's size
    hours: float = math.nan  # their cost on the measuring machine


@dataclass(frozen=True)
class Check:
    """The question's default and headline setting played against a stronger opponent (`search`), when asked."""

    player: str
    games: int
    default_score: float  # the default's head-to-head score against it
    setting: str  # the headline setting ("" where there is none)
    setting_score: float
    diff: float
    se: float
    power: float  # to see a reversal of the headline's size


@dataclass(frozen=True, eq=False)
class Answer:
    """One question at one preset: everything a sentence about it may state. Two records are equal when they
    write the same JSON (a number not measured is NaN, which equals nothing, not even itself)."""

    study: str
    question: str  # in words, as a player asks it
    knob: str
    preset: str
    default: str  # the question's default setting (`baseline`'s at this preset)
    settings: tuple[str, ...]
    decision: str  # the decision the knob varies, in words
    points: tuple[str, ...]  # the decision points it acts at
    players: tuple[Player, ...]
    sides: int
    partners: bool
    seating: str
    seating_text: str
    verdict: Verdict
    advice: tuple[str, ...]  # the settings to play (do X), in the knob's order
    headline: str  # the setting the answer's numbers are of ("" where none: the default, or no setting)
    margin: float  # D
    alpha: float  # the level of each test (Pocock's where the design looks several times)
    games: int  # games a setting, every player
    looks: tuple[int, ...]  # the design's looks (games a setting)
    decisions: int  # decisions of the kind with a choice, in the default's own games
    side_hands: int
    frequency_games: int
    frequency: tuple[Frequency, ...]
    strongest: Strongest | None
    undecided_games: int  # where undecided: games a setting that would decide it, if the differences are as seen
    why: str  # where the verdict needs a reason beyond the numbers (undecided, depends), in words
    seed: int
    leader: str = ""  # where undecided: the setting ahead so far with every player ("" where none is)
    rules: tuple[str, ...] = ()
    check: Check | None = None
    wall_seconds: float = 0.0
    code_version: dict[str, Any] = field(default_factory=dict)
    format: int = FORMAT

    @property
    def fair(self) -> float:
        return self.players[0].rows[0].fair

    @property
    def key(self) -> str:
        """The record's file stem: STUDY-KNOB-PRESET."""
        return f"{self.study}-{self.knob}-{self.preset}"

    def player(self, name: str) -> Player:
        return next(p for p in self.players if p.player == name or p.name == name)

    def frequency_of(self, setting: str) -> Frequency | None:
        return next((f for f in self.frequency if f.setting == setting), None)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1, sort_keys=False, default=_plain)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Answer) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(self.to_json())

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Answer:
        d = dict(d)
        d["players"] = tuple(Player(**{**p, "rows": tuple(Row(**r) for r in p["rows"]), "best": tuple(p["best"])})
                             for p in d["players"])
        d["frequency"] = tuple(Frequency(**f) for f in d["frequency"])
        d["strongest"] = Strongest(**d["strongest"]) if d.get("strongest") else None
        d["check"] = Check(**d["check"]) if d.get("check") else None
        d["verdict"] = Verdict(d["verdict"])
        for k in ("settings", "points", "advice", "looks", "rules"):
            d[k] = tuple(d.get(k, ()))
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in known})


def _plain(x: Any) -> Any:
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.floating):
        return float(x)
    if isinstance(x, np.bool_):
        return bool(x)
    raise TypeError(f"cannot write {type(x).__name__} into an answer record")


def write_answer(a: Answer, folder: str | Path) -> Path:
    """The record as `folder/KEY.json` (atomically: a reader never sees half of it)."""
    from sim.run.store import write_text_atomic

    p = Path(folder) / f"{a.key}.json"
    p.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(p, a.to_json() + "\n")
    return p


def read_answer(path: str | Path) -> Answer:
    d = json.loads(Path(path).read_text())
    if d.get("format") != FORMAT:
        raise ValueError(f"{str(path)!r} is an answer record of format {d.get('format')}, not {FORMAT}")
    return Answer.from_dict(d)


def read_answers(folder: str | Path) -> list[Answer]:
    """Every answer record in `folder` (reports/answers/ of the checkout, or a study cache)."""
    return [read_answer(p) for p in sorted(Path(folder).glob("*.json"))]


# --- from games to a record ----------------------------------------------------------------------------------


def elo_of_share(share: float | np.ndarray, fair: float) -> float | np.ndarray:
    """Elo of a share of games won against equal opponents: Bradley-Terry's strength ratio r wins r / (r + n - 1)
    of the games against n - 1 opponents of strength 1, so r = share (n - 1) / (1 - share); two sides: the usual
    Elo of a score."""
    n1 = 1 / fair - 1
    s = np.clip(np.asarray(share, dtype=float), 1e-9, 1 - 1e-9)
    return elo_from_score(s * n1 / (1 - s + s * n1))


@dataclass(frozen=True)
class Sweep:
    """One player's sweep as the decision rule reads it: per-deal values of each setting (columns in `settings`
    order, deals in rows; the deals every setting played) and what each row is."""

    player: str
    opponent: str
    opponent_plays: str
    settings: tuple[str, ...]
    share: np.ndarray  # deals x settings: share of the games won
    score: np.ndarray  # deals x settings: head-to-head score
    fair: float
    games: int
    capped: np.ndarray  # per setting: share of its hands ended by the turn cap
    same_games_as: tuple[str, ...]
    wall_seconds: float = 0.0


def _interval(mean: float, se: float) -> tuple[float, float]:
    return mean - CONFIDENCE_Z * se, mean + CONFIDENCE_Z * se


def player_result(sw: Sweep, default: str, alpha: float, margin: float) -> tuple[Player, Paired]:
    """A player's rows with every comparison against the default and the confidence set of the best."""
    ref = sw.settings.index(default)
    ps = paired(sw.share)
    pc = paired(sw.score)
    flagged = sw.capped > CAP_SHARE
    win = beats(ps, ref, alpha) & ~flagged
    lose = loses(ps, ref, alpha)
    best = best_set(ps, alpha) & ~flagged
    if not best.any():  # every row flagged: the set is of the rows the cap spared, or none
        best = np.zeros(len(best), bool)
    near = within(ps, ref, margin, alpha)
    base = ps.mean[ref]
    rows = []
    for i, s in enumerate(sw.settings):
        n = ps.deals
        se_share = float(np.std(sw.share[:, i], ddof=1) / np.sqrt(n)) if n > 1 else 0.0
        se_score = float(np.std(sw.score[:, i], ddof=1) / np.sqrt(n)) if n > 1 else 0.0
        eff, se = float(ps.diff[i, ref]), float(ps.se[i, ref])
        lo, hi = _interval(eff, se)
        slo, shi = _interval(float(ps.mean[i]), se_share)
        clo, chi = _interval(float(pc.mean[i]), se_score)
        e0 = float(elo_of_share(base, sw.fair))
        rows.append(Row(
            setting=s, games=sw.games, deals=n, share=float(ps.mean[i]), share_low=max(0.0, slo),
            share_high=min(1.0, shi), fair=sw.fair, score=float(pc.mean[i]), score_low=max(0.0, clo),
            score_high=min(1.0, chi), effect=eff, effect_low=lo, effect_high=hi,
            elo=float(elo_of_share(base + eff, sw.fair)) - e0, elo_low=float(elo_of_share(base + lo, sw.fair)) - e0,
            elo_high=float(elo_of_share(base + hi, sw.fair)) - e0, beats=bool(win[i]), loses=bool(lose[i]),
            best=bool(best[i]), within=bool(near[i]), own_play=s == sw.opponent_plays, capped=float(sw.capped[i]),
            same_games_as=sw.same_games_as[i]))
    best_names = tuple(s for s, b in zip(sw.settings, best, strict=True) if b)
    return Player(sw.player, sw.opponent, sw.opponent_plays, tuple(rows), best_names,
                  wall_seconds=sw.wall_seconds), ps


@dataclass(frozen=True)
class Judged:
    """The verdict and what it rests on."""

    verdict: Verdict
    advice: tuple[str, ...]
    headline: str
    undecided_games: int
    why: str
    players: tuple[Player, ...]
    leader: str = ""  # where undecided, the setting ahead so far with every player (never one that loses)


def judge(players: Sequence[Player], stats: Sequence[Paired], default: str, settings: Sequence[str],
          frequency: Sequence[Frequency], games: int, alpha: float, last_look: bool, margin: float = MARGIN) -> Judged:
    """The one decision rule (this module's docstring). `last_look`: no more games will come, so a "do X" whose
    check is too small to see a reversal of its size is undecided rather than sent on to the next look."""
    others = [s for s in settings if s != default]
    freq = {f.setting: f for f in frequency}
    differs = any(r.beats or r.loses for p in players for r in p.rows)
    if freq and not differs and all(freq[s].per_side_hand < RARE for s in others if s in freq):
        return Judged(Verdict.NOT_ARISE, (), "", 0, "", tuple(players))
    do = [s for s in others if all(p.row(s).beats and s in p.best for p in players)]
    if do:
        head = max(do, key=lambda s: min(p.row(s).effect for p in players))
        powered = _with_power(players, stats, settings, default, head)
        weakest = min(p.power for p in powered[1:]) if len(powered) > 1 else 1.0
        if weakest >= POWER or not last_look:
            verdict = Verdict.DO if weakest >= POWER else Verdict.UNDECIDED
            need = 0 if verdict == Verdict.DO else _power_games(powered, stats, settings, default, head, games)
            why = "" if verdict == Verdict.DO else "the check is too small to see a reversal of the headline's size"
            return Judged(verdict, tuple(s for s in settings if s in do), head, need, why, powered)
        need = _power_games(powered, stats, settings, default, head, games)
        return Judged(Verdict.UNDECIDED, (), head, need,
                      f"{', '.join(s for s in do)} beat{'s' if len(do) == 1 else ''} the default with every player, "
                      f"but a check this size sees a reversal of the headline's size only {weakest:.0%} of the time",
                      powered)
    if all(p.row(s).within for p in players for s in others):
        return Judged(Verdict.SMALL, (), "", 0, "", tuple(players))
    if all(default in p.best and all(p.row(s).within for s in p.best if s != default) for p in players):
        return Judged(Verdict.KEEP, (), "", 0, "", tuple(players))
    common = set(settings)
    for p in players:
        common &= set(p.best)
    if not common:
        return Judged(Verdict.DEPENDS, (), "", 0, "; ".join(
            f"with `{p.name}` the best are {', '.join(p.best) or 'none spared by the turn cap'}" for p in players),
            tuple(players))
    need, what = _decide_games(players, stats, settings, default, games, alpha, margin)
    ahead = [s for s in others if all(p.row(s).effect > 0 and not p.row(s).loses for p in players)]
    leader = max(ahead, key=lambda s: min(p.row(s).effect for p in players)) if ahead else ""
    return Judged(Verdict.UNDECIDED, (), "", need, what, tuple(players), leader)


def _with_power(players: Sequence[Player], stats: Sequence[Paired], settings: Sequence[str], default: str,
                head: str) -> tuple[Player, ...]:
    """Each player's power to see a reversal of the first player's headline effect, at its own standard error
    (every player's rows are in `settings` order)."""
    gain = players[0].row(head).effect
    i, j = list(settings).index(head), list(settings).index(default)
    return tuple(replace(p, power=reversal_power(gain, float(st.se[i, j])))
                 for p, st in zip(players, stats, strict=True))


def _power_games(players: Sequence[Player], stats: Sequence[Paired], settings: Sequence[str], default: str,
                 head: str, games: int) -> int:
    """Games a setting at which every player after the first sees a reversal of the headline's size often enough."""
    gain = players[0].row(head).effect
    i, j = list(settings).index(head), list(settings).index(default)
    return max((games_for_power(gain, float(st.se[i, j]), games, POWER) for st in stats[1:]), default=games)


def _decide_games(players: Sequence[Player], stats: Sequence[Paired], settings: Sequence[str], default: str,
                  games: int, alpha: float, margin: float) -> tuple[int, str]:
    """Games a setting that would settle what keeps the verdict open, if the differences are as seen: each setting
    among a player's best that is neither within D of the default nor the same games as it must either come
    within D (an equivalence) or beat it; the slowest of those, each by its nearer route."""
    j = list(settings).index(default)
    worst, what = games, ""
    z = z_two_sided(2 * alpha)  # the one-sided level of each equivalence test
    for p, st in zip(players, stats, strict=True):
        for s in p.best:
            r = p.row(s)
            if s == default or r.within or r.beats or r.same_games_as == default:
                continue
            i = list(settings).index(s)
            d, se = float(st.diff[i, j]), float(st.se[i, j])
            routes = [games_to_decide(d, se, games, alpha / max(1, len(settings) - 1))]  # Holm's strictest step
            if abs(d) < margin and se > 0:
                routes.append(max(games, int(np.ceil(games * (z * se / (margin - abs(d))) ** 2))))
            n = min(routes)
            if n > worst or not what:
                worst, what = max(n, worst), (f"with `{p.name}`, `{s}` is neither told apart from the default "
                                              f"`{default}` nor shown within {100 * margin:g} point of it "
                                              f"({100 * d:+.1f} points so far)")
    if not what:
        what = "no setting beats the default with every player, and the default is not among the best with every one"
    return worst, what


REPORTS_ANSWERS = ("reports", "answers")  # the committed records, under the checkout


def answers(folder: str | Path | None = None, study: str | None = None, preset: str | None = None) -> list[Answer]:
    """The answer records of `folder` (default: the checkout's committed reports/answers/, else every record in
    the study cache), those of one study or preset when asked: what the reports, the view across presets, the
    cards and the notebooks print, as data."""
    if folder is None:
        from sim.report.common import cache_dir, checkout_root

        root = checkout_root()
        committed = root.joinpath(*REPORTS_ANSWERS) if root is not None else None
        if committed is not None and committed.is_dir():
            found = read_answers(committed)
        else:
            found = [read_answer(p) for p in sorted(cache_dir("").rglob("answers/*.json"))]
    else:
        found = read_answers(folder)
    return [a for a in found if (study is None or a.study == study) and (preset is None or a.preset == preset)]
