"""A study of one knob (studies 01 to 04): each part sweeps the knob for `baseline` against itself, checks
the best setting against the strongest fast player (`expert`) and against `search`, and says the answer."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd

from sim.analysis.sweep import sweep
from sim.report.common import (
    FAIR,
    SEARCH,
    SEED,
    STRONG,
    VARIANT,
    Z95,
    Z95_WIDTH,
    Headline,
    Setup,
    Study,
    fmt_pct,
    knob_text,
    rules_text,
    setup,
    study_meta,
)
from sim.run.output import folder_name, whole_deals
from sim.stats import fmt_interval
from strategies import StrategyError, parse_strategy


@dataclass(frozen=True)
class Part:
    """One knob swept for `player` (a strategy with fixed knobs) against the same strategy at its
    defaults; `default` is the value the opponent plays."""

    knob: str
    values: tuple[Any, ...]
    player: str = "baseline"
    strong_player: str = STRONG
    note: str = ""
    strong_opponent: str = ""  # default: the strong player's strategy at its defaults

    @property
    def opponent(self) -> str:
        return self.player.split(":")[0]

    @property
    def strong_against(self) -> str:
        return self.strong_opponent or self.strong_player.split(":")[0]


def _sweeps(part: Part, st: Setup) -> dict[str, pd.DataFrame]:
    """The part's sweep against its own strategy, the same knob for `expert` against `expert`, and
    the best and default settings against `search` (when `check` > 0)."""
    grid = {part.knob: list(part.values)}
    v = st.variant()
    base = st.run(sweep, v, part.player, grid, part.opponent, games=st.games, seed=st.seed,
                  out=f"{part.knob}-{folder_name(part.player)}")
    strong = st.run(sweep, v, part.strong_player, grid, part.strong_against, games=st.games, seed=st.seed,
                    out=f"{part.knob}-{folder_name(part.strong_player)}-vs-{folder_name(part.strong_against)}")
    tables = {"baseline": base, "expert": strong}
    if st.check > 0:
        default = _default_value(part)
        best = _best_other(base, part.knob, default)[part.knob]
        check = st.run(sweep, v, part.player, {part.knob: [default, knob_text(best)]}, SEARCH, games=st.check,
                       seed=st.seed, out=f"{part.knob}-{folder_name(part.player)}-vs-search")
        check[part.knob] = _typed_like(check[part.knob], base[part.knob])
        tables["search"] = check
    return tables


def _typed_like(column: pd.Series, like: pd.Series) -> pd.Series:
    """`column` (a subset's knob values) typed as `like` (the whole sweep's), so the tables overlay."""
    if isinstance(like.dtype, pd.CategoricalDtype):
        return pd.Series(pd.Categorical([knob_text(x) for x in column], dtype=like.dtype), index=column.index)
    return column.astype(like.dtype)


def _default_value(part: Part) -> str:
    c = parse_strategy(part.player)
    k = c.spec.knob(part.knob)
    return k.show(float(c.params[k.slot]))


def _same(a: Any, b: Any) -> bool:
    return knob_text(a) == knob_text(b)


def _row(df: pd.DataFrame, knob: str, value: Any) -> pd.Series:
    hit = df[[_same(v, value) for v in df[knob]]]
    return hit.iloc[0]


def _best_other(df: pd.DataFrame, k: str, default: str) -> pd.Series:
    """The best setting other than `default`: the default against itself is 0.5 by construction, an
    interval of zero width that measures nothing, so it never stands as a headline."""
    others = df[[not _same(v, default) for v in df[k]]]
    return others.loc[others["win_rate"].idxmax()]


def _interval(r: pd.Series) -> str:
    return fmt_interval(r["win_rate"], r["win_low"], r["win_high"])


def _part_answer(part: Part, t: dict[str, pd.DataFrame]) -> tuple[list[str], list[str], list[Headline]]:
    base, strong = t["baseline"], t["expert"]
    k = part.knob
    default = _default_value(part)
    best = _best_other(base, k, default)
    b = knob_text(best[k])
    real = base[base["real"]]
    better = real[real["win_rate"] > FAIR]
    worse = real[real["win_rate"] < FAIR]
    heads = [Headline(f"{part.player}, {k}={b}, against {part.opponent}", float(best["win_rate"]),
                      float(best["win_low"]), float(best["win_high"]), int(best["deals"]))]
    answer = []
    if better.empty:
        answer.append(f"No setting of `{k}` tried beats the default `{k}={default}` by more than chance: the best of "
                      f"the others, `{k}={b}`, wins {heads[0].text()} of its games against it "
                      f"({len(base)} settings, {int(base['games'].iat[0])} games each; Holm's correction).")
    else:
        answer.append(f"**`{k}={b}`** wins {heads[0].text()} of its games against the default `{k}={default}`, a "
                      f"score margin of {best['margin']:+.0f} [{best['margin_low']:+.0f}, {best['margin_high']:+.0f}] "
                      "points per deal. Settings that beat the default after Holm's correction: "
                      + ", ".join(f"`{knob_text(v)}`" for v in better[k]) + ".")
    if not worse.empty:
        answer.append(f"Settings that lose to `{k}={default}`: " + ", ".join(
            f"`{knob_text(r[k])}` ({r['win_rate']:.3f})" for _, r in worse.iterrows()) + ".")
    # the strong player: is the setting the answer recommends still among its best?
    pick = b if not better.empty else default
    strong_default, mirrored = _strong_default(part)
    sbest = _best_other(strong, k, strong_default)
    s_real_better = strong[strong["real"] & (strong["win_rate"] > FAIR)]
    if _same(pick, strong_default) and mirrored:  # that row is the strong player against itself
        heads.append(Headline(f"{part.strong_player}, {k}={knob_text(sbest[k])}, against {part.strong_against}",
                              float(sbest["win_rate"]), float(sbest["win_low"]), float(sbest["win_high"]),
                              int(sbest["deals"])))
        held = s_real_better.empty
        detail = (f"`{part.strong_player}` already plays `{k}={pick}`; the best other setting against it, "
                  f"`{k}={knob_text(sbest[k])}`, wins {heads[-1].text()}")
    else:
        srow = _row(strong, k, pick)
        heads.append(Headline(f"{part.strong_player}, {k}={pick}, against {part.strong_against}",
                              float(srow["win_rate"]), float(srow["win_low"]), float(srow["win_high"]),
                              int(srow["deals"])))
        top = strong.loc[strong["win_rate"].idxmax()]
        held = bool(srow["win_high"] >= top["win_low"])  # among the best: its interval reaches the best one's
        plays = f" (which plays `{k}={strong_default}`)" if mirrored else ""
        detail = (f"against `{part.strong_against}`{plays}, `{k}={pick}` wins {heads[-1].text()}; the best there is "
                  f"`{k}={knob_text(top[k])}` at {_interval(top)}")
    holds = [f"With `{STRONG}` (the tuned heuristic), the same knob swept for `{part.strong_player}`: {detail}. "
             + (f"Settings that beat `{part.strong_against}` there: "
                + ", ".join(f"`{knob_text(v)}`" for v in s_real_better[k]) + ". " if not s_real_better.empty else "")
             + (f"The answer holds: `{k}={pick}` is among the best settings there too." if held else
                f"The answer does not carry over unchanged: there, `{k}={pick}` is not among the best settings; "
                "read the second curve.")]
    if "search" in t:
        s = t["search"]
        d = _row(s, k, default)
        if len(s) > 1:
            r = _row(s, k, best[k])
            diff = r["win_rate"] - d["win_rate"]
            se = math.hypot((r["win_high"] - r["win_low"]) / Z95_WIDTH, (d["win_high"] - d["win_low"]) / Z95_WIDTH)
            holds.append(f"Against `{SEARCH}` ({int(s['games'].iat[0])} games a setting, on the same deals): "
                         f"`{k}={default}` wins {_interval(d)}, `{k}={b}` {_interval(r)}: a difference of "
                         f"{fmt_pct(diff)} (+-{100 * Z95 * se:.1f} points at 95%, read conservatively as "
                         "independent). `search` costs about a second and a half a game, so this check is sized to "
                         "show a large reversal, not a small one.")
        else:
            holds.append(f"Against `{SEARCH}`: `{k}={default}` wins {_interval(d)} of {int(s['games'].iat[0])} games.")
    return answer, holds, heads


def _strong_default(part: Part) -> tuple[str, bool]:
    """The knob's value on the strong player's opponent (which the default row plays) and True, or the
    strong player's own default and False when the opponent has no such knob (a user strategy against
    `expert`: no row plays the opponent's game)."""
    try:
        return _default_value(replace(part, player=part.strong_against)), True
    except StrategyError:
        return _default_value(replace(part, player=part.strong_player)), False


