"""Test setup: make tests/support.py importable. The compiled engine is found where the package
keeps it (sim/engine/jit.py), the same folder the command line and notebooks use."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
