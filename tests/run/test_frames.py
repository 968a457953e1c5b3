"""The results' tables read the engine's result rows through one schema (sim/engine/layout.py:
GAME_COLUMNS, HAND_COLUMNS): the schema's columns first, in its order and each of its kind's type, then the
per-side columns; and every column the schema names is one docs/results.md documents (add, never rename)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sim import play
from sim.engine import layout as L

RESULTS_DOC = Path(__file__).resolve().parents[2] / "docs" / "results.md"
DTYPES = {L.COL_INT: "int64", L.COL_BOOL: "bool", L.COL_REASON: "category", L.COL_SIDE: "int64"}


@pytest.fixture(scope="module")
def results():
    return play("classic-4p", ["baseline", "random"], games=6, seed=3, hands=True)


@pytest.mark.parametrize("table,schema,side_first", [("games", L.GAME_COLUMNS, "score_0"),
                                                     ("hands", L.HAND_COLUMNS, "melded_0")])
def test_a_table_begins_with_its_schema_in_order(results, table, schema, side_first):
    df = getattr(results, table)
    names = [name for name, _, _ in schema]
    assert list(df.columns[:len(names) + 1]) == [*names, side_first]
    assert {name: str(df[name].dtype) for name in names} == {name: DTYPES[kind] for name, _, kind in schema}


def test_the_schema_columns_read_their_fields(results):
    g, h = results.games, results.hands
    assert (g["n_hands"].to_numpy() == h.groupby("game").size().reindex(g["game"]).to_numpy()).all()
    assert set(h["reason"].cat.categories) == set(L.END_NAMES.values())
    out = h["out_seat"].to_numpy()
    assert ((h["out_side"] == -1) == (out < 0)).all() and ((out < 0) | (h["out_side"] == out % 2)).all()


def test_every_schema_column_is_documented():
    doc = RESULTS_DOC.read_text()
    documented = set(re.findall(r"`([a-z0-9_]+)`", doc))
    assert {name for name, _, _ in L.GAME_COLUMNS + L.HAND_COLUMNS} - documented == set()