def _part_charts(part: Part, t: dict[str, pd.DataFrame]) -> dict[str, tuple[str, Callable[[Any], Any]]]:
    from sim import plots  # matplotlib only when a chart is drawn: the command line starts faster

    k = part.knob

    def curve(ax: Any) -> Any:
        ax = plots.sweep_curve(ax, t["baseline"], k, label=f"{part.player} vs {part.opponent}")
        return plots.sweep_curve(ax, t["expert"], k, label=f"{part.strong_player} vs {part.strong_against}",
                                 title=f"{VARIANT}: win rate by {k} (95% interval on duplicate deals)")

    charts = {f"{k}_curve": (f"Win rate against the default by `{k}`, with its 95% band", curve)}
    if "search" in t:
        s = t["search"]

        def forest(ax: Any) -> Any:
            table = s.assign(label=[f"{k}={knob_text(v)} vs search" for v in s[k]])
            return plots.forest(ax, table, title=f"{VARIANT}: against search")

        charts[f"{k}_search"] = (f"The default and the best `{k}` against `search`", forest)
    return charts


def knob_study(name: str, title: str, question: str, parts: Sequence[Part], games: int | None = None,
               seed: int = SEED, check_games: int | None = None, out: str | Path | None = None,
               rules: Sequence[str] = (), workers: int = 0, progress: Any = None, scheduler: Any = None) -> Study:
    """A question about knobs: each part's sweep against the default, and whether the best setting
    still helps `expert` and against `search`."""
    st = setup(name, games, seed, check_games, out, rules, workers, progress, scheduler)
    games, check = st.games, st.check
    v = st.variant()
    t0 = time.perf_counter()
    tables: dict[str, pd.DataFrame] = {}
    charts: dict[str, tuple[str, Callable[[Any], Any]]] = {}
    answer: list[str] = []
    holds: list[str] = []
    heads: list[Headline] = []
    method = [f"`{v.name}`{rules_text(st)}, duplicate deals: every deal is played with the sides swapped, so the "
              "cards cancel. "
              f"Each setting plays {whole_deals(games, 2)} games against the same strategy at its defaults; "
              "the same knob is swept for " + ", ".join(f"`{p.strong_player}` against `{p.strong_against}`"
                                                       for p in parts)
              + (f", and the default and the best setting play {whole_deals(check, 2)} games each against "
                 f"`{SEARCH}`." if check else ".")
              + f" Seed {seed}. Intervals are 95% on the deals; Holm's correction says which settings really "
                "differ from the default."]
    for part in parts:
        t = _sweeps(part, st)
        for key, df in t.items():
            tables[f"{part.knob}_{key}"] = df
        a, h, hd = _part_answer(part, t)
        if part.note:
            method.append(part.note)
        answer += a
        holds += h
        heads += hd
        charts.update(_part_charts(part, t))
    return Study(name, title, question, "\n\n".join(method), tables, charts, "\n\n".join(answer), "\n\n".join(holds),
                 heads, whole_deals(games, 2), seed, time.perf_counter() - t0, study_meta())
