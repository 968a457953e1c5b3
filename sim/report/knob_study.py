"""A study of one knob (studies 01 to 04): each part sweeps the knob for `baseline` against itself, checks
the best setting against the strongest fast player (`expert`) and against `search`, measures how often the
choice changes what a side does (mirror play, sim.analysis.profile), and says the answer, at one preset."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd
from scipy import special

from sim.analysis.profile import profile
from sim.analysis.sweep import sweep
from sim.report.common import (
    CAP_SHARE,
    FAIR,
    RARE,
    SEARCH,
    SEED,
    STRONG,
    VARIANT,
    Z95,
    Z95_WIDTH,
    Headline,
    NotApplicable,
    Setup,
    Study,
    fmt_pct,
    knob_text,
    rules_text,
    setup,
    study_meta,
)
from sim.rules import Variant
from sim.run.output import folder_name, whole_deals
from sim.run.seating import Seating
from sim.stats import fmt_interval
from strategies import StrategyError, parse_strategy

FREQUENCY_GAMES = 2000  # mirror games per setting that say how often the choice changes what a side does


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
    decision: str = ""  # the decision the knob varies, in words ("discarding a wild to freeze the pile")
    acts: str = ""  # the profile column (sim.analysis.profile.FIGURES) counting what the decision does, if any

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
    base = st.run(sweep, v, part.player, grid, part.opponent, games=st.games, seed=st.seed, seating=st.seating,
                  out=f"{part.knob}-{folder_name(part.player)}")
    strong = st.run(sweep, v, part.strong_player, grid, part.strong_against, games=st.games, seed=st.seed,
                    seating=st.seating,
                    out=f"{part.knob}-{folder_name(part.strong_player)}-vs-{folder_name(part.strong_against)}")
    if part.acts:
        base = _with_frequency(part, st, base)
    tables = {"baseline": base, "expert": strong}
    if st.check > 0:
        default = _default_value(part)
        best = _best_other(base, part.knob, default)[part.knob]
        check = st.run(sweep, v, part.player, {part.knob: [default, knob_text(best)]}, SEARCH, games=st.check,
                       seed=st.seed, seating=st.seating, out=f"{part.knob}-{folder_name(part.player)}-vs-search")
        check[part.knob] = _typed_like(check[part.knob], base[part.knob])
        tables["search"] = check
    return tables


def frequency_games(st: Setup) -> int:
    return min(st.games, FREQUENCY_GAMES)


def _with_frequency(part: Part, st: Setup, base: pd.DataFrame) -> pd.DataFrame:
    """The sweep with `acts` (what the decision does, per side and hand, each setting against itself),
    `changes` (how far that moves from the default's: a choice that changes nothing cannot matter) and
    `capped` (the share of its hands ended by the turn cap: above CAP_SHARE the row is never in an answer)."""
    labels = list(base["strategy"])
    prof = st.run(profile, st.variant(), labels, frequency_games(st), st.seed, mirror=True,
                  out=f"{part.knob}-{folder_name(part.player)}-profile")
    rate = dict(zip(prof["strategy"], prof[part.acts], strict=True))
    cap = dict(zip(prof["strategy"], prof["ended_cap"], strict=True))
    out = base.copy()
    out["acts"] = [float(rate[lab]) for lab in labels]
    out["capped"] = [float(cap[lab]) for lab in labels]  # hands ended by the turn cap, the setting against itself
    d = float(_row(out, part.knob, _default_value(part))["acts"])
    out["changes"] = (out["acts"] - d).abs()
    out.attrs.update(base.attrs)
    return out


def applies(name: str, parts: Sequence[Part], v: Variant) -> None:
    """Refuse, with one line, a preset where a knob the study varies never acts (its answer would be a tie
    of identical games)."""
    for part in parts:
        for player in dict.fromkeys((part.player, part.strong_player)):
            knob = parse_strategy(player).spec.knob(part.knob)
            if not knob.acts_at(v):
                what = f" ({part.decision})" if part.decision else ""
                raise NotApplicable(f"{name} does not apply at {v.name}: `{part.knob}`{what} needs "
                                    f"{knob.missing(v)}, which {v.name} lacks")


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
    interval of zero width that measures nothing, so it never stands as a headline; nor does a setting
    that almost never plays otherwise than the default and does not differ from it, where another is there
    (a setting that rarely acts but really differs does answer)."""
    others = df[[not _same(v, default) for v in df[k]]]
    if "capped" in others and (others["capped"] <= CAP_SHARE).any():  # hands cut short by the cap: no answer
        others = others[others["capped"] <= CAP_SHARE]
    matters = (others["changes"] >= RARE) | others["real"] if "changes" in others else None
    if matters is not None and matters.any():  # one that plays as the default, and ties with it, is no answer
        others = others[matters]
    return others.loc[others["win_rate"].idxmax()]


def _interval(r: pd.Series) -> str:
    return fmt_interval(r["win_rate"], r["win_low"], r["win_high"])


def _part_answer(part: Part, t: dict[str, pd.DataFrame]) -> tuple[list[str], list[str], list[Headline], dict[str, Any]]:
    """The part's answer and its check in words, its headlines, and one row for the view across presets
    (`advice`: the setting to play, only where it beats the default and holds with the strong player)."""
    base, strong = t["baseline"], t["expert"]
    k = part.knob
    default = _default_value(part)
    best = _best_other(base, k, default)
    b = knob_text(best[k])
    flagged = base[base["capped"] > CAP_SHARE] if "capped" in base else base.iloc[:0]
    real = base[base["real"] & ~base.index.isin(flagged.index)]
    better = real[real["win_rate"] > FAIR]
    worse = real[real["win_rate"] < FAIR]
    heads = [Headline(f"{part.player}, {k}={b}, against {part.opponent}", float(best["win_rate"]),
                      float(best["win_low"]), float(best["win_high"]), int(best["deals"]))]
    answer = []
    rare: list[str] = []
    if "changes" in base:
        line, rare = _frequency_line(part, base)
        answer.append(line)
    if better.empty and len(rare) == len(base) - 1:
        answer.append(f"So the sweep's tie is no answer: at this preset the choice almost never arises. (The best of "
                      f"the other settings, `{k}={b}`, wins {heads[0].text()} against the default.)")
    elif better.empty:
        answer.append(f"With `{part.player}` on one side and `{part.opponent}` on the other, no setting of `{k}` "
                      f"tried beats the default `{k}={default}` by more than chance: the best of "
                      f"the others, `{k}={b}`, wins {heads[0].text()} of its games against it "
                      f"({len(base)} settings, {int(base['games'].iat[0])} games each; Holm's correction).")
    else:
        answer.append(f"With `{part.player}` on one side and `{part.opponent}` on the other, **`{k}={b}`** wins "
                      f"{heads[0].text()} of its games against the default `{k}={default}`, a "
                      f"score margin of {best['margin']:+.0f} [{best['margin_low']:+.0f}, {best['margin_high']:+.0f}] "
                      "points per deal. Settings that beat the default after Holm's correction: "
                      + ", ".join(f"`{knob_text(v)}`" for v in better[k]) + ".")
    if not flagged.empty:
        answer.append("Flagged, and left out of the answer: " + ", ".join(
            f"`{knob_text(r[k])}` ({100 * r['capped']:.1f}% of its hands against itself ended by the turn cap)"
            for _, r in flagged.iterrows()) + ".")
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
                "read the second curve.")
             + f" {_power_text(heads[0], heads[-1])}"]
    if not better.empty and not held:
        answer.append(f"Not advice: `{k}={b}` does not hold with `{part.strong_player}` (below).")
    search = {"search_games": 0, "search_diff": math.nan, "search_se": math.nan}
    if "search" in t:
        s = t["search"]
        d = _row(s, k, default)
        if len(s) > 1:
            r = _row(s, k, best[k])
            diff = r["win_rate"] - d["win_rate"]
            se = math.hypot((r["win_high"] - r["win_low"]) / Z95_WIDTH, (d["win_high"] - d["win_low"]) / Z95_WIDTH)
            search = {"search_games": int(s["games"].iat[0]), "search_diff": float(diff), "search_se": float(se)}
            holds.append(f"Against `{SEARCH}` ({search['search_games']} games a setting, on the same deals): "
                         f"`{k}={default}` wins {_interval(d)}, `{k}={b}` {_interval(r)}: a difference of "
                         f"{fmt_pct(diff)} (+-{100 * Z95 * se:.1f} points at 95%, read conservatively as "
                         "independent). `search` costs about a second and a half a game, so this check is sized to "
                         "show a large reversal, not a small one.")
        else:
            holds.append(f"Against `{SEARCH}`: `{k}={default}` wins {_interval(d)} of {int(s['games'].iat[0])} games.")
    turned = search_reverses(search["search_diff"], search["search_se"])
    if turned and not better.empty:
        answer.append(f"Not advice: against `{SEARCH}`, `{k}={b}` does worse than the default by more than chance "
                      "(below).")
    beats = bool(best["real"]) and best["win_rate"] > FAIR and best.name not in flagged.index  # the headline's own
    summary = {"knob": k, "default": default, "best": b, "win_rate": float(best["win_rate"]),
               "win_low": float(best["win_low"]), "win_high": float(best["win_high"]),
               "margin": float(best["margin"]), "deals": int(best["deals"]), "real": beats,
               "arises": float(best["changes"]) if "changes" in base else math.nan,
               "rare": len(rare) == len(base) - 1 if "changes" in base else False,
               "strong": part.strong_player, "strong_win_rate": heads[-1].value, "holds": bool(held),
               "power": reversal_power(heads[0].value - FAIR, heads[-1]),
               "advice": b if beats and held and not turned else "", **search}
    return answer, holds, heads, summary


