"""Your own strategy in plain Python, compiled by numba and played without recompiling the engine.

    from sim.engine.contract import DP_DISCARD, card_value, decision_point, option_card
    from strategies.user import DEFER, own_knobs, user_strategy

    OWN = own_knobs(("keep_wilds", 0, 1, 1, "1: never discard a wild"))

    @user_strategy("high-discard", base="baseline", knobs=OWN)
    def high_discard(rules, obs, opts, n, knobs):
        if decision_point(obs) != DP_DISCARD:
            return DEFER                     # every other decision: baseline's
        ...  card_value(rules, option_card(opts, i)) ... knobs[OWN.keep_wilds] ...
        return best_index

The function gets the rules, the observation, the n legal options and the knob vector
(docs/strategies.md), and returns the index of its choice, or DEFER to let the base strategy decide.
It is compiled once, with the fixed signature DECIDE_SIG, kept on disk by the content of its file (a second run
loads it: a function typed into a notebook cell is compiled each time), and reaches the cached engine as a
first-class function, so defining one costs a fraction of a second and no engine compilation.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Sequence
from typing import Any

from sim.engine.contract import DECIDE_SIG, DEFER, NPRM, cached_jit

from .knobs import (  # a user strategy's own knobs are knobs[USER_SLOT0], knobs[USER_SLOT0 + 1], ... in order
    USER_SLOT0,
    KnobTable,
    StrategyError,
)
from .registry import REGISTRY, StrategySpec, register

__all__ = ["DEFER", "USER_SLOT0", "own_knobs", "user_strategy"]


def own_knobs(*declared: tuple) -> Any:
    """Your strategy's own knobs, each (name, low, high, default, meaning) or with a sixth item, whole (True for a
    knob that takes whole numbers only): `OWN = own_knobs(("keep_wilds", 0, 1, 1, "1: never discard a wild"))`,
    then `knobs[OWN.keep_wilds]` in the function and `@user_strategy(..., knobs=OWN)`. The slots follow
    USER_SLOT0 in the order given; numba reads `OWN.keep_wilds` as a constant."""
    if any(len(k) not in (5, 6) or not str(k[0]).isidentifier() for k in declared):
        raise StrategyError("own_knobs: give (name, low, high, default, meaning[, whole]) for each knob, the name a "
                            "Python identifier")
    cls = namedtuple("OwnKnobs", [str(k[0]) for k in declared])
    cls.declared = tuple(declared)  # what user_strategy(knobs=...) reads: the declarations themselves
    return cls(*range(USER_SLOT0, USER_SLOT0 + len(declared)))


def _leaves_user_slots(spec: StrategySpec) -> bool:
    """The strategy's knob vector leaves knobs[USER_SLOT0:] free (not search: its own knobs are there)."""
    return spec.complete is None and all(k.slot < USER_SLOT0 for k in spec.knobs)


def user_strategy(name: str, base: str = "baseline", description: str = "",
                  knobs: Sequence[tuple] = ()) -> Callable[[Callable], StrategySpec]:
    """Decorator: compile `fn` with the strategy signature and register it under `name`.

    `base` is the built-in strategy that decides wherever the function returns DEFER; its knobs
    stay available (`name:min_pile=5`). `knobs` declares the function's own knobs as
    (name, low, high, default, meaning) or (name, low, high, default, meaning, whole), `whole` True
    for a knob that takes whole numbers only; they arrive in knobs[USER_SLOT0 + i]. Or give `own_knobs(...)`'s
    result, and read each by name: knobs[OWN.keep_wilds].
    """
    knobs = getattr(knobs, "declared", knobs)  # own_knobs(...): its declarations, in its slots' order
    if base not in REGISTRY or REGISTRY[base].is_user:
        builtins = ", ".join(n for n, s in REGISTRY.items() if not s.is_user)
        raise StrategyError(f"unknown base strategy {base!r} for {name!r}; accepted: {builtins}")
    if ":" in name or "," in name or not name.strip():
        raise StrategyError(f"strategy name {name!r} may not be empty or contain ':' or ','")
    if len(knobs) > NPRM - USER_SLOT0:
        raise StrategyError(f"a user strategy has at most {NPRM - USER_SLOT0} knobs of its own")
    b = REGISTRY[base]
    if not _leaves_user_slots(b):
        bases = ", ".join(n for n, s in REGISTRY.items() if not s.is_user and _leaves_user_slots(s))
        raise StrategyError(f"{base!r} keeps knobs of its own from knobs[USER_SLOT0], where {name!r}'s would go; "
                            f"a user strategy's base is one of: {bases}")
    if any(len(k) not in (5, 6) for k in knobs):
        raise StrategyError(f"knobs of {name!r}: give (name, low, high, default, meaning[, whole]) for each")
    table = KnobTable(first=USER_SLOT0, end=NPRM)  # slots by declaration order, as the built-ins' are
    for k in knobs:
        table.knob(k[0], float(k[1]), float(k[2]), float(k[3]), k[4], whole=bool(k[5]) if len(k) == 6 else False)
    own = table.knobs
    clash = {k.name for k in own} & {k.name for k in b.knobs}
    if clash:
        raise StrategyError(f"knob {sorted(clash)[0]!r} of {name!r} is already a knob of {base!r}")

    def wrap(fn: Callable) -> StrategySpec:
        compiled = cached_jit(fn)  # kept on disk by the file's content: a second run loads it
        if hasattr(compiled, "compile"):  # not under NUMBA_DISABLE_JIT
            compiled.compile(DECIDE_SIG)
        first_line = (fn.__doc__ or "").strip().split("\n")[0]
        text = description or first_line or f"user strategy over {base}"
        spec = StrategySpec(name, compiled, text, b.knobs + own, base=b)
        return register(spec, replace_user=True)

    return wrap
