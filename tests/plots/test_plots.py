"""sim.plots: each chart draws what its table says on the Axes it is given, and none of them touches
pyplot, the backend or rcParams (a notebook's plt.show() must keep working)."""

from __future__ import annotations

import copy
import subprocess
import sys
import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # only the tests pick a backend; sim.plots never does

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.image import AxesImage  # noqa: E402

from sim import plots  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def new_ax():
    return Figure().subplots()


def pairs_table() -> pd.DataFrame:
    """A compare's pairs table (the columns the charts read)."""
    return pd.DataFrame({
        "a": ["baseline", "baseline", "greedy"], "b": ["greedy", "random", "random"],
        "win_rate": [0.55, 0.8, 0.7], "win_low": [0.5, 0.76, 0.65], "win_high": [0.6, 0.84, 0.75],
        "margin": [40.0, 300.0, 200.0], "margin_low": [-5.0, 250.0, 150.0], "margin_high": [85.0, 350.0, 250.0],
        "real": [False, True, True]})


def matrix_table(names=("baseline", "greedy", "random")) -> pd.DataFrame:
    """A round robin's Tournament.matrix: each unordered pair in both directions."""
    rng = np.random.default_rng(0)
    rows = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            w, m = float(rng.uniform(0.3, 0.7)), float(rng.normal(0, 100))
            rows.append({"row": a, "column": b, "win_rate": w, "win_low": w - 0.05, "win_high": w + 0.05,
                         "margin": m, "margin_low": m - 30, "margin_high": m + 30})
            rows.append({"row": b, "column": a, "win_rate": 1 - w, "win_low": 0.95 - w, "win_high": 1.05 - w,
                         "margin": -m, "margin_low": -m - 30, "margin_high": -m + 30})
    return pd.DataFrame(rows)


def sweep_table(knob_values) -> pd.DataFrame:
    n = len(knob_values)
    w = np.linspace(0.4, 0.6, n)
    return pd.DataFrame({"min_pile": knob_values, "win_rate": w, "win_low": w - 0.03, "win_high": w + 0.03,
                         "margin": w * 100 - 50, "margin_low": w * 100 - 60, "margin_high": w * 100 - 40,
                         "real": [False] * n})


def reference_lines(ax):
    return [line for line in ax.get_lines() if line.get_gid() == plots.REF_GID]


def data_lines(ax):
    return [line for line in ax.get_lines() if line.get_gid() != plots.REF_GID]


def errorbar_points(ax) -> dict:
    """The data line (points) of each error bar series, by its legend label."""
    return {c.get_label(): c.lines[0] for c in ax.containers}


def tick_texts(labels) -> list[str]:
    return [t.get_text() for t in labels]


# --- forest ------------------------------------------------------------------------------------------


def test_forest_has_one_labelled_row_per_pair_first_at_top_and_a_reference_at_one_half():
    ax = new_ax()
    pairs = pairs_table()
    labels = list(pairs.a + " vs " + pairs.b)
    assert plots.forest(ax, pairs.assign(label=pairs.a + " vs " + pairs.b)) is ax
    assert list(ax.get_yticks()) == [0, 1, 2]
    assert tick_texts(ax.get_yticklabels()) == labels
    assert ax.yaxis_inverted()  # row 0 at the top
    (ref,) = reference_lines(ax)
    assert list(ref.get_xdata()) == [0.5, 0.5]


def test_forest_fills_the_real_differences_and_leaves_the_others_hollow():
    ax = new_ax()
    pairs = pairs_table()
    plots.forest(ax, pairs.assign(label=pairs.a + " vs " + pairs.b))
    points = errorbar_points(ax)
    assert set(points) == {"real (after Holm's correction)", "not real"}
    assert list(points["not real"].get_ydata()) == [0] and points["not real"].get_markerfacecolor() == "white"
    assert list(points["real (after Holm's correction)"].get_ydata()) == [1, 2]
    assert points["real (after Holm's correction)"].get_markerfacecolor() != "white"
    assert ax.get_legend() is not None


