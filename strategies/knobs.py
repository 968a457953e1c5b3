"""Knobs: how a strategy kernel declares its tunables beside its code (name, range, default, meaning,
and the rule features its code needs to be reached), with slots in the knob vector assigned in the
order of declaration (KnobTable), so that no slot number is typed by hand (docs/strategies.md).

Kept apart from the registry (strategies/__init__.py) so that a kernel module can declare its knobs
without importing the library that registers it."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from sim.engine.contract import NPRM

if TYPE_CHECKING:
    from sim.rules import Variant

USER_SLOT0 = 48  # a user strategy's own knobs are knobs[48], knobs[49], ...: the built-ins' tables end below
PILE = 108.0  # no pile is larger than the pack: the top of the knobs that count a pile's cards


class StrategyError(ValueError):
    """An unknown strategy or knob, or a knob value out of range, or a knob set where it never acts;
    the message says what is accepted."""


@dataclass(frozen=True)
class Feature:
    """A rule feature that a knob's code needs to be reached, as a test on the variant's rules
    (sim.rules.Variant): a preset or a `--rule` house rule that adds or removes the feature is judged
    by its rules, not by its name."""

    text: str
    test: Callable[[Variant], bool] = field(repr=False)


def _partners(v: Variant) -> bool:
    return v.ask.ask_partner != "none" and any(len(side) > 1 for side in v.sides)


# What each knob's code path needs (strategies/heuristic.py, strategies/buraco.py): the heuristic hands
# every decision of a game with sequences to buraco.py, which reads only wilds, go_out and the bu_ knobs.
FEATURES: dict[str, Feature] = {
    "canasta": Feature("the Canasta games' decisions (sequences off: Buraco has its own)",
                       lambda v: not v.game.sequences),
    "buraco": Feature("Buraco's sets and sequences (sequences on)", lambda v: v.game.sequences),
    "partners": Feature("a partner to ask before going out (ask_partner partner or choose_one_partner, a side of "
                        "two seats or more)", _partners),
    "wilds_in_melds": Feature("wild cards in melds of naturals (max_wilds above 0)", lambda v: v.melds.max_wilds > 0),
    "top_card_draw": Feature("the top discard alone as a draw (top_card_draw, House-001)",
                             lambda v: v.draw.top_card_draw),
    "wild_melds": Feature("melds of wild cards (wild_melds: Boat, Pennies, Railroad)", lambda v: v.melds.wild_melds),
    "feet": Feature("a foot or kitty that a canasta brings or going out needs (foot_size with foot_canastas or "
                    "going_out_kinds: Pennies, Railroad)",
                    lambda v: v.table.foot_size > 0 and bool(v.melds.foot_canastas or v.going_out.going_out_kinds)),
    "sevens": Feature("sevens canastas (sevens_natural_only: Pennies, Railroad)",
                      lambda v: v.melds.sevens_natural_only),
}


def family_of(variant_name: str) -> str:
    """The family of a preset name: `classic-4p` -> `classic`, `house-001-2p` -> `house-001`."""
    head, _, tail = variant_name.rpartition("-")
    return head if head and tail.endswith("p") and tail[:-1].isdigit() else variant_name


def check_scope(scope: str) -> None:
    """A per-variant default is set for a family or a preset the rules know (`boat`, `classic-2p`)."""
    from sim.rules import PRESETS

    scopes = {*PRESETS, *(family_of(n) for n in PRESETS)}
    if scope not in scopes:
        raise StrategyError(f"no family or preset {scope!r} to set knob defaults for; accepted: "
                            f"{', '.join(sorted(scopes))}")


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
    needs: tuple[str, ...] = ()  # FEATURES its code needs, all of them; none: it acts at every variant
    at: tuple[tuple[str, float], ...] = ()  # (family or preset, default there): a preset's wins over its family's

    def __post_init__(self) -> None:
        unknown = [n for n in self.needs if n not in FEATURES]
        if unknown:
            raise StrategyError(f"knob {self.name!r} needs unknown feature {unknown[0]!r}; accepted: "
                                f"{', '.join(FEATURES)}")

    def default_at(self, v: Variant | None) -> float:
        """This knob's default in a game of `v`: its preset's own, else its family's, else the one default
        (a preset with house rules keeps its preset's and family's defaults: the knob serves the same game)."""
        if v is not None and self.at:
            scopes = dict(self.at)
            for scope in (v.name, family_of(v.name)):
                if scope in scopes:
                    return scopes[scope]
        return self.default

    def acts_at(self, v: Variant) -> bool:
        """This knob's code is reached in a game of `v` (the features it needs are all in v's rules)."""
        return all(FEATURES[n].test(v) for n in self.needs)

    def where(self) -> str:
        """Where the knob acts, in words."""
        return " and ".join(FEATURES[n].text for n in self.needs) if self.needs else "every variant"

    def missing(self, v: Variant) -> str:
        """The features this knob needs that `v` lacks, in words."""
        return " and ".join(FEATURES[n].text for n in self.needs if not FEATURES[n].test(v))

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




class KnobTable:
    """A kernel's knobs in the order declared: `K_X = TABLE.knob("x", ...)` gives knob x the next free slot
    of the knob vector and returns it, a plain int that numba freezes as a compile-time constant where the
    kernel reads `prm[K_X]`. A table may start where another ends (`after=`), so two kernels of one family
    share one knob vector without overlapping; the slots end before `end` (strategies.user.USER_SLOT0 for the
    built-ins, whose room ends where a user strategy's own knobs begin: a user strategy's table runs from
    `first=USER_SLOT0` to the end of the vector)."""

    def __init__(self, *, after: KnobTable | None = None, first: int = 0, end: int = USER_SLOT0,
                 whole: bool = False) -> None:
        self.first = after.next if after is not None else first
        if not self.first <= end <= NPRM:
            raise StrategyError(f"a knob table ends within the {NPRM} slots of the knob vector, not at {end}")
        self.next = self.first
        self.end = end
        self.whole = whole  # the table's default for `whole`
        self.knobs: tuple[Knob, ...] = ()

    def knob(self, name: str, low: float, high: float, default: float, meaning: str,
             named: tuple[tuple[str, float], ...] = (), *, whole: bool | None = None,
             needs: tuple[str, ...] = ()) -> int:
        """Declare one knob; returns its slot."""
        if self.next >= self.end:
            raise StrategyError(f"knob {name!r}: no slot left below {self.end}")
        if any(k.name == name for k in self.knobs):
            raise StrategyError(f"knob {name!r} is declared twice")
        slot = self.next
        self.knobs += (Knob(name, slot, low, high, default, meaning, named, self.whole if whole is None else whole,
                            needs),)
        self.next += 1
        return slot


def knob_vector(knobs: Iterable[Knob], v: Variant | None = None) -> np.ndarray:
    """The knob vector of these knobs at their defaults, at variant `v` where given (0 in the slots no knob
    takes)."""
    p = np.zeros(NPRM, np.float64)
    for k in knobs:
        p[k.slot] = k.default_at(v)
    return p
