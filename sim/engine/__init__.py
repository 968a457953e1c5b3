"""The numba engine. Importing it first points numba's disk cache at the folder of this exact
source version (sim/engine/cache.py), before any kernel or strategy is decorated."""

from .cache import configure

configure()