def search_reverses(diff: float, se: float) -> bool:
    """The check against `search` shows the setting doing worse than the default beyond its 95% interval:
    an answer the strongest player turns round is not advice, however small that check."""
    return bool(se > 0 and diff + Z95 * se < 0)


def reversal_power(gain: float, strong: Headline) -> float:
    """The chance that the strong player's check, at its own interval width, sees a reversal of the headline's
    size (a two-sided test at 5%): a check too small to see one cannot say the answer holds."""
    se = (strong.high - strong.low) / Z95_WIDTH
    return float(special.ndtr(abs(gain) / se - Z95)) if se > 0 else 1.0


def _power_text(head: Headline, strong: Headline) -> str:
    gain = head.value - FAIR
    return (f"That check has {strong.deals} deals: it sees a reversal of the headline's own size "
            f"({fmt_pct(gain)}) with probability {reversal_power(gain, strong):.0%} (two-sided, 5%).")


def _frequency_line(part: Part, base: pd.DataFrame) -> tuple[str, list[str]]:
    """How often the decision changes what a side does, in words, and the settings that almost never
    play otherwise than the default."""
    from sim.analysis.profile import FIGURES

    k, default = part.knob, _default_value(part)
    label = {c: text for c, text, _ in FIGURES}[part.acts]
    d = _row(base, k, default)
    others = base[[not _same(x, default) for x in base[k]]]
    lo, hi = float(others["changes"].min()), float(others["changes"].max())
    line = (f"How often the choice arises{f' ({part.decision})' if part.decision else ''}: {label}, each setting "
            f"against itself: {d['acts']:.3f} with the default `{k}={default}`; the other settings move it by "
            f"{lo:.3f} to {hi:.3f}.")
    rare = [knob_text(x) for x in others.loc[(others["changes"] < RARE) & ~others["real"], k]]
    if rare:
        line += (" " + ", ".join(f"`{x}`" for x in rare) + f" change it by less than {RARE:g} per side and hand and "
                 "do not differ from the default: they almost never play otherwise, so their tie is no answer.")
    return line, rare


