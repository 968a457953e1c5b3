"""The strategy library: built-in strategies chosen by integer id and tuned by named knobs.

A strategy argument is a name with optional knobs, `baseline:min_pile=5,answer_max=150`
(DESIGN.md). Knob values travel to the kernels as a float vector, so changing one never recompiles.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.engine.layout import NPRM

from . import baseline as _baseline


class StrategyError(ValueError):
    """An unknown strategy or knob, or a knob value out of range; the message says what is accepted."""


@dataclass(frozen=True)
class Knob:
    name: str
    slot: int
    low: float
    high: float
    default: float
    meaning: str


@dataclass(frozen=True)
class StrategySpec:
    name: str
    sid: int
    description: str
    knobs: tuple[Knob, ...] = ()

    def params(self, overrides: dict[str, float] | None = None) -> np.ndarray:
        p = np.zeros(NPRM, np.float64)
        for k in self.knobs:
            p[k.slot] = k.default
        for name, value in (overrides or {}).items():
            knob = next((k for k in self.knobs if k.name == name), None)
            if knob is None:
                accepted = ", ".join(k.name for k in self.knobs) or "none"
                raise StrategyError(f"strategy {self.name!r} has no knob {name!r}; accepted: {accepted}")
            if not knob.low <= value <= knob.high:
                raise StrategyError(
                    f"knob {self.name}:{name}={value:g} is out of range; accepted {knob.low:g} to {knob.high:g}")
            p[knob.slot] = value
        return p


REGISTRY: dict[str, StrategySpec] = {
    "random": StrategySpec(
        "random", 0, "uniform among the legal choices at every decision point (also the engine's fuzzer)"),
    "baseline": StrategySpec(
        "baseline", 1,
        "club heuristic: takes worthwhile piles, opens cheaply, builds and completes canastas, safe discards",
        (
            Knob("min_pile", _baseline.K_MIN_PILE, 0, 100, 3,
                 "smallest pile (cards) worth taking once the side has melded"),
            Knob("answer_max", _baseline.K_ANSWER_MAX, 0, 1000, 100,
                 "answer 'no' to 'may I go out?' when the own hand holds at least this many points"),
            Knob("ask", _baseline.K_ASK, 0, 1, 1, "1: ask the partner before going out whenever able; 0: never"),
            Knob("hold_black3", _baseline.K_B3_PILE, 0, 100, 4,
                 "discard black threes only on piles of at least this many cards"),
        ),
    ),
}


@dataclass(frozen=True)
class StrategyChoice:
    """A parsed strategy argument: the spec, the knob overrides and the full parameter vector."""

    spec: StrategySpec
    overrides: tuple[tuple[str, float], ...]
    params: np.ndarray

    @property
    def label(self) -> str:
        if not self.overrides:
            return self.spec.name
        return self.spec.name + ":" + ",".join(f"{k}={v:g}" for k, v in self.overrides)

    def knob_values(self) -> dict[str, float]:
        return {k.name: float(self.params[k.slot]) for k in self.spec.knobs}


def parse_strategy(text: str) -> StrategyChoice:
    name, _, rest = text.strip().partition(":")
    if name not in REGISTRY:
        raise StrategyError(f"unknown strategy {name!r}; accepted: {', '.join(REGISTRY)}")
    spec = REGISTRY[name]
    overrides: dict[str, float] = {}
    if rest:
        for item in rest.split(","):
            key, eq, val = item.partition("=")
            if not eq:
                raise StrategyError(f"bad knob {item!r} in {text!r}; write name=value, e.g. {name}:knob=3")
            try:
                overrides[key.strip()] = float(val)
            except ValueError:
                raise StrategyError(f"knob {name}:{key.strip()} needs a number, got {val!r}") from None
    return StrategyChoice(spec, tuple(overrides.items()), spec.params(overrides))
