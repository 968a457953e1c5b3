"""How strong each library strategy is against `baseline`, from one committed run.

`canasta-lab strategies --measure` plays every named strategy against `baseline` on duplicate deals
and writes the figures, with the command that produced them, to strategies/strength.json, which is
committed and shipped with the package. `canasta-lab strategies` and docs/strategies.md read that
file, so what a user sees is a measurement anyone can repeat, never a number typed by hand.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import strategies as strategies_pkg
from sim.analysis.compare import compare
from sim.run.store import write_json_atomic
from strategies import BUILT_IN, REGISTRY, StrategyError

STRENGTH_FILE = Path(strategies_pkg.__file__).parent / "strength.json"
REFERENCE = "baseline"
FIELDS = ("games", "win_rate", "win_low", "win_high", "margin", "margin_low", "margin_high", "elo", "elo_low",
          "elo_high")


def library_names() -> list[str]:
    """The library's strategies other than the reference, in the library's order (not the tuned or
    user strategies a process registered later)."""
    return [n for n in REGISTRY if n in BUILT_IN and n != REFERENCE]


def measure(variant: str, games: int, seed: int, games_for: Mapping[str, int] | None = None,
            names: Sequence[str] | None = None, workers: int = 0, command: str = "",
            report: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Play each strategy against `baseline` (`games` games, or `games_for[name]` for a slow one)
    and return the record strategies/strength.json holds."""
    names = list(names) if names is not None else library_names()
    games_for = dict(games_for or {})
    unknown = [n for n in [*names, *games_for] if n not in REGISTRY]
    if unknown:
        raise StrategyError(f"unknown strategy {unknown[0]!r}; accepted: {', '.join(library_names())}")
    rows: list[dict[str, Any]] = []
    meta: dict[str, Any] = {}
    for name in names:
        c = compare(variant, [name, REFERENCE], games_for.get(name, games), seed, workers=workers)
        pair = c.pairs.iloc[0]
        rows.append({"strategy": name, **{f: (int(pair[f]) if f == "games" else round(float(pair[f]), 4))
                                          for f in FIELDS},
                     "wall_seconds": round(float(c.meta.get("wall_seconds", 0.0)), 1)})
        meta = c.meta
        if report is not None:
            report(f"{name}: {line(rows[-1])}")
    return {"variant": variant, "reference": REFERENCE, "seed": seed, "command": command,
            "code_version": meta.get("code_version"), "machine": meta.get("machine"), "rows": rows}


def write(record: dict[str, Any], path: str | Path = STRENGTH_FILE) -> None:
    write_json_atomic(Path(path), record)


def load(path: str | Path = STRENGTH_FILE) -> dict[str, Any] | None:
    """The committed record, or None when there is none (a strategy library without a measurement)."""
    p = Path(path)
    if not p.is_file():
        return None
    return json.loads(p.read_text())


def line(row: Mapping[str, Any]) -> str:
    return (f"win rate {row['win_rate']:.3f} [{row['win_low']:.3f}, {row['win_high']:.3f}], "
            f"margin {row['margin']:+.0f} [{row['margin_low']:+.0f}, {row['margin_high']:+.0f}] per deal, "
            f"{row['games']:,} games")


def by_name(record: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    return {r["strategy"]: r for r in record["rows"]} if record else {}


def markdown(record: dict[str, Any]) -> str:
    """The table docs/strategies.md shows, under the command that produced it."""
    cv = record.get("code_version") or {}
    version = (f"engine sources {cv.get('engine_sources')}, git {cv.get('git')}" if isinstance(cv, dict)
               else str(cv))
    out = [f"Against `{record['reference']}` at {record['variant']}, measured by `{record['command']}` "
           f"({version}):", "",
           "| strategy | games | win rate [95%] | margin per deal [95%] | Elo [95%] |", "|---|---|---|---|---|"]
    for r in record["rows"]:
        out.append(f"| `{r['strategy']}` | {r['games']:,} | {r['win_rate']:.3f} [{r['win_low']:.3f}, "
                   f"{r['win_high']:.3f}] | {r['margin']:+.0f} [{r['margin_low']:+.0f}, {r['margin_high']:+.0f}] | "
                   f"{r['elo']:+.0f} [{r['elo_low']:+.0f}, {r['elo_high']:+.0f}] |")
    return "\n".join(out) + "\n"


def command_line(variant: str, games: int, seed: int, games_for: Mapping[str, int]) -> str:
    parts = ["canasta-lab", "strategies", "--measure", variant, "--games", str(games), "--seed", str(seed)]
    for name, n in games_for.items():
        parts += ["--games-for", f"{name}={n}"]
    return shlex.join(parts)
