# relx developer commands. `make test` is what CI runs (.ci/run).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
SHARED ?= ../shared
PPI := $(SHARED)/corpora/ppi

.PHONY: install test lint demo results bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e ".[test]"
	touch $@

install: $(VENV)/.installed

lint: install
	$(BIN)/ruff check relx tests benchmarks

test: install
	$(BIN)/ruff check relx tests benchmarks
	$(BIN)/python -m pytest -q

# Until `relx extract` lands, the demo is 10-fold CV on the smallest corpus, IEPA.
demo: install
	$(BIN)/relx evaluate --config configs/ppi-klsh-rf.toml --cv 10 \
	    --corpus $(PPI)/IEPA-learning-format.xml.gz --report runs/demo/iepa-cv.json

results: install
	$(BIN)/python -m relx.results --shared $(SHARED) --out docs/results.md --runs runs/results

bench: install
	$(BIN)/python benchmarks/bench_kernels.py

clean:
	rm -rf $(VENV) runs .pytest_cache