def test_forest_of_margins_puts_points_at_the_margins_and_the_reference_at_zero():
    pairs = pairs_table().drop(columns="real")
    ax = plots.forest(None, pairs.assign(label=pairs.a), value="margin", low="margin_low", high="margin_high",
                      ref=0, xlabel="margin", title="margins")
    (points,) = [line for line in data_lines(ax) if line.get_marker() == "o"]
    assert list(points.get_xdata()) == [40.0, 300.0, 200.0]
    assert list(reference_lines(ax)[0].get_xdata()) == [0, 0]
    assert ax.get_title() == "margins" and ax.get_xlabel() == "margin"


def test_forest_without_reference_draws_none_and_names_a_missing_column():
    pairs = pairs_table()
    ax = plots.forest(new_ax(), pairs.assign(label=pairs.a), ref=None)
    assert reference_lines(ax) == []
    with pytest.raises(KeyError, match="label"):
        plots.forest(new_ax(), pairs)


# --- heatmap -----------------------------------------------------------------------------------------


def test_heatmap_is_n_by_n_with_an_empty_diagonal_and_every_other_cell_written():
    ax = new_ax()
    matrix = matrix_table()
    assert plots.heatmap(ax, matrix) is ax
    (image,) = [a for a in ax.get_children() if isinstance(a, AxesImage)]
    data = image.get_array()
    assert data.shape == (3, 3)
    assert np.ma.getmaskarray(data).diagonal().all() and not np.ma.getmaskarray(data)[~np.eye(3, dtype=bool)].any()
    assert len(ax.texts) == 3 * 2
    want = matrix.set_index(["row", "column"])["win_rate"]
    assert data[0, 1] == pytest.approx(want["baseline", "greedy"])
    assert f"{want['greedy', 'random']:.2f}" in tick_texts(ax.texts)
    assert tick_texts(ax.get_yticklabels()) == ["baseline", "greedy", "random"]
    assert ax.get_ylabel() == "row strategy" and ax.get_xlabel() == "against"
    assert len(ax.figure.axes) == 2  # the colorbar's Axes


def test_heatmap_centres_the_colours_on_center_and_follows_the_order_given():
    ax = plots.heatmap(None, matrix_table(), value="margin", order=["random", "greedy", "baseline"], center=0,
                       fmt="{:.0f}")
    (image,) = [a for a in ax.get_children() if isinstance(a, AxesImage)]
    assert image.norm.vmin == pytest.approx(-image.norm.vmax)
    assert tick_texts(ax.get_xticklabels()) == ["random", "greedy", "baseline"]
    assert len(ax.texts) == 6 and all("." not in t for t in tick_texts(ax.texts))
    with pytest.raises(ValueError, match="nobody"):
        plots.heatmap(None, matrix_table(), order=["baseline", "nobody"])


def test_heatmap_blanks_the_diagonal_even_when_the_matrix_has_self_rows():
    names = ["baseline", "greedy", "random"]
    self_rows = pd.DataFrame({"row": names, "column": names, "win_rate": 0.5, "win_low": 0.5, "win_high": 0.5,
                              "margin": 0.0, "margin_low": 0.0, "margin_high": 0.0})
    ax = plots.heatmap(None, pd.concat([matrix_table(), self_rows], ignore_index=True))
    (image,) = [a for a in ax.get_children() if isinstance(a, AxesImage)]
    assert np.ma.getmaskarray(image.get_array()).diagonal().all()
    assert len(ax.texts) == 6


# --- sweep_curve -------------------------------------------------------------------------------------


def test_numeric_sweep_draws_one_line_in_knob_order_with_a_band():
    ax = new_ax()
    sweep = sweep_table([6, 2, 4, 8]).astype({"min_pile": int})
    assert plots.sweep_curve(ax, sweep, "min_pile") is ax
    (line,) = data_lines(ax)
    assert list(line.get_xdata()) == [2, 4, 6, 8]
    by_knob = sweep.set_index("min_pile")["win_rate"]
    assert list(line.get_ydata()) == [by_knob[k] for k in (2, 4, 6, 8)]
    assert sum(isinstance(c, PolyCollection) for c in ax.collections) == 1
    assert ax.get_xlabel() == "min_pile" and ax.get_ylabel() == "win rate (95% interval)"
    assert [list(r.get_ydata()) for r in reference_lines(ax)] == [[0.5, 0.5]]


