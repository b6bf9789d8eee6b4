# Two entry points, each installs what it needs into ./.venv first:
#   make train   train the default config and print its evaluation (the main job)
#   make test    lint with ruff, type-check pagadores_env with mypy, then run the whole test suite
# For a quick loop while editing: make test-fast (skips the tests marked slow; CI runs make test).
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
CONFIG ?= configs/default.yaml

.PHONY: install train results test test-fast lint typecheck bench bench-solver clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	# CPU torch first, so nothing later can pull a multi-GB CUDA build.
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e '.[train,dev,openspiel,benchmark,ray]'
	touch $(STAMP)

install: $(STAMP)

# --fresh: retrain from scratch instead of resuming an earlier runs/<name> folder. The table it
# prints is also written to runs/<name>/results.md, with the commit, platform and versions.
train: $(STAMP)
	$(PY) -m pagadores_cli.train $(CONFIG) --fresh

# make train, then publish its results.md as docs/results/<name>.md, the file the README
# quotes, and its learning curve beside it (tests/test_published_results.py holds the quote to it).
RUN_NAME := $(basename $(notdir $(CONFIG)))
results: train
	mkdir -p docs/results
	cp runs/$(RUN_NAME)/results.md docs/results/$(RUN_NAME).md
	cp runs/$(RUN_NAME)/learning_curve.png docs/results/$(RUN_NAME)_learning_curve.png

lint: $(STAMP)
	$(VENV)/bin/ruff check .

# What mypy checks and how strictly lives in pyproject.toml ([tool.mypy]).
typecheck: lint
	$(VENV)/bin/mypy

# pytest exits 5 when it collects no test: that must fail, never pass silently.
test: typecheck
	$(PY) -m pytest -n 2 -q; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; exit $$rc

test-fast: typecheck
	$(PY) -m pytest -n 2 -q -m "not slow"

# pygame only lets PettingZoo's tictactoe_v3 (the speed anchor) import. BASELINE=FILE (what
# `pagadores bench --json` printed on another commit) adds both runs' numbers side by side.
bench: $(STAMP)
	$(PY) -m pip install -q pygame
	$(PY) -m pagadores_cli.bench $(if $(BASELINE),--baseline $(BASELINE))

# The exact solver's scaling report (3 and 4 players, 1–10 cards): about half an hour, and
# the 4-player rows at 10 cards need several GB.
bench-solver: $(STAMP)
	$(PY) -m pagadores_cli.bench --section solver

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis
