"""The strategy library: built-in strategies chosen by integer id and tuned by named knobs, and
strategies users write themselves (strategies.user).

A strategy argument is a name with optional knobs, `baseline:freeze=never,hold_black3=8`
(DESIGN.md). Knob values travel to the kernels as a float vector, so changing one never recompiles.
Every strategy, built-in or user, is a numba function of the contract's signature
(sim.engine.contract.DECIDE_SIG) handed to the engine as a first-class function value: the engine's
compiled code holds no strategy, and adding one touches no engine file.

This package is the public face of the strategies: it re-exports the registry's names (strategies/registry.py) and
the knobs' (strategies/knobs.py), and registers the built-ins by importing the library, then `search`, which plays
the library's baseline in its rollouts. The modules of the package import what they need from those modules, never
from the package itself (tests/test_layers.py: no import cycle).
"""

from __future__ import annotations

from . import library, search
from .knobs import FEATURES, Feature, Knob, KnobTable, StrategyError, check_scope, family_of, knob_vector
from .registry import (
    REGISTRY,
    StrategyChoice,
    StrategySpec,
    load_file,
    parse_strategy,
    register,
    seal_built_ins,
    variant_text,
)

# importing library and search (above) registered the built-ins: the library, as every process has it
BUILT_IN = seal_built_ins()

__all__ = ["BUILT_IN", "FEATURES", "REGISTRY", "Feature", "Knob", "KnobTable", "StrategyChoice", "StrategyError",
           "StrategySpec", "check_scope", "family_of", "knob_vector", "library", "load_file", "parse_strategy",
           "register", "search", "variant_text"]
