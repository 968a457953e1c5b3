"""Tuning a strategy's knobs against an opponent: a search on duplicate deals, a confirmation on fresh
deals, and the winner saved as a strategy file that `--load` and `strategies.load_file` accept.

The optimiser is Optuna's TPE sampler (multivariate, with the conditional search space grouped, seeded):
the knobs are a mixed space of whole numbers and named values (`freeze=never|always|N`), which TPE
models directly, and it ranks trials by how their values compare rather than fitting them, which is
what a noisy objective needs (docs/strategies.md, "Tuning knobs", says why not SPSA or CMA-ES).

Every trial plays the same deals (the search seed, games 0..n-1): common random numbers, so two knob
settings differ by their play and not by their cards, and a repeated setting is the same games again
(it is not replayed). The best of many trials is chosen partly for its luck on those deals, so its
in-search figure overstates it (the winner's curse); the confirmation replays the winner on deals
of another seed, which no trial saw, and that is the estimate to believe.
"""

from __future__ import annotations

import math
import re
import shlex
import textwrap
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.records.results import check_writable
from sim.rules import Variant, get_variant, house_rules
from sim.run.experiment import Experiment, code_version
from sim.run.output import whole_deals
from sim.run.runner import Pool, dask_client, make_job, resolve_workers, whole_number
from sim.run.seating import one_against_rest, seat_list
from sim.run.store import write_text_atomic
from sim.stats import CONFIDENCE, fmt_interval
from strategies import REGISTRY, Knob, StrategyChoice, StrategyError, StrategySpec, parse_strategy

MIN_TRIALS = 5  # fewer trials is not a search: the sampler would only ever draw at random
MIN_TRIAL_DEALS = 10  # a trial reads its win rate from at least this many duplicate deals
DEFAULT_TRIAL_GAMES = 2000  # without --trials: about this many games a trial (1,000 deals at two sides) ...
TRIALS_PER_KNOB = 25  # ... and at most this many trials per knob searched: a larger budget buys sharper trials
MAX_STARTUP_TRIALS = 10  # TPE's random trials before it models the good ones (Optuna's default)
MIN_STARTUP_TRIALS = 3
STARTUP_SHARE = 4  # ... a quarter of the trials, within those bounds
CONFIRM_SHARE = 4  # without --confirm: a quarter of the budget per confirmation match ...
MIN_DEFAULT_CONFIRM = 2000  # ... and at least this many games
# the confirmation's master seed: the search seed plus this, so its deals are other deals than every
# trial's (a game's cards depend only on the master seed and the deal index)
CONFIRM_SEED_OFFSET = 1_000_000
DOC_WIDTH = 100  # the saved file's docstring is wrapped at this width
SEED_LIMIT = 2**63  # master seeds are non-negative int64
DEFAULT_NAME = "tuned"
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")  # a strategy name and a file name alike
NUMBER = "N"  # the choice "a number" beside a knob's named values (freeze: never, always or N)
RANGE_SEP = ".."  # --knobs freeze=0..30 narrows a knob's numeric range
ROW, OPP = "tuned", "opponent"  # the two sides of every match, whatever their strategies are called
MIRROR_GAMES = 200  # games of a candidate winner against itself, on the confirmation's deals
MAX_MIRROR_CAPPED = 0.01  # more hands than this ending at the turn cap in them: not taken
TRIAL_COLUMNS = ("win_rate", "win_low", "win_high", "margin", "margin_low", "margin_high", "elo", "elo_low", "elo_high")


