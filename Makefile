# Two promises of the README: `make run` and `make test` work on a fresh machine with Python 3.11.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench reports clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# the main job: its table on the terminal, its chart and data under out/ (ignored by git)
run: $(STAMP)
	$(BIN)/canasta-lab compare classic-4p -s baseline -s random --games 400 --seed 1 --out out/main --force

# the committed reports, regenerated on purpose
reports: $(STAMP)
	$(BIN)/canasta-lab compare classic-4p -s baseline -s random --games 400 --seed 1 --out reports/main --force

test: $(STAMP)
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check sim strategies tests benchmarks

bench: $(STAMP)
	$(BIN)/canasta-lab bench classic-4p

clean:
	-$(BIN)/canasta-lab cache --clear
	rm -rf $(VENV) .pytest_cache
