"""Try a strategy in plain Python first: its own function, not compiled, at every decision of real games.

A user strategy's function is compiled by numba, where a mistake shows as a typing error or, worse, as a wrong
index read silently. Before that, `try_strategy` runs the very same function as ordinary Python at the decisions
of a few games played by the compiled engine (its base strategy on its seat, `baseline` by default, so the
positions are the ones it will meet), with the observation, the options and the knob vector it will be given:
an exception comes with its Python traceback and the decision it happened at, a choice that is neither a legal
option nor DEFER is named, and each decision point says how often it deferred. It costs about as much as
tracing the games plus the Python calls (thousands of decisions a second), where NUMBA_DISABLE_JIT=1 runs the
whole engine as Python (docs/strategies.md, "Try it in plain Python first")."""

from __future__ import annotations

import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sim.analysis.trace import trace_decisions
from sim.engine import layout as L
from sim.rules import Variant, get_variant, pack
from strategies import StrategyChoice, StrategySpec, parse_strategy

SHOWN = 5  # problems listed in full; the others are counted


@dataclass
class Trial:
    """What the strategy's Python function did at each traced decision: `table` per decision point (decisions,
    chosen, deferred, errors, illegal), `problems` the first ones in full, and the seconds per decision."""

    strategy: str
    variant: str
    games: int
    decisions: int
    table: pd.DataFrame
    problems: list[str] = field(default_factory=list)
    seconds_per_decision: float = 0.0

    @property
    def ok(self) -> bool:
        return int(self.table["errors"].sum() + self.table["illegal"].sum()) == 0

    def text(self) -> str:
        head = (f"{self.strategy} in plain Python at {self.decisions:,} decisions of {self.games} games of "
                f"{self.variant} ({1e6 * self.seconds_per_decision:.0f} us a decision): "
                + ("no error, every choice legal or DEFER" if self.ok else "problems below"))
        return "\n".join([head, self.table.to_string(index=False), *self.problems])


def try_strategy(strategy: str | StrategySpec | StrategyChoice, variant: str | Variant = "classic-4p",
                 games: int = 10, seed: int = 0, opponents: Sequence[str] = ("baseline",),
                 player: str | None = None) -> Trial:
    """Run `strategy`'s own decision function as plain Python at every decision of seat 0 in `games` games where
    `player` (default: the strategy's base, or the strategy itself for a built-in) plays seat 0 against
    `opponents`."""
    v = get_variant(variant) if isinstance(variant, str) else variant
    choice = parse_strategy(strategy).at(v)
    spec = choice.spec
    fn = getattr(spec.decide, "py_func", spec.decide)  # the function as written, not its machine code
    seat = player or (spec.base.name if spec.base is not None else spec.name)
    tr = trace_decisions(v, [seat, *opponents], games, seed, traced=(0,))
    R = pack(v)
    obs = np.zeros(L.obs_len(int(R[L.R_MAXM])), np.int64)
    buf = np.zeros((L.MAXOPT, L.OPT_FIELDS), np.int64)
    width = tr.obs.shape[1]
    counts: dict[str, dict[str, int]] = {}
    problems: list[str] = []
    t0 = time.perf_counter()
    for i in range(len(tr)):
        point = str(tr.decisions["point"].iat[i])
        row = counts.setdefault(point, {"decisions": 0, "chosen": 0, "deferred": 0, "errors": 0, "illegal": 0})
        row["decisions"] += 1
        n = int(tr.decisions["n"].iat[i])
        opts = tr.options_of(i)
        buf[:] = 0
        buf[:n] = opts[:, :L.OPT_FIELDS]
        obs[:width] = tr.obs[i]
        obs[width:] = 0
        try:
            k = int(fn(R, obs, buf, n, choice.params))
        except Exception:  # the point: the user's function, whatever it raises, with its traceback
            row["errors"] += 1
            if len(problems) < SHOWN:
                problems.append(f"decision {i} (game {tr.decisions['game'].iat[i]}, {point}, options: "
                                f"{'; '.join(tr.options_text(i))}) raised:\n{traceback.format_exc()}")
            continue
        if k == L.DEFER:
            row["deferred"] += 1
        elif 0 <= k < n:
            row["chosen"] += 1
        else:
            row["illegal"] += 1
            if len(problems) < SHOWN:
                problems.append(f"decision {i} (game {tr.decisions['game'].iat[i]}, {point}): returned {k}, neither "
                                f"an option (0 to {n - 1}) nor DEFER ({L.DEFER})")
    seconds = time.perf_counter() - t0
    table = pd.DataFrame([{"point": p, **c} for p, c in counts.items()])
    return Trial(choice.label, v.name, games, len(tr), table, problems, seconds / max(len(tr), 1))


__all__: list[Any] = ["Trial", "try_strategy"]