@dataclass(frozen=True)
class Dimension:
    """One knob's search space: its named values as categorical choices, and (unless every whole
    number in its range is named, as meld=all|three|pairs) a number in [low, high] beside them."""

    knob: Knob
    low: float
    high: float

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(n for n, _ in self.knob.named)

    @property
    def numeric(self) -> bool:
        if not self.knob.whole or self.high - self.low > len(self.knob.named):
            return self.low <= self.high
        named = {v for _, v in self.knob.named}
        return any(float(x) not in named for x in range(int(self.low), int(self.high) + 1))

    def choices(self) -> list[str]:
        return list(self.names) + ([NUMBER] if self.numeric else [])

    def number_param(self) -> str:
        """The numeric parameter's name: the knob's own when it has no named values."""
        return f"{self.knob.name}={NUMBER}" if self.names else self.knob.name

    def suggest(self, trial: Any) -> float:
        """This knob's value in an Optuna trial."""
        choices = self.choices()
        pick = NUMBER if not self.names else (
            trial.suggest_categorical(self.knob.name, choices) if len(choices) > 1 else choices[0])
        if pick != NUMBER:
            return dict(self.knob.named)[pick]
        if self.knob.whole:
            return float(trial.suggest_int(self.number_param(), int(self.low), int(self.high)))
        return trial.suggest_float(self.number_param(), self.low, self.high)

    def params_of(self, value: float) -> dict[str, Any] | None:
        """The trial parameters that give `value` (to start the search at the default), or None if
        the search space does not hold it."""
        for n, v in self.knob.named:
            if v == value:
                return {self.knob.name: n}
        if not (self.numeric and self.low <= value <= self.high):
            return None
        number = int(value) if self.knob.whole else float(value)
        return {self.knob.name: NUMBER, self.number_param(): number} if self.names else {self.knob.name: number}


def parse_knobs(spec: StrategySpec, fixed: Sequence[str], knobs: str | Sequence[str]) -> list[Dimension]:
    """`min_pile,freeze=0..30`: the knobs to search, each over its whole range and named values, or
    over a narrower range `LOW..HIGH` (named values still offered). Every name and bound is checked."""
    items = [x.strip() for x in knobs.split(",")] if isinstance(knobs, str) else [str(x).strip() for x in knobs]
    accepted = ", ".join(k.name for k in spec.knobs) or "none"
    if not items or any(not x for x in items):
        raise StrategyError(f"--knobs: give one or more knobs of {spec.name!r} separated by commas "
                            f"(accepted: {accepted}), e.g. min_pile,freeze=0..30")
    dims: list[Dimension] = []
    for item in items:
        name, eq, bounds = (x.strip() for x in item.partition("="))
        k = spec.knob(name)
        if name in fixed:
            raise StrategyError(f"knob {name!r} is fixed on the strategy and also in --knobs; give it in one place")
        if any(d.knob.name == name for d in dims):
            raise StrategyError(f"knob {name!r} is given twice in --knobs; give each knob once")
        low, high = k.low, k.high
        if eq:
            lo_text, sep, hi_text = bounds.partition(RANGE_SEP)
            if not sep:
                raise StrategyError(f"--knobs {item!r}: write {name}=LOW..HIGH within {k.accepted()}, "
                                    f"e.g. {name}={k.low:g}..{min(k.high, k.low + 10):g}")
            low, high = (k.parse(spec.name, t) for t in (lo_text, hi_text))
            if not (k.low <= low <= high <= k.high):
                raise StrategyError(f"--knobs {item!r}: give LOW <= HIGH, both numbers from {k.low:g} to {k.high:g}")
        d = Dimension(k, low, high)
        if len(d.choices()) < 2 and not (d.numeric and low < high):
            raise StrategyError(f"--knobs {item!r} leaves one value to try; fix it on the strategy instead "
                                f"({spec.name}:{name}=...)")
        dims.append(d)
    return dims


def knob_value(k: Knob, value: float) -> str | float:
    """A knob value as with_defaults takes it: its name when it has one, else the number itself."""
    shown = k.show(value)
    return shown if any(n == shown for n, _ in k.named) else value


def knob_literal(k: Knob, value: float) -> str:
    """A knob value as Python source: its name when it has one, else the number exactly."""
    shown = k.show(value)
    if any(n == shown for n, _ in k.named):
        return repr(shown)
    return str(int(value)) if k.whole or value == int(value) else repr(float(value))


