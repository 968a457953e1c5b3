"""Charts for reports and notebooks. Figures are made with matplotlib's object interface (`Figure`,
`Axes`), never pyplot, and nothing here calls `matplotlib.use` or touches `rcParams`: a chart written
to a file neither needs nor changes the backend a notebook is using, and `plt.show()` keeps working.

Every chart function takes an `Axes` first (pass `None` to get a fresh one on its own `Figure`) and
returns it, so charts compose into the caller's subplots; `save` writes any of them to a file."""

from __future__ import annotations

import weakref
from collections.abc import Hashable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.colors import Normalize
from matplotlib.figure import Figure, SubFigure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

DPI = 120
COLOR = "#3b6ea5"  # the one colour of single-series charts
HOLLOW_FACE = "white"  # face of the points whose difference is not real
REF_COLOR = "grey"
REF_WIDTH = 0.8
REF_STYLE = "--"
REF_GID = "reference"  # marks reference lines, so a second curve on the same Axes does not draw another
CAPSIZE = 4
MARKER = "o"
BAND_ALPHA = 0.25  # shaded interval band of a numeric sweep
TITLE_SIZE = 10
LEGEND_SIZE = 8
ANNOT_SIZE = 8
DIVERGING_CMAP = "RdBu"  # red below the centre, blue above: for win rates, blue means the row strategy wins
EMPTY_CELL = "#bdbdbd"  # the heatmap's diagonal (a strategy against itself)
ANNOT_DARK, ANNOT_LIGHT = "black", "white"
ANNOT_CONTRAST = 0.3  # cells further than this from the colormap's middle (0..1 scale) get light text
TICK_ROTATION = 45
MIN_SPREAD = 1e-9  # colour range half-width when every heatmap cell equals the centre
MAX_INTEGER_BINS = 60  # integer data spanning fewer values than this gets one bin per integer
HUE_SPREAD = 0.6  # variant_panel: total vertical room the hues of one category share (1 = next category)
HUE_STEP = 0.2  # ... and at most this much between two hues
SWEEP_DODGE = 0.08  # categorical sweep_curve: shift of each further curve on the same Axes, in category slots

# figure sizes (inches) when the caller gives no Axes
FOREST_WIDTH, ROW_HEIGHT, BASE_HEIGHT = 7.0, 0.5, 1.2
HEATMAP_CELL, HEATMAP_BASE, COLORBAR_WIDTH = 0.8, 1.6, 1.2
CURVE_SIZE = (6.0, 3.6)
DIST_SIZE = (6.0, 3.6)
WIN_RATE_CHART_SIZE = (6.0, 3.2)
PAIR_XLIM = (0.4, 0.6)  # pair_chart shows at least this range, so a small difference does not look large
PAIR_XPAD = 0.02  # ... widened to the intervals plus this much

LABELS = {"win_rate": "win rate", "margin": "margin per deal", "elo": "Elo difference"}

# x positions of the categories a categorical sweep_curve has placed on an Axes, so overlays line up
_SWEEP_SLOTS: weakref.WeakKeyDictionary[Axes, dict] = weakref.WeakKeyDictionary()


# --- helpers -----------------------------------------------------------------------------------------


def _axes(ax: Axes | None, size: tuple[float, float]) -> Axes:
    """The caller's Axes, or one on a new `Figure` (not pyplot, so no backend or global state is involved)."""
    if ax is not None:
        return ax
    return Figure(figsize=size, dpi=DPI).subplots()


def _need(table: pd.DataFrame, *columns: str | None) -> None:
    """Fail early with the available columns named, rather than with a bare KeyError deep in matplotlib."""
    missing = [c for c in columns if c is not None and c not in table.columns]
    if missing:
        raise KeyError(f"column(s) {missing} not in the table; it has {list(table.columns)}")


def _describe(value: str, interval: bool) -> str:
    text = LABELS.get(value, value.replace("_", " "))
    return f"{text} (95% interval)" if interval else text


def _err(table: pd.DataFrame, value: str, low: str | None, high: str | None) -> np.ndarray | None:
    """Asymmetric error bar lengths [below, above]; rounding noise below zero is clipped, NaN stays NaN."""
    if low is None or high is None:
        return None
    x = table[value].to_numpy(float)
    return np.clip(np.vstack([x - table[low].to_numpy(float), table[high].to_numpy(float) - x]), 0, None)


