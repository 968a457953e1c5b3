"""Who sits where in a head to head: one strategy a side, the seatings a sweep or a round robin uses,
and the side labels a person reads."""

from __future__ import annotations

from enum import StrEnum

from sim.rules import Variant
from sim.run.frames import side_labels
from sim.run.runner import Job
from strategies import StrategyChoice


class Seating(StrEnum):
    """How two strategies share the sides of a game with three sides or more (each for himself): the
    answer to "does A beat B" can change with it, so every comparison names the one it used. With two
    sides both are the same games."""

    REST = "rest"  # A on one side, B on every other: one player against a table of the other
    ALTERNATE = "alternate"  # A, B, A, ... side by side: A holds every other side


SEATINGS = ", ".join(s.value for s in Seating)


def parse_seating(text: str | Seating) -> Seating:
    """A seating by its name; one line naming what is accepted otherwise."""
    try:
        return Seating(str(text).strip().lower())
    except ValueError:
        raise ValueError(f"unknown seating {text!r}; accepted: rest (one against the rest), alternate "
                         "(alternating sides)") from None


def side_strategies(variant: Variant, a: str, b: str, mode: Seating = Seating.REST) -> list[str]:
    """Per side of the base seating, `a` or `b` under `mode` (a side's label, or a side's strategy)."""
    if mode == Seating.ALTERNATE:
        return [a if s % 2 == 0 else b for s in range(variant.n_sides)]
    return [a] + [b] * (variant.n_sides - 1)


def seating_acts(variant: Variant) -> bool:
    """Whether the seating changes the games: only with three sides or more; with two, `rest` and
    `alternate` both put A on one side and B on the other."""
    return variant.n_sides > 2


def two_sides_text(variant: Variant) -> str:
    """How a game of two sides is played: partnerships, or one against one."""
    return "partnerships, side against side" if any(len(side) > 1 for side in variant.sides) else "one against one"


def what_seating(variant: Variant, mode: Seating) -> dict[str, str]:
    """The seating as an output folder's record holds it: only where it changes the games (three sides or
    more), so a folder written before the choice existed, at two sides, is the same command still."""
    return {"seating": mode.value} if seating_acts(variant) else {}


def seating_text(variant: Variant, mode: Seating, a: str = "A", b: str = "B") -> str:
    """The seating in words, as every output states it."""
    n = variant.n_sides
    if not seating_acts(variant):
        return f"{a} against {b}: {two_sides_text(variant)}"
    pattern = ", ".join(side_strategies(variant, a, b, mode))
    what = ("one against the rest" if mode == Seating.REST else "alternating seats")
    return f"{what} ({mode.value}): the {n} sides play {pattern} in turn of play, rotated over every deal"


def refuse_mixed_sides(job: Job) -> None:
    """A head-to-head compares strategies side against side: no side may mix strategies."""
    seats = job.seat_labels(0)
    for s, side in enumerate(job.variant.sides):
        names = {seats[p] for p in side}
        if len(names) > 1:
            n = len(job.strategies)
            raise ValueError(f"with {n} strategies at {job.variant.players} seats the seating is "
                             f"{' '.join(seats)}, so side {s} would mix {' and '.join(sorted(names))}; compare needs "
                             f"one strategy per side: give at most {job.variant.n_sides} strategies, or as many as "
                             "seats with partners equal")


def side_labels0(job: Job) -> list[str]:
    """The distinct side labels of the base seating (game 0), in side order."""
    return list(dict.fromkeys(side_labels(job, 0)))


def one_against_rest(v: Variant, a: str, b: str) -> list[str]:
    """Side labels of the seating `seating` makes by default: `a` on side 0, `b` on every other side."""
    return side_strategies(v, a, b, Seating.REST)


def short(label: str) -> str:
    """A side's label as a person says it: `baseline` for a partnership of two `baseline` seats."""
    parts = label.split("+")
    return parts[0] if len(set(parts)) == 1 else label


def seat_list(variant: Variant, a: StrategyChoice, b: StrategyChoice,
              mode: Seating = Seating.REST) -> list[StrategyChoice]:
    """The strategy of every seat: with `rest`, `a` on every seat of side 0 and `b` on every other (in a
    3-player game, b twice); with `alternate`, `a` on the even sides and `b` on the odd ones."""
    sides = side_strategies(variant, "a", "b", mode)
    return [a if sides[variant.seat_side(p)] == "a" else b for p in range(variant.players)]