@dataclass
class TuneResult:
    """A tuning run: every trial (`trials`, one row each), the winner, its in-search figures (biased
    upwards by selection) and its confirmation on fresh deals (unbiased), and the strategy it makes."""

    variant: str
    strategy: str  # the strategy tuned, with any knobs fixed on it
    opponent: str
    knobs: tuple[str, ...]
    seed: int
    confirm_seed: int
    budget: int
    trial_games: int  # games of each trial played (a repeated setting plays none)
    trials: pd.DataFrame
    best_trial: int
    best: dict[str, float]  # the tuned knobs' values
    best_label: str
    search: dict[str, Any]  # the winner against the opponent on the search deals
    default_search: dict[str, Any] | None  # the strategy as given, on the same deals (trial 0)
    confirm_games: int
    confirm_default: dict[str, Any]  # the winner against the strategy as given, on fresh deals
    confirm_opponent: dict[str, Any]  # the winner against the opponent, on fresh deals
    opponent_is_default: bool
    spec: StrategySpec  # the tuned strategy, named; not registered (strategies.register, or load the file)
    command: str
    sampler: str
    saved: Path | None = None
    wall_seconds: float = 0.0
    skipped: tuple[tuple[int, float], ...] = ()  # better trials not taken: (trial, share of mirror hands capped)
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def games_played(self) -> int:
        return int(self.trials["games"].sum())

    @property
    def shrinkage(self) -> float:
        """How much the winner's in-search win rate against the opponent overstated it."""
        return float(self.search["win_rate"] - self.confirm_opponent["win_rate"])

    def table(self) -> str:
        return "\n".join(result_lines(self))


def trial_line(row: dict[str, Any], trials: int, budget: int, used: int, best: dict[str, Any],
               seconds: float) -> str:
    """One line of progress: the trial, its knobs, its win rate, the best so far."""
    what = ("default" if row["default"] else f"repeat of trial {row['repeat_of']}, not replayed"
            if row["repeat_of"] >= 0 else "")
    return (f"trial {row['trial']:>{len(str(trials))}}/{trials}  {row['setting']}  win rate "
            f"{fmt_interval(row['win_rate'], row['win_low'], row['win_high'])}{f' ({what})' if what else ''}  "
            f"best {best['win_rate']:.3f} (trial {best['trial']})  games {used}/{budget}  {seconds:.0f} s")


@dataclass(frozen=True)
class _Plan:
    """A tuning run as checked before any game: the sides, the knobs searched, and the sizes, seeds and
    outputs that every step after the checks reads."""

    v: Variant
    base: StrategyChoice  # the strategy as given, with the knobs fixed on it
    opp: StrategyChoice
    dims: list[Dimension]
    budget: int
    seed: int
    trials: int
    trial_games: int
    confirm: int  # games per confirmation match, whole deals
    confirm_seed: int
    save_path: Path | None
    command: str

    @property
    def fixed(self) -> dict[str, Any]:
        return dict(self.base.overrides)

    def choice(self, values: dict[str, float]) -> StrategyChoice:
        """The strategy tuned with the knobs searched set to `values`."""
        return self.base.spec.choice(**self.fixed, **values).at(self.v)


