# Two promises of the README: `make run` and `make test` work on a fresh machine with Python 3.11.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# numba's compiled kernels are cached on disk here, so only the first run compiles
export NUMBA_CACHE_DIR ?= $(CURDIR)/.numba_cache

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/canasta-lab compare classic-4p -s baseline -s random --games 400 --seed 1 --out reports/main

test: $(STAMP)
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check sim strategies tests benchmarks

bench: $(STAMP)
	$(BIN)/canasta-lab bench classic-4p

clean:
	rm -rf $(VENV) .numba_cache .pytest_cache
