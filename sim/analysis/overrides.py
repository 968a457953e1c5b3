"""Where a lookahead player overrides its fast player: the decisions at which `search` chose otherwise than
the rollout player it builds on would have, grouped by decision point and situation.

This is how the heuristics are improved (issue 26): not by guessing which rule of thumb is weak, but by
reading where sampling the hidden cards and playing every option out changed the choice, and how often.
A discard of another card of the same rank class is the same choice (suits never matter to a rank meld).
`canasta-lab overrides VARIANT` prints the summary; the API returns every override with its situation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.analysis.trace import describe_option, same_choice, trace_decisions
from sim.engine import layout as L
from sim.rules import Variant, get_variant, pack
from strategies import StrategyChoice, parse_strategy

# the situation of a decision, from its observation: what a player weighs
SITUATION = {"stock": L.OB_STOCK_N, "pile": L.OB_PILE_N, "hand": L.OB_HN}
STOCK_BANDS = (-1, 10, 30, 60, 1000)  # stock left: the hand's end near, middle, early
PILE_BANDS = (-1, 0, 2, 5, 10, 1000)  # pile size bands
BAND_NAMES = {"stock": ("<=10", "11-30", "31-60", ">60"), "pile": ("0", "1-2", "3-5", "6-10", ">10")}


@dataclass
class Overrides:
    """decisions: every traced decision of the lookahead player, with its choice, the fast player's, and
    whether they differ (`override`); summary: overrides by decision point and the fast player's choice kind
    against the lookahead's, with their share of the point's decisions; by_stock, by_pile: the share of
    decisions overridden at each point by stock and pile band."""

    variant: str
    player: str
    fast: str
    games: int
    seed: int
    decisions: pd.DataFrame
    summary: pd.DataFrame
    by_stock: pd.DataFrame
    by_pile: pd.DataFrame

    @property
    def command(self) -> str:
        return (f"canasta-lab overrides {self.variant} -s {self.player} --fast {self.fast} --games {self.games} "
                f"--seed {self.seed}")


def overrides(variant: str | Variant, player: str | StrategyChoice = "search",
              fast: str | StrategyChoice | None = None, games: int = 10, seed: int = 0,
              opponents: Sequence[str] = ("baseline",)) -> Overrides:
    """Play `games` games of `player` (seat 0 and every seat of its side) against `opponents`, and at each of
    its decisions ask `fast` (default: the player's own rollout player, knobs at the variant) what it would
    have chosen."""
    from strategies.search import rollout_player

    v = get_variant(variant) if isinstance(variant, str) else variant
    p = parse_strategy(player).at(v)
    if fast is None:
        fast = rollout_player(p)
        if fast is None:
            raise ValueError(f"{p.label} has no rollout player; give the fast player to compare with (--fast)")
    f = parse_strategy(fast).at(v)
    decide = f.spec.decide
    tr = trace_decisions(v, [p, *opponents], games, seed, traced=(0,))
    R = pack(v)
    n = tr.decisions["n"].to_numpy()
    obs = np.zeros(L.obs_len(int(R[L.R_MAXM])), np.int64)
    width = tr.obs.shape[1]
    mine = np.zeros((len(n), 4), np.int64)
    theirs = np.zeros((len(n), 4), np.int64)
    for i in range(len(n)):
        opts = tr.options_of(i)
        buf = np.zeros((L.MAXOPT, L.OPT_FIELDS), np.int64)  # the engine's own option table: kernels may use it all
        buf[:len(opts)] = opts[:, :L.OPT_FIELDS]
        obs[:width] = tr.obs[i]
        obs[width:] = 0  # the strategy's scratch space, which a trace does not keep
        j = int(decide(R, obs, buf, int(n[i]), f.params))
        mine[i] = opts[int(tr.decisions["choice"].iat[i]), :4]
        theirs[i] = opts[j, :4]
    d = tr.decisions[["game", "point", "n"]].copy()
    for name, slot in SITUATION.items():
        d[name] = tr.obs[:, slot]
    d["override"] = ~same_choice(mine, theirs) & (n > 1)
    d["chosen_kind"] = [L.option_name(int(k)) for k in mine[:, 0]]
    d["fast_kind"] = [L.option_name(int(k)) for k in theirs[:, 0]]
    d["chosen"] = [describe_option(*r) for r in mine.tolist()]
    d["fast_choice"] = [describe_option(*r) for r in theirs.tolist()]
    d["stock_band"] = pd.cut(d["stock"], STOCK_BANDS, labels=BAND_NAMES["stock"])
    d["pile_band"] = pd.cut(d["pile"], PILE_BANDS, labels=BAND_NAMES["pile"])
    real = d[d["n"] > 1]
    per_point = real.groupby("point", observed=True).size()
    over = real[real["override"]]
    summary = (over.groupby(["point", "fast_kind", "chosen_kind"], observed=True).size().rename("overrides")
               .reset_index())
    summary["share_of_point"] = summary["overrides"] / summary["point"].map(per_point).astype(float)
    summary = summary.sort_values("overrides", ascending=False, ignore_index=True)

    def banded(col: str) -> pd.DataFrame:
        t = real.groupby(["point", col], observed=True)["override"].agg(["size", "mean"])
        return t.rename(columns={"size": "decisions", "mean": "overridden"}).reset_index()

    return Overrides(v.name, p.label, f.label, games, seed, d, summary, banded("stock_band"), banded("pile_band"))