@dataclass
class _Search:
    """The trials as they were played: a row each (its knobs shown, its figures), each trial's knob values
    exactly, and the row of the best in the search."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    tried: list[dict[str, float]] = field(default_factory=list)
    best: dict[str, Any] | None = None


def tune(variant: str | Variant, strategy: str | StrategySpec | StrategyChoice,
         opponent: str | StrategySpec | StrategyChoice, knobs: str | Sequence[str], budget: int, seed: int = 0,
         trials: int | None = None, confirm: int | None = None, workers: int = 0, scheduler: Any = None,
         name: str = DEFAULT_NAME, save: str | Path | None = None, force: bool = False,
         progress: bool | Callable[[str], Any] = False, loads: Sequence[str] = ()) -> TuneResult:
    """Search `knobs` of `strategy` against `opponent` with `budget` games in all, confirm the winner on
    fresh deals, and (with `save`) write it as a strategy file named `name`.

    The trials split the budget evenly (whole deals; `trials` defaults to one per DEFAULT_TRIAL_GAMES,
    at least MIN_TRIALS and at most TRIALS_PER_KNOB per knob), each playing the same deals of `seed`; the objective is
    the win rate against `opponent` read on those deals. `confirm` games (default a quarter of the
    budget) are played per confirmation match on the deals of `seed + CONFIRM_SEED_OFFSET`: the winner
    against the strategy as given, and against `opponent` when that plays differently. `progress`
    True prints a line per trial (a function receives each line instead). `loads` names the files
    that define user strategies, for the command the result and the file record. Everything is
    checked before any game, and nothing is written when a check fails."""
    plan = _plan(variant, strategy, opponent, knobs, budget, seed, trials, confirm, workers, name, save, force, loads)
    say = _sayer(progress)
    study, enqueued, startup, sampler_text = _study(plan)

    t0 = time.perf_counter()
    client = dask_client(scheduler) if isinstance(scheduler, str) else scheduler
    pool = Pool(resolve_workers(workers))
    v, sides = plan.v, plan.v.n_sides

    def match(a: StrategyChoice, b: StrategyChoice, games: int, match_seed: int) -> dict[str, Any]:
        job = make_job(v, seat_list(v, a, b), match_seed)
        with Experiment([job], games, workers=workers, scheduler=client, pool=pool) as exp:
            exp.advance()
        return exp.summary(0, ROW, OPP, games, labels=one_against_rest(v, ROW, OPP), confidence=CONFIDENCE)

    try:
        say(f"{v.name}: tuning {', '.join(d.knob.name for d in plan.dims)} of {plan.base.label} against "
            f"{plan.opp.label}: {plan.trials} trials of {plan.trial_games} games ({plan.trial_games // sides} "
            f"duplicate deals, seed {plan.seed}, the same deals for every trial) within a budget of {plan.budget} "
            f"games; {sampler_text}")
        search = _run_trials(plan, study, enqueued, match, say, t0)
        best, skipped = _take_winner(plan, search, say)
        winner = plan.choice(search.tried[best["trial"]])
        same_as_default, vs_default, vs_opp = _confirm(plan, best, winner, match, say)
    finally:
        pool.close()
        if client is not None and client is not scheduler:
            client.close()

    rows = search.rows
    spec_kw = {k.name: knob_value(k, float(winner.params[k.slot])) for k in plan.base.spec.knobs}
    text = description(plan.base.label, [d.knob.name for d in plan.dims], plan.opp.label, v.name, plan.confirm,
                       vs_default, plan.command)
    result = TuneResult(
        variant=v.name, strategy=plan.base.label, opponent=plan.opp.label, knobs=tuple(d.knob.name for d in plan.dims),
        seed=plan.seed, confirm_seed=plan.confirm_seed, budget=plan.budget, trial_games=plan.trial_games,
        trials=pd.DataFrame(rows), best_trial=int(best["trial"]), best=search.tried[best["trial"]],
        best_label=winner.label, search={c: best[c] for c in TRIAL_COLUMNS}, skipped=tuple(skipped),
        default_search={c: rows[0][c] for c in TRIAL_COLUMNS} if enqueued else None, confirm_games=plan.confirm,
        confirm_default=vs_default, confirm_opponent=vs_opp, opponent_is_default=same_as_default,
        spec=plan.base.spec.with_defaults(name, text, **spec_kw), command=plan.command, sampler=sampler_text,
        wall_seconds=round(time.perf_counter() - t0, 3),
        meta={"house_rules": house_rules(v), "startup_trials": startup, "trials": plan.trials, "loads": list(loads),
              "sources": code_version(), "workers": "dask" if client is not None else resolve_workers(workers)})
    if plan.save_path is not None:
        result.saved = plan.save_path
        write_text_atomic(plan.save_path, strategy_file(result))
    return result


def _plan(variant: str | Variant, strategy: str | StrategySpec | StrategyChoice,
          opponent: str | StrategySpec | StrategyChoice, knobs: str | Sequence[str], budget: int, seed: int,
          trials: int | None, confirm: int | None, workers: int, name: str, save: str | Path | None, force: bool,
          loads: Sequence[str]) -> _Plan:
    """Every argument of `tune` checked, in the order a person reads the errors, and the number and size
    of the trials and confirmation matches worked out from the budget."""
    v = get_variant(variant) if isinstance(variant, str) else variant
    base = parse_strategy(strategy).at(v)
    opp = parse_strategy(opponent).at(v)
    dims = parse_knobs(base.spec, [k for k, _ in base.overrides], knobs)
    for c in (base, opp):
        c.refuse_idle(v)
    base.spec.refuse_idle([d.knob.name for d in dims], v)  # a knob that never acts: every trial the same games
    whole_number("budget", budget)
    whole_number("seed", seed, minimum=0)
    sides = v.n_sides
    min_trial = MIN_TRIAL_DEALS * sides
    if trials is None:
        trials = min(TRIALS_PER_KNOB * len(dims), max(MIN_TRIALS, budget // DEFAULT_TRIAL_GAMES))
    elif whole_number("trials", trials) < MIN_TRIALS:
        raise ValueError(f"--trials {trials} is too few for a search; give at least {MIN_TRIALS}")
    trial_games = budget // trials // sides * sides
    if trial_games < min_trial:
        raise ValueError(f"--budget {budget} is too small for {trials} trials of at least {MIN_TRIAL_DEALS} "
                         f"duplicate deals ({min_trial} games) each at {v.name}; give --budget "
                         f"{trials * min_trial} or more" + (" or fewer --trials" if trials > MIN_TRIALS else ""))
    if confirm is None:
        confirm = max(MIN_DEFAULT_CONFIRM, budget // CONFIRM_SHARE)
    elif whole_number("confirm", confirm) < min_trial:
        raise ValueError(f"--confirm {confirm} is too few to read an interval from; give at least {min_trial} games "
                         f"({MIN_TRIAL_DEALS} duplicate deals at {v.name})")
    confirm = whole_deals(confirm, sides)
    resolve_workers(workers)
    check_name(name)
    save_path = check_save(save, force) if save is not None else None
    return _Plan(v=v, base=base, opp=opp, dims=dims, budget=budget, seed=seed, trials=trials,
                 trial_games=trial_games, confirm=confirm, confirm_seed=(seed + CONFIRM_SEED_OFFSET) % SEED_LIMIT,
                 save_path=save_path,
                 command=tune_command(v, base, opp, dims, budget, seed, trials, confirm, name, save_path, loads))


def _study(plan: _Plan) -> tuple[Any, bool, int, str]:
    """The Optuna study that proposes the trials, with the strategy as given enqueued as trial 0 when the
    search space holds its knobs; also whether it was, the number of random trials first, and the sampler
    as the result describes it."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    startup = min(MAX_STARTUP_TRIALS, max(MIN_STARTUP_TRIALS, plan.trials // STARTUP_SHARE))
    with warnings.catch_warnings():  # multivariate and group are flagged experimental in Optuna 3
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        sampler = optuna.samplers.TPESampler(seed=plan.seed, multivariate=True, group=True, n_startup_trials=startup)
    study = optuna.create_study(direction="maximize", sampler=sampler)
    start: dict[str, Any] | None = {}
    for d in plan.dims:
        p = d.params_of(float(plan.base.params[d.knob.slot]))
        if p is None:
            start = None
            break
        start.update(p)
    if start is not None:
        study.enqueue_trial(start)
    sampler_text = (f"Optuna {optuna.__version__} TPE (multivariate, grouped, seed {plan.seed}, {startup} random "
                    "trials first)")
    return study, start is not None, startup, sampler_text


