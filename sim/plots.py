"""Charts for reports (matplotlib, file output only)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd


def win_rate_chart(table: pd.DataFrame, title: str, path: str | Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.2), dpi=120)
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
    plt.close(fig)
    return out