def _reference(ax: Axes, ref: float | None, vertical: bool) -> None:
    """A dashed line at `ref`, once per Axes and position even when several series are drawn."""
    if ref is None:
        return
    for line in ax.get_lines():
        data = line.get_xdata() if vertical else line.get_ydata()
        if line.get_gid() == REF_GID and len(data) and float(data[0]) == float(ref):
            return
    draw = ax.axvline if vertical else ax.axhline
    draw(ref, color=REF_COLOR, lw=REF_WIDTH, ls=REF_STYLE, gid=REF_GID, zorder=0)


def _top_down(ax: Axes) -> None:
    """First table row at the top, as the table reads."""
    if not ax.yaxis_inverted():
        ax.invert_yaxis()


def _title(ax: Axes, title: str | None) -> None:
    if title is not None:
        ax.set_title(title, fontsize=TITLE_SIZE)


# --- charts ------------------------------------------------------------------------------------------


def forest(ax: Axes | None, table: pd.DataFrame, label: str = "label", value: str = "win_rate",
           low: str | None = "win_low", high: str | None = "win_high", ref: float | None = 0.5,
           xlabel: str = "win rate (95% interval)", title: str | None = None) -> Axes:
    """One row per table row, a point with its interval: the reader compares intervals, not bars, and
    sees at once which cross the reference (`ref`, 0.5 for win rates, 0 for margins; None for none).
    With a boolean column `real` (Holm's reading), real differences are filled and the others hollow."""
    _need(table, label, value, low, high)
    ax = _axes(ax, (FOREST_WIDTH, BASE_HEIGHT + ROW_HEIGHT * len(table)))
    y = np.arange(len(table))
    err = _err(table, value, low, high)
    x = table[value].to_numpy(float)
    _reference(ax, ref, vertical=True)
    if "real" in table.columns and pd.api.types.is_bool_dtype(table["real"]):
        real = table["real"].to_numpy(bool)
        for mask, face, name in ((real, COLOR, "real (after Holm's correction)"), (~real, HOLLOW_FACE, "not real")):
            if mask.any():
                ax.errorbar(x[mask], y[mask], xerr=None if err is None else err[:, mask], fmt=MARKER, color=COLOR,
                            markerfacecolor=face, capsize=CAPSIZE, label=name)
        ax.legend(fontsize=LEGEND_SIZE)
    else:
        ax.errorbar(x, y, xerr=err, fmt=MARKER, color=COLOR, capsize=CAPSIZE)
    ax.set_yticks(y, [str(s) for s in table[label]])
    _top_down(ax)
    ax.set_xlabel(xlabel)
    _title(ax, title)
    return ax


def heatmap(ax: Axes | None, matrix: pd.DataFrame, value: str = "win_rate", order: Sequence[Hashable] | None = None,
            fmt: str = "{:.2f}", center: float = 0.5, title: str | None = None) -> Axes:
    """A round robin's matrix (long: columns row, column, `value`) as a square grid with each cell's
    value written in it. The colours diverge from `center` (0.5 for win rates, 0 for margins) with
    limits symmetric around it, so equal colour means equal distance from an even match either way."""
    _need(matrix, "row", "column", value)
    if order is None:
        order = list(dict.fromkeys([*matrix["row"], *matrix["column"]]))
    unknown = set(order) - set(matrix["row"]) - set(matrix["column"])
    if unknown:
        raise ValueError(f"order names {sorted(map(str, unknown))}, which the matrix does not have")
    n = len(order)
    ax = _axes(ax, (HEATMAP_BASE + HEATMAP_CELL * n + COLORBAR_WIDTH, HEATMAP_BASE + HEATMAP_CELL * n))
    grid = matrix.pivot(index="row", columns="column", values=value).reindex(index=order, columns=order)
    values = grid.to_numpy(float, copy=True)  # pandas may hand out a read-only view
    np.fill_diagonal(values, np.nan)  # a strategy against itself is not a match
    half = np.nanmax(np.abs(values - center)) if np.isfinite(values).any() else 0.0
    half = max(float(half), MIN_SPREAD)
    norm = Normalize(vmin=center - half, vmax=center + half)
    cmap = colormaps[DIVERGING_CMAP].with_extremes(bad=EMPTY_CELL)  # a copy: the registered colormap is untouched
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, norm=norm)
    for i in range(n):
        for j in range(n):
            v = values[i, j]
            if np.isfinite(v):
                light = abs(float(norm(v)) - 0.5) > ANNOT_CONTRAST
                ax.text(j, i, fmt.format(v), ha="center", va="center", fontsize=ANNOT_SIZE,
                        color=ANNOT_LIGHT if light else ANNOT_DARK)
    labels = [str(s) for s in order]
    ax.set_xticks(range(n), labels, rotation=TICK_ROTATION, ha="right")
    ax.set_yticks(range(n), labels)
    ax.set_ylabel("row strategy")
    ax.set_xlabel("against")
    bar = ax.figure.colorbar(image, ax=ax)
    bar.set_label(LABELS.get(value, value.replace("_", " ")))
    _title(ax, title)
    return ax