def _strong_default(part: Part) -> tuple[str, bool]:
    """The knob's value on the strong player's opponent (which the default row plays) and True, or the
    strong player's own default and False when the opponent has no such knob (a user strategy against
    `expert`: no row plays the opponent's game)."""
    try:
        return _default_value(replace(part, player=part.strong_against)), True
    except StrategyError:
        return _default_value(replace(part, player=part.strong_player)), False


def _part_charts(part: Part, t: dict[str, pd.DataFrame], where: str) -> dict[str, tuple[str, Callable[[Any], Any]]]:
    from sim import plots  # matplotlib only when a chart is drawn: the command line starts faster

    k = part.knob

    def curve(ax: Any) -> Any:
        ax = plots.sweep_curve(ax, t["baseline"], k, label=f"{part.player} vs {part.opponent}")
        return plots.sweep_curve(ax, t["expert"], k, label=f"{part.strong_player} vs {part.strong_against}",
                                 title=f"{where}: win rate by {k} (95% interval on duplicate deals)")

    charts = {f"{k}_curve": (f"Win rate against the default by `{k}`, with its 95% band", curve)}
    if "search" in t:
        s = t["search"]

        def forest(ax: Any) -> Any:
            table = s.assign(label=[f"{k}={knob_text(v)} vs search" for v in s[k]])
            return plots.forest(ax, table, title=f"{where}: against search")

        charts[f"{k}_search"] = (f"The default and the best `{k}` against `search`", forest)
    return charts


