"""How often a knob's choice arises, counted where it is made: at every decision of the knob's kind in the
games of a player at its default (the player on every seat), would another setting of the knob have chosen
otherwise?

A rate of what a side does (asks, freezes) compared between settings says nothing where the knob changes
which decisions are made but not how many (`answer_max`: a hand that ends only on a "yes" makes every side's
yes-rate the same whatever the knob). Asking each setting at the same decisions, with the same observation and
options, counts the decisions the knob really turns: per side and hand, and as a share of the decisions of that
kind that offered a choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from sim.analysis.trace import same_choice, trace_decisions
from sim.engine import layout as L
from sim.rules import Variant, get_variant, pack
from strategies import StrategyChoice, parse_strategy

POINTS = {name: int(dp) for dp, name in L.DP_NAMES.items()}  # decision points by name ("discard", "meld", ...)
CHUNK = 25  # games traced at a time: a trace keeps every decision's observation (a few KB each)
ENOUGH = 60_000  # decisions of the kind asked again: a rate a side and hand to a few per cent; no more games after


def point_numbers(names: Sequence[str]) -> list[int]:
    """The decision points (layout.DP_*) of their names; one line naming those accepted otherwise."""
    unknown = [n for n in names if n not in POINTS]
    if unknown:
        raise ValueError(f"unknown decision point {unknown[0]!r}; accepted: {', '.join(POINTS)}")
    return [POINTS[n] for n in names]


@dataclass(frozen=True)
class Changes:
    """Per setting: the decisions of the kind that offered a choice, those the setting decides otherwise than
    the player at its default, and the side-hands they came from."""

    variant: str
    player: str
    points: tuple[str, ...]
    games: int
    seed: int
    side_hands: int
    decisions: int  # decisions of the kind with more than one option, in the default's own games
    table: pd.DataFrame  # setting, changed, per_side_hand, share


def changed_decisions(variant: str | Variant, player: str | StrategyChoice, knob: str, values: Sequence[Any],
                      points: Sequence[str], games: int, seed: int, enough: int = ENOUGH) -> Changes:
    """Play up to `games` games of `player` on every seat (its knob at the default), stopping once `enough`
    decisions are counted, and at each of its decisions at `points` with a choice, ask the player with `knob` at
    each of `values` what it would choose."""
    v = get_variant(variant) if isinstance(variant, str) else variant
    base = parse_strategy(player).at(v)
    others = [base.spec.choice(**{**dict(base.overrides), knob: x}).at(v) for x in values]
    dps = point_numbers(points)
    R = pack(v)
    decide = base.spec.decide
    width = L.obs_len(int(R[L.R_MAXM]))
    obs = np.zeros(width, np.int64)
    buf = np.zeros((L.MAXOPT, L.OPT_FIELDS), np.int64)  # the engine's own option table: kernels may use it all
    changed = np.zeros(len(values), np.int64)
    decisions = 0
    hands = 0
    suits = bool(v.game.sequences)
    done = 0
    while done < games and decisions < enough:
        n = min(CHUNK, games - done)
        tr = trace_decisions(v, [base], n, seed, traced=range(v.players), points=dps, first=done, chunk=n)
        hands += tr.hands
        done += n
        count = tr.decisions["n"].to_numpy()
        seen = tr.obs.shape[1]
        chosen = tr.decisions["choice"].to_numpy()
        for i in np.flatnonzero(count > 1):
            opts = tr.options_of(int(i))
            buf[:len(opts)] = opts[:, :L.OPT_FIELDS]
            mine = opts[int(chosen[i]), :4][None, :]
            decisions += 1
            for j, c in enumerate(others):
                obs[:seen] = tr.obs[i]
                obs[seen:] = 0  # the strategy's scratch space, which a trace does not keep
                k = int(decide(R, obs, buf, int(count[i]), c.params))
                changed[j] += int(not same_choice(mine, opts[k, :4][None, :], suits)[0])
    side_hands = hands * v.n_sides
    table = pd.DataFrame({"setting": [c.spec.knob(knob).show(c.params[c.spec.knob(knob).slot]) for c in others],
                          "changed": changed,
                          "per_side_hand": changed / side_hands if side_hands else np.nan,
                          "share": changed / decisions if decisions else np.nan})
    return Changes(v.name, base.label, tuple(points), done, seed, side_hands, decisions, table)