def sweep_curve(ax: Axes | None, sweep: pd.DataFrame, knob: str, value: str = "win_rate",
                low: str | None = "win_low", high: str | None = "win_high", ref: float | None = 0.5,
                label: str | None = None, title: str | None = None) -> Axes:
    """A knob sweep (one row per setting) as `value` against the knob, to see where a setting helps.

    A numeric knob column gives a line through the settings in knob order with a shaded interval band;
    rows whose knob is NaN have no place on that axis and are left out. A Categorical column (in category
    order; unused categories keep their slot) or an object column (in order of appearance) gives evenly
    spaced points with error bars, the values as tick labels. `sim.analysis.sweep` types its knob columns that way
    (sim.records.tidy): numbers only give the line, a named setting among them the ordered points.
    Call it again on the same Axes with another `label` to overlay a second curve (e.g. against another
    opponent); categorical overlays are shifted a little so their error bars do not hide each other."""
    _need(sweep, knob, value, low, high)
    ax = _axes(ax, CURVE_SIZE)
    column = sweep[knob]
    numeric = pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column)
    rows = sweep[column.notna()]
    _reference(ax, ref, vertical=False)
    if numeric:
        rows = rows.sort_values(knob, kind="stable")
        x = rows[knob].to_numpy(float)
        (line,) = ax.plot(x, rows[value].to_numpy(float), marker=MARKER, label=label)
        if low is not None and high is not None:
            ax.fill_between(x, rows[low].to_numpy(float), rows[high].to_numpy(float), color=line.get_color(),
                            alpha=BAND_ALPHA, linewidth=0)
    else:
        if isinstance(column.dtype, pd.CategoricalDtype):
            names = list(column.cat.categories)
        else:
            names = list(dict.fromkeys(rows[knob]))
        slots = _SWEEP_SLOTS.setdefault(ax, {"curves": 0, "positions": {}})
        for name in names:
            slots["positions"].setdefault(name, len(slots["positions"]))
        shift = SWEEP_DODGE * slots["curves"]
        slots["curves"] += 1
        x = np.array([slots["positions"][v] for v in rows[knob]], float) + shift
        ax.errorbar(x, rows[value].to_numpy(float), yerr=_err(rows, value, low, high), fmt=MARKER,
                    capsize=CAPSIZE, label=label)
        ticks = slots["positions"]
        ax.set_xticks(list(ticks.values()), [str(t) for t in ticks])
    ax.set_xlabel(knob)
    ax.set_ylabel(_describe(value, low is not None and high is not None))
    if ax.get_legend_handles_labels()[1]:  # some curve has a label: name them all
        ax.legend(fontsize=LEGEND_SIZE)
    _title(ax, title)
    return ax


