"""The strategy library: built-in strategies chosen by integer id and tuned by named knobs, and
strategies users write themselves (strategies.user).

A strategy argument is a name with optional knobs, `baseline:freeze=never,hold_black3=8`
(DESIGN.md). Knob values travel to the kernels as a float vector, so changing one never recompiles.
Every strategy, built-in or user, is a numba function of the contract's signature
(sim.engine.contract.DECIDE_SIG) handed to the engine as a first-class function value: the engine's
compiled code holds no strategy, and adding one touches no engine file.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field, fields, replace
from typing import Any

import numpy as np

from sim.engine.contract import NPRM


class StrategyError(ValueError):
    """An unknown strategy or knob, or a knob value out of range; the message says what is accepted."""


@dataclass(frozen=True)
class Knob:
    """One tunable: numbers in [low, high] (whole numbers only when `whole`), or one of the named
    values (which may lie outside)."""

    name: str
    slot: int
    low: float
    high: float
    default: float
    meaning: str
    named: tuple[tuple[str, float], ...] = ()
    whole: bool = False

    def accepted(self) -> str:
        names = [n for n, _ in self.named]
        if self.low <= self.high:
            kind = "a whole number" if self.whole else "a number"
            names.append(f"{kind} from {self.low:g} to {self.high:g}")
        return ", ".join(names[:-1]) + (" or " if len(names) > 1 else "") + names[-1]

    def show(self, value: float) -> str:
        for n, v in self.named:
            if v == value:
                return n
        return f"{value:g}"

    def parse(self, strategy: str, text: str | float) -> float:
        if isinstance(text, str):
            t = text.strip()
            for n, v in self.named:
                if t == n:
                    return v
            try:
                value = float(t)
            except ValueError:
                raise StrategyError(f"knob {strategy}:{self.name}={t!r} is not accepted; "
                                    f"give {self.accepted()}") from None
        elif isinstance(text, bool):
            raise StrategyError(f"knob {strategy}:{self.name}={text!r} is not accepted; give {self.accepted()}")
        else:
            value = float(text)
        if any(v == value for _, v in self.named):
            return value
        if not (self.low <= value <= self.high) or math.isnan(value):
            raise StrategyError(f"knob {strategy}:{self.name}={value:g} is out of range; "
                                f"give {self.accepted()}")
        if self.whole and value != int(value):
            raise StrategyError(f"knob {strategy}:{self.name}={value:g} is not a whole number; "
                                f"give {self.accepted()}")
        return value


@dataclass(frozen=True)
class StrategySpec:
    """A named strategy: its decision function (numba, DECIDE_SIG), its knobs with this strategy's
    defaults, and for a user strategy the built-in `base` that decides wherever it returns DEFER."""

    name: str
    decide: Any = field(compare=False, repr=False)
    description: str
    knobs: tuple[Knob, ...] = ()
    base: StrategySpec | None = None

    @property
    def is_user(self) -> bool:
        return self.base is not None

    def functions(self) -> tuple[Any, ...]:
        """The functions the engine calls for this strategy: its own, then its base's (if any)."""
        return (self.decide,) if self.base is None else (self.decide, self.base.decide)

    def __reduce__(self) -> tuple[Any, ...]:
        # a registered strategy travels to worker processes by name, so each worker uses its own
        # module-level function (loaded from the compiled cache) rather than a rebuilt copy
        if REGISTRY.get(self.name) is self:
            root = self.root()
            if root is None or root is self or self.name in BUILT_IN:
                return (_registered, (self.name,))
            # a relative registered at run time (a tuned strategy file): it carries its knobs, so a
            # process that never ran the file (a Dask worker) rebuilds it from its built-in root
            return (_relative, (root.name, self.name, self.description, {k.name: k.default for k in self.knobs}))
        return (StrategySpec, tuple(getattr(self, f.name) for f in fields(self)))

    def root(self) -> StrategySpec | None:
        """The built-in strategy whose kernel this one runs (itself for a built-in), or None for a
        user strategy."""
        if self.base is not None:
            return None
        return next((REGISTRY[n] for n in BUILT_IN if REGISTRY[n].decide is self.decide), None)

    def knob(self, name: str) -> Knob:
        k = next((k for k in self.knobs if k.name == name), None)
        if k is None:
            accepted = ", ".join(k.name for k in self.knobs) or "none"
            raise StrategyError(f"strategy {self.name!r} has no knob {name!r}; accepted: {accepted}")
        return k

    def params(self, overrides: dict[str, float] | None = None) -> np.ndarray:
        p = np.zeros(NPRM, np.float64)
        for k in self.knobs:
            p[k.slot] = k.default
        for name, value in (overrides or {}).items():
            p[self.knob(name).slot] = value
        return p

    def choice(self, **knobs: str | float) -> StrategyChoice:
        """This strategy with some knobs set: `baseline.choice(freeze="never", min_pile=5)`."""
        overrides = {name: self.knob(name).parse(self.name, v) for name, v in knobs.items()}
        return StrategyChoice(self, tuple(overrides.items()), self.params(overrides))

    def with_defaults(self, name: str, description: str, **defaults: str | float) -> StrategySpec:
        """A relative of this strategy: same kernel and knobs, other defaults (the library)."""
        knobs = tuple(replace(k, default=k.parse(name, defaults[k.name])) if k.name in defaults else k
                      for k in self.knobs)
        unknown = set(defaults) - {k.name for k in self.knobs}
        if unknown:
            raise StrategyError(f"strategy {self.name!r} has no knob {sorted(unknown)[0]!r}")
        return replace(self, name=name, description=description, knobs=knobs)