def test_numeric_sweep_skips_rows_whose_knob_is_nan():
    sweep = sweep_table([3.0, np.nan, 1.0, 2.0])
    ax = plots.sweep_curve(None, sweep, "min_pile")
    (line,) = data_lines(ax)
    assert list(line.get_xdata()) == [1.0, 2.0, 3.0]


def test_categorical_sweep_places_the_categories_evenly_in_category_order():
    cats = pd.Categorical(["high", "low", "mid"], categories=["low", "mid", "high"], ordered=True)
    ax = plots.sweep_curve(new_ax(), sweep_table(list(cats)).assign(min_pile=cats), "min_pile")
    assert tick_texts(ax.get_xticklabels()) == ["low", "mid", "high"]
    assert list(ax.get_xticks()) == [0, 1, 2]
    assert not any(isinstance(c, PolyCollection) for c in ax.collections)  # error bars, no band
    (points,) = [line for line in data_lines(ax) if line.get_marker() == "o"]
    assert list(points.get_xdata()) == [2, 0, 1]


def test_object_sweep_keeps_order_of_appearance_and_two_labels_overlay_with_a_legend():
    ax = new_ax()
    sweep = sweep_table(["3", "1", "2"])
    plots.sweep_curve(ax, sweep, "min_pile", label="vs baseline")
    plots.sweep_curve(ax, sweep, "min_pile", label="vs greedy")
    assert tick_texts(ax.get_xticklabels()) == ["3", "1", "2"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["vs baseline", "vs greedy"]
    assert len(reference_lines(ax)) == 1  # drawn once for both curves


def test_sweep_of_margins_labels_the_y_axis_from_the_value():
    ax = plots.sweep_curve(None, sweep_table([1, 2, 3]), "min_pile", value="margin", low="margin_low",
                           high="margin_high", ref=0)
    assert ax.get_ylabel() == "margin per deal (95% interval)"
    assert [list(r.get_ydata()) for r in reference_lines(ax)] == [[0, 0]]


# --- distribution ------------------------------------------------------------------------------------


def hands_table() -> pd.DataFrame:
    rng = np.random.default_rng(1)
    return pd.DataFrame({"turns": rng.integers(10, 40, 300), "score": rng.normal(500, 200, 300),
                         "variant": np.repeat(["classic-2p", "classic-4p", "modern"], 100)})


def test_distribution_draws_one_step_histogram_per_group_with_the_mean_in_the_legend():
    ax = new_ax()
    data = hands_table()
    assert plots.distribution(ax, data, "turns", by="variant") is ax
    assert len(ax.patches) == 3
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    mean = data.loc[data.variant == "classic-4p", "turns"].mean()
    assert legend[1] == f"classic-4p (mean {mean:.3g})"
    x = ax.patches[0].get_xy()[:, 0]
    assert np.allclose(np.unique(x) % 1, 0.5)  # integer-aligned bins: edges at half-integers


def test_distribution_ecdf_has_one_rising_line_per_group_ending_at_one():
    ax = plots.distribution(None, hands_table(), "score", by="variant", kind="ecdf")
    lines = ax.get_lines()
    assert len(lines) == 3
    for line in lines:
        y = np.asarray(line.get_ydata())
        assert y[-1] == 1.0 and np.all(np.diff(y) >= 0)


def test_distribution_without_groups_draws_one_and_refuses_an_unknown_kind():
    assert len(plots.distribution(None, hands_table(), "score").patches) == 1
    with pytest.raises(ValueError, match="kind"):
        plots.distribution(None, hands_table(), "score", kind="violin")


# --- variant_panel -----------------------------------------------------------------------------------


def panel_table() -> pd.DataFrame:
    return pd.DataFrame({"variant": ["classic-2p", "classic-2p", "modern", "modern", "hand-foot", "hand-foot"],
                         "measure": ["first", "second"] * 3, "value": [0.52, 0.55, 0.49, 0.6, 0.5, 0.45],
                         "low": [0.5, 0.52, 0.46, 0.57, 0.47, 0.42], "high": [0.54, 0.58, 0.52, 0.63, 0.53, 0.48]})


def test_variant_panel_has_the_variants_in_table_order_and_dodges_the_hues():
    ax = new_ax()
    assert plots.variant_panel(ax, panel_table(), "value", "low", "high", hue="measure", ref=0.5) is ax
    assert tick_texts(ax.get_yticklabels()) == ["classic-2p", "modern", "hand-foot"]
    points = errorbar_points(ax)
    assert set(points) == {"first", "second"}
    first, second = (np.asarray(points[k].get_ydata()) for k in ("first", "second"))
    assert np.all(first < second) and np.allclose(second - first, plots.HUE_STEP)
    assert np.allclose((first + second) / 2, [0, 1, 2])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["first", "second"]
    assert [list(r.get_xdata()) for r in reference_lines(ax)] == [[0.5, 0.5]]


def test_variant_panel_without_hue_or_interval_draws_one_point_per_row():
    table = panel_table().drop_duplicates("variant")
    ax = plots.variant_panel(None, table, "value")
    (points,) = data_lines(ax)
    assert list(points.get_ydata()) == [0, 1, 2] and ax.get_legend() is None and reference_lines(ax) == []


# --- save and the charts the commands write ----------------------------------------------------------


def test_save_writes_the_figure_of_an_axes_or_of_a_figure(tmp_path):
    ax = plots.forest(None, pairs_table().assign(label="x"))
    assert plots.save(ax, tmp_path / "a.png") == tmp_path / "a.png"
    assert plots.save(ax.figure, str(tmp_path / "b.svg")) == tmp_path / "b.svg"
    assert (tmp_path / "a.png").read_bytes().startswith(PNG_MAGIC)
    assert b"<svg" in (tmp_path / "b.svg").read_bytes()


def test_pair_chart_and_win_rate_chart_still_write_png_files(tmp_path):
    out = plots.pair_chart(pairs_table(), "classic-4p: win rate", tmp_path / "pairs.png")
    assert out == tmp_path / "pairs.png" and out.read_bytes().startswith(PNG_MAGIC)
    table = pd.DataFrame({"strategy": ["baseline", "greedy"], "win_rate": [0.6, 0.4], "ci_low": [0.55, 0.35],
                          "ci_high": [0.65, 0.45]})
    out = plots.win_rate_chart(table, "strategies", str(tmp_path / "rates.png"))
    assert out == tmp_path / "rates.png" and out.read_bytes().startswith(PNG_MAGIC)


# --- no global state ---------------------------------------------------------------------------------


def call_every_chart(tmp: Path) -> None:
    pairs = pairs_table()
    plots.forest(None, pairs.assign(label=pairs.a + " vs " + pairs.b))
    plots.heatmap(None, matrix_table())
    plots.sweep_curve(None, sweep_table([1, 2, 3]), "min_pile")
    plots.sweep_curve(None, sweep_table(["a", "b"]), "min_pile", label="x")
    plots.distribution(None, hands_table(), "turns", by="variant")
    plots.distribution(None, hands_table(), "score", kind="ecdf")
    plots.variant_panel(None, panel_table(), "value", "low", "high", hue="measure", ref=0.5)
    plots.save(plots.forest(None, pairs.assign(label=pairs.a)), tmp / "f.png")
    plots.pair_chart(pairs, "t", tmp / "p.png")


def test_the_charts_leave_the_backend_and_rcparams_unchanged(tmp_path):
    backend, params = matplotlib.get_backend(), copy.deepcopy(dict(matplotlib.rcParams))
    call_every_chart(tmp_path)
    assert matplotlib.get_backend() == backend
    assert dict(matplotlib.rcParams) == params


def test_sim_plots_never_imports_pyplot_nor_picks_a_backend(tmp_path):
    script = textwrap.dedent(f"""
        import sys
        import matplotlib
        uses = []
        matplotlib.use = lambda *a, **k: uses.append(a)  # record, so a call from sim.plots would show
        from pathlib import Path
        from tests.plots import test_plots  # its own matplotlib.use("Agg") is recorded here, then forgotten
        uses.clear()
        raw_backend = dict.__getitem__(matplotlib.rcParams, "backend")  # read without resolving it
        params = {{k: v for k, v in dict.items(matplotlib.rcParams) if k != "backend"}}
        test_plots.call_every_chart(Path({str(tmp_path)!r}))
        assert "matplotlib.pyplot" not in sys.modules, "something imported pyplot"
        assert uses == [], f"matplotlib.use was called: {{uses}}"
        assert dict.__getitem__(matplotlib.rcParams, "backend") == raw_backend, "the backend changed"
        assert {{k: v for k, v in dict.items(matplotlib.rcParams) if k != "backend"}} == params, "rcParams changed"
        print("clean")
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "clean"


QUESTIONS = ("Should I freeze the pile? (freeze)", "Hold black threes or throw them? (hold_black3)",
             "Should I ask my partner before going out? (ask)",
             "When my partner asks to go out, should I say yes? (answer_max)",
             "How big a pile is worth taking? (min_pile)",
             "How big a pile is worth taking, whatever its cards? (bu_take)",
             "Reach the morto by a direct knock or an indirect one? (bu_knock)",
             "Keep a meld free of wilds for the clean canasta? (bu_clean)")
WORDS = {"do": "always or 12", "keep the default": "keep never", "matters less": "< 1 pt",
         "depends on the player": "depends", "undecided": "?", "does not arise": "rare"}


def grid_table() -> pd.DataFrame:
    """Every question at every preset where it could be asked, each kind of answer in turn, the longest words."""
    from sim.rules import PRESETS

    rows = []
    kinds = list(WORDS)
    for i, q in enumerate(QUESTIONS):
        for j, p in enumerate(PRESETS):
            if ("(bu_" in q) != p.startswith("buraco"):
                continue
            kind = kinds[(i + j) % len(kinds)]
            rows.append({"question": q, "preset": p, "verdict": kind, "text": WORDS[kind]})
    return pd.DataFrame(rows)


def test_the_answer_grid_has_a_cell_per_question_and_preset_with_its_words_and_a_legend_in_plain_words():
    table = grid_table()
    ax = plots.answer_grid(None, table)
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == len(table) and set(texts) == set(WORDS.values())
    assert [t.get_text() for t in ax.get_xticklabels()] == list(dict.fromkeys(table["preset"]))
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "play this setting (better than the default)" in legend and "not real" not in " ".join(legend)


def test_the_answer_grid_at_its_own_size_and_a_sweep_of_nine_settings_have_no_overlapping_words():
    table = grid_table()
    fig = Figure(figsize=plots.grid_size(table), dpi=plots.DPI)
    plots.answer_grid(fig.subplots(), table, title="What to do, question by question and preset by preset")
    assert plots.text_overlaps(fig) == []
    rows = pd.DataFrame([{"player": p, "setting": str(s), "share": 0.5, "low": 0.48, "high": 0.52,
                          "class": c} for p in ("baseline", "expert") for s, c in zip(
        (1, 2, 3, 4, 5, 6, 8, 10, 12), ["better than the default", "worse than the default", "the default",
                                        *["no clear difference"] * 6], strict=True)])
    fig = Figure(figsize=(7.5, 4.2), dpi=plots.DPI)
    plots.share_curve(fig.subplots(), rows, "min_pile", fair=0.5, title="classic-4p: share of games won by min_pile")
    assert plots.text_overlaps(fig) == []


def test_text_overlaps_finds_words_drawn_on_top_of_each_other():
    fig = Figure(figsize=(3, 2))
    ax = fig.subplots()
    ax.text(0.5, 0.5, "keep the default")
    ax.text(0.52, 0.5, "undecided")
    assert ("keep the default", "undecided") in plots.text_overlaps(fig)


def test_the_share_curve_marks_each_class_in_plain_words_and_the_fair_share():
    rows = pd.DataFrame({"player": ["baseline"] * 3, "setting": ["never", "5", "10"], "share": [0.5, 0.55, 0.45],
                         "low": [0.5, 0.53, 0.43], "high": [0.5, 0.57, 0.47],
                         "class": ["the default", "better than the default", "worse than the default"]})
    ax = plots.share_curve(None, rows, "freeze", fair=0.5)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert {"better than the default", "worse than the default", "the default", "baseline", "fair share 0.5"} <= \
        set(legend)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["never", "5", "10"]
