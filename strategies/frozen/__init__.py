"""The frozen players: copies of a strategy's kernel kept exactly as they were, so that every later player is
measured against the same opponent. Nothing here is ever edited: a better player is a change to the live kernels
(strategies/heuristic.py, strategies/buraco.py) or a new strategy, measured against these.

* `reference.py` and `reference_buraco.py`: the strategy `reference` (registered by strategies/library.py), the
  fixed yardstick. `baseline` as it played at the end of issue 25 (commit 41ea89e), frozen in issue 26 (commit
  10c0bc6) and moved here in issue 36 with only their import lines and their "do not edit" line changed.
  tests/strategies/test_reference.py checks that it still plays the games recorded from that baseline at every
  preset (tests/golden/reference.json), at its defaults and with knobs changed.

Only frozen copies belong here, so that tools and reviewers can skip the folder: ruff leaves it out
(pyproject.toml, `extend-exclude`: a newer ruff's rules must not ask for an edit here; `ruff check
strategies/frozen/*.py` still checks it on demand) and its copies are the tree's largest duplication by design.
Each module still compiles into a cache folder of its own, named by the content of its sources
(`strategy-frozen.reference-<hash>`, sim/engine/sources.py), like any strategy module.
"""