def _run_trials(plan: _Plan, study: Any, enqueued: bool, match: Callable[..., dict[str, Any]],
                say: Callable[[str], Any], t0: float) -> _Search:
    """Every trial on the search deals, a progress line each; a setting seen before is not played again
    (the same knobs on the same deals are the same games) and takes the figures of its first trial."""
    import optuna

    search = _Search()
    seen: dict[tuple[float, ...], int] = {}
    used = 0
    for i in range(plan.trials):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            trial = study.ask()
            values = {d.knob.name: d.suggest(trial) for d in plan.dims}
        key = tuple(values.values())
        repeat_of = seen.get(key, -1)
        if repeat_of >= 0:
            stats = {c: search.rows[repeat_of][c] for c in TRIAL_COLUMNS}
            games = 0
        else:
            summary = match(plan.choice(values), plan.opp, plan.trial_games, plan.seed)
            stats = {c: float(summary[c]) for c in TRIAL_COLUMNS}
            games = plan.trial_games
            seen[key] = i
        used += games
        study.tell(trial, stats["win_rate"])
        shown = {d.knob.name: d.knob.show(values[d.knob.name]) for d in plan.dims}
        row = {"trial": i, **shown, "setting": ",".join(f"{n}={x}" for n, x in shown.items()),
               **stats, "games": games, "repeat_of": repeat_of, "default": i == 0 and enqueued}
        if search.best is None or row["win_rate"] > search.best["win_rate"]:
            search.best = row
        row["best_so_far"] = search.best["win_rate"]
        search.rows.append(row)
        search.tried.append(values)
        say(trial_line(row, plan.trials, plan.budget, used, search.best, time.perf_counter() - t0))
    assert search.best is not None  # at least MIN_TRIALS trials ran
    return search


