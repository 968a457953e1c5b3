# Two promises of the README: `make run` and `make test` work on a fresh machine with Python 3.11.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast lint bench reports notebooks try-numba clean $(VENV)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# `make .venv`: the environment alone, created and installed as every target below does it (phony: the folder
# exists before its install is done, so the stamp decides)
$(VENV): $(STAMP)

# the main job: should I freeze the pile, and how does the answer change across the four-player presets?
# A report per preset and one view across them under out/run/ (ignored by git); the games stay in
# out/studies/ so a notebook or report reuses them
run: $(STAMP)
	$(BIN)/canasta-lab report freezing_the_pile --variant 4p --games 2000 --check-games 0 --out out/run --force
	@echo "next: open out/run/freezing_the_pile-across.md (every four-player preset side by side), then each"
	@echo "      preset's report, out/run/freezing_the_pile.md (classic-4p) and out/run/freezing_the_pile-PRESET.md;"
	@echo "      the studies with their answers at full size are in reports/ and notebooks/;"
	@echo "      make notebooks opens them in Jupyter; canasta-lab report --help writes your own"

# the committed reports, regenerated on purpose, each by the command its first line states: every question at
# every preset (each question's report, its answer record in reports/answers/, the view across presets and a
# strategy card per preset in reports/cards/), the balance of the presets and notebook 06's strategy; then the
# notebooks, executed in place from the same cached games. Hours on two cores from an empty cache (README)
reports: $(STAMP)
	$(BIN)/canasta-lab report across_variants --force
	$(BIN)/canasta-lab report variant_balance --force
	$(BIN)/canasta-lab report your_own_strategy --force
	$(BIN)/python -m pip install --quiet -e '.[notebooks]'
	$(BIN)/jupyter nbconvert --to notebook --execute --inplace --ExecutePreprocessor.timeout=-1 notebooks/0*.ipynb

# Jupyter on the notebooks (installs the notebook extra into .venv first)
notebooks: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[notebooks]'
	cd notebooks && ../$(BIN)/jupyter lab

# the whole suite at full size, as CI runs it (CANASTA_TEST_SCALE=1 whatever the shell says). Two test
# processes: CI has two cores, and the suite's longest tests (the engine compiled afresh in a child
# process) then run beside the rest
test: $(STAMP)
	CANASTA_TEST_SCALE=1 $(BIN)/python -m pytest -q -n 2

# the loop while editing: at most 3 minutes on two cores once the engine is compiled. Every test module,
# the large game counts (fuzz and invariant games, plain-Python games) at CANASTA_TEST_SCALE of their size,
# without the tests that compile an engine from scratch (marked compile) or run the notebooks (notebook);
# the slowest tests are listed at the end. `make test` (and CI) runs the whole suite at full size.
FAST_SCALE := 0.05
test-fast: $(STAMP)
	CANASTA_TEST_SCALE=$(FAST_SCALE) $(BIN)/python -m pytest -q -n 2 -m "not compile and not notebook" --durations=15

lint: $(STAMP)
	$(BIN)/ruff check sim strategies tests benchmarks

bench: $(STAMP)
	$(BIN)/canasta-lab bench classic-4p

# the newest numba in a scratch environment (.venv-numba): the compile glue's checks (sim/engine/fence.py say so
# where a part is skipped), a cold compile and the golden games, on an empty compiled cache (docs/engine.md)
try-numba:
	$(PYTHON) -m venv .venv-numba
	.venv-numba/bin/python -m pip install --quiet --upgrade pip
	.venv-numba/bin/python -m pip install --quiet -e '.[test]'
	.venv-numba/bin/python -m pip install --quiet --upgrade numba llvmlite
	.venv-numba/bin/python -c "import numba; print('numba', numba.__version__)"
	NUMBA_CACHE_DIR=$$(mktemp -d) CANASTA_TEST_SCALE=0.05 .venv-numba/bin/python -m pytest -q \
		tests/engine/test_jit.py tests/test_golden.py tests/engine/test_layout.py

clean:
	-$(BIN)/canasta-lab cache --clear
	rm -rf $(VENV) .venv-numba .pytest_cache