def distribution(ax: Axes | None, data: pd.DataFrame, value: str, by: str | None = None, kind: str = "hist",
                 bins: int | str | Sequence[float] | None = None, title: str | None = None) -> Axes:
    """The distribution of `data[value]` (score per hand, turns per hand, hands per game...), one step
    histogram (density, so groups of different sizes compare) or ECDF per group of `by`, all groups on
    the same bins. Integer data spanning fewer than MAX_INTEGER_BINS values gets one bin per integer, so
    no bin straddles two values. The legend gives each group's mean."""
    if kind not in ("hist", "ecdf"):
        raise ValueError(f"kind={kind!r}: choose 'hist' or 'ecdf'")
    _need(data, value, by)
    ax = _axes(ax, DIST_SIZE)
    groups = [(value, data)] if by is None else list(data.groupby(by, sort=False, observed=True))
    clean = [(name, g[value].dropna().to_numpy(float)) for name, g in groups]
    clean = [(name, v) for name, v in clean if len(v)]
    if not clean:
        raise ValueError(f"no values in column {value!r} to draw")
    everything = np.concatenate([v for _, v in clean])
    if kind == "hist":
        lo, hi = everything.min(), everything.max()
        if bins is None and np.all(everything == np.round(everything)) and hi - lo + 1 < MAX_INTEGER_BINS:
            edges = np.arange(lo - 0.5, hi + 1.5)
        elif bins is None or isinstance(bins, int | str):
            edges = np.histogram_bin_edges(everything, bins="auto" if bins is None else bins)
        else:
            edges = np.asarray(bins, float)
    for name, v in clean:
        text = f"{name[0] if isinstance(name, tuple) and len(name) == 1 else name} (mean {v.mean():.3g})"
        if kind == "hist":
            ax.hist(v, bins=edges, density=True, histtype="step", label=text)
        else:
            ax.step(np.sort(v), np.arange(1, len(v) + 1) / len(v), where="post", label=text)
    ax.set_xlabel(value.replace("_", " "))
    ax.set_ylabel("density" if kind == "hist" else "fraction at or below")
    ax.legend(fontsize=LEGEND_SIZE)
    _title(ax, title)
    return ax


def variant_panel(ax: Axes | None, table: pd.DataFrame, value: str, low: str | None = None, high: str | None = None,
                  by: str = "variant", hue: str | None = None, ref: float | None = None, title: str | None = None,
                  xlabel: str | None = None) -> Axes:
    """One measure across variants or presets (a row per value of `by`, in table order), each with its
    interval if `low`/`high` are given; with `hue` (e.g. "measure" or "side") the series of one category
    sit a little apart vertically, so their intervals stay readable, and get a legend."""
    _need(table, by, value, low, high, hue)
    categories = list(dict.fromkeys(table[by]))
    ax = _axes(ax, (FOREST_WIDTH, BASE_HEIGHT + ROW_HEIGHT * len(categories)))
    slot = {c: i for i, c in enumerate(categories)}
    _reference(ax, ref, vertical=True)
    series = [(None, table)] if hue is None else list(table.groupby(hue, sort=False, observed=True))
    step = min(HUE_STEP, HUE_SPREAD / len(series))
    for k, (name, part) in enumerate(series):
        y = np.array([slot[c] for c in part[by]], float) + (k - (len(series) - 1) / 2) * step
        style = {"color": COLOR} if hue is None else {"label": str(name[0] if isinstance(name, tuple) else name)}
        ax.errorbar(part[value].to_numpy(float), y, xerr=_err(part, value, low, high), fmt=MARKER, capsize=CAPSIZE,
                    **style)
    ax.set_yticks(range(len(categories)), [str(c) for c in categories])
    _top_down(ax)
    ax.set_xlabel(xlabel if xlabel is not None else _describe(value, low is not None and high is not None))
    if hue is not None:
        ax.legend(title=hue, fontsize=LEGEND_SIZE)
    _title(ax, title)
    return ax


CLASS_COLORS = {"better than the default": "#2e7d32", "worse than the default": "#c62828",
                "no clear difference": "#9e9e9e", "the default": "black"}  # plain words, one colour each
PLAYER_MARKERS = ("o", "s", "^", "D", "v")
PLAYER_DODGE = 0.18  # share_curve: the players' points of one setting sit this far apart, in setting slots


