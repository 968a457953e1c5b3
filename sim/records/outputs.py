"""The tables the analysis commands return and write (a comparison, a round robin, a sweep, a profile):
their types, how a person reads them, their files in an output folder, and reading a folder back
(`load`). The commands that compute them (sim.analysis) write through here, so a reader never needs to
know the commands."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.plots import pair_chart
from sim.records.results import ResultsError, read, read_parquet, write_parquet
from sim.run.store import OUTPUT_FILE, RUN_FILE, write_text_atomic
from sim.stats import ALPHA_HOLM, fmt_interval

PAIRS_FILE = "pairs.parquet"  # a comparison's and a round robin's pairs
RANKING_FILE = "ranking.parquet"
MATRIX_FILE = "matrix.parquet"
SWEEP_FILE = "sweep.parquet"
PROFILE_FILE = "profile.parquet"  # the table in an output folder, beside the run folders
TABLES = {"compare": PAIRS_FILE, "tournament": PAIRS_FILE, "sweep": SWEEP_FILE, "profile": PROFILE_FILE}


@dataclass
class Comparison:
    """A head to head: one row per pair of strategies (`pairs`), the sequential test's state when
    one ran (`sprt`), and the run's metadata record."""

    variant: str
    labels: list[str]
    pairs: pd.DataFrame
    games: int
    seed: int
    sprt: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def table(self) -> str:
        """The comparison as a person reads it at a glance."""
        return "\n".join(comparison_lines(self))


def pair_table(pairs: pd.DataFrame) -> pd.DataFrame:
    """The pairs as the terminal shows them."""
    return pd.DataFrame({
        "pair": pairs["a"] + " vs " + pairs["b"],
        "deals": pairs["deals"],
        "won all": pairs["won_all"],
        "split": pairs["split"],
        "lost all": pairs["lost_all"],
        "win rate [95%]": [fmt_interval(r.win_rate, r.win_low, r.win_high) for r in pairs.itertuples()],
        "margin per deal [95%]": [fmt_interval(r.margin, r.margin_low, r.margin_high, 0, True)
                                  for r in pairs.itertuples()],
        "Elo [95%]": [fmt_interval(r.elo, r.elo_low, r.elo_high, 1, True) for r in pairs.itertuples()],
    })


def factor_text(x: float) -> str:
    return "-" if not np.isfinite(x) else f"x{x:.2f}"


def comparison_lines(c: Comparison) -> list[str]:
    rot = int(c.pairs["rotations"].iat[0]) if len(c.pairs) else 0
    lines = [f"{c.variant}: {' vs '.join(c.labels)} on duplicate deals, seed {c.seed}: {c.games} games = "
             f"{c.games // max(rot, 1)} deals, each played on its {rot} rotations of the seating",
             *([f"seating: {c.meta['seating_text']}"] if c.meta.get("seating_text") else []),
             "", pair_table(c.pairs).to_string(index=False), ""]
    alike = {tuple(pair) for pair in c.meta.get("same_strategy", [])}
    for r in c.pairs.itertuples():
        if (r.a, r.b) in alike:
            lines.append(same_strategy_line(c.variant, r))
            continue
        lines.append(f"{r.a} vs {r.b}: 'won all' counts deals {r.a} won on every rotation. Pairing cut the "
                     f"variance against independent deals: win rate {factor_text(r.win_variance_factor)}, margin "
                     f"{factor_text(r.margin_variance_factor)} (a Wilson interval treating the games as independent "
                     f"would say [{r.wilson_low:.3f}, {r.wilson_high:.3f}]).")
    if c.sprt is not None:
        lines += sprt_lines(c.sprt)
    return lines


def same_strategy_line(variant: str, r: Any) -> str:
    """The one line for a pair whose two sides play the same strategy (the same decision functions, every knob
    at the same value at the variant): no interval, and no number of games, can tell them apart."""
    what = (f"{r.a} vs {r.b}: the two play the same strategy at {variant} (the same decision functions, every "
            "knob at the same value)")
    if r.split == r.deals and r.margin_low == 0 == r.margin_high:
        return (f"{what}, so they play the same games on every duplicate deal: the result is exactly even by "
                "construction, and more games change nothing.")
    return (f"{what}; they differ only in the random draws of their decisions, so they are even in truth: more "
            "games only narrow the interval around 0.500.")


