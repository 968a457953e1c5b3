# Two promises of the README: `make run` and `make test` work on a fresh machine with Python 3.11.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench reports notebooks clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# the main job: should I freeze the pile at Classic Canasta for four? The answer, its table and its
# charts under out/ (ignored by git); the games stay in out/studies/ so a notebook or report reuses them
run: $(STAMP)
	$(BIN)/canasta-lab report freezing_the_pile --games 8000 --check-games 0 --out out/run --force
	@echo "next: open out/run/freezing_the_pile.md and its charts in out/run/freezing_the_pile/;"
	@echo "      the studies with their answers at full size are in reports/ and notebooks/;"
	@echo "      make notebooks opens them in Jupyter; canasta-lab report --help writes your own"

# the committed reports, regenerated on purpose (about an hour on two cores: search is slow)
reports: $(STAMP)
	$(BIN)/canasta-lab report all --force
	$(BIN)/canasta-lab compare classic-4p -s baseline -s random --games 400 --seed 1 --out reports/main --force

# Jupyter on the notebooks (installs the notebook extra into .venv first)
notebooks: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[notebooks]'
	cd notebooks && ../$(BIN)/jupyter lab

# two test processes: CI has two cores, and the suite's longest tests (the engine compiled afresh in a child
# process) then run beside the rest
test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2

lint: $(STAMP)
	$(BIN)/ruff check sim strategies tests benchmarks

bench: $(STAMP)
	$(BIN)/canasta-lab bench classic-4p

clean:
	-$(BIN)/canasta-lab cache --clear
	rm -rf $(VENV) .pytest_cache
