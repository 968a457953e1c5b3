"""Where the first compile's time goes: per compiled function (inclusive and self seconds) and per
numba compiler pass, from numba's own event system, in a fresh process with an empty cache.

    python benchmarks/compile_profile.py [--top 25]

Runs itself again in a child process with NUMBA_CACHE_DIR pointing at an empty temporary folder,
so the figures are a true cold start whatever is cached on this machine.
"""

from __future__ import annotations

import argparse
import os
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
        from sim.runner import make_job, run_chunk

        run_chunk(make_job("classic-4p", ["baseline"], 1), 0, 1, False)
    wall = time.perf_counter() - t0

    inclusive: dict[str, float] = defaultdict(float)
    own: dict[str, float] = defaultdict(float)
    stack: list[tuple[str, float, float]] = []  # name, start, time spent in children
    for ts, ev in comp.buffer:
        name = ev.data["dispatcher"].py_func.__module__ + "." + ev.data["dispatcher"].py_func.__qualname__
        if ev.is_start:
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
    lstart = 0.0
    for ts, ev in llvm.buffer:
        if ev.is_start:
            lstart = ts
        else:
            llvm_total += ts - lstart

    print(f"cold start to the end of the first game: {wall:.1f} s")
    print(f"time holding numba's LLVM lock (LLVM optimisation and code generation): {llvm_total:.1f} s")
    print(f"\nfunctions compiled: {len(own)}; the {top} largest by own time (s):")
    print(f"{'own':>7} {'inclusive':>10}  function")
    for n, s in sorted(own.items(), key=lambda x: -x[1])[:top]:
        print(f"{s:7.2f} {inclusive[n]:10.2f}  {n}")
    print(f"\ncompiler passes, own seconds summed over every function, the {top} largest:")
    for n, s in sorted(per_pass.items(), key=lambda x: -x[1])[:top]:
        print(f"{s:7.2f}  {n}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        profile(args.top)
        return
    with tempfile.TemporaryDirectory() as d:
        env = {**os.environ, "NUMBA_CACHE_DIR": d}
        subprocess.run([sys.executable, __file__, "--child", "--top", str(args.top)], env=env, check=True)


if __name__ == "__main__":
    main()