def share_curve(ax: Axes | None, table: pd.DataFrame, knob: str, fair: float | None = None,
                players: Sequence[str] | None = None, title: str | None = None) -> Axes:
    """A knob's settings (table rows: player, setting, share, low, high, class) as the share of games won by
    each player checked, with its interval: one marker shape a player, one colour a class in plain words
    (better than the default, worse, no clear difference, the default), and the fair share as a dashed line."""
    _need(table, "player", "setting", "share", "low", "high", "class")
    ax = _axes(ax, CURVE_SIZE)
    players = list(players) if players is not None else list(dict.fromkeys(table["player"]))
    settings = list(dict.fromkeys(table["setting"]))
    slot = {s: i for i, s in enumerate(settings)}
    _reference(ax, fair, vertical=False)
    for k, player in enumerate(players):
        rows = table[table["player"] == player]
        shift = (k - (len(players) - 1) / 2) * PLAYER_DODGE
        for cls, part in rows.groupby("class", sort=False):
            x = np.array([slot[s] for s in part["setting"]], float) + shift
            ax.errorbar(x, part["share"].to_numpy(float), yerr=_err(part, "share", "low", "high"),
                        fmt=PLAYER_MARKERS[k % len(PLAYER_MARKERS)], color=CLASS_COLORS.get(str(cls), COLOR),
                        capsize=CAPSIZE, markersize=5)
    handles = [Line2D([], [], ls="", marker="o", color=c, label=name) for name, c in CLASS_COLORS.items()
               if name in set(table["class"])]
    handles += [Line2D([], [], ls="", marker=PLAYER_MARKERS[k % len(PLAYER_MARKERS)], color="dimgrey", label=p)
                for k, p in enumerate(players)]
    if fair is not None:
        handles.append(Line2D([], [], color=REF_COLOR, lw=REF_WIDTH, ls=REF_STYLE, label=f"fair share {fair:.3g}"))
    ax.legend(handles=handles, fontsize=LEGEND_SIZE, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    ax.set_xticks(range(len(settings)), settings)
    ax.set_xlabel(knob)
    ax.set_ylabel("share of games won (95% interval)")
    _title(ax, title)
    return ax


VERDICT_COLORS = {"do": "#a5d6a7", "keep the default": "#bbdefb", "matters less": "#e0e0e0",
                  "depends on the player": "#ffe082", "undecided": "#ffffff", "does not arise": "#f5f5f5"}
GRID_EDGE = "#bdbdbd"  # every cell outlined, so a white (undecided) cell shows
VERDICT_WORDS = {"do": "play this setting (better than the default)", "keep the default": "keep the default",
                 "matters less": "matters less than a point", "depends on the player": "depends on the player",
                 "undecided": "undecided", "does not arise": "almost never arises"}
GRID_CELL = (0.78, 0.42)  # inches a cell of the answer grid takes (width, height)
GRID_TEXT = 6.5  # font size of a cell's advice
GRID_MARGIN = (2.6, 1.9)  # inches for the row and column labels and the legend
GRID_MIN_WIDTH = 8.0  # inches: room for the title and the legend however few presets


def grid_size(table: pd.DataFrame) -> tuple[float, float]:
    """The answer grid's figure size (inches) for its questions and presets: every cell the same size."""
    return (max(GRID_MIN_WIDTH, GRID_MARGIN[0] + GRID_CELL[0] * table["preset"].nunique()),
            GRID_MARGIN[1] + GRID_CELL[1] * table["question"].nunique())


def answer_grid(ax: Axes | None, table: pd.DataFrame, title: str | None = None) -> Axes:
    """Questions by presets (table rows: question, preset, verdict, text), each cell coloured by its verdict and
    holding its advice in a few words; a blank cell is a question that does not apply at that preset."""
    _need(table, "question", "preset", "verdict", "text")
    questions = list(dict.fromkeys(table["question"]))
    presets = list(dict.fromkeys(table["preset"]))
    if ax is None:
        ax = Figure(figsize=grid_size(table), dpi=DPI).subplots()
    cells = {(r.question, r.preset): r for r in table.itertuples()}
    for i, q in enumerate(questions):
        for j, p in enumerate(presets):
            r = cells.get((q, p))
            face = VERDICT_COLORS.get(str(r.verdict), "white") if r is not None else "white"
            ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor=face, edgecolor=GRID_EDGE, lw=1.0))
            if r is not None:
                ax.text(j, i, str(r.text), ha="center", va="center", fontsize=GRID_TEXT, wrap=False)
    ax.set_xlim(-0.5, len(presets) - 0.5)
    ax.set_ylim(len(questions) - 0.5, -0.5)
    ax.set_xticks(range(len(presets)), presets, rotation=TICK_ROTATION, ha="right", fontsize=GRID_TEXT + 1)
    ax.set_yticks(range(len(questions)), questions, fontsize=GRID_TEXT + 1)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    used = [v for v in VERDICT_COLORS if v in set(table["verdict"])]
    handles = [Rectangle((0, 0), 1, 1, facecolor=VERDICT_COLORS[v], edgecolor="grey", label=VERDICT_WORDS[v])
               for v in used]
    ax.legend(handles=handles, fontsize=LEGEND_SIZE, loc="upper center", bbox_to_anchor=(0.5, -0.32),
              ncol=min(3, len(handles)), frameon=False)
    _title(ax, title)
    return ax