def knob_study(name: str, title: str, question: str, parts: Sequence[Part], games: int | None = None,
               seed: int = SEED, check_games: int | None = None, out: str | Path | None = None,
               rules: Sequence[str] = (), workers: int = 0, progress: Any = None, scheduler: Any = None,
               variant: str = VARIANT, seating: str | Seating = Seating.REST) -> Study:
    """A question about knobs at one preset: each part's sweep against the default, how often the choice
    arises there, and whether the best setting still helps `expert` and against `search`. A preset where
    a knob never acts is refused (NotApplicable) before any game."""
    st = setup(name, games, seed, check_games, out, rules, workers, progress, scheduler, variant, seating)
    games, check = st.games, st.check
    v = st.variant()
    applies(name, parts, v)
    t0 = time.perf_counter()
    tables: dict[str, pd.DataFrame] = {}
    charts: dict[str, tuple[str, Callable[[Any], Any]]] = {}
    answer: list[str] = []
    holds: list[str] = []
    heads: list[Headline] = []
    method = [f"`{v.name}`{rules_text(st)}, duplicate deals: every deal is played once per rotation of the seating "
              "(the sides swapped), so the cards cancel. "
              f"Each setting plays {whole_deals(games, v.n_sides)} games against the same strategy at its defaults; "
              "the same knob is swept for " + ", ".join(f"`{p.strong_player}` against `{p.strong_against}`"
                                                       for p in parts)
              + (f", and the default and the best setting play {whole_deals(check, v.n_sides)} games each against "
                 f"`{SEARCH}`." if check else ".")
              + f" Seed {seed}. Intervals are 95% on the deals; Holm's correction says which settings really "
                "differ from the default."
              + (f" Seating (three sides or more): {st.seating_text()}; the answer can change with it "
                 "(`--seating`)." if v.n_sides > 2 else f" Seating: {st.seating_text()}.")
              + (f" How often each choice arises: every setting of `{parts[0].player}` against itself, "
                 f"{whole_deals(frequency_games(st), v.n_sides)} games (`canasta-lab profile --mirror`)."
                 if any(p.acts for p in parts) else "")]
    summary: list[dict[str, Any]] = []
    for part in parts:
        t = _sweeps(part, st)
        for key, df in t.items():
            tables[f"{part.knob}_{key}"] = df
        a, h, hd, row = _part_answer(part, t)
        summary.append({"variant": v.name, **row})
        if part.note:
            method.append(part.note)
        answer += a
        holds += h
        heads += hd
        charts.update(_part_charts(part, t, v.name))
    tables["summary"] = pd.DataFrame(summary)
    meta = {**study_meta(), "seating": st.seating.value, "seating_text": st.seating_text()}
    return Study(name, title, question, "\n\n".join(method), tables, charts, "\n\n".join(answer), "\n\n".join(holds),
                 heads, whole_deals(games, v.n_sides), seed, time.perf_counter() - t0, meta, v.name)