def _take_winner(plan: _Plan, search: _Search, say: Callable[[str], Any]) -> tuple[dict[str, Any],
                                                                                  list[tuple[int, float]]]:
    """The winner's row, and the better trials passed over with the share of their mirror hands capped.

    A setting whose own games run to the turn cap (two such players pass a card to and fro for ever) may
    beat the opponent and still is no strategy: the best trial that ends its mirror games is taken."""
    best = search.best
    assert best is not None
    skipped: list[tuple[int, float]] = []
    for row in sorted((r for r in search.rows if r["repeat_of"] < 0), key=lambda r: (-r["win_rate"], r["trial"])):
        share = mirror_capped(plan.v, plan.choice(search.tried[row["trial"]]), plan.confirm_seed)
        if share <= MAX_MIRROR_CAPPED:
            best = row
            break
        skipped.append((int(row["trial"]), share))
        say(f"trial {row['trial']} ({row['setting']}) not taken: {share:.1%} of the hands of its games against "
            f"itself end at the turn cap")
    else:  # every setting tried plays its own games to the cap: the best is kept, and said to loop
        say("every trial's games against itself end at the turn cap; the best in the search is kept")
        skipped = skipped[1:]
    return best, skipped


def _confirm(plan: _Plan, best: dict[str, Any], winner: StrategyChoice, match: Callable[..., dict[str, Any]],
             say: Callable[[str], Any]) -> tuple[bool, dict[str, Any], dict[str, Any]]:
    """The winner on fresh deals against the strategy as given, and against the opponent unless that
    plays the same (then the one match is both): whether it does, and the two summaries."""
    base, opp, confirm = plan.base, plan.opp, plan.confirm
    same_as_default = bool(np.array_equal(base.params, opp.params)) and base.spec.functions() == opp.spec.functions()
    say(f"confirming trial {best['trial']} ({winner.label}) on fresh deals (seed {plan.confirm_seed}, which no trial "
        f"used): {confirm} games against {base.label}"
        + ("" if same_as_default else f", and {confirm} against {opp.label}"))
    vs_default = match(winner, base, confirm, plan.confirm_seed)
    vs_opp = vs_default if same_as_default else match(winner, opp, confirm, plan.confirm_seed)
    return same_as_default, vs_default, vs_opp


def _sayer(progress: bool | Callable[[str], Any]) -> Callable[[str], Any]:
    if callable(progress):
        return progress
    if progress:
        return lambda line: print(line, flush=True)
    return lambda line: None


def check_name(name: str) -> None:
    """The tuned strategy's name: one that `-s NAME` can give, and not a strategy that exists."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise StrategyError(f"--name {name!r}: give letters, digits, '-', '_' or '.', starting with a letter or digit, "
                            f"e.g. {DEFAULT_NAME} (it names the strategy and its file)")
    if name in REGISTRY:
        raise StrategyError(f"--name {name}: a strategy named {name!r} already exists; choose another --name")


def check_save(save: str | Path, force: bool) -> Path:
    """The strategy file to write (loaded later with --load): checked as every output is."""
    return check_writable(save, force, suffix=".py", label="--save")


def tune_command(v: Variant, base: StrategyChoice, opp: StrategyChoice, dims: Sequence[Dimension], budget: int,
                 seed: int, trials: int, confirm: int, name: str, save: Path | None, loads: Sequence[str]) -> str:
    """The command that repeats this tuning, every setting that shapes the result spelled out (the
    number of workers does not change a game, so it is left out)."""
    def knob(d: Dimension) -> str:
        full = d.low == d.knob.low and d.high == d.knob.high
        return d.knob.name if full else f"{d.knob.name}={d.low:g}{RANGE_SEP}{d.high:g}"

    parts = ["canasta-lab", "tune", base.label, "--vs", opp.label, "--knobs", ",".join(knob(d) for d in dims),
             "--budget", str(budget), "--variant", v.name, "--seed", str(seed), "--trials", str(trials),
             "--confirm", str(confirm), "--name", name]
    for r in house_rules(v):
        parts += ["--rule", r]
    for f in loads:
        parts += ["--load", str(f)]
    if save is not None:
        parts += ["--save", str(save)]
    return shlex.join(parts)


def _h2h(s: dict[str, Any]) -> str:
    return (f"win rate {fmt_interval(s['win_rate'], s['win_low'], s['win_high'])}, margin "
            f"{fmt_interval(s['margin'], s['margin_low'], s['margin_high'], 0, True)} points per deal, Elo "
            f"{fmt_interval(s['elo'], s.get('elo_low', math.nan), s.get('elo_high', math.nan), 1, True)}")


def description(strategy: str, knobs: Sequence[str], opponent: str, variant: str, confirm_games: int,
                confirmed: dict[str, Any], command: str) -> str:
    """The tuned strategy's one-line description (`canasta-lab strategies` prints it)."""
    c = confirmed
    return (f"{strategy} with {', '.join(knobs)} tuned against {opponent} at {variant}; confirmed on "
            f"{confirm_games} fresh games against {strategy}: win rate "
            f"{fmt_interval(c['win_rate'], c['win_low'], c['win_high'])}; tuned by `{command}`")