def text_overlaps(fig: Figure) -> list[tuple[str, str]]:
    """Pairs of visible, non-empty texts of a drawn figure whose boxes overlap (tick labels, titles, legends,
    annotations): a chart whose words cannot be read. The figure is drawn first, so the boxes are final."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    if fig.get_layout_engine() is None:
        fig.tight_layout()  # as `save` lays it out
    canvas = FigureCanvasAgg(fig)  # a renderer of the figure as it is written to a file
    canvas.draw()
    renderer = canvas.get_renderer()
    boxes = []
    for t in fig.findobj(Text):
        if not t.get_visible() or not t.get_text().strip() or t.get_alpha() == 0:
            continue
        try:
            bb = t.get_window_extent(renderer)
        except RuntimeError:
            continue
        if bb.width > 0 and bb.height > 0:
            boxes.append((t.get_text(), bb))
    out = []
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            a, b = boxes[i][1], boxes[j][1]
            if a.x0 < b.x1 - 0.5 and b.x0 < a.x1 - 0.5 and a.y0 < b.y1 - 0.5 and b.y0 < a.y1 - 0.5:
                out.append((boxes[i][0], boxes[j][0]))
    return out


def save(ax_or_fig: Axes | Figure | SubFigure, path: str | Path) -> Path:
    """Write the figure holding `ax_or_fig` to `path` (format from the suffix) with a tight layout, unless
    the figure already has a layout engine (e.g. constrained), which tight_layout would fight."""
    fig = ax_or_fig
    while not isinstance(fig, Figure):
        fig = fig.figure  # an Axes' figure may be a SubFigure, whose figure is the root Figure
    if fig.get_layout_engine() is None:
        fig.tight_layout()
    out = Path(path)
    fig.savefig(out)
    return out


# --- the charts the commands write -------------------------------------------------------------------


def win_rate_chart(table: pd.DataFrame, title: str, path: str | Path) -> Path:
    """Win rate per strategy with its interval (columns strategy, win_rate, ci_low, ci_high); the
    reference is the win rate of a field of equals, one over the number of strategies."""
    ax = _axes(None, WIN_RATE_CHART_SIZE)
    forest(ax, table, label="strategy", value="win_rate", low="ci_low", high="ci_high",
           ref=1 / max(len(table), 1), xlabel="win rate (95% Wilson interval)", title=title)
    ax.set_xlim(0, 1)
    return save(ax, path)


def pair_chart(pairs: pd.DataFrame, title: str, path: str | Path) -> Path:
    """Each pair's win rate with its interval on the deals (a forest plot): 0.5 is an even match."""
    ax = forest(None, pairs.assign(label=pairs["a"] + " vs " + pairs["b"]), value="win_rate", low="win_low",
                high="win_high", ref=0.5, xlabel="win rate of the first strategy (95% interval on duplicate deals)",
                title=title)
    lo = min(PAIR_XLIM[0], float(pairs["win_low"].min()) - PAIR_XPAD)
    hi = max(PAIR_XLIM[1], float(pairs["win_high"].max()) + PAIR_XPAD)
    ax.set_xlim(max(0.0, lo), min(1.0, hi))
    return save(ax, path)
