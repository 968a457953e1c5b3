"""Tidy (long) tables for analysis: one row per game and side, one row per hand and side, and each
strategy's name and knob values in typed columns, so that a notebook filters, groups and plots
without parsing labels such as `baseline:freeze=10`.

Knob columns are typed from the values present: a knob whose values are all numbers is a number
column (`Int64` for a whole-number knob, `float64` otherwise); a knob with a named value among them
(`freeze=never`) is an ordered categorical of the values as written, in the knob's own order (named
values by the number they stand for, then the numbers), so charts and sorts keep that order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

import numpy as np
import pandas as pd

from sim.engine import layout as L
from strategies import Knob, StrategyError, parse_strategy

__all__ = ["hand_sides", "knob_column", "knob_table", "sides", "short_label", "with_knobs", "with_pair_knobs"]

NAME = "name"  # the strategy's name without knobs (`baseline` for `baseline:freeze=10`)
SIDE_PREFIX = "strategy_"  # the games table's side label columns: strategy_0, strategy_1, ...
SCORE_PREFIX = "score_"


def short_label(label: str) -> str:
    """A side's label as a person says it: `baseline` for a partnership of two `baseline` seats; a
    side whose seats play different strategies keeps the joined label (`a+b`)."""
    parts = str(label).split("+")
    return parts[0] if len(set(parts)) == 1 else str(label)


def _knob_order(knob: Knob | None, text: str) -> tuple[int, float, str]:
    if knob is not None:
        for name, v in knob.named:
            if text == name:
                return (0, v, text)
    try:
        return (1, float(text), text)
    except ValueError:
        return (0, 0.0, text)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def knob_column(values: Sequence[str | None], knob: Knob | None = None) -> pd.Series:
    """Typed column of one knob's values as written (`"10"`, `"never"`, None where the strategy has
    no such knob): numbers when every value is one, an ordered categorical otherwise."""
    present = [v for v in values if v is not None]
    if all(_is_number(v) for v in present):
        nums = [float(v) if v is not None else np.nan for v in values]
        whole = knob.whole if knob is not None else all(float(v).is_integer() for v in present)
        if whole:
            return pd.Series(pd.array([None if np.isnan(x) else int(x) for x in nums], dtype="Int64"))
        return pd.Series(np.array(nums, dtype=np.float64))
    cats = sorted(set(present), key=lambda t: _knob_order(knob, t))
    return pd.Series(pd.Categorical(list(values), categories=cats, ordered=True))


def _parse_label(label: str) -> tuple[str | None, dict[str, str], dict[str, Knob]]:
    """Name and every knob value (as written) of a strategy label; for a strategy this process does
    not know (results read elsewhere), the knobs the label itself names."""
    if "+" in label and short_label(label) == label:
        return None, {}, {}  # a side of mixed strategies has no one set of knobs
    try:
        c = parse_strategy(label)
    except StrategyError:
        name, _, rest = label.partition(":")
        knobs = dict(item.partition("=")[::2] for item in rest.split(",")) if rest else {}
        return name, knobs, {}
    return c.spec.name, {k.name: k.show(float(c.params[k.slot])) for k in c.spec.knobs}, \
        {k.name: k for k in c.spec.knobs}


def knob_table(labels: Iterable[str], knobs: Literal["varying", "all"] | Sequence[str] = "varying") -> pd.DataFrame:
    """One row per distinct label (the index): the strategy's name and a typed column per knob.

    `knobs="varying"` keeps the knobs whose values differ among the labels that have them (a sweep's
    or a comparison's variable), `"all"` every knob any of them has, or a list of knob names."""
    uniq = list(dict.fromkeys(str(x) for x in labels))
    parsed = {lab: _parse_label(lab) for lab in uniq}
    order: list[str] = []
    specs: dict[str, Knob] = {}
    for _name, vals, ks in parsed.values():
        order += [k for k in vals if k not in order]
        specs.update(ks)
    if knobs == "varying":
        chosen = [k for k in order if len({parsed[lab][1][k] for lab in uniq if k in parsed[lab][1]}) > 1]
    elif knobs == "all":
        chosen = order
    else:
        chosen = list(knobs)
    out = pd.DataFrame(index=pd.Index(uniq, name="strategy"))
    out[NAME] = [parsed[lab][0] for lab in uniq]
    for k in chosen:
        col = knob_column([parsed[lab][1].get(k) for lab in uniq], specs.get(k))
        col.index = out.index
        out[k] = col
    return out


def with_knobs(df: pd.DataFrame, column: str = "strategy", prefix: str = "",
               knobs: Literal["varying", "all"] | Sequence[str] = "varying",
               table: pd.DataFrame | None = None) -> pd.DataFrame:
    """`df` with the strategy name and typed knob columns of its `column` of labels added after it
    (prefixed, e.g. `a_` for a pairs table's first strategy), from `table` (a knob_table) when given.
    Columns already present are kept."""
    if table is None:
        table = knob_table(df[column].astype(str), knobs)
    out = df.copy()
    at = list(out.columns).index(column) + 1
    labels = out[column].astype(str).to_numpy()
    for i, c in enumerate(table.columns):
        name = prefix + c
        if name in out.columns:
            continue
        out.insert(at + i, name, table[c].reindex(labels).array)  # .array keeps Int64 and categories
    return out


def _n_sides(games: pd.DataFrame) -> int:
    return sum(1 for c in games.columns if c.startswith(SCORE_PREFIX))


def sides(games: pd.DataFrame, knobs: Literal["varying", "all"] | Sequence[str] = "varying") -> pd.DataFrame:
    """The games table long: one row per game and side with the side's strategy (short label), its
    name and knobs, score, margin over the best other side, whether it won, and the game's length.

    Sorted by game then side; `won` is the side with the highest total (sim.records.results' winner_side)."""
    n = _n_sides(games)
    scores = np.stack([games[f"{SCORE_PREFIX}{s}"].to_numpy() for s in range(n)], axis=1)
    parts = []
    for s in range(n):
        others = np.delete(scores, s, axis=1)
        parts.append(pd.DataFrame({
            "game": games["game"].to_numpy(),
            "deal": games["deal"].to_numpy(),
            "side": np.full(len(games), s, dtype=np.int64),
            "strategy": [short_label(x) for x in games[f"{SIDE_PREFIX}{s}"].astype(str)],
            "score": scores[:, s],
            "margin": scores[:, s] - others.max(axis=1),
            "won": (games["winner_side"] == s).to_numpy(),
            "n_hands": games["n_hands"].to_numpy(),
            "turns": games["turns"].to_numpy(),
        }))
    long = pd.concat(parts, ignore_index=True).sort_values(["game", "side"], kind="stable", ignore_index=True)
    long["strategy"] = pd.Categorical(long["strategy"])
    return with_knobs(long, "strategy", knobs=knobs)


def hand_sides(hands: pd.DataFrame, games: pd.DataFrame | None = None,
               knobs: Literal["varying", "all"] | Sequence[str] = "varying") -> pd.DataFrame:
    """The hands table long: one row per hand and side with that side's score components, running
    total, canastas by kind and play counts (pile takes, freezes, black threes thrown, asks and yes
    answers); with `games`, the side's strategy and knobs too (joined on the game)."""
    n = sum(1 for c in hands.columns if c.startswith("cum_"))
    common = ["game", "hand", "dealer", "reason", "turns"]
    kinds = [f"{k.name.lower()}_canastas" for k in L.CanastaKind]
    parts = []
    for s in range(n):
        part = hands[common].copy()
        part.insert(2, "side", np.int64(s))
        part["went_out"] = (hands["out_side"] == s).to_numpy()
        part["concealed"] = part["went_out"] & hands["concealed"].to_numpy()
        for name in L.COMPONENTS:
            part[name] = hands[f"{name}_{s}"].to_numpy()
        for name in (*kinds, *L.SIDE_COUNTS):
            col = f"{name}_{s}"  # counts added to the hands table later read 0 in a run played before them
            part[name] = hands[col].to_numpy() if col in hands else np.zeros(len(hands), np.int64)
        part["cum"] = hands[f"cum_{s}"].to_numpy()
        parts.append(part)
    long = pd.concat(parts, ignore_index=True).sort_values(["game", "hand", "side"], kind="stable",
                                                         ignore_index=True)
    if games is not None:
        lab = sides(games, knobs)
        keep = [c for c in lab.columns if c not in ("deal", "score", "margin", "won", "n_hands", "turns")]
        long = long.merge(lab[keep], on=["game", "side"], how="left", validate="many_to_one")
    return long



def with_pair_knobs(df: pd.DataFrame, first: str = "a", second: str = "b") -> pd.DataFrame:
    """A table of pairs (`a` against `b`, or a matrix's `row` against `column`) with each side's name
    and typed knob columns (`a_name`, `a_freeze`, ..., `b_freeze`): the knobs that vary among all the
    strategies the table holds, typed alike on both sides."""
    table = knob_table(pd.concat([df[first].astype(str), df[second].astype(str)]), "varying")
    return with_knobs(with_knobs(df, first, f"{first}_", table=table), second, f"{second}_", table=table)
