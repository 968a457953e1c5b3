"""`python -m sim.cli ARGS`: the `canasta-lab` command (the tests run it so)."""

import sys

from sim.cli import main

sys.exit(main())
