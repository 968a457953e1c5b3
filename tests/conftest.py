"""Test setup: share the numba disk cache with `make` and make tests/support.py importable."""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))
sys.path.insert(0, str(Path(__file__).parent))
