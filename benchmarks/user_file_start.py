"""How fast a run starts with a user file that is kept compiled (`--load`), beside a plain run: the claim of
issue 36, part 5 ("a second run starts as fast as a plain run"), measured here rather than in a test, since
a test's bound on seconds fails on a host that only runs slow.

    python benchmarks/user_file_start.py [--rounds 5] [--games 4]

A user file of a new content (in a temporary folder) is compiled once; then plain and loaded runs of
`canasta-lab compare classic-4p` alternate, A B A B, each a fresh process. The children's CPU seconds (user +
system) and wall seconds are printed per kind, their medians and the loaded run's ratio to the plain one.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

USER_FILE = (ROOT / "benchmarks" / "probe_user_file.py").read_text()

PLAIN = ["-s", "baseline", "-s", "expert"]
LOADED = ["-s", "probe-high-discard", "-s", "expert", "--load", "mine.py"]


def timed(folder: Path, games: int, seats: list[str]) -> tuple[float, float, str]:
    """(CPU seconds, wall seconds, stderr) of one `compare` in a fresh process."""
    args = [sys.executable, "-m", "sim.cli", "compare", "classic-4p", "--games", str(games), "--seed", "1",
            "--quiet", "--workers", "1", *seats]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(args, capture_output=True, text=True, cwd=folder, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        sys.exit(f"user_file_start: {' '.join(seats)} failed: {r.stderr.strip()}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall, r.stderr


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="plain and loaded runs of each kind (default 5)")
    ap.add_argument("--games", type=int, default=4, help="games of each run (default 4: the start dominates)")
    a = ap.parse_args()
    if a.rounds < 1 or a.games < 1:
        sys.exit("user_file_start: --rounds and --games take a whole number of at least 1")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "mine.py").write_text(f"# {folder}: a content of its own, so its first run compiles\n" + USER_FILE)
        cpu, wall, err = timed(folder, a.games, LOADED)
        print(f"first run (compiles the file): {cpu:.2f} CPU s, {wall:.2f} s; {err.strip() or 'nothing said'}")
        runs: dict[str, list[tuple[float, float]]] = {"plain": [], "loaded": []}
        for _ in range(a.rounds):
            for kind, seats in (("plain", PLAIN), ("loaded", LOADED)):
                cpu, wall, err = timed(folder, a.games, seats)
                if err:
                    sys.exit(f"user_file_start: a {kind} run said something (did it compile?): {err.strip()}")
                runs[kind].append((cpu, wall))
    medians = {k: (statistics.median(c for c, _ in v), statistics.median(w for _, w in v)) for k, v in runs.items()}
    for kind, (cpu, wall) in medians.items():
        each = ", ".join(f"{c:.2f}" for c, _ in runs[kind])
        print(f"{kind}: median {cpu:.2f} CPU s, {wall:.2f} s wall ({a.rounds} runs; CPU s {each})")
    print(f"loaded / plain: {medians['loaded'][0] / medians['plain'][0]:.2f} in CPU, "
          f"{medians['loaded'][1] / medians['plain'][1]:.2f} in wall time")


if __name__ == "__main__":
    main()
