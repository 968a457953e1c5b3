"""The strategy studies behind the notebooks and `canasta-lab report`: each asks one question, plays
the games that answer it on duplicate deals, and says the answer with its interval and whether it holds
against the library's strongest players (`expert`, the tuned heuristic, and `search`).

One study is one function returning a `Study` (tables, charts, the answer in words), so a notebook and
a report show the same numbers from the same code. Games are kept in run folders under a cache
(`out/studies/` of the checkout, git-ignored), so a notebook run after its report, or a report asked
again with more games, plays only what is missing.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import special

from strategies import StrategyError, parse_strategy

from .compare import CONFIDENCE, fmt_interval, folder_name, whole_deals
from .experiment import code_version, machine
from .results import Results, ResultsError, play
from .rules import PRESETS, Variant, get_variant, with_rules
from .stats import TWO_SIDED, mean_interval, wilson
from .store import (
    OUTPUT_FILE,
    REPORT_MARK,
    OtherRunError,
    can_write_in,
    claim,
    clear_output,
    outside_runs,
    write_json_atomic,
)
from .sweep import sweep
from .tidy import hand_sides

GAMES_ENV = "CANASTA_LAB_GAMES"  # games per row for every study (the tests' small size)
OUT_ENV = "CANASTA_LAB_OUT"  # where the study cache goes instead of out/ of the checkout
FULL_GAMES = 20_000  # games per row at full size: a win rate's 95% interval within about +-0.7 points
CHECK_GAMES = 160  # games per row against `search` (about 1.5 s a game on one core)
CHECK_SHARE = 10  # at a small size, the search check plays this fraction of the rows' games
TARGET_HALF_WIDTH = 0.01  # a headline's 95% interval: narrower than plus or minus one point of win rate
MIN_DEALS = 1000  # fewer deals (a small run) may give a narrow interval by chance: no size claim from them
SEED = 1
VARIANT = "classic-4p"
STRONG = "expert"
SEARCH = "search"
FAIR = 0.5  # an even match
Z95 = float(special.ndtri((1 + CONFIDENCE) / TWO_SIDED))  # the normal quantile of a two-sided 95% interval
Z95_WIDTH = TWO_SIDED * Z95  # a 95% interval's width in standard errors


def games_from_env(default: int = FULL_GAMES) -> int:
    """Games per row: CANASTA_LAB_GAMES when set (the tests run every notebook small), else `default`."""
    text = os.environ.get(GAMES_ENV)
    if text is None:
        return default
    try:
        n = int(text)
    except ValueError:
        raise ValueError(f"{GAMES_ENV}={text!r}: give a whole number of games, e.g. {GAMES_ENV}=200") from None
    if n < 2:
        raise ValueError(f"{GAMES_ENV}={n}: give at least 2 games")
    return n


def check_games_for(games: int) -> int:
    """Games per row against `search`: its own size at full size, a tenth of the rows' when small."""
    return CHECK_GAMES if games >= FULL_GAMES else max(2, games // CHECK_SHARE)


def checkout_root() -> Path | None:
    """The source checkout this package runs from (a folder with pyproject.toml), if any."""
    root = Path(__file__).resolve().parents[1]
    return root if (root / "pyproject.toml").exists() else None


def cache_dir(study: str) -> Path:
    """Where a study keeps its games: $CANASTA_LAB_OUT/studies/STUDY, else out/studies/STUDY of the
    checkout (git-ignored), else of the working folder."""
    base = os.environ.get(OUT_ENV)
    root = Path(base) if base else (checkout_root() or Path.cwd()) / "out"
    return root / "studies" / study


@dataclass(frozen=True)
class Setup:
    """How a study plays: sizes, seed, house rules, the cache folder and where the games run."""

    games: int
    check: int
    seed: int
    root: Path
    rules: tuple[str, ...] = ()
    workers: int = 0
    progress: Any = None
    scheduler: Any = None

    def variant(self, name: str = VARIANT) -> Variant:
        return with_rules(get_variant(name), list(self.rules))

    def run(self, fn: Callable[..., Any], *args: Any, out: str, **kw: Any) -> Any:
        """`fn` (sweep or play) into the study cache under `out`."""
        self.root.mkdir(parents=True, exist_ok=True)
        return cached(fn, *args, out=self.root / out, workers=self.workers, progress=self.progress,
                      scheduler=self.scheduler, **kw)


def cached(fn: Callable[..., Any], *args: Any, out: str | Path, **kw: Any) -> Any:
    """`fn(*args, out=out, **kw)` for a command that resumes from its output folder (sweep, play,
    compare, ...), treating that folder as a cache: the games already there are reused, and games of
    another run (an edited strategy, another code version) are replaced instead of refused."""
    try:
        return fn(*args, out=out, **kw)
    except OtherRunError:
        return fn(*args, out=out, **{**kw, "force": True})


def setup(name: str, games: int | None, seed: int, check_games: int | None, out: str | Path | None,
          rules: Sequence[str], workers: int, progress: Any, scheduler: Any) -> Setup:
    """Everything checked before a game: sizes, the house rules against every variant the study plays."""
    games = games_from_env() if games is None else games
    if games < 2:
        raise ValueError(f"games={games}: give at least 2 games per row")
    check = check_games_for(games) if check_games is None else check_games
    if check < 0:
        raise ValueError(f"check_games={check}: give 0 (no check against search) or more")
    s = Setup(games, check, seed, Path(out) if out is not None else cache_dir(name), tuple(rules), workers,
              progress, scheduler)
    outside_runs(s.root)  # the cache's runs and output folders stand beside each other, never inside a run
    for v in (PRESETS if name == "variant_balance" else [VARIANT]):
        s.variant(v)
    return s


@dataclass
class Headline:
    """A number the answer rests on, with its 95% interval."""

    what: str
    value: float
    low: float
    high: float
    deals: int  # independent units behind the interval (deals, or games where there is no pairing)

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    @property
    def sized(self) -> bool:
        """Within +-1 point and from enough deals for that width to mean something."""
        return self.half_width <= TARGET_HALF_WIDTH and self.deals >= MIN_DEALS

    def text(self, digits: int = 3) -> str:
        return fmt_interval(self.value, self.low, self.high, digits)


@dataclass
class Study:
    """One answered question: tables, charts (functions drawing on an Axes), the answer in Markdown."""

    name: str
    title: str
    question: str
    method: str
    tables: dict[str, pd.DataFrame]
    charts: dict[str, tuple[str, Callable[[Any], Any]]]  # file stem -> (caption, draw(ax) -> ax)
    answer: str
    holds: str
    headlines: list[Headline]
    games: int
    seed: int
    wall_seconds: float = 0.0
    meta: dict[str, Any] = field(default_factory=dict)

    def draw(self, chart: str, ax: Any = None) -> Any:
        """Draw one of the charts on `ax` (a new Figure's Axes when None); returns the Axes."""
        return self.charts[chart][1](ax)

    def wide_headlines(self) -> list[Headline]:
        """Headlines short of the +-1 point (from at least MIN_DEALS deals) a full-size report promises."""
        return [h for h in self.headlines if not h.sized]


def _fmt_pct(x: float) -> str:
    return f"{100 * x:+.1f} points" if np.isfinite(x) else "n/a"


def _knob_text(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


# --- studies of one knob (01 to 04) ------------------------------------------------------------------


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
        check = st.run(sweep, v, part.player, {part.knob: [default, _knob_text(best)]}, SEARCH, games=st.check,
                       seed=st.seed, out=f"{part.knob}-{folder_name(part.player)}-vs-search")
        check[part.knob] = _typed_like(check[part.knob], base[part.knob])
        tables["search"] = check
    return tables


def _typed_like(column: pd.Series, like: pd.Series) -> pd.Series:
    """`column` (a subset's knob values) typed as `like` (the whole sweep's), so the tables overlay."""
    if isinstance(like.dtype, pd.CategoricalDtype):
        return pd.Series(pd.Categorical([_knob_text(x) for x in column], dtype=like.dtype), index=column.index)
    return column.astype(like.dtype)


def _default_value(part: Part) -> str:
    c = parse_strategy(part.player)
    k = c.spec.knob(part.knob)
    return k.show(float(c.params[k.slot]))


def _same(a: Any, b: Any) -> bool:
    return _knob_text(a) == _knob_text(b)


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
    b = _knob_text(best[k])
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
                      + ", ".join(f"`{_knob_text(v)}`" for v in better[k]) + ".")
    if not worse.empty:
        answer.append(f"Settings that lose to `{k}={default}`: " + ", ".join(
            f"`{_knob_text(r[k])}` ({r['win_rate']:.3f})" for _, r in worse.iterrows()) + ".")
    # the strong player: is the setting the answer recommends still among its best?
    pick = b if not better.empty else default
    strong_default, mirrored = _strong_default(part)
    sbest = _best_other(strong, k, strong_default)
    s_real_better = strong[strong["real"] & (strong["win_rate"] > FAIR)]
    if _same(pick, strong_default) and mirrored:  # that row is the strong player against itself
        heads.append(Headline(f"{part.strong_player}, {k}={_knob_text(sbest[k])}, against {part.strong_against}",
                              float(sbest["win_rate"]), float(sbest["win_low"]), float(sbest["win_high"]),
                              int(sbest["deals"])))
        held = s_real_better.empty
        detail = (f"`{part.strong_player}` already plays `{k}={pick}`; the best other setting against it, "
                  f"`{k}={_knob_text(sbest[k])}`, wins {heads[-1].text()}")
    else:
        srow = _row(strong, k, pick)
        heads.append(Headline(f"{part.strong_player}, {k}={pick}, against {part.strong_against}",
                              float(srow["win_rate"]), float(srow["win_low"]), float(srow["win_high"]),
                              int(srow["deals"])))
        top = strong.loc[strong["win_rate"].idxmax()]
        held = bool(srow["win_high"] >= top["win_low"])  # among the best: its interval reaches the best one's
        plays = f" (which plays `{k}={strong_default}`)" if mirrored else ""
        detail = (f"against `{part.strong_against}`{plays}, `{k}={pick}` wins {heads[-1].text()}; the best there is "
                  f"`{k}={_knob_text(top[k])}` at {_interval(top)}")
    holds = [f"With `{STRONG}` (the tuned heuristic), the same knob swept for `{part.strong_player}`: {detail}. "
             + (f"Settings that beat `{part.strong_against}` there: "
                + ", ".join(f"`{_knob_text(v)}`" for v in s_real_better[k]) + ". " if not s_real_better.empty else "")
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
                         f"{_fmt_pct(diff)} (+-{100 * Z95 * se:.1f} points at 95%, read conservatively as "
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
    from . import plots  # matplotlib only when a chart is drawn: the command line starts faster

    k = part.knob

    def curve(ax: Any) -> Any:
        ax = plots.sweep_curve(ax, t["baseline"], k, label=f"{part.player} vs {part.opponent}")
        return plots.sweep_curve(ax, t["expert"], k, label=f"{part.strong_player} vs {part.strong_against}",
                                 title=f"{VARIANT}: win rate by {k} (95% interval on duplicate deals)")

    charts = {f"{k}_curve": (f"Win rate against the default by `{k}`, with its 95% band", curve)}
    if "search" in t:
        s = t["search"]

        def forest(ax: Any) -> Any:
            table = s.assign(label=[f"{k}={_knob_text(v)} vs search" for v in s[k]])
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
    method = [f"`{v.name}`{_rules_text(st)}, duplicate deals: every deal is played with the sides swapped, so the "
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
                 heads, whole_deals(games, 2), seed, time.perf_counter() - t0, _meta())


def _rules_text(st: Setup) -> str:
    return f" with house rules {', '.join(f'`{r}`' for r in st.rules)}" if st.rules else ""


def _meta() -> dict[str, Any]:
    return {"code_version": code_version(), "machine": machine()}


FREEZE_VALUES = ("never", "always", 2, 5, 10, 15, 20, 30)
BLACK3_VALUES = ("throw", "keep", 2, 4, 8, 12)
ASK_VALUES = ("never", "always", 4, 6, 8)
ANSWER_VALUES = ("yes", "no", 50, 100, 200, 400)
MIN_PILE_VALUES = (1, 2, 3, 4, 5, 6, 8, 10, 12)
BASELINE_ANSWER = "answer_max=100"  # baseline's answer to "may I go out?"


def freezing_the_pile(games: int | None = None, **kw: Any) -> Study:
    return knob_study(
        "freezing_the_pile", "Should I freeze the pile?",
        "Does discarding a wild to freeze the discard pile win more games, and when: never, always, or once "
        "the opponents have melded and the pile holds at least N cards?",
        [Part("freeze", FREEZE_VALUES)], games, **kw)


def black_threes(games: int | None = None, **kw: Any) -> Study:
    return knob_study(
        "black_threes", "Hold black threes or throw them?",
        "A black three blocks the next player from the pile for one turn. Should it be thrown at once, kept "
        "for a going-out meld, or saved for a pile of at least N cards?",
        [Part("hold_black3", BLACK3_VALUES)], games, **kw)


def asking_to_go_out(games: int | None = None, **kw: Any) -> Study:
    return knob_study(
        "asking_to_go_out", "Should I ask my partner before going out, and how should a partner answer?",
        "In a partnership a player may ask \"may I go out?\" and must abide by the answer. Is asking worth it, "
        "and when should the partner say yes?",
        [Part("ask", ASK_VALUES, strong_player=f"{STRONG}:{BASELINE_ANSWER}",
              strong_opponent=f"{STRONG}:{BASELINE_ANSWER}",
              note="`ask=N` asks only when the partner holds at least N cards. `expert` never asks, so its own "
                   "answer (always no) has never mattered; asked, it would forbid every going out, so in the "
                   f"study both `expert` sides answer as `baseline` does (`{BASELINE_ANSWER}`)."),
         Part("answer_max", ANSWER_VALUES, strong_player=f"{STRONG}:ask=always",
              strong_opponent=f"{STRONG}:ask=always,{BASELINE_ANSWER}",
              note="For the answer, the partner says yes unless the own hand holds at least `answer_max` points; "
                   f"`baseline` asks every time, and `{STRONG}` is made to ask every time on both sides, its "
                   f"opponent answering as `baseline` does.")],
        games, **kw)


def taking_the_pile(games: int | None = None, **kw: Any) -> Study:
    return knob_study(
        "taking_the_pile", "How big a pile is worth taking?",
        "Once the side has melded, is a small discard pile worth taking, or only a big one?",
        [Part("min_pile", MIN_PILE_VALUES)], games, **kw)


# --- 05: variant balance --------------------------------------------------------------------------------


LEAD_OUT = "side of the player left of the dealer goes out (share of hands ended by going out)"
DEALER_SCORE = "dealer's side hand score minus the others' mean"


def balance_row(variant: str, games: pd.DataFrame, hands: pd.DataFrame) -> list[dict[str, Any]]:
    """Seat and dealer advantage, hand and game length and the spread of scores of one preset."""
    v = get_variant(variant)
    n = v.n_sides
    fair = 1 / n
    first = hands[hands["hand"] == hands["hand"].min()].set_index("game")["dealer"]
    dealer_side = np.array([v.seat_side(int(p)) for p in first.reindex(games["game"]).to_numpy()])
    won_first = (games["winner_side"].to_numpy() == dealer_side)
    k = int(won_first.sum())
    lo, hi = wilson(k, len(games))
    hs = hand_sides(hands)
    hs["dealer_side"] = [v.seat_side(int(p)) for p in hs["dealer"]]
    own = hs[hs["side"] == hs["dealer_side"]].set_index(["game", "hand"])["total"]
    others = hs[hs["side"] != hs["dealer_side"]].groupby(["game", "hand"])["total"].mean()
    diff = (own - others.reindex(own.index)).to_numpy(dtype=float)
    d, dlo, dhi = mean_interval(diff)
    leader = (hands["dealer"] + 1) % v.players
    lead_side = np.array([v.seat_side(int(p)) for p in leader])
    out = hands["out_side"].to_numpy()
    went = hands["reason"].astype(str).to_numpy() == "out"
    lead_out = (out == lead_side) & went
    lk = int(lead_out.sum())
    llo, lhi = wilson(lk, int(went.sum()))
    turns = mean_interval(hands["turns"].to_numpy(dtype=float))
    hpg = mean_interval(games["n_hands"].to_numpy(dtype=float))
    sd = float(hs["total"].std())
    base = {"variant": variant, "players": v.players, "sides": n}
    share = {"fair_share": fair}  # only the win-rate rows have one
    return [
        {**base, **share, "measure": "first dealer's side wins the game", "value": k / len(games), "low": lo,
         "high": hi, "excess": k / len(games) - fair},
        {**base, **share, "measure": LEAD_OUT, "value": lk / max(int(went.sum()), 1), "low": llo, "high": lhi,
         "excess": lk / max(int(went.sum()), 1) - fair},
        {**base, "measure": DEALER_SCORE, "value": d, "low": dlo, "high": dhi, "excess": d},
        {**base, "measure": "turns per hand", "value": turns[0], "low": turns[1], "high": turns[2], "excess": np.nan},
        {**base, "measure": "hands per game", "value": hpg[0], "low": hpg[1], "high": hpg[2], "excess": np.nan},
        {**base, "measure": "hand score per side, standard deviation", "value": sd, "low": np.nan, "high": np.nan,
         "excess": np.nan},
    ]


def one_game_per_deal(st: Setup, v: Variant, strategy: str, deals: int, out: str) -> tuple[pd.DataFrame,
                                                                                          pd.DataFrame]:
    """`deals` deals with `strategy` on every seat, one game each. Games are played on duplicate deals
    (the seating rotated over the same cards), and with one strategy everywhere the rotations are the
    same game again: counting them would overstate the evidence by the number of sides."""
    return distinct_games(st.run(play, v, strategy, games=deals * v.n_sides, seed=st.seed, hands=True, out=out))


def distinct_games(r: Results, deals: int | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The games and hands of a run with one strategy on every seat, one game per deal (the first
    `deals` deals when given): its duplicate rotations replay the same game."""
    n = int(r.meta["duplicate_rotations"])
    keep = r.games["game"] % n == 0
    if deals is not None:
        keep &= r.games["game"] < deals * n
    g = r.games[keep].reset_index(drop=True)
    h = r.hands if r.hands is not None else pd.DataFrame({"game": pd.Series([], dtype=np.int64)})
    return g, h[h["game"].isin(g["game"])].reset_index(drop=True)


def variant_balance(games: int | None = None, seed: int = SEED, check_games: int | None = None,
                    out: str | Path | None = None, rules: Sequence[str] = (), workers: int = 0, progress: Any = None,
                    scheduler: Any = None, presets: Sequence[str] | None = None, strategy: str = "baseline") -> Study:
    """Every preset (a new one appears here by itself) played by `strategy` on every seat: who gains
    from the seating, how long hands and games last, how spread the scores are."""
    st = setup("variant_balance", games, seed, check_games, out, rules, workers, progress, scheduler)
    games, check = st.games, st.check
    names = list(presets) if presets is not None else list(PRESETS)
    t0 = time.perf_counter()
    rows: list[dict[str, Any]] = []
    turns, scores, lengths = [], [], []
    for name in names:
        g, h = one_game_per_deal(st, st.variant(name), strategy, games, f"{name}-{folder_name(strategy)}")
        rows += balance_row(name, g, h)
        turns.append(pd.DataFrame({"variant": name, "turns": h["turns"].to_numpy()}))
        scores.append(pd.DataFrame({"variant": name, "score": hand_sides(h)["total"].to_numpy()}))
        lengths.append(pd.DataFrame({"variant": name, "n_hands": g["n_hands"].to_numpy()}))
    table = pd.DataFrame(rows)
    strong = None
    if check > 0:
        g, h = one_game_per_deal(st, st.variant(), SEARCH, max(1, check // st.variant().n_sides),
                                 f"{VARIANT}-{SEARCH}")
        strong = pd.DataFrame(balance_row(VARIANT, g, h))
    hands_df, scores_df, games_df = (pd.concat(x, ignore_index=True) for x in (turns, scores, lengths))
    first = table[table["measure"].str.startswith("first dealer")]
    heads = [Headline(f"{r.variant}: first dealer's side wins the game", r.value, r.low, r.high, games)
             for r in first.itertuples()]
    answer = []
    for r in first.itertuples():
        verdict = ("no measurable seat advantage" if r.low <= r.fair_share <= r.high else
                   f"an advantage of {_fmt_pct(r.excess)} to the first dealer's side" if r.excess > 0 else
                   f"a disadvantage of {_fmt_pct(r.excess)} to the first dealer's side")
        of = table[table.variant == r.variant].set_index("measure")
        length, turns, lead, dealt = (of.loc[m] for m in ("hands per game", "turns per hand", LEAD_OUT, DEALER_SCORE))
        answer.append(f"- **{r.variant}**: the first dealer's side wins {r.value:.3f} [{r.low:.3f}, {r.high:.3f}] "
                      f"of games (fair share {r.fair_share:.3f}): {verdict}. Within a hand, the dealer's side scores "
                      f"{dealt.value:+.0f} [{dealt.low:+.0f}, {dealt.high:+.0f}] points against the others' mean, and "
                      f"the side of the player left of the dealer, who plays first, goes out in {lead.value:.3f} "
                      f"[{lead.low:.3f}, {lead.high:.3f}] of the hands ended by going out (fair share "
                      f"{lead.fair_share:.3f}). A game lasts {length.value:.2f} hands of {turns.value:.1f} turns.")
    if len(first):
        answer.append("\nThe deal moves on every hand, so a side that deals one hand plays from the other "
                      "seats in the next: whatever dealing gains or costs within a hand largely evens out over a "
                      "game, which is why the seat advantage of a whole game is so much smaller than the hand's.")
    from . import plots

    holds = ""
    if strong is not None:
        s = strong.iloc[0]
        holds = (f"With `{SEARCH}` on every seat of `{VARIANT}` ({len(g)} deals), the first dealer's "
                 f"side wins {s.value:.3f} [{s.low:.3f}, {s.high:.3f}]; hands last {strong.iloc[3].value:.1f} turns "
                 f"and games {strong.iloc[4].value:.2f} hands (with `{strategy}`: see the table).")
        table = pd.concat([table, strong.assign(variant=f"{VARIANT} ({SEARCH})")], ignore_index=True)

    def seat(ax: Any) -> Any:
        rows_ = table[table["measure"].str.startswith("first dealer")]
        return plots.variant_panel(
            ax, rows_.assign(lo=rows_["low"] - rows_["fair_share"], hi=rows_["high"] - rows_["fair_share"]),
            "excess", low="lo", high="hi", ref=0.0, title="first dealer's side: win rate minus its fair share",
            xlabel="win rate minus fair share (95% interval)")

    def dealer(ax: Any) -> Any:
        rows_ = table[table["measure"].str.startswith("dealer's side")]
        return plots.variant_panel(ax, rows_, "value", low="low", high="high", ref=0.0,
                                   title="dealer's side hand score minus the other sides' mean",
                                   xlabel="points per hand (95% interval)")

    charts = {
        "seat_advantage": ("Win rate of the first dealer's side minus its fair share, per preset", seat),
        "dealer_advantage": ("Hand score of the dealer's side over the others, per preset", dealer),
        "game_length": ("Hands per game, per preset",
                        lambda ax: plots.distribution(ax, games_df, "n_hands", by="variant",
                                                      title="hands per game")),
        "hand_length": ("Turns per hand, per preset",
                        lambda ax: plots.distribution(ax, hands_df, "turns", by="variant", kind="ecdf",
                                                      title="turns per hand (cumulative)")),
        "scores": ("Hand score per side, per preset",
                   lambda ax: plots.distribution(ax, scores_df, "score", by="variant", kind="ecdf",
                                                 title="hand score per side (cumulative)")),
    }
    method = (f"Every preset of this version ({', '.join(names)}), `{strategy}` on every seat, {games} deals each "
              f"from seed {seed}, one game per deal, with every hand recorded. (Games are dealt in duplicate, the "
              "seating rotated over the same cards; with one strategy everywhere the rotations are the same game, "
              "so only one counts.) The same strategy everywhere means any "
              "difference between seats comes from the rules and the seating, not from the players. Seat advantage "
              "is the game win rate of the side that deals the first hand, against its fair share (one over the "
              "number of sides; Wilson interval); the dealer's advantage is the dealer's side hand score minus the "
              "other sides' mean (t interval over hands)." + (
                  f" The check plays `{SEARCH}` on every seat of `{VARIANT}`." if check else ""))
    return Study("variant_balance", "How balanced is each variant?",
                 "Does the seating favour a side (the dealer's, or the first to play)? How long do hands and games "
                 "last, and how spread are the scores, in every preset?", method,
                 {"balance": table, "hands_per_game": games_df}, charts, "\n".join(answer), holds, heads,
                 games, seed, time.perf_counter() - t0, _meta())


# --- 06: your own strategy ------------------------------------------------------------------------------

OWN_NOTEBOOK = "06_your_own_strategy.ipynb"
OWN_TAG = "strategy"  # the notebook cell that defines the strategy (and MY_STRATEGY, MY_GRID)


def own_strategy_cell(notebook: str | Path | None = None) -> str:
    """The source of notebook 06's strategy cell: the report plays exactly what the notebook writes."""
    path = Path(notebook) if notebook is not None else (checkout_root() or Path.cwd()) / "notebooks" / OWN_NOTEBOOK
    if not path.exists():
        raise ResultsError(f"{str(path)!r} does not exist: the your_own_strategy report plays the strategy that "
                           "notebook defines; run it from a checkout of canasta-lab")
    cells = json.loads(path.read_text())["cells"]
    for c in cells:
        if OWN_TAG in c.get("metadata", {}).get("tags", []):
            return "".join(c["source"])
    raise ResultsError(f"{str(path)!r} has no cell tagged {OWN_TAG!r}")


def your_own_strategy(games: int | None = None, seed: int = SEED, check_games: int | None = None,
                      out: str | Path | None = None, rules: Sequence[str] = (), workers: int = 0,
                      progress: Any = None, scheduler: Any = None, notebook: str | Path | None = None) -> Study:
    """The strategy notebook 06 writes, its own knob swept against `baseline` and `expert`."""
    scope: dict[str, Any] = {"__name__": "canasta_lab_notebook"}
    exec(compile(own_strategy_cell(notebook), OWN_NOTEBOOK, "exec"), scope)  # noqa: S102 - our own notebook
    name, grid = scope["MY_STRATEGY"], scope["MY_GRID"]
    knobs = ", ".join(f"`{k}`" for k in grid)
    study = knob_study("your_own_strategy", f"Your own strategy: `{name}`",
                       f"Does `{name}`'s own knob {knobs} make it stronger than `baseline`, and at which value?",
                       [Part(k, tuple(values), player=name, strong_player=name, strong_opponent=STRONG)
                        for k, values in grid.items()],
                       games, seed, check_games if check_games is not None else 0, out, rules, workers, progress,
                       scheduler)
    study.method += (f"\n\nThe strategy is the cell tagged `{OWN_TAG}` of `notebooks/{OWN_NOTEBOOK}`; its opponent is "
                     f"`{name}` at its defaults, which is `baseline` wherever the strategy defers to it.")
    return study


STUDIES: dict[str, Callable[..., Study]] = {
    "freezing_the_pile": freezing_the_pile,
    "black_threes": black_threes,
    "asking_to_go_out": asking_to_go_out,
    "taking_the_pile": taking_the_pile,
    "variant_balance": variant_balance,
    "your_own_strategy": your_own_strategy,
}
NOTEBOOKS = {name: f"{i + 1:02d}_{name}" for i, name in enumerate(STUDIES)}


def get_study(name: str) -> Callable[..., Study]:
    key = name.strip()
    by_number = {f"{i + 1:02d}": n for i, n in enumerate(STUDIES)} | {str(i + 1): n for i, n in enumerate(STUDIES)}
    key = by_number.get(key, key)
    if key not in STUDIES:
        raise ValueError(f"unknown study {name!r}; accepted: {', '.join(STUDIES)} (or their numbers 1 to "
                         f"{len(STUDIES)})")
    return STUDIES[key]


# --- reports -------------------------------------------------------------------------------------------

REPORT = "report"  # the command whose output folder holds the reports (sim.store.folder_owner)


def _markdown_table(df: pd.DataFrame, columns: Sequence[str], formats: dict[str, str] | None = None) -> str:
    """A Markdown table; floats as `formats[column]` (default three decimals), booleans as yes/no."""
    def cell(x: Any, column: str) -> str:
        if isinstance(x, bool | np.bool_):
            return "yes" if x else "no"
        if isinstance(x, float | np.floating):
            return "" if not np.isfinite(x) else format(x, (formats or {}).get(column, ".3f"))
        return str(x)

    head = "| " + " | ".join(columns) + " |\n|" + "---|" * len(columns) + "\n"
    return head + "\n".join("| " + " | ".join(cell(r[c], c) for c in columns) + " |" for _, r in df.iterrows())


def report_tables(study: Study) -> list[tuple[str, str]]:
    """The study's tables as a reader wants them in a report: (heading, Markdown table)."""
    out = []
    for key, df in study.tables.items():
        if key == "balance":
            out.append(("Balance per preset", _markdown_table(df, ["variant", "measure", "value", "low", "high"],
                                                              {c: ".4g" for c in ("value", "low", "high")})))
        elif key == "hands_per_game":
            continue
        else:
            knob = next(c for c in df.columns if c not in ("strategy",))
            cols = [knob, "games", "win_rate", "win_low", "win_high", "margin", "margin_low", "margin_high", "real"]
            out.append((f"`{knob}`, {df.attrs.get('strategy', '')} against {df.attrs.get('opponent', '')}",
                        _markdown_table(df, cols, {c: "+.0f" for c in ("margin", "margin_low", "margin_high")})))
    return out


def report_markdown(study: Study, command: str, images: dict[str, str]) -> str:
    m = study.meta
    cv, mc = m["code_version"], m["machine"]
    lines = [REPORT_MARK, f"# {study.title}", "", f"Reproduce: `{command}`", "", "## Question", "", study.question, "",
             "## Method", "", study.method, "", "## Answer", "", study.answer, ""]
    if study.holds:
        lines += ["## Does it hold against the strongest players?", "", study.holds, ""]
    wide = study.wide_headlines()
    if wide:
        lines += [f"**Size:** these headlines are wider than +-1 point of win rate, or rest on too few deals (under "
                  f"{MIN_DEALS}) for their width to mean much; run with more games: "
                  + "; ".join(f"{h.what}: +-{100 * h.half_width:.2f} points from {h.deals} deals" for h in wide), ""]
    else:
        lines += ["Every headline number's 95% interval is within +-1 point of win rate (widest: "
                  f"+-{100 * max(h.half_width for h in study.headlines):.2f})." if study.headlines else "", ""]
    lines += ["## Charts", ""]
    for stem, (caption, _) in study.charts.items():
        lines += [f"![{caption}]({images[stem]})", "", f"*{caption}.*", ""]
    lines += ["## Tables", ""]
    for heading, table in report_tables(study):
        lines += [f"### {heading}", "", table, ""]
    lines += ["---", "", f"canasta-lab {cv['package']}, engine sources {cv['engine_sources']}, git {cv['git']}; "
              f"{study.wall_seconds:.0f} s for this run (games already in the study's cache are reused) on "
              f"{mc['host']} ({mc['cpus']} cores, {mc['system']}, Python {mc['python']}).", ""]
    return "\n".join(lines)


def write_report(study: Study, folder: str | Path, command: str, force: bool = False) -> Path:
    """`folder/STUDY.md` and its charts in `folder/STUDY/`; returns the Markdown file's path. A folder
    that holds another command's output is refused, or with `force` cleared of it (sim.store.claim)."""
    from matplotlib.figure import Figure

    from . import plots
    from .store import write_text_atomic

    root = Path(folder)
    other = claim(root, REPORT, force)
    if other is not None:
        clear_output(root, other)
    charts = root / study.name
    charts.mkdir(parents=True, exist_ok=True)
    if not (root / OUTPUT_FILE).exists():  # the folder holds reports: another command is refused it
        write_json_atomic(root / OUTPUT_FILE, {"command": REPORT})
    images = {}
    for stem in study.charts:
        fig = Figure(figsize=(7.5, 4.2), dpi=120)
        study.draw(stem, fig.subplots())
        plots.save(fig, charts / f"{stem}.png")
        images[stem] = f"{study.name}/{stem}.png"
    path = root / f"{study.name}.md"
    write_text_atomic(path, report_markdown(study, command, images))
    return path


def check_report_target(folder: str | Path, name: str, force: bool) -> Path:
    """Fail before any game if the report cannot be written, would replace a file without --force,
    or would go into another command's output folder without --force (which clears that output)."""
    root = Path(folder)
    probe = root
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir() or not can_write_in(probe):
        raise ResultsError(f"cannot write the report into {str(root)!r}: {str(probe)!r} is not a writable folder")
    claim(root, REPORT, force)  # --force: that output is cleared when the report is written (write_report)
    target = root / f"{name}.md"
    if target.exists() and not force:
        raise ResultsError(f"{str(target)!r} already exists; pass --force to replace it, or give another --out")
    if target.exists() and REPORT_MARK not in target.read_text(errors="replace").splitlines()[:1]:
        raise ResultsError(f"{str(target)!r} was not written by canasta-lab report; give another --out")
    return target

