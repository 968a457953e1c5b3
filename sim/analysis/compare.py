"""Head-to-head comparisons and round robins on duplicate deals, read with pair statistics.

A deal is played once per rotation of the seating (two games with two sides, three with three), so
the luck of the cards falls on both strategies alike; every interval here is computed on the deals,
not on the games as if they were independent (sim.stats.head_to_head). A comparison may stop early
under a sequential probability ratio test (`sprt`), looking at the deals in fixed batches so that the
decision does not depend on the number of workers.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from strategies import StrategyChoice, StrategySpec, parse_strategy

from .experiment import Experiment
from .rules import Variant, get_variant
from .runner import Job, Progress, make_job, whole_number
from .stats import (
    SprtSpec,
    elo_ranking,
    holm,
    parse_sprt,
    sprt_estimate,
    sprt_status,
    sprt_values,
)
from .store import (
    DERIVED,
    OUTPUT_FILE,
    RUN_FILE,
    OtherRunError,
    ResultsError,
    can_write_in,
    claim,
    clear_output,
    write_json_atomic,
)
from .tidy import knob_table, with_knobs, with_pair_knobs

SPRT_BATCH_GAMES = 2000  # games between two looks of a sequential test (rounded up to whole deals)
SPRT_MIN_BATCH = 100  # fewer games a look would estimate the deals' spread from too few of them
CONFIDENCE = 0.95
ALPHA_HOLM = 0.05  # family-wise error rate of a round robin's or a sweep's list of real differences
RUN_DIR = "games.parquet"  # a comparison's run folder inside its output folder


def whole_deals(games: int, rotations: int) -> int:
    """Games rounded up to whole deals: a deal counts only when every rotation of it is played."""
    return -(-games // rotations) * rotations


def folder_name(label: str) -> str:
    """A strategy label as a file name on every system (`:` is not allowed on Windows)."""
    return re.sub(r"[^A-Za-z0-9._=,+-]", "_", label)


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


def refuse_mixed_sides(job: Job) -> None:
    """A head-to-head compares strategies side against side: no side may mix strategies."""
    seats = job.seat_labels(0)
    for s, side in enumerate(job.variant.sides):
        names = {seats[p] for p in side}
        if len(names) > 1:
            n = len(job.strategies)
            raise ValueError(f"with {n} strategies at {job.variant.players} seats the seating is "
                             f"{' '.join(seats)}, so side {s} would mix {' and '.join(sorted(names))}; compare needs "
                             f"one strategy per side: give at most {job.variant.n_sides} strategies, or as many as "
                             "seats with partners equal")


def side_labels0(job: Job) -> list[str]:
    seats = job.seat_labels(0)
    out: list[str] = []
    for side in job.variant.sides:
        label = "+".join(seats[p] for p in side)
        if label not in out:
            out.append(label)
    return out


def one_against_rest(v: Variant, a: str, b: str) -> list[str]:
    """Side labels of the seating sim.sweep.seating makes: `a` on side 0, `b` on every other side."""
    return [a] + [b] * (v.n_sides - 1)


def short(label: str) -> str:
    """A side's label as a person says it: `baseline` for a partnership of two `baseline` seats."""
    parts = label.split("+")
    return parts[0] if len(set(parts)) == 1 else label


def pair_rows(exp: Experiment, labels: Sequence[str], games: int) -> pd.DataFrame:
    rows = [{**exp.summary(0, a, b, games, confidence=CONFIDENCE), "a": short(a), "b": short(b)}
            for a, b in itertools.combinations(labels, 2)]
    return pairs_frame(rows)