def confirm_command(r: TuneResult, against: str) -> str:
    """A `compare` that replays a confirmation match game for game, with the saved file."""
    v = get_variant(r.variant)
    seats = [r.spec.name if v.seat_side(p) == 0 else against for p in range(v.players)]
    parts = ["canasta-lab", "compare", r.variant, *[x for s in seats for x in ("-s", s)], "--games",
             str(r.confirm_games), "--seed", str(r.confirm_seed)]
    for rule in r.meta.get("house_rules", []):
        parts += ["--rule", rule]
    for f in [*r.meta.get("loads", []), *([str(r.saved)] if r.saved is not None else [])]:
        parts += ["--load", f]
    return shlex.join(parts)


def mirror_capped(v: Variant, choice: StrategyChoice, seed: int, games: int = MIRROR_GAMES) -> float:
    """The share of hands that end at the turn cap when `choice` plays every seat."""
    return mirror_hands(v, choice, seed, games)[0]


def mirror_hands(v: Variant, choice: StrategyChoice, seed: int, games: int = MIRROR_GAMES) -> tuple[float, float]:
    """`choice` on every seat: the share of its hands the turn cap ended, and its turns a hand."""
    from sim.records.results import play

    g = play(v, [choice], games=games, seed=seed, workers=1).games
    hands = float(g["n_hands"].sum())
    return float(g["capped_hands"].sum()) / hands, float(g["turns"].sum()) / hands


def result_lines(r: TuneResult) -> list[str]:
    """The outcome as a person reads it: the winner, its in-search and confirmed figures, the file."""
    s, cd, co = r.search, r.confirm_default, r.confirm_opponent
    lines = [f"trial {t} did better but was not taken: {share:.1%} of the hands of its games against itself end at "
             f"the turn cap" for t, share in r.skipped]
    lines += [f"best of {len(r.trials)} trials: trial {r.best_trial}, {r.best_label}",
             f"  in the search ({r.trial_games} games on the search deals, seed {r.seed}) against {r.opponent}: "
             f"{_h2h(s)}"]
    if r.default_search is not None and r.best_trial == 0:
        lines.append(f"  no trial did better than the strategy as given ({r.strategy}, trial 0): the tuned "
                     "strategy is that strategy")
    elif r.default_search is not None:
        d = r.default_search
        lines.append(f"  the strategy as given ({r.strategy}) on the same deals (trial 0): win rate "
                     f"{fmt_interval(d['win_rate'], d['win_low'], d['win_high'])}")
    lines += [f"confirmation on fresh deals (seed {r.confirm_seed}, which no trial used), {r.confirm_games} games "
              f"({r.confirm_games // int(cd['rotations'])} duplicate deals) per match:",
              f"  tuned against {r.strategy} (the strategy as given): {_h2h(cd)}"]
    if r.opponent_is_default:
        lines.append(f"  tuned against {r.opponent}: the same match ({r.opponent} plays as {r.strategy})")
    else:
        lines.append(f"  tuned against {r.opponent}: {_h2h(co)}")
    lines += [f"winner's curse: the best of {len(r.trials)} trials is chosen partly for its luck on the search deals, "
              "so its in-search figure tends to overstate it; the confirmation on fresh deals is the unbiased "
              f"estimate. Win rate against {r.opponent}: {s['win_rate']:.3f} in the search, "
              f"{co['win_rate']:.3f} confirmed (shrinkage {r.shrinkage:+.3f}).",
              f"{r.games_played} of {r.budget} budgeted games played in the search "
              f"({int((r.trials['repeat_of'] >= 0).sum())} repeated settings not replayed), "
              f"{r.confirm_games * (1 if r.opponent_is_default else 2)} in the confirmation; {r.wall_seconds:.0f} s"]
    if r.saved is not None:
        lines += [f"saved strategy {r.spec.name!r} to {r.saved}: use it with --load {r.saved} "
                  f"(-s {r.spec.name}), or strategies.load_file({str(r.saved)!r}) in Python",
                  f"replay the confirmation: {confirm_command(r, r.strategy)}"]
    return lines


