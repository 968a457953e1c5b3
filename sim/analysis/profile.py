"""Play statistics: how a strategy plays, not only whether it wins.

A win rate says which strategy is stronger; it does not say whether a strategy goes out early with one
canasta or builds, whether it takes piles or freezes them, whether its hands end by going out or by
exhausting the stock. `profile` plays the strategies on duplicate deals with the hands table on
(sim.records.results, docs/results.md) and reads it per strategy: hands per game and turns per hand, how hands
end, how many canastas a side holds when it goes out, canastas per hand by kind, the hand score and
its spread, and what the side's seats did (pile pick-ups, freezes, black threes thrown, asks and
"yes" answers).

Figures are summed chunk by chunk as the games finish (and from the parts of a resumed run folder),
so memory stays flat however many games are played.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.engine import layout as L
from sim.records.outputs import PROFILE_FILE
from sim.records.results import write_parquet
from sim.rules import Variant, get_variant
from sim.run.experiment import Experiment
from sim.run.frames import side_labels
from sim.run.output import folder_name, prepare_output, whole_deals, write_output_record
from sim.run.runner import Job, Progress, make_job, whole_number
from sim.run.seating import short
from sim.run.store import arrow_errors, damaged
from sim.stats import Moments
from strategies import StrategyChoice, StrategySpec, parse_strategy

RUN_DIR = "games.parquet"  # the run folder of strategies played against each other (as compare names it)
ENDS = tuple(L.END_NAMES[int(e)] for e in L.EndReason)  # how a hand ends: out, stock, cap
KINDS = tuple(k.name.lower() for k in L.CanastaKind)  # the canasta kinds the hands table records
OUT_WITH = (1, 2, 3)  # goings out by the side's completed canastas: exactly 1, exactly 2, the last or more

# (column, what a person reads, how it prints): the table's rows, in this order
FIGURES: tuple[tuple[str, str, str], ...] = (
    ("games", "games", "int"),
    ("hands_per_game", "hands per game", "f2"),
    ("turns_per_hand", "turns per hand", "f1"),
    ("ended_out", "hands ended by going out", "pct"),
    ("ended_stock", "hands ended with the stock exhausted", "pct"),
    ("ended_cap", "hands ended by the turn cap", "pct"),
    ("ended_sevens", "hands ended by a hand of sevens (Pennies)", "pct"),
    ("went_out", "side went out (share of its hands)", "pct"),
    ("out_with_1", "  ... holding 1 canasta", "pct"),
    ("out_with_2", "  ... holding 2 canastas", "pct"),
    ("out_with_3plus", "  ... holding 3 or more", "pct"),
    ("natural_canastas", "natural canastas per side and hand", "f2"),
    ("mixed_canastas", "mixed canastas per side and hand", "f2"),
    ("small_wild_canastas", "small wild canastas per side and hand (Boat)", "f2"),
    ("big_wild_canastas", "big wild canastas per side and hand (Boat)", "f2"),
    ("wild_canastas", "wild canastas per side and hand (Pennies, Railroad)", "f2"),
    ("sevens_canastas", "sevens canastas per side and hand (Pennies, Railroad)", "f2"),
    ("score_mean", "hand score per side (mean)", "f0"),
    ("score_sd", "hand score per side (standard deviation)", "f0"),
    ("pile_pickups", "pile pick-ups per side and hand", "f2"),
    ("freezes", "wild discards (freezes) per side and hand", "f2"),
    ("black3_discards", "black threes thrown per side and hand", "f2"),
    ("asks", "asks per side and hand", "f2"),
    ("yes_answers", "\"yes\" answers per side and hand", "f2"),
    ("top_takes", "top discards taken alone per side and hand (House-001)", "f2"),
    ("feet_taken", "feet, kitties or mortos picked up per side and hand (Pennies, Railroad, Buraco)", "f2"),
    ("sequences", "sequences started per side and hand (Buraco)", "f2"),
)


@dataclass
class Tally:
    """Running sums of one strategy's hands: hand-level sums count each hand of its games once,
    side-level sums count each hand once per side it held."""

    games: int = 0
    hands: int = 0
    turns: int = 0
    ended: np.ndarray = field(default_factory=lambda: np.zeros(len(ENDS), np.int64))
    side_hands: int = 0
    went_out: int = 0
    out_with: np.ndarray = field(default_factory=lambda: np.zeros(len(OUT_WITH), np.int64))
    canastas: np.ndarray = field(default_factory=lambda: np.zeros(len(KINDS), np.int64))
    counts: np.ndarray = field(default_factory=lambda: np.zeros(len(L.SIDE_COUNTS), np.int64))
    score: Moments = field(default_factory=lambda: Moments(0, 0.0, 0.0))

    def row(self) -> dict[str, Any]:
        """The figures: means per hand, per side and hand, and shares."""
        def ratio(a: float, b: float) -> float:
            return a / b if b else math.nan

        rec: dict[str, Any] = {"games": self.games, "hands": self.hands, "side_hands": self.side_hands,
                               "hands_per_game": ratio(self.hands, self.games),
                               "turns_per_hand": ratio(self.turns, self.hands)}
        rec.update({f"ended_{e}": ratio(int(n), self.hands) for e, n in zip(ENDS, self.ended, strict=True)})
        rec["went_out"] = ratio(self.went_out, self.side_hands)
        rec.update({out_with_column(i): ratio(int(n), self.went_out) for i, n in enumerate(self.out_with)})
        rec.update({f"{k}_canastas": ratio(int(n), self.side_hands) for k, n in zip(KINDS, self.canastas, strict=True)})
        rec["score_mean"] = self.score.mean if self.score.n else math.nan
        rec["score_sd"] = math.sqrt(self.score.var) if self.score.n > 1 else math.nan
        rec.update({c: ratio(int(n), self.side_hands) for c, n in zip(L.SIDE_COUNTS, self.counts, strict=True)})
        return rec


def out_with_column(i: int) -> str:
    return f"out_with_{OUT_WITH[i]}" + ("plus" if i == len(OUT_WITH) - 1 else "")


def side_label(job: Job, label: str) -> str:
    """A side's row: `baseline` for a partnership of `baseline` seats; a partnership that mixes
    strategies by its members in the order they were given, whichever seats they hold (the seating
    rotates, so `A+B` and `B+A` are one partnership)."""
    order = [c.label for c in job.strategies]
    return short("+".join(sorted(label.split("+"), key=order.index)))


def rotation_labels(job: Job) -> list[list[str]]:
    """The row of each side on each rotation of the seating (duplicate deals rotate it)."""
    return [[side_label(job, x) for x in side_labels(job, r)] for r in range(job.variant.n_sides)]


def job_labels(job: Job) -> list[str]:
    """The rows a job gives: every side label of every rotation, in order of appearance."""
    out: list[str] = []
    for labels in rotation_labels(job):
        out += [x for x in labels if x not in out]
    return out


def tally_hands(job: Job, hands: pd.DataFrame, tallies: dict[str, Tally], upto: int) -> None:
    """Add the hands of some finished games (the hands table's rows, docs/results.md) of games
    0..upto-1 to each strategy's tally."""
    ns = job.variant.n_sides
    wanted = ["game", "turns", "reason", "out_side"] + [f"{c}_{s}" for s in range(ns) for c in (
        *(f"{k}_canastas" for k in KINDS), *L.SIDE_COUNTS, "total")]
    hands = hands.loc[hands["game"].to_numpy() < upto, wanted]  # the columns read: a copy of 30, not of 190
    if hands.empty:
        return
    per_rot = rotation_labels(job)
    rot = hands["game"].to_numpy() % ns
    reason = hands["reason"].astype(str).to_numpy()
    out_side = hands["out_side"].to_numpy()
    for label, t in tallies.items():
        mine = np.array([label in per_rot[r] for r in range(ns)])[rot]
        h = hands[mine]
        t.games += int(h["game"].nunique())
        t.hands += len(h)
        t.turns += int(h["turns"].sum())
        t.ended += [int((reason[mine] == e).sum()) for e in ENDS]
        for s in range(ns):
            at = np.array([per_rot[r][s] == label for r in range(ns)])[rot]
            if not at.any():
                continue
            h = hands[at]
            out = out_side[at] == s
            held = sum(h[f"{k}_canastas_{s}"].to_numpy() for k in KINDS)
            t.side_hands += len(h)
            t.went_out += int(out.sum())
            t.out_with += [int((out & (held == n)).sum()) for n in OUT_WITH[:-1]] + [
                int((out & (held >= OUT_WITH[-1])).sum())]
            t.canastas += [int(h[f"{k}_canastas_{s}"].sum()) for k in KINDS]
            t.counts += [int(h[f"{c}_{s}"].sum()) for c in L.SIDE_COUNTS]
            t.score = t.score + Moments.of(h[f"total_{s}"].to_numpy(np.float64))


def read_hands_part(path: Path) -> pd.DataFrame:
    """One hands part of a resumed run, or the one line naming it when its data cannot be read."""
    import pyarrow.parquet as pq

    try:
        return pq.read_table(path).to_pandas()
    except arrow_errors():
        raise damaged(path, "its data cannot be read") from None


class ProfileRun(Experiment):
    """An Experiment that records the hands and adds each finished chunk to the tallies, then lets it
    go; the games already in a resumed run folder are tallied from its hand parts."""

    def __init__(self, jobs: Sequence[Job], budget: int, outs: Sequence[Path] | None,
                 tallies: list[dict[str, Tally]], **kwargs: Any) -> None:
        super().__init__(jobs, budget, outs, hands=True, per_game=False, **kwargs)  # the tallies are all it reads
        self.tallies = tallies
        try:
            for i, f in enumerate(self.folders):
                if f is not None:
                    for part in f.parts(hands=True):
                        tally_hands(self.jobs[i], read_hands_part(part), self.tallies[i], budget)
        except BaseException:  # a part unreadable: a folder made for this call goes again, and the pool with it
            self.close()
            raise

    reads_hands = True

    def take_hands(self, i: int, hands: pd.DataFrame) -> None:
        tally_hands(self.jobs[i], hands, self.tallies[i], self.budget)


def profile(variant: str | Variant, strategies: str | StrategySpec | StrategyChoice
            | Sequence[str | StrategySpec | StrategyChoice], games: int, seed: int, mirror: bool = False,
            workers: int = 0, out: str | Path | None = None, progress: Progress = None, scheduler: Any = None,
            force: bool = False) -> pd.DataFrame:
    """How each strategy plays: one row per strategy label (per side label where a side mixes
    strategies), with the figures of FIGURES.

    The strategies play against each other on duplicate deals, seated as `play` seats them; with
    `mirror`, each plays its own games against itself instead (one run per strategy), so that the
    figures of the whole game (hands per game, how hands end) are its own. `games` (per run) is
    rounded up to whole deals. With `out`, the games and hands go to run folders under it
    (`games.parquet/`, or one per strategy with `mirror`) and the table to `profile.parquet`; the
    same call again resumes a stopped run. Everything is checked before any game is played."""
    v = get_variant(variant) if isinstance(variant, str) else variant
    whole_number("games", games)
    if isinstance(strategies, str | StrategySpec | StrategyChoice):
        strategies = [strategies]
    chosen = [parse_strategy(s) for s in strategies]
    if not chosen:
        raise ValueError("profile needs at least one strategy")
    if mirror:
        labels = [c.label for c in chosen]
        twice = next((x for x in labels if labels.count(x) > 1), None)
        if twice is not None:
            raise ValueError(f"strategy {twice!r} is given twice; with --mirror give each strategy once")
        jobs = [make_job(v, [c], seed) for c in chosen]
    else:
        jobs = [make_job(v, chosen, seed)]
    budget = whole_deals(games, v.n_sides)
    what = {"command": "profile", "rules": v.to_dict(), "seed": seed, "strategies": [c.label for c in chosen],
            "mirror": mirror}
    root = prepare_output(out, force, what) if out is not None else None
    outs = None
    if root is not None:
        outs = [root / f"{folder_name(c.label)}.parquet" for c in chosen] if mirror else [root / RUN_DIR]
    tallies = [{label: Tally() for label in job_labels(j)} for j in jobs]
    with ProfileRun(jobs, budget, outs, tallies, workers=workers, progress=progress, scheduler=scheduler,
                    force=force, describe="this profile", parents=True, command="profile") as exp:
        exp.advance()
    rows = [{"strategy": label, **t.row()} for per_job in tallies for label, t in per_job.items()]
    df = pd.DataFrame(rows).astype({"strategy": str, "games": np.int64, "hands": np.int64, "side_hands": np.int64})
    meta = exp.run_meta(0)
    df.attrs.update({"variant": v.name, "seed": seed, "games_per_run": budget, "deals": budget // v.n_sides,
                     "mirror": mirror,
                     "strategies": [c.label for c in chosen],
                     **{k: meta[k] for k in ("rules", "house_rules", "package_version", "code_version", "machine")},
                     "wall_seconds": round(exp.wall, 3)})
    if root is not None:
        write_parquet(df, dict(df.attrs), root / PROFILE_FILE)
        write_output_record(root, what)
    return df


def heading(df: pd.DataFrame) -> str:
    """What was played: the variant, who against whom, games, deals and seed."""
    a = df.attrs
    deals = f" ({a['deals']} duplicate deals)"
    if a["mirror"]:
        who = f"each strategy against itself, {a['games_per_run']} games each{deals}"
    else:
        who = f"{' vs '.join(a['strategies'])} on duplicate deals, {a['games_per_run']} games{deals}"
    return f"{a['variant']}: {who}, seed {a['seed']}"


def _show(x: Any, how: str) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if how == "int":
        return f"{int(x):,}"
    if how == "pct":
        return f"{100 * x:.1f}%"
    return f"{x:,.{int(how[1:])}f}"


def wide(df: pd.DataFrame) -> pd.DataFrame:
    """The figures as a person reads them: one row per figure, one column per strategy."""
    cols = {r.strategy: [_show(getattr(r, c), how) for c, _, how in FIGURES] for r in df.itertuples()}
    return pd.DataFrame(cols, index=[text for _, text, _ in FIGURES])


def notes(df: pd.DataFrame) -> list[str]:
    """How to read the figures."""
    lines = ["'per side and hand': over every hand of every side the strategy held"
             + (" (both sides, against itself)." if df.attrs["mirror"] else ".") + " '... holding N canastas' splits "
             "its side's goings out by the side's completed canastas at that moment."]
    if not df.attrs["mirror"]:
        lines.append("Hands per game, turns per hand and how hands ended describe the games the strategy played in, "
                     "the same for its opponents; --mirror plays each strategy against itself instead.")
    return lines


def table(df: pd.DataFrame) -> str:
    """The profile as the terminal shows it."""
    return "\n".join([heading(df), "", wide(df).to_string(), "", *notes(df)])


def markdown(df: pd.DataFrame) -> str:
    """The profile as a Markdown table (docs/strategies.md, "How each strategy plays")."""
    w = wide(df)
    lines = [f"| figure | {' | '.join(f'`{c}`' for c in w.columns)} |", "|---" * (len(w.columns) + 1) + "|"]
    lines += [f"| {name.strip()} | {' | '.join(row)} |" for name, row in zip(w.index, w.to_numpy(), strict=True)]
    return "\n".join(lines)


def to_json(df: pd.DataFrame) -> str:
    """One JSON document: what was played, and the figures of every strategy (null where undefined)."""
    a = df.attrs
    rows = [{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in rec.items()}
            for rec in df.astype(object).to_dict("records")]
    return json.dumps({"variant": a["variant"], "seed": a["seed"], "games_per_run": a["games_per_run"],
                       "mirror": a["mirror"], "strategies": rows})
