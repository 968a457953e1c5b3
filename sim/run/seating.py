"""Who sits where in a head to head: one strategy a side, the seatings a sweep or a round robin uses,
and the side labels a person reads."""

from __future__ import annotations

from sim.rules import Variant
from sim.run.frames import side_labels
from sim.run.runner import Job
from strategies import StrategyChoice


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
    """Side labels of the seating sim.analysis.sweep.seating makes: `a` on side 0, `b` on every other side."""
    return [a] + [b] * (v.n_sides - 1)


def short(label: str) -> str:
    """A side's label as a person says it: `baseline` for a partnership of two `baseline` seats."""
    parts = label.split("+")
    return parts[0] if len(set(parts)) == 1 else label


def seating(variant: Variant, a: StrategyChoice, b: StrategyChoice) -> list[StrategyChoice]:
    """`a` on every seat of side 0, `b` on every other seat (so in a 3-player game, b twice)."""
    return [a if variant.seat_side(p) == 0 else b for p in range(variant.players)]