def sprt_lines(s: dict[str, Any]) -> list[str]:
    decision = {"H0": "H0 accepted", "H1": "H1 accepted", None: "no decision (budget reached)"}[s["decision"]]
    unit = {"elo": "Elo", "win_rate": "win rate", "margin": "points"}[s["kind"]]
    looks = f"{s['looks']} look{'s' if s['looks'] > 1 else ''}"
    lines = [f"SPRT {s['spec']}: LLR {s['llr']:.3f}, bounds [{s['lower']:.3f}, {s['upper']:.3f}]: {decision} "
             f"after {s['games']} games ({looks} of {s['batch_games']} games; budget {s['budget']})"]
    if s["stopped_early"]:
        lines.append(f"  It stopped early, so the plain estimate ({s['estimate']:.3f} {unit}) is biased: a test stops "
                     f"sooner on runs that stray towards a bound, so the mean at the stop exaggerates in the direction "
                     f"it crossed. Bias-corrected estimate {s['corrected']:.3f} {unit} ({s['correction']}).")
    else:
        lines.append(f"  Estimate {s['estimate']:.3f} {unit} (no early stop, no bias to correct).")
    return lines


def write_comparison(c: Comparison, out: Path) -> None:
    """The pairs table (Parquet, with the metadata and the test's state), report.md and its chart."""
    out.mkdir(parents=True, exist_ok=True)
    meta = {**c.meta, "sprt": c.sprt, "labels": c.labels}
    write_parquet(c.pairs, meta, out / PAIRS_FILE)
    pair_chart(c.pairs, f"{c.variant}: win rate on duplicate deals", out / "win_rates.png")
    rules = "".join(f" --rule {r}" for r in c.meta.get("house_rules", []))
    strategies = " ".join(f"-s {s['label']}" for s in c.meta["strategies"])
    sprt = f" --sprt {c.sprt['spec']}" if c.sprt else ""
    text = [f"# {c.variant}: {' vs '.join(c.labels)}", "",
            f"Reproduce: `canasta-lab compare {c.variant} {strategies} --games "
            f"{c.sprt['budget'] if c.sprt else c.games} --seed {c.seed}{rules}{sprt} --out {out}`", "",
            "```", *comparison_lines(c), "```", "", "![win rates](win_rates.png)", "",
            f"canasta-lab {c.meta.get('package_version')}, engine sources {c.meta['code_version']['engine_sources']}"
            f", git {c.meta['code_version']['git']}; {c.meta['wall_seconds']:.1f} s on {c.meta['machine']['host']} "
            f"({c.meta['machine']['cpus']} cores, {c.meta['machine']['system']}).", ""]
    write_text_atomic(out / "report.md", "\n".join(text))


@dataclass
class Tournament:
    variant: str
    strategies: list[str]
    pairs: pd.DataFrame  # one row per pair: head_to_head and Holm's reading
    matrix: pd.DataFrame  # one row per (row strategy, column strategy): win rate and margin with intervals
    ranking: pd.DataFrame
    games: int
    seed: int
    meta: dict[str, Any] = field(default_factory=dict)

    def table(self) -> str:
        return "\n".join(tournament_lines(self))

    def wide(self, value: str = "win_rate") -> pd.DataFrame:
        """One of the matrix's columns as a square table: rows against columns, in the order given."""
        return self.matrix.pivot(index="row", columns="column", values=value).reindex(
            index=self.strategies, columns=self.strategies)


def win_matrix(pairs: pd.DataFrame, labels: Sequence[str]) -> pd.DataFrame:
    """Row strategy's win rate against the column strategy, with its pair interval."""
    m = pd.DataFrame("", index=list(labels), columns=list(labels))
    for r in pairs.itertuples():
        m.loc[r.a, r.b] = fmt_interval(r.win_rate, r.win_low, r.win_high)
        m.loc[r.b, r.a] = fmt_interval(1 - r.win_rate, 1 - r.win_high, 1 - r.win_low)
    for x in labels:
        m.loc[x, x] = "-"
    return m


def margin_matrix(pairs: pd.DataFrame, labels: Sequence[str]) -> pd.DataFrame:
    m = pd.DataFrame("", index=list(labels), columns=list(labels))
    for r in pairs.itertuples():
        m.loc[r.a, r.b] = fmt_interval(r.margin, r.margin_low, r.margin_high, 0, True)
        m.loc[r.b, r.a] = fmt_interval(-r.margin, -r.margin_high, -r.margin_low, 0, True)
    for x in labels:
        m.loc[x, x] = "-"
    return m


