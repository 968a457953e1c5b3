"""The output folder every command but `play` writes (run folders, tables, a report): made, resumed or
refused by what it holds, and the record of which command wrote it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from sim.run.store import (
    DERIVED,
    OUTPUT_FILE,
    RUN_FILE,
    OtherRunError,
    ResultsError,
    can_write_in,
    claim,
    clear_output,
    write_json_atomic,
)


def whole_deals(games: int, rotations: int) -> int:
    """Games rounded up to whole deals: a deal counts only when every rotation of it is played."""
    return -(-games // rotations) * rotations


def folder_name(label: str) -> str:
    """A strategy label as a file name on every system (`:` is not allowed on Windows)."""
    return re.sub(r"[^A-Za-z0-9._=,+-]", "_", label)


def prepare_output(out: str | Path, force: bool, what: dict[str, Any], grows: tuple[str, ...] = ()) -> Path:
    """An output folder for run folders, tables and a report: made with its first run folder. An
    existing one is resumed when it holds this same command (`what`: the command, rules, seed and
    strategies), or the same but for the settings in `grows` (a sweep's rows: asked again with one more
    value, it plays only the new row, each row's games being a run folder of their own); one that holds
    another command's output (sim.run.store.claim: a play run folder included) or this command's with
    other settings, or a report with no run beside it, is refused, and `force` clears it, removing only
    what canasta-lab wrote there."""
    p = Path(out)
    if p.exists() and not p.is_dir():
        raise ResultsError(f"output {str(p)!r} is a file; give a folder path (it is created)")
    probe = p
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir() or not can_write_in(probe):
        raise ResultsError(f"cannot write {str(p)!r}: folder {str(probe)!r} is not writable")
    command = what["command"]
    other = claim(p, command, force)
    if not p.is_dir():
        return p
    if other is not None:
        clear_output(p, other)
        return p
    what = json.loads(json.dumps(what))  # as it reads back
    record = p / OUTPUT_FILE
    theirs = None
    if record.exists():
        try:
            theirs = json.loads(record.read_text())
        except ValueError:
            theirs = {"command": "a damaged record"}
    ours = [e.name for e in p.iterdir() if e.name in DERIVED]
    runs = [e for e in p.iterdir() if (e / RUN_FILE).exists()]
    differs = _differences(theirs, what, grows) if theirs is not None else []
    if differs:
        if not force:
            raise OtherRunError(f"{str(p)!r} holds the results of another {command} (different "
                                f"{differs[0]}); give another folder, or --force to replace them")
    elif theirs is None and ours and not runs and not force:
        # a report without its games: not one of ours to replace silently
        raise ResultsError(f"{str(p)!r} already holds {ours[0]} but no run of canasta-lab; choose another "
                           "folder or pass --force")
    else:
        return p
    clear_output(p, command)  # --force: only what canasta-lab wrote goes
    return p


def _differences(a: dict[str, Any], b: dict[str, Any], grows: tuple[str, ...]) -> list[str]:
    """The settings two records differ in, in name order, those that may grow aside."""
    return [k for k in sorted(set(a) | set(b)) if k not in grows and a.get(k) != b.get(k)]


def write_output_record(out: Path, what: dict[str, Any]) -> None:
    """What this output folder holds, so another command is not written over it (prepare_output)."""
    write_json_atomic(out / OUTPUT_FILE, what)
