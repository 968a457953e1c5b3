"""Tidy tables (sim.records.tidy): one row per game and side or hand and side, knobs in typed columns, and
every command's output reading back into the tables it returned (sim.records.results.load)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sim import ResultsError, compare, load, play, profile, sweep, tidy, tournament


@pytest.fixture(scope="module")
def run():
    return play("classic-4p", ["baseline:freeze=10,hold_black3=keep", "baseline"], games=24, seed=5, hands=True,
                workers=1)


def test_sides_is_one_row_per_game_and_side_with_the_winner_and_margin(run):
    lf = tidy.sides(run.games)
    assert len(lf) == 2 * len(run.games)
    assert lf.groupby("game")["won"].sum().eq(1).all()
    assert ((lf["margin"] > 0) == lf["won"]).all()  # a side wins by scoring more than every other side
    first = run.games.iloc[0]
    row = lf[(lf.game == first.game) & (lf.side == 1)].iloc[0]
    assert row["score"] == first["score_1"] and row["strategy"] == tidy.short_label(first["strategy_1"])


def test_sides_knobs_are_typed_numbers_as_numbers_named_values_as_ordered_categories(run):
    lf = tidy.sides(run.games)
    assert set(lf["strategy"].astype(str)) == {"baseline:freeze=10,hold_black3=keep", "baseline"}
    assert list(lf["name"].unique()) == ["baseline"]
    # freeze: 10 and never -> ordered category, never (a named value) first; hold_black3: keep before 4
    assert isinstance(lf["freeze"].dtype, pd.CategoricalDtype) and lf["freeze"].cat.ordered
    assert list(lf["freeze"].cat.categories) == ["never", "10"]
    assert list(lf["hold_black3"].cat.categories) == ["keep", "4"]
    assert "min_pile" not in lf.columns  # the same on both sides: not a variable of this table
    assert "min_pile" in tidy.sides(run.games, knobs="all").columns


def test_knob_column_is_int64_for_whole_numbers_float_otherwise_and_keeps_missing():
    col = tidy.knob_column(["3", None, "12"])
    assert str(col.dtype) == "Int64" and col.isna().tolist() == [False, True, False] and col.iloc[2] == 12
    assert tidy.knob_column(["0.5", "2"]).dtype == np.float64
    cat = tidy.knob_column(["20", "always", "5"])
    assert list(cat.cat.categories) == ["always", "5", "20"]  # words first, then numbers in numeric order


def test_a_strategy_this_process_does_not_know_still_gives_its_name_and_knobs():
    t = tidy.knob_table(["mine:depth=3", "mine:depth=5"])
    assert list(t["name"]) == ["mine", "mine"] and t["depth"].tolist() == [3, 5] and str(t["depth"].dtype) == "Int64"


def test_hand_sides_splits_the_wide_hands_table_and_its_counts_add_up(run):
    hs = tidy.hand_sides(run.hands, run.games)
    assert len(hs) == 2 * len(run.hands)
    per_hand = hs.groupby(["game", "hand"])[["pile_pickups", "freezes", "black3_discards", "asks"]].sum()
    wide = run.hands.set_index(["game", "hand"])[["pile_pickups", "freezes", "black3_discards", "asks"]]
    pd.testing.assert_frame_equal(per_hand.sort_index(), wide.sort_index(), check_dtype=False)
    assert (hs.groupby(["game", "hand"])["went_out"].sum() <= 1).all()
    # the strategy joined from the games table: the freezing side is the only side that freezes with freeze=never
    assert hs.loc[hs["freeze"] == "never", "freezes"].sum() == 0
    assert hs.loc[hs["freeze"] == "10", "freezes"].sum() > 0


def test_sweep_knob_columns_are_typed():
    df = sweep("classic-2p", "baseline", {"min_pile": [2, 6], "freeze": ["never", 8]}, games=4, seed=1, workers=1)
    assert str(df["min_pile"].dtype) == "Int64" and df["min_pile"].tolist() == [2, 2, 6, 6]
    assert list(df["freeze"].cat.categories) == ["never", "8"]


def test_compare_and_tournament_tables_carry_each_sides_name_and_knobs():
    c = compare("classic-2p", ["baseline:min_pile=6", "baseline"], 4, seed=1, workers=1)
    assert c.pairs[["a", "a_name", "a_min_pile", "b", "b_min_pile"]].iloc[0].tolist() == [
        "baseline:min_pile=6", "baseline", 6, "baseline", 3]
    t = tournament("classic-2p", ["baseline", "baseline:min_pile=6", "random"], 4, seed=1, workers=1)
    assert str(t.ranking["min_pile"].dtype) == "Int64"
    assert t.ranking.set_index("strategy").loc["random", "name"] == "random"
    assert {"row_min_pile", "column_min_pile"} <= set(t.matrix.columns)


def test_every_commands_output_reads_back_into_the_same_tables(tmp_path, run):
    r = play("classic-4p", ["baseline:freeze=10,hold_black3=keep", "baseline"], games=24, seed=5, hands=True,
             workers=1, out=tmp_path / "play")
    back = load(tmp_path / "play")
    pd.testing.assert_frame_equal(tidy.sides(back.games), tidy.sides(run.games))
    pd.testing.assert_frame_equal(tidy.hand_sides(back.hands, back.games), tidy.hand_sides(run.hands, run.games))
    assert back.meta["games"] == len(r.games)
    c = compare("classic-2p", ["baseline:freeze=10", "baseline"], 8, seed=1, workers=1, out=tmp_path / "c")
    c2 = load(tmp_path / "c")
    pd.testing.assert_frame_equal(c.pairs, c2.pairs)
    assert (c2.variant, c2.labels, c2.games, c2.seed) == (c.variant, c.labels, c.games, c.seed)
    t = tournament("classic-2p", ["baseline", "expert", "baseline:min_pile=5"], 4, seed=1, workers=1,
                   out=tmp_path / "t")
    t2 = load(tmp_path / "t")
    for table in ("pairs", "matrix", "ranking"):
        pd.testing.assert_frame_equal(getattr(t, table), getattr(t2, table))
    assert t2.table() == t.table()
    s = sweep("classic-2p", "baseline", {"freeze": ["never", 5]}, games=4, seed=1, workers=1, out=tmp_path / "s")
    s2 = load(tmp_path / "s")
    pd.testing.assert_frame_equal(s, s2)
    assert s2.attrs["opponent"] == "baseline"
    p = profile("classic-2p", ["baseline", "random"], games=4, seed=1, workers=1, out=tmp_path / "p")
    pd.testing.assert_frame_equal(p, load(tmp_path / "p"))


def test_load_of_a_folder_without_output_names_what_it_accepts(tmp_path):
    with pytest.raises(ResultsError, match="holds no canasta-lab output"):
        load(tmp_path)
    with pytest.raises(ResultsError, match="do not exist"):
        load(tmp_path / "nothing")
