"""The folders the compiled code is kept in, and when old ones go.

They sit in a per-user cache (`~/.cache/canasta-lab`, or `$NUMBA_CACHE_DIR/canasta-lab`), one folder per compiled
source version (sim/engine/sources.py names them), shared by every checkout, notebook and test of the same sources.
Folders of other source versions are removed only when a command is about to compile or load (never at import),
and never one that another process is using (each process marks the folders it uses while it runs) or one used in
the last day; of the rest the most recently used KEEP per kind stay.

This file holds no compiled code, so it is outside every hash."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

KEEP = 4  # folders of other source versions kept per kind (the most recently used)
FRESH_SECONDS = 24 * 3600  # a folder used this recently is never removed: another checkout may be about to use it
IN_USE = ".in-use"  # in each folder a process uses: a file per process, named by its pid, removed at its exit
FAMILIES = ("engine-", "strategy-", "user-")  # the cache folders' names start so


def user_cache_root() -> Path:
    """$NUMBA_CACHE_DIR/canasta-lab when set, else the platform's per-user cache folder."""
    env = os.environ.get("NUMBA_CACHE_DIR")
    if env:
        return Path(env) / "canasta-lab"
    if sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    elif os.name == "nt":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "canasta-lab"


def usable(d: Path) -> bool:
    try:
        d.mkdir(parents=True, exist_ok=True)
        return os.access(d, os.W_OK)
    except OSError:
        return False


def cache_root() -> Path:
    """The cache's root folder, made when missing; an unwritable home gives a private folder under the
    temporary directory."""
    root = user_cache_root()
    if not usable(root):
        root = Path(tempfile.gettempdir()) / f"canasta-lab-{os.getuid() if hasattr(os, 'getuid') else 'user'}"
        root.mkdir(parents=True, exist_ok=True)
    return root


def family(name: str) -> str:
    """`engine`, `strategy-heuristic` or `user`: the folders that are versions of one another."""
    return name.rsplit("-", 1)[0]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True


def in_use(folder: Path) -> bool:
    """Another living process marked this folder as in use."""
    marks = folder / IN_USE
    for m in marks.iterdir() if marks.is_dir() else ():
        if m.name.isdigit() and int(m.name) != os.getpid() and _alive(int(m.name)):
            return True
    return False


_MARKED: set[Path] = set()


def mark_in_use(folders: Iterable[Path]) -> None:
    """Mark this process's folders as used now and in use until it exits (only folders numba made already)."""
    for folder in folders:
        if folder in _MARKED or not folder.is_dir():
            continue
        try:
            os.utime(folder)
            (folder / IN_USE).mkdir(exist_ok=True)
            (folder / IN_USE / str(os.getpid())).touch()
        except OSError:
            continue
        _MARKED.add(folder)


@atexit.register
def _unmark() -> None:
    for folder in _MARKED:
        try:
            (folder / IN_USE / str(os.getpid())).unlink()
        except OSError:
            pass


def prune(root: Path, current: Iterable[str], now: float | None = None) -> list[Path]:
    """Remove the folders of other source versions that no process uses and none used in the last day, keeping
    the KEEP most recently used of each kind; returns what was removed."""
    keep = set(current)
    now = time.time() if now is None else now
    kinds: dict[str, list[Path]] = {}
    for p in root.iterdir() if root.is_dir() else ():
        if p.is_dir() and p.name not in keep and p.name.startswith(FAMILIES):
            kinds.setdefault(family(p.name), []).append(p)
    gone = []
    for others in kinds.values():
        others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        for p in others[KEEP:]:
            if now - p.stat().st_mtime < FRESH_SECONDS or in_use(p):
                continue
            shutil.rmtree(p, ignore_errors=True)
            gone.append(p)
    return gone


def folder_size(d: Path) -> int:
    return sum(p.stat().st_size for p in d.rglob("*") if p.is_file())