def pairs_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The pairs as a typed table: `a` and `b` first, each with its name and knob columns (sim.tidy)."""
    df = pd.DataFrame(rows)
    return with_pair_knobs(df[["a", "b", *(c for c in df.columns if c not in ("a", "b"))]])


def compare(variant: str | Variant, strategies: Sequence[str | StrategySpec | StrategyChoice], games: int,
            seed: int, workers: int = 0, out: str | Path | None = None, sprt: str | SprtSpec | None = None,
            batch: int = SPRT_BATCH_GAMES, progress: Progress = None, scheduler: Any = None,
            force: bool = False) -> Comparison:
    """Play `strategies` against each other on duplicate deals and read the pairs.

    `games` is rounded up to whole deals. With `sprt` ("elo0=0,elo1=10", "p0=0.5,p1=0.52" or
    "margin0=0,margin1=50", with optional alpha and beta), `games` is the budget: the test looks at
    the deals after every `batch` games and stops when it accepts a hypothesis. With `out`, the games
    go to `out/games.parquet` part by part, and the same call again resumes a stopped run.
    Everything is checked before any game is played."""
    v = get_variant(variant) if isinstance(variant, str) else variant
    if sprt is not None and not isinstance(sprt, str | SprtSpec):
        raise TypeError(f"sprt={sprt!r}: give a string such as 'elo0=0,elo1=10' (or a sim.stats.SprtSpec)")
    spec = parse_sprt(sprt) if isinstance(sprt, str) else sprt
    whole_number("games", games)
    if whole_number("batch", batch) < SPRT_MIN_BATCH:
        raise ValueError(f"batch must be at least {SPRT_MIN_BATCH} games: the test reads the spread of the deals "
                         f"at every look, which a handful of deals cannot show; got {batch}")
    if isinstance(strategies, str | StrategySpec | StrategyChoice):
        strategies = [strategies]  # refused below as one strategy, not read letter by letter
    job = make_job(v, list(strategies), seed)
    refuse_mixed_sides(job)
    labels = side_labels0(job)
    if len(labels) < 2:
        raise ValueError(f"compare needs two different strategies, got only {labels[0]!r}")
    if spec is not None and len(labels) != 2:
        raise ValueError(f"--sprt tests two strategies, got {len(labels)}: {', '.join(labels)}")
    rot = v.n_sides
    budget = whole_deals(games, rot)
    what = {"command": "compare", "rules": v.to_dict(), "seed": seed, "strategies": [c.label for c in job.strategies]}
    run_dir = prepare_output(out, force, what) / RUN_DIR if out is not None else None
    sprt_state = None
    with Experiment([job], budget, [run_dir] if run_dir else None, workers=workers, progress=progress,
                    scheduler=scheduler, force=force, describe="this comparison", parents=True,
                    command="compare") as exp:
        if spec is None:
            exp.advance()
            used = budget
        else:
            step = min(whole_deals(batch, rot), budget)
            used, looks = 0, 0
            while True:
                used = min(used + step, budget)
                looks += 1
                exp.advance(used)
                values = sprt_values(spec, exp.deal_stats(0, labels[0], labels[1], used)[0])
                sprt_state = sprt_status(spec, values)
                if sprt_state["decision"] is not None or used >= budget:
                    break
            early = sprt_state["decision"] is not None and used < budget
            sprt_state.update(sprt_estimate(spec, values, step // rot, early, budget // rot))
            sprt_state.update({"spec": spec_text(spec), "kind": spec.kind, "h0": spec.h0, "h1": spec.h1,
                               "alpha": spec.alpha, "beta": spec.beta, "looks": looks, "games": used,
                               "budget": budget, "stopped_early": early, "batch_games": step})
        pairs = pair_rows(exp, labels, used)
    meta = exp.run_meta(0)
    meta.update({"games": used, "resumed_games": exp.resumed[0]})
    exp.release()
    result = Comparison(v.name, [short(x) for x in labels], pairs, used, seed, sprt_state, meta)
    if out is not None:
        write_comparison(result, Path(out))
        write_output_record(Path(out), what)
    return result


def spec_text(spec: SprtSpec) -> str:
    names = {"elo": ("elo0", "elo1"), "win_rate": ("p0", "p1"), "margin": ("margin0", "margin1")}[spec.kind]
    return f"{names[0]}={spec.h0:g},{names[1]}={spec.h1:g},alpha={spec.alpha:g},beta={spec.beta:g}"


def prepare_output(out: str | Path, force: bool, what: dict[str, Any]) -> Path:
    """An output folder for run folders, tables and a report: made with its first run folder. An
    existing one is resumed when it holds this same command (`what`: the command, rules, seed and
    strategies); one that holds another command's output (sim.store.claim: a play run folder
    included) or this command's with other settings, or a report with no run beside it, is refused,
    and `force` clears it, removing only what canasta-lab wrote there."""
    p = Path(out)
    if p.exists() and not p.is_dir():
        raise ResultsError(f"output {str(p)!r} is a file; give a folder path (it is created)")
    probe = p
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir() or not can_write_in(probe):
        raise ResultsError(f"cannot write {str(p)!r}: folder {str(probe)!r} is not writable")
    command = what["command"]
    other = claim(p, command, force)
    if not p.is_dir():
        return p
    if other is not None:
        clear_output(p, other)
        return p
    what = json.loads(json.dumps(what))  # as it reads back
    record = p / OUTPUT_FILE
    theirs = None
    if record.exists():
        try:
            theirs = json.loads(record.read_text())
        except ValueError:
            theirs = {"command": "a damaged record"}
    ours = [e.name for e in p.iterdir() if e.name in DERIVED]
    runs = [e for e in p.iterdir() if (e / RUN_FILE).exists()]
    if theirs is not None and theirs != what:
        if not force:
            raise OtherRunError(f"{str(p)!r} holds the results of another {command} (different "
                                f"{_first_difference(theirs, what)}); give another folder, or --force to replace them")
    elif theirs is None and ours and not runs and not force:
        # a report without its games: not one of ours to replace silently
        raise ResultsError(f"{str(p)!r} already holds {ours[0]} but no run of canasta-lab; choose another "
                           "folder or pass --force")
    else:
        return p
    clear_output(p, command)  # --force: only what canasta-lab wrote goes
    return p


def _first_difference(a: dict[str, Any], b: dict[str, Any]) -> str:
    return next((k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)), "settings")


def write_output_record(out: Path, what: dict[str, Any]) -> None:
    """What this output folder holds, so another command is not written over it (prepare_output)."""
    write_json_atomic(out / OUTPUT_FILE, what)


def fmt_interval(x: float, lo: float, hi: float, digits: int = 3, signed: bool = False) -> str:
    def f(y: float) -> str:
        y = y + 0.0  # -0.0 prints as 0
        if math.isinf(y):
            return "+inf" if y > 0 else "-inf"
        return f"{y:+.{digits}f}" if signed else f"{y:.{digits}f}"

    return f"{f(x)} [{f(lo)}, {f(hi)}]"


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
             "", pair_table(c.pairs).to_string(index=False), ""]
    for r in c.pairs.itertuples():
        lines.append(f"{r.a} vs {r.b}: 'won all' counts deals {r.a} won on every rotation. Pairing cut the "
                     f"variance against independent deals: win rate {factor_text(r.win_variance_factor)}, margin "
                     f"{factor_text(r.margin_variance_factor)} (a Wilson interval treating the games as independent "
                     f"would say [{r.wilson_low:.3f}, {r.wilson_high:.3f}]).")
    if c.sprt is not None:
        lines += sprt_lines(c.sprt)
    return lines


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
    from .plots import pair_chart
    from .results import write_parquet

    out.mkdir(parents=True, exist_ok=True)
    meta = {**c.meta, "sprt": c.sprt, "labels": c.labels}
    write_parquet(c.pairs, meta, out / "pairs.parquet")
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
    from .store import write_text_atomic

    write_text_atomic(out / "report.md", "\n".join(text))


# --- round robins -----------------------------------------------------------------------------------


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


def tournament(variant: str | Variant, strategies: Sequence[str | StrategySpec | StrategyChoice], games: int,
               seed: int, workers: int = 0, out: str | Path | None = None, progress: Progress = None,
               scheduler: Any = None, force: bool = False) -> Tournament:
    """Every pair of `strategies` plays `games` games (rounded up to whole deals) on the same duplicate
    deals: the matrix of win rates and margins, a ranking by Elo with intervals (least squares on the
    pairwise Elo differences), and which differences are real after Holm's correction for the number
    of pairs. With `out`, each pair's games go to their own run folder; a stopped round robin resumes."""
    v = get_variant(variant) if isinstance(variant, str) else variant
    whole_number("games", games)
    if isinstance(strategies, str | StrategySpec | StrategyChoice):
        strategies = [strategies]
    chosen = [parse_strategy(s) for s in strategies]
    if len(chosen) < 2:
        raise ValueError("a tournament needs at least two strategies")
    seen: dict[str, int] = {}
    for c in chosen:
        if c.label in seen:
            raise ValueError(f"strategy {c.label!r} is given twice; give each strategy once")
        seen[c.label] = 1
    from .sweep import seating

    pairs = list(itertools.combinations(range(len(chosen)), 2))
    jobs = [make_job(v, seating(v, chosen[i], chosen[j]), seed) for i, j in pairs]
    budget = whole_deals(games, v.n_sides)
    what = {"command": "tournament", "rules": v.to_dict(), "seed": seed, "strategies": [c.label for c in chosen]}
    root = prepare_output(out, force, what) if out is not None else None
    outs = [root / f"{folder_name(chosen[i].label)}__vs__{folder_name(chosen[j].label)}.parquet"
            for i, j in pairs] if root else None
    with Experiment(jobs, budget, outs, workers=workers, progress=progress, scheduler=scheduler, force=force,
                    describe="this tournament", parents=True, command="tournament") as exp:
        exp.advance()
    rows = []
    for k, (i, j) in enumerate(pairs):
        rows.append({**exp.summary(k, "A", "B", budget, labels=one_against_rest(v, "A", "B"), confidence=CONFIDENCE),
                     "a": chosen[i].label, "b": chosen[j].label})
    table = pairs_frame(rows)
    table["real"] = holm(table["p_value"].to_numpy(), ALPHA_HOLM)
    labels = [c.label for c in chosen]
    matrix = with_pair_knobs(long_matrix(table), "row", "column")
    ranking = with_knobs(elo_ranking(table[["a", "b", "elo", "elo_low", "elo_high"]]),
                         table=knob_table(labels, "varying"))
    meta = exp.run_meta(0)
    meta.update({"strategies": [{"label": c.label, "name": c.spec.name, "knobs": c.knob_values()} for c in chosen],
                 "games_per_pair": budget, "wall_seconds": round(exp.wall, 3)})
    meta.pop("seating", None)
    result = Tournament(v.name, labels, table, matrix, ranking, budget, seed, meta)
    if root is not None:
        write_tournament(result, root)
        write_output_record(root, what)
    return result


