#!/usr/bin/env bash
# Where the engine's time goes: samples `random` vs `random` at classic-4p with perf
# (Debian package linux-perf). Numba's JIT code has no symbols; the two hottest addresses
# 16 bytes apart are numba's JIT-compiled nrt_atomic_add / nrt_atomic_sub (reference counting).
set -euo pipefail
cd "$(dirname "$0")/.."
cat > /tmp/canasta_profile.py <<'PY'
from sim.run.runner import make_job, run_chunk
job = make_job("classic-4p", ["random"], 1)
run_chunk(job, 0, 5, False)
for i in range(6):
    run_chunk(job, 100 + i * 500, 500, False)
PY
perf record -F 2000 -g -o /tmp/canasta.perf .venv/bin/python /tmp/canasta_profile.py
perf report -i /tmp/canasta.perf --no-children --sort dso,symbol --percent-limit 2 | head -40
