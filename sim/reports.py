"""Reproducible reports: one command, a Markdown page with its table and chart."""

from __future__ import annotations

from pathlib import Path

from .plots import win_rate_chart
from .results import play, write_parquet
from .stats import paired_difference, win_rates


def compare_report(variant: str, strategies: list[str], games: int, seed: int, out: Path, workers: int = 1) -> str:
    """Play duplicate deals between strategies; write report.md, win_rates.png and games.parquet into `out`.
    The folder is a generated report: its three files are replaced, nothing else in it is touched."""
    out.mkdir(parents=True, exist_ok=True)
    res = play(variant, strategies, games, seed, workers=workers)
    table = win_rates(res.games)
    labels = list(table["strategy"])
    lines = [
        f"# {variant}: {' vs '.join(strategies)}",
        "",
        f"{games} games on duplicate deals (each deal played with the seating rotated), seed {seed}, "
        f"canasta-lab {res.meta['package_version']}, {res.meta['wall_seconds']:.1f} s.",
        f"Reproduce: `canasta-lab compare {variant} " + " ".join(f"-s {s}" for s in strategies)
        + f" --games {games} --seed {seed} --out {out}`",
        "",
        "| strategy | games | wins | win rate | 95% interval | mean final score |",
        "|---|---:|---:|---:|---|---:|",
    ]
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
    win_rate_chart(table, f"{variant}: win rate by strategy", out / "win_rates.png")
    write_parquet(res.games, res.meta, out / "games.parquet")
    (out / "report.md").write_text(text)
    return text