def strategy_file(r: TuneResult) -> str:
    """The saved strategy as a plain Python module: it registers the tuned strategy as a relative of
    the one tuned, every knob pinned to the value that was confirmed (a later change of a library
    default does not change it), and records how it was tuned and confirmed."""
    spec = r.spec
    tuned = set(r.knobs)
    knobs = "\n".join(f"    {k.name!r}: {knob_literal(k, k.default)},{'  # tuned' if k.name in tuned else ''}"
                      for k in spec.knobs)
    cd, co = r.confirm_default, r.confirm_opponent
    path = str(r.saved or f"{spec.name}.py")
    source = r.meta.get("sources", {})

    def para(text: str) -> list[str]:
        return [*textwrap.wrap(text, DOC_WIDTH, break_long_words=False, break_on_hyphens=False), ""]

    doc = [
        *para(f"Strategy {spec.name!r}: {r.strategy} with {', '.join(r.knobs)} tuned against {r.opponent} at "
              f"{r.variant} by `canasta-lab tune`."),
        "Tuned by:", "", f"    {r.command}", "",
        *para(f"Search: {len(r.trials)} trials, {r.trial_games} games each on the same duplicate deals (seed "
              f"{r.seed}), {r.games_played} of a {r.budget}-game budget played; {r.sampler}. Engine and strategy "
              f"sources {source.get('engine_sources')}, git {source.get('git')}."),
        *para(f"Best: trial {r.best_trial}, win rate {r.search['win_rate']:.4f} against {r.opponent} in the search. "
              "The best of many trials tends to overstate itself (the winner's curse): it was chosen partly for its "
              "luck on the search deals. The confirmation below, on deals no trial saw, is the estimate to believe."),
        f"Confirmation on fresh deals (seed {r.confirm_seed}), {r.confirm_games} games per match:", "",
        f"    against {r.strategy}: {_h2h(cd)}",
        f"    against {r.opponent}: " + ("the same match" if r.opponent_is_default else _h2h(co)),
        f"    win rate against {r.opponent}, search minus confirmation: {r.shrinkage:+.4f}", "",
        "Use it on any command (a line of its own, never wrapped, however long the path):", "",
        f"    --load {path} -s {spec.name}", "",
        *para(f"or in Python `strategies.load_file({path!r})`; loading it twice is harmless."),
    ]
    body = [
        '"""' + doc[0], *doc[1:-1], '"""',
        "",
        "from strategies import REGISTRY, StrategyError, register",
        "",
        f"NAME = {spec.name!r}",
        f"BASE = {base_name(r)!r}",
        "KNOBS = {",
        knobs,
        "}",
        f"DESCRIPTION = {spec.description!r}",
        "",
        "if BASE not in REGISTRY:",
        "    raise StrategyError(f\"{NAME!r} is {BASE!r} with tuned knobs, and {BASE!r} is not defined here: \"",
        "                        \"--load the file that defines it first\")",
        "SPEC = REGISTRY[BASE].with_defaults(NAME, DESCRIPTION, **KNOBS)",
        "if REGISTRY.get(NAME) != SPEC:  # the same file loaded again registers nothing new",
        "    register(SPEC)",
        "",
    ]
    return "\n".join(body)


def base_name(r: TuneResult) -> str:
    """The registered strategy the tuned one is a relative of (its knobs as the file's defaults)."""
    return r.strategy.partition(":")[0]
