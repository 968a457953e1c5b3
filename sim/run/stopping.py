"""Every way to stop a run stops it (docs/results.md, "A stopped run resumes").

* Ctrl-C (SIGINT) and `kill PID` (SIGTERM) of the main process: while a run plays (`sigterm_interrupts`),
  a SIGTERM raises KeyboardInterrupt as Ctrl-C does, so the run stops the same way, keeps every finished
  part and says how to resume; the previous handler is back when the run ends, so a notebook kernel or a
  program that calls the API keeps its own handling.
* The worker processes (`start_worker`, each one's initializer) leave Ctrl-C to the main process, which
  stops them, end at once on SIGTERM, and end by themselves when their parent ends however it ended
  (`kill -9`, a notebook kernel's restart, the out-of-memory killer): on Linux the kernel sends them
  SIGTERM (the parent-death signal), elsewhere a thread of theirs watches the parent.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

PR_SET_PDEATHSIG = 1  # prctl(2), <linux/prctl.h>
WATCH_SECONDS = 1.0  # how often a worker without the parent-death signal looks at its parent
ORPHANED = 1  # the exit status of a worker that ended because its parent did


@contextmanager
def sigterm_interrupts() -> Iterator[None]:
    """While the block runs, a SIGTERM raises KeyboardInterrupt in the main thread, as Ctrl-C does: a run
    stopped by `kill PID` (or a batch system's or a container's stop) keeps its finished parts and ends
    with the same line on how to resume. A second SIGTERM before the block ends is handled as it was before
    the block (by default it ends the process at once; every part on disk is whole). The handler in place
    before (Python's default, a notebook kernel's, the caller's) is put back when the block ends.

    Only the main thread can set a signal handler: from another thread, or where the handler in place was
    not set from Python (it could not be put back), the block changes nothing."""
    sig = getattr(signal, "SIGTERM", None)
    if sig is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(sig)
    if previous is None or getattr(previous, "_canasta_lab_stop", False):  # not Python's, or ours already
        yield
        return
    signal.signal(sig, _interrupt_once(sig, previous))
    try:
        yield
    finally:
        signal.signal(sig, previous)


def _interrupt_once(sig: int, previous: Any) -> Callable[[int, Any], None]:
    def handler(signum: int, frame: Any) -> None:
        if not handler.fired:  # type: ignore[attr-defined]
            handler.fired = True  # type: ignore[attr-defined]
            raise KeyboardInterrupt
        signal.signal(sig, previous)  # a second one: as before the run
        if callable(previous):
            previous(signum, frame)
        elif previous == signal.SIG_DFL:
            os.kill(os.getpid(), sig)

    handler.fired = False  # type: ignore[attr-defined]
    handler._canasta_lab_stop = True  # type: ignore[attr-defined]
    return handler


def start_worker(parent: int | None = None) -> None:
    """The initializer of each worker process. Ctrl-C is the main process's to act on: it stops the workers
    (a terminal's Ctrl-C reaches every process of its group; a worker that acted on it too would print a
    traceback and could stop between two tasks). A SIGTERM ends the worker at once, whatever handler it
    inherited from the main process. The worker ends when `parent` (default: its parent now) does."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    exit_with_parent(parent)


def exit_with_parent(parent: int | None = None, death_signal: bool = True) -> str:
    """Make this process end when its parent process `parent` (default: its parent now) ends, however it
    ends: on Linux the kernel sends it SIGTERM (prctl's parent-death signal); elsewhere, or where prctl
    is not to be had (or `death_signal` is False), a daemon thread looks every WATCH_SECONDS at the parent
    and ends the process once the parent is another (the orphan's new parent: init or a subreaper). A
    parent already gone ends it at once. Returns which: "prctl" or "watchdog"."""
    parent = os.getppid() if parent is None else parent
    how = "prctl" if death_signal and parent_death_signal(signal.SIGTERM) else "watchdog"
    if how == "watchdog":
        threading.Thread(target=_watch_parent, args=(parent,), name="canasta-lab-parent-watch", daemon=True).start()
    if os.getppid() != parent:  # the parent ended before the signal was asked for or the watch began
        os._exit(ORPHANED)
    return how


def parent_death_signal(sig: int) -> bool:
    """Ask Linux to send `sig` to this process when the thread that made it ends; False where it cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl  # libc's, linked into the interpreter
    except (OSError, AttributeError):
        return False
    prctl.restype = ctypes.c_int
    try:
        return prctl(ctypes.c_int(PR_SET_PDEATHSIG), ctypes.c_ulong(sig), ctypes.c_ulong(0), ctypes.c_ulong(0),
                     ctypes.c_ulong(0)) == 0
    except OSError:
        return False


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(ORPHANED)
