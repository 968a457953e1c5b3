"""Reproducible reports: one command, a Markdown page with its table and chart."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .plots import win_rate_chart
from .results import check_report_folder, play, publish, write_parquet
from .rules import Variant
from .runner import Job, make_job
from .stats import paired_difference, win_rates


def compare_report(variant: str | Variant, strategies: Sequence[str], games: int, seed: int, out: str | Path,
                   workers: int = 1, progress: Any = None, force: bool = False) -> str:
    """Play duplicate deals between strategies; write report.md, win_rates.png and games.parquet into `out`.

    Checked before any game: the folder is new, or `force` (which replaces only those three files),
    and every side plays one strategy (`-s A -s B -s C` at four seats would pair A with C)."""
    out = check_report_folder(out, force)
    job = make_job(variant, list(strategies), seed)
    refuse_mixed_sides(job)
    v = job.variant
    res = play(v, list(strategies), games, seed, workers=workers, progress=progress)
    table = win_rates(res.games)
    labels = list(table["strategy"])
    rules = "".join(f" --rule {r}" for r in res.meta["house_rules"])
    lines = [
        f"# {v.name}: {' vs '.join(strategies)}",
        "",
        f"{games} games on duplicate deals (each deal played with the seating rotated), seed {seed}, "
        f"canasta-lab {res.meta['package_version']}, {res.meta['wall_seconds']:.1f} s.",
        f"Reproduce: `canasta-lab compare {v.name} " + " ".join(f"-s {s}" for s in strategies)
        + f" --games {games} --seed {seed}{rules} --out {out}`",
        "",
        "| strategy | games | wins | win rate | 95% interval | mean final score |",
        "|---|---:|---:|---:|---|---:|",
    ]
    if res.meta["house_rules"]:
        lines[3:3] = [f"House rules: {', '.join(res.meta['house_rules'])}."]
    for r in table.itertuples():
        lines.append(f"| {r.strategy} | {r.games} | {r.wins} | {r.win_rate:.3f} | "
                     f"{r.ci_low:.3f} to {r.ci_high:.3f} | {r.mean_score:.0f} |")
    if len(labels) == 2:
        d = paired_difference(res.games, labels[0], labels[1])
        lines += ["", f"Paired over {d['deals']} deals, {labels[0]} minus {labels[1]} final score: "
                  f"{d['mean_difference']:.0f} (95% interval {d['ci_low']:.0f} to {d['ci_high']:.0f})."]
    g = res.games
    lines += ["", f"Hands per game: {g.n_hands.mean():.2f}; hands ended by the turn cap: {int(g.capped_hands.sum())}; "
              f"games ended by the hand cap: {int(g.capped_game.sum())}.", "", "![win rates](win_rates.png)", ""]
    text = "\n".join(lines)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out, prefix=".tmp-") as tmp:
        win_rate_chart(table, f"{v.name}: win rate by strategy", Path(tmp) / "win_rates.png")
        (Path(tmp) / "report.md").write_text(text)
        write_parquet(res.games, res.meta, out / "games.parquet")
        for name in ("win_rates.png", "report.md"):
            publish(str(Path(tmp) / name), out / name)
    return text


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