def long_matrix(pairs: pd.DataFrame) -> pd.DataFrame:
    """Both directions of every pair: the row strategy's win rate and margin against the column's."""
    fwd = pd.DataFrame({"row": pairs["a"], "column": pairs["b"], "win_rate": pairs["win_rate"],
                        "win_low": pairs["win_low"], "win_high": pairs["win_high"], "margin": pairs["margin"],
                        "margin_low": pairs["margin_low"], "margin_high": pairs["margin_high"]})
    back = pd.DataFrame({"row": pairs["b"], "column": pairs["a"], "win_rate": 1 - pairs["win_rate"],
                         "win_low": 1 - pairs["win_high"], "win_high": 1 - pairs["win_low"],
                         "margin": -pairs["margin"] + 0.0, "margin_low": -pairs["margin_high"] + 0.0,
                         "margin_high": -pairs["margin_low"] + 0.0})
    return pd.concat([fwd, back], ignore_index=True)


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
             f"duplicate deals) per pair, seed {t.seed}", "",
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
    from .results import write_parquet
    from .store import write_text_atomic

    meta = {**t.meta, "strategies_order": t.strategies}
    write_parquet(t.pairs, meta, out / "pairs.parquet")
    write_parquet(t.ranking, meta, out / "ranking.parquet")
    write_parquet(t.matrix, meta, out / "matrix.parquet")
    rules = "".join(f" --rule {r}" for r in t.meta.get("house_rules", []))
    text = [f"# {t.variant}: round robin", "",
            f"Reproduce: `canasta-lab tournament {t.variant} {' '.join(t.strategies)} --games {t.games} "
            f"--seed {t.seed}{rules} --out {out}`", "", "```", *tournament_lines(t), "```", "",
            f"canasta-lab {t.meta.get('package_version')}, engine sources {t.meta['code_version']['engine_sources']}"
            f", git {t.meta['code_version']['git']}; {t.meta['wall_seconds']:.1f} s on {t.meta['machine']['host']} "
            f"({t.meta['machine']['cpus']} cores).", ""]
    write_text_atomic(out / "report.md", "\n".join(text))
