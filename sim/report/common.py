"""What every study shares: its size and cache (`Setup`), the `Study` it returns with its `Headline`s,
and the texts of a rule and a knob value."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import special

from sim.rules import Variant, get_variant, with_rules
from sim.run.experiment import code_version, machine
from sim.run.seating import Seating, parse_seating, seating_text
from sim.run.store import (
    OtherRunError,
    outside_runs,
)
from sim.stats import CONFIDENCE, TWO_SIDED, fmt_interval

GAMES_ENV = "CANASTA_LAB_GAMES"  # games per row for every study (the tests' small size)


OUT_ENV = "CANASTA_LAB_OUT"  # where the study cache goes instead of out/ of the checkout


FULL_GAMES = 20_000  # games per row at full size: a win rate's 95% interval within about +-0.7 points


KNOB_GAMES = 16_000  # a knob study's last look: a four-player setting's interval is about +-0.35 points there


LOOKS = 4  # a knob study's looks: an eighth, a quarter, a half and all of KNOB_GAMES (2,000 to 16,000 games)


CHECK_GAMES = 160  # games per row against `search` (about 1.5 s a game on one core)


CHECK_SHARE = 10  # at a small size, the search check plays this fraction of the rows' games


TARGET_HALF_WIDTH = 0.01  # a headline's 95% interval: narrower than plus or minus one point of win rate


MIN_DEALS = 1000  # fewer deals (a small run) may give a narrow interval by chance: no size claim from them


SEED = 1


VARIANT = "classic-4p"  # a study's preset when none is named; its report keeps the study's bare name


CAP_SHARE = 0.01  # a row with more hands than this ended by the turn cap is flagged and never in an answer


RARE = 0.02  # a choice that changes what is done fewer times than this per side and hand almost never arises


STRONG = "expert"  # a study's strong player: played as the strongest fast player at the preset (knob_study.Part.at)


STRONG_NOTE = "{strong}"  # where a study's note names its strong player, replaced by the one played at the preset


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


def looks(games: int) -> tuple[int, ...]:
    """The games per setting at each look of the sequential design: doubling up to `games` (never fewer than two)."""
    return tuple(sorted({max(2, games >> k) for k in range(LOOKS)}))


def check_games_for(games: int) -> int:
    """Games per row against `search`: its own size at full size, a tenth of the rows' when small."""
    return CHECK_GAMES if games >= FULL_GAMES else max(2, games // CHECK_SHARE)


def checkout_root() -> Path | None:
    """The source checkout this package runs from (a folder with pyproject.toml), if any."""
    root = Path(__file__).resolve().parents[2]  # sim/report/common.py -> the checkout
    return root if (root / "pyproject.toml").exists() else None


def cache_dir(study: str) -> Path:
    """Where a study keeps its games: $CANASTA_LAB_OUT/studies/STUDY, else out/studies/STUDY of the
    checkout (git-ignored), else of the working folder."""
    base = os.environ.get(OUT_ENV)
    root = Path(base) if base else (checkout_root() or Path.cwd()) / "out"
    return root / "studies" / study


class NotApplicable(ValueError):
    """A study's question does not arise at a preset (no knob it varies acts there); the one line says why."""


@dataclass(frozen=True)
class Setup:
    """How a study plays: its preset, sizes, seed, house rules, the seating of games with three sides or
    more, the cache folder and where the games run."""

    games: int
    check: int
    seed: int
    root: Path
    rules: tuple[str, ...] = ()
    workers: int = 0
    progress: Any = None
    scheduler: Any = None
    preset: str = VARIANT
    seating: Seating = Seating.REST
    looks: tuple[int, ...] = ()  # a knob study's looks (games a setting); one look where the games were given

    def with_looks(self, looks: Sequence[int]) -> Setup:
        from dataclasses import replace

        return replace(self, looks=tuple(looks))

    def variant(self, name: str | None = None) -> Variant:
        return with_rules(get_variant(name or self.preset), list(self.rules))

    def seating_text(self, a: str = "the row", b: str = "the opponent") -> str:
        return seating_text(self.variant(), self.seating, a, b)

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
          rules: Sequence[str], workers: int, progress: Any, scheduler: Any, variant: str = VARIANT,
          seating: str | Seating = Seating.REST) -> Setup:
    """Everything checked before a game: the preset, sizes, the house rules against every variant the
    study plays. The games are kept per preset: `out`/PRESET."""
    games = games_from_env() if games is None else games
    if games < 2:
        raise ValueError(f"games={games}: give at least 2 games per row")
    check = check_games_for(games) if check_games is None else check_games
    if check < 0:
        raise ValueError(f"check_games={check}: give 0 (no check against search) or more")
    preset = get_variant(variant).name  # an unknown name: one line listing the presets
    root = Path(out) if out is not None else cache_dir(name)
    root = root if name == "variant_balance" else root / preset  # variant_balance plays every preset itself
    s = Setup(games, check, seed, root, tuple(rules), workers, progress, scheduler, preset, parse_seating(seating))
    outside_runs(s.root)  # the cache's runs and output folders stand beside each other, never inside a run
    if name != "variant_balance":
        s.variant()
    return s


@dataclass
class Headline:
    """A number the answer rests on, with its 95% interval."""

    what: str
    value: float
    low: float
    high: float
    deals: int  # independent units behind the interval (deals, or games where there is no pairing)
    settled: bool = False  # decided by a sequential test: wider than +-1 point, but as wide as its design needs

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
    variant: str = VARIANT
    answers: list[Any] = field(default_factory=list)  # the answer records (sim.report.answer) a knob study reads

    @property
    def stem(self) -> str:
        """The report's file name: the study's at its default preset (or of no one preset), STUDY-PRESET
        elsewhere."""
        return self.name if self.variant in (VARIANT, "") else f"{self.name}-{self.variant}"

    def draw(self, chart: str, ax: Any = None) -> Any:
        """Draw one of the charts on `ax` (a new Figure's Axes when None); returns the Axes."""
        return self.charts[chart][1](ax)

    def wide_headlines(self) -> list[Headline]:
        """Headlines short of the +-1 point (from at least MIN_DEALS deals) a full-size report promises, and
        not settled by a sequential test."""
        return [h for h in self.headlines if not h.sized and not h.settled]


def fmt_pct(x: float) -> str:
    return f"{100 * x:+.1f} points" if np.isfinite(x) else "n/a"


def knob_text(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def rules_text(st: Setup) -> str:
    return f" with house rules {', '.join(f'`{r}`' for r in st.rules)}" if st.rules else ""


def study_meta() -> dict[str, Any]:
    return {"code_version": code_version(), "machine": machine()}