REGISTRY: dict[str, StrategySpec] = {}
BUILT_IN: frozenset[str] = frozenset()  # set once the library has registered (end of this module)


def _registered(name: str) -> StrategySpec:
    if name not in REGISTRY:
        raise StrategyError(f"unknown strategy {name!r} in this process; accepted: {', '.join(REGISTRY)}")
    return REGISTRY[name]


def _relative(root: str, name: str, description: str, defaults: dict[str, float]) -> StrategySpec:
    if name in REGISTRY:
        return REGISTRY[name]
    return register(_registered(root).with_defaults(name, description, **defaults))


def register(spec: StrategySpec, replace_user: bool = False) -> StrategySpec:
    old = REGISTRY.get(spec.name)
    if old is not None and not (replace_user and old.is_user):
        raise StrategyError(f"a strategy named {spec.name!r} already exists; choose another name")
    REGISTRY[spec.name] = spec
    return spec


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
        return self.spec.name + ":" + ",".join(f"{k}={self.spec.knob(k).show(v)}" for k, v in self.overrides)

    def knob_values(self) -> dict[str, float]:
        return {k.name: float(self.params[k.slot]) for k in self.spec.knobs}


def parse_strategy(text: str | StrategySpec | StrategyChoice) -> StrategyChoice:
    if isinstance(text, StrategyChoice):
        return text
    if isinstance(text, StrategySpec):
        return text.choice()
    name, _, rest = text.strip().partition(":")
    if name not in REGISTRY:
        raise StrategyError(f"unknown strategy {name!r}; accepted: {', '.join(REGISTRY)}")
    spec = REGISTRY[name]
    knobs: dict[str, str] = {}
    if rest:
        for item in rest.split(","):
            key, eq, val = item.partition("=")
            if not eq:
                raise StrategyError(f"bad knob {item!r} in {text!r}; write name=value, e.g. {name}:knob=3")
            if key.strip() in knobs:
                raise StrategyError(f"knob {key.strip()!r} is set twice in {text!r}; give each knob once")
            knobs[key.strip()] = val
    return spec.choice(**knobs)


def load_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Run a Python file that registers strategies (user strategies, or a file `canasta-lab tune`
    saved), as `--load` does: its names then resolve in this process, and in the worker processes a
    run starts afterwards, which inherit the registry. Returns the file's globals."""
    import runpy

    if not os.path.isfile(path):
        raise StrategyError(f"{str(path)!r}: no such file; give a Python file that defines strategies")
    return runpy.run_path(str(path), run_name="canasta_lab_user")


from . import library  # noqa: E402, F401  (registers the built-ins)

BUILT_IN = frozenset(REGISTRY)  # the library, as every process has it
