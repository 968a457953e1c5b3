"""Charts for reports. Figures are made with matplotlib's object interface (`Figure`), never pyplot,
so a chart written to a file neither needs nor changes the backend a notebook is using."""

from __future__ import annotations

from pathlib import Path

import pandas as pd


def _figure(width: float, height: float):  # noqa: ANN202 - matplotlib types are optional
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=120)


def win_rate_chart(table: pd.DataFrame, title: str, path: str | Path) -> Path:
    """Win rate per strategy with its interval (columns strategy, win_rate, ci_low, ci_high)."""
    fig = _figure(6, 3.2)
    ax = fig.subplots()
    y = range(len(table))
    err = [table["win_rate"] - table["ci_low"], table["ci_high"] - table["win_rate"]]
    ax.barh(list(y), table["win_rate"], xerr=err, color="#3b6ea5", capsize=4)
    ax.set_yticks(list(y), table["strategy"])
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (95% Wilson interval)")
    ax.axvline(1 / max(len(table), 1), color="grey", lw=0.8, ls="--")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out)
    return out


def pair_chart(pairs: pd.DataFrame, title: str, path: str | Path) -> Path:
    """Each pair's win rate with its interval on the deals (a forest plot): 0.5 is an even match."""
    fig = _figure(7, 1.2 + 0.5 * len(pairs))
    ax = fig.subplots()
    y = list(range(len(pairs)))
    x = pairs["win_rate"].to_numpy()
    err = [x - pairs["win_low"].to_numpy(), pairs["win_high"].to_numpy() - x]
    ax.errorbar(x, y, xerr=err, fmt="o", color="#3b6ea5", capsize=4)
    ax.set_yticks(y, list(pairs["a"] + " vs " + pairs["b"]))
    ax.axvline(0.5, color="grey", lw=0.8, ls="--")
    lo, hi = min(0.4, float(pairs["win_low"].min()) - 0.02), max(0.6, float(pairs["win_high"].max()) + 0.02)
    ax.set_xlim(max(0.0, lo), min(1.0, hi))
    ax.set_xlabel("win rate of the first strategy (95% interval on duplicate deals)")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out)
    return out
