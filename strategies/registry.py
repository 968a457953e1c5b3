"""The registry of strategies: what a strategy is (`StrategySpec`), a strategy argument parsed with its knobs
(`StrategyChoice`, `parse_strategy`), the registry every name resolves in (`REGISTRY`, `register`) and `load_file`,
which runs a file that registers more.

The built-in modules (strategies/library.py, strategies/search.py) and user strategies (strategies/user.py) import
their registry from here; the package strategies/__init__.py re-exports these names as its public face and
registers the built-ins by importing the library and `search`. Nothing in the package imports the package itself
back (tests/test_layers.py refuses any import cycle).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from .knobs import Knob, StrategyError, check_scope, knob_vector

if TYPE_CHECKING:
    from sim.rules import Variant


def variant_text(v: Variant) -> str:
    """The variant's name, saying so when house rules change its preset (the knobs' scope follows the rules)."""
    from sim.rules import PRESETS

    return v.name if PRESETS.get(v.name) == v else f"{v.name} with the house rules given"


@dataclass(frozen=True)
class StrategySpec:
    """A named strategy: its decision function (numba, DECIDE_SIG), its knobs with this strategy's
    defaults, and for a user strategy the built-in `base` that decides wherever it returns DEFER."""

    name: str
    decide: Any = field(compare=False, repr=False)
    description: str
    knobs: tuple[Knob, ...] = ()
    base: StrategySpec | None = None
    # a strategy whose knob vector holds more than its knobs (search: its rollout player's knobs at the
    # variant) completes it here, from its knob values and the variant
    complete: Callable[[np.ndarray, Variant | None], None] | None = field(default=None, compare=False, repr=False)

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
            at: dict[str, dict[str, float]] = {}
            for k in self.knobs:
                for scope, value in k.at:
                    at.setdefault(scope, {})[k.name] = value
            return (_relative, (root.name, self.name, self.description, {k.name: k.default for k in self.knobs}, at))
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

    def acting(self, v: Variant) -> tuple[Knob, ...]:
        """The knobs that act at variant v, in declaration order."""
        return tuple(k for k in self.knobs if k.acts_at(v))

    def refuse_idle(self, names: Iterable[str], v: Variant) -> None:
        """Refuse, in one line, a knob set by the user that never acts at `v`: a run would play exactly as
        without it (equal strategies, every deal split) and report it as a measurement."""
        for name in names:
            k = self.knob(name)
            if not k.acts_at(v):
                at = variant_text(v)
                acting = ", ".join(x.name for x in self.acting(v)) or "none"
                raise StrategyError(f"knob {name!r} of {self.name} never acts at {at}: it needs {k.missing(v)}; "
                                    f"the knobs of {self.name} that act at {at}: {acting} "
                                    f"(canasta-lab strategies --variant {v.name})")

    def params(self, overrides: dict[str, float] | None = None, v: Variant | None = None) -> np.ndarray:
        """The knob vector: the defaults at `v` (or the defaults for every variant), then the overrides."""
        p = knob_vector(self.knobs, v)
        for name, value in (overrides or {}).items():
            p[self.knob(name).slot] = value
        if self.complete is not None:
            self.complete(p, v)
        return p

    def choice(self, **knobs: str | float) -> StrategyChoice:
        """This strategy with some knobs set: `baseline.choice(freeze="never", min_pile=5)`."""
        overrides = {name: self.knob(name).parse(self.name, v) for name, v in knobs.items()}
        return StrategyChoice(self, tuple(overrides.items()), self.params(overrides))

    def with_defaults(self, name: str, description: str, at: Mapping[str, Mapping[str, str | float]] | None = None,
                      **defaults: str | float) -> StrategySpec:
        """A relative of this strategy: same kernel and knobs, other defaults (the library). `at` gives
        defaults for a variant family or a preset (`at={"boat": {"hold_black3": "throw"}}`): there they replace
        this strategy's and the ones given here. A knob given a default here drops the family and preset
        defaults it had (a tuned value holds wherever it is played, unless `at` says otherwise)."""
        at = dict(at or {})
        for scope in at:
            check_scope(scope)
        unknown = (set(defaults) | {n for d in at.values() for n in d}) - {k.name for k in self.knobs}
        if unknown:
            raise StrategyError(f"strategy {self.name!r} has no knob {sorted(unknown)[0]!r}")
        knobs = []
        for k in self.knobs:
            default = k.parse(name, defaults[k.name]) if k.name in defaults else k.default
            scoped = {} if k.name in defaults else dict(k.at)  # a default given here holds at every variant
            scoped.update({scope: k.parse(name, d[k.name]) for scope, d in at.items() if k.name in d})
            knobs.append(replace(k, default=default, at=tuple(scoped.items())))
        return replace(self, name=name, description=description, knobs=tuple(knobs))


REGISTRY: dict[str, StrategySpec] = {}
# the built-in strategies' names, set once they have registered (seal_built_ins, called by strategies/__init__.py:
# importing any module of the package runs that first); read at call time, never copied at import
BUILT_IN: frozenset[str] = frozenset()


def seal_built_ins() -> frozenset[str]:
    """Record every strategy registered so far as a built-in: the package calls it once, after the library and
    `search` have registered, before anything else can register (a user strategy, a tuned file)."""
    global BUILT_IN
    BUILT_IN = frozenset(REGISTRY)
    return BUILT_IN


def _registered(name: str) -> StrategySpec:
    if name not in REGISTRY:
        raise StrategyError(f"unknown strategy {name!r} in this process; accepted: {', '.join(REGISTRY)}")
    return REGISTRY[name]


def _relative(root: str, name: str, description: str, defaults: dict[str, float],
              at: dict[str, dict[str, float]] | None = None) -> StrategySpec:
    if name in REGISTRY:
        return REGISTRY[name]
    return register(_registered(root).with_defaults(name, description, at=at, **defaults))


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

    def at(self, v: Variant) -> StrategyChoice:
        """This choice as it plays at `v`: the knobs the user left alone take their defaults there."""
        return replace(self, params=self.spec.params(dict(self.overrides), v))

    def refuse_idle(self, v: Variant) -> None:
        """Refuse a knob set on this strategy (`baseline:min_pile=5`) that never acts at `v`. Only the knobs
        the user set are judged: a relative's own defaults (expert's ask=never at Buraco) are not."""
        self.spec.refuse_idle((name for name, _ in self.overrides), v)


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

