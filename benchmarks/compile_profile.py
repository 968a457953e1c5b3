"""Where the first compile's time goes: per compiled function (inclusive and self seconds) and per
numba compiler pass, from numba's own event system, in a fresh process with an empty cache.

    python benchmarks/compile_profile.py [--top 25] [--keep DIR]

Runs itself again in a child process with NUMBA_CACHE_DIR pointing at an empty temporary folder,
so the figures are a true cold start whatever is cached on this machine. The child's CPU seconds
(user + system) are printed too: on a shared machine they move far less than the wall time.
The game compiles the engine and the one strategy it plays (baseline), as any run does.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict


def profile(top: int) -> None:
    from numba.core import event

    t0 = time.perf_counter()
    with event.install_recorder("numba:compile") as comp, event.install_recorder("numba:run_pass") as passes, \
            event.install_recorder("numba:llvm_lock") as llvm:
        from sim.run.runner import make_job, run_chunk

        run_chunk(make_job("classic-4p", ["baseline"], 1), 0, 1, False)
    wall = time.perf_counter() - t0

    inclusive: dict[str, float] = defaultdict(float)
    own: dict[str, float] = defaultdict(float)
    versions: dict[str, int] = defaultdict(int)  # signatures compiled: a constant argument gives its own
    stack: list[tuple[str, float, float]] = []  # name, start, time spent in children
    for ts, ev in comp.buffer:
        name = ev.data["dispatcher"].py_func.__module__ + "." + ev.data["dispatcher"].py_func.__qualname__
        if ev.is_start:
            versions[name] += 1
            stack.append((name, ts, 0.0))
        else:
            n, start, child = stack.pop()
            dt = ts - start
            inclusive[n] += dt
            own[n] += dt - child
            if stack:
                pn, ps, pc = stack[-1]
                stack[-1] = (pn, ps, pc + dt)
    per_pass: dict[str, float] = defaultdict(float)  # own time: nested passes (callees compiled while
    pstack: list[tuple[str, float, float]] = []  # typing a caller) are charged to themselves
    for ts, ev in passes.buffer:
        if ev.is_start:
            pstack.append((ev.data["name"].split(" [")[0], ts, 0.0))
        else:
            n, start, child = pstack.pop()
            per_pass[n] += ts - start - child
            if pstack:
                pn, ps, pc = pstack[-1]
                pstack[-1] = (pn, ps, pc + ts - start)
    llvm_total = 0.0
    llvm_own: dict[str, float] = defaultdict(float)  # LLVM seconds while the function was the one compiling
    cstack: list[str] = []
    lstart = 0.0
    for ts, kind, ev in sorted([(ts, 0, ev) for ts, ev in comp.buffer] + [(ts, 1, ev) for ts, ev in llvm.buffer],
                               key=lambda x: x[0]):
        if kind == 0:
            if ev.is_start:
                cstack.append(ev.data["dispatcher"].py_func.__module__ + "."
                              + ev.data["dispatcher"].py_func.__qualname__)
            else:
                cstack.pop()
        elif ev.is_start:
            lstart = ts
        else:
            llvm_total += ts - lstart
            llvm_own[cstack[-1] if cstack else "(none)"] += ts - lstart

    print(f"cold start to the end of the first game: {wall:.1f} s")
    print(f"time holding numba's LLVM lock (LLVM optimisation and code generation): {llvm_total:.1f} s")
    print(f"\nfunctions compiled: {len(own)}, signatures: {sum(versions.values())}; "
          f"the {top} largest by own time (s; of it, holding LLVM's lock), with the signatures compiled:")
    print(f"{'own':>7} {'of it LLVM':>10} {'inclusive':>10} {'sigs':>5}  function")
    for n, s in sorted(own.items(), key=lambda x: -x[1])[:top]:
        print(f"{s:7.2f} {llvm_own[n]:10.2f} {inclusive[n]:10.2f} {versions[n]:5d}  {n}")
    print(f"\ncompiler passes, own seconds summed over every function, the {top} largest:")
    for n, s in sorted(per_pass.items(), key=lambda x: -x[1])[:top]:
        print(f"{s:7.2f}  {n}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--keep", metavar="DIR",
                    help="compile into DIR (a new or empty folder) and keep it, e.g. for the tests' NUMBA_CACHE_DIR")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        profile(args.top)
        return
    if args.keep and os.path.isdir(args.keep) and os.listdir(args.keep):
        sys.exit(f"--keep {args.keep}: the folder is not empty; give a new or empty folder")
    with tempfile.TemporaryDirectory() as tmp:
        d = args.keep or tmp
        env = {**os.environ, "NUMBA_CACHE_DIR": d}
        t0 = time.perf_counter()
        subprocess.run([sys.executable, __file__, "--child", "--top", str(args.top)], env=env, check=True)
        wall = time.perf_counter() - t0
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"\nthe child process: {wall:.1f} s wall, {ru.ru_utime + ru.ru_stime:.1f} s CPU "
          f"(user {ru.ru_utime:.1f} + system {ru.ru_stime:.1f}), peak memory {ru.ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