def tournament_lines(t: Tournament) -> list[str]:
    rot = int(t.pairs["rotations"].iat[0])
    real = t.pairs[t.pairs["real"]]
    lines = [f"{t.variant}: round robin of {len(t.strategies)} strategies, {t.games} games ({t.games // rot} "
             f"duplicate deals) per pair, seed {t.seed}",
             *([f"seating: {t.meta['seating_text']}"] if t.meta.get("seating_text") else []), "",
             "win rate of the row against the column [95% interval on the deals]:",
             win_matrix(t.pairs, t.strategies).to_string(), "",
             "score margin per deal of the row over the column [95%]:",
             margin_matrix(t.pairs, t.strategies).to_string(), "",
             "ranking (Elo, mean 0, 95% interval):",
             t.ranking.to_string(index=False, float_format=lambda x: f"{x:+.1f}"), "",
             f"differences that are real at a family-wise {ALPHA_HOLM:.0%} (Holm's correction over "
             f"{len(t.pairs)} pairs): " + ("none" if real.empty else "; ".join(
                 f"{r.a if r.win_rate > 0.5 else r.b} over {r.b if r.win_rate > 0.5 else r.a} (p={r.p_value:.2g})"
                 for r in real.itertuples()))]
    return lines


def write_tournament(t: Tournament, out: Path) -> None:
    meta = {**t.meta, "strategies_order": t.strategies}
    write_parquet(t.pairs, meta, out / PAIRS_FILE)
    write_parquet(t.ranking, meta, out / RANKING_FILE)
    write_parquet(t.matrix, meta, out / MATRIX_FILE)
    rules = "".join(f" --rule {r}" for r in t.meta.get("house_rules", []))
    text = [f"# {t.variant}: round robin", "",
            f"Reproduce: `canasta-lab tournament {t.variant} {' '.join(t.strategies)} --games {t.games} "
            f"--seed {t.seed}{rules} --out {out}`", "", "```", *tournament_lines(t), "```", "",
            f"canasta-lab {t.meta.get('package_version')}, engine sources {t.meta['code_version']['engine_sources']}"
            f", git {t.meta['code_version']['git']}; {t.meta['wall_seconds']:.1f} s on {t.meta['machine']['host']} "
            f"({t.meta['machine']['cpus']} cores).", ""]
    write_text_atomic(out / "report.md", "\n".join(text))


def load(path: str | os.PathLike[str]) -> Any:
    """Any command's output read back into the tables it returned: a `play` run folder or file gives
    Results; a `compare` folder a Comparison, a `tournament` folder a Tournament, a `sweep` or
    `profile` folder its DataFrame (metadata in `.attrs`); the columns and their types are those the
    command returned in memory."""
    p = Path(path)
    if not p.exists():
        raise ResultsError(f"results {str(p)!r} do not exist")
    if p.is_file() or (p / RUN_FILE).exists():
        return read(p)
    record = p / OUTPUT_FILE
    if not record.exists():
        raise ResultsError(f"{str(p)!r} holds no canasta-lab output (no run and no {OUTPUT_FILE}); give a folder "
                           "that play, compare, tournament, sweep or profile wrote")
    command = json.loads(record.read_text()).get("command")
    if command == "report":
        raise ResultsError(f"{str(p)!r} holds the reports of canasta-lab report (STUDY.md and its charts), not a "
                           "table to load")
    if command not in TABLES or not (p / TABLES[command]).exists():
        raise ResultsError(f"{str(p)!r}: its {command} tables are missing (a run stopped before the end); run the "
                           "same command again to finish it")
    again = "run the same command again to write it anew"  # every run of a command rewrites its tables
    main = read_parquet(p / TABLES[command], again)
    meta = main.meta
    if command == "compare":
        return Comparison(meta["variant"], meta["labels"], main.games, meta["games"], meta["seed"], meta.get("sprt"),
                          {k: v for k, v in meta.items() if k not in ("sprt", "labels")})
    if command == "tournament":
        return Tournament(meta["variant"], meta["strategies_order"], main.games,
                          read_parquet(p / MATRIX_FILE, again).games, read_parquet(p / RANKING_FILE, again).games,
                          meta["games_per_pair"], meta["seed"],
                          {k: v for k, v in meta.items() if k != "strategies_order"})
    df = main.games
    df.attrs.update(meta)
    return df
