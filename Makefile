# Two entry points, each installs what it needs into ./.venv first:
#   make train   train the default config and print its evaluation (the main job); installs
#                the train extra only
#   make test    check for the browser the web page's tests drive (Debian's chromium and
#                chromium-driver: installed with apt-get when missing and run as root, else a
#                one-line stop naming the command), lint with ruff, type-check pagadores_env
#                with mypy, check the extras-free install in ./.venv-core, build the
#                documentation site strictly, then run the whole test suite (budget: 15
#                minutes on 2 cores); installs every extra (all)
# For a quick loop while editing: make test-fast (skips the tests marked slow: 3.6 minutes on
# 2 cores at a load average of 2-3 from other work, measured; CI runs make test).
VENV   ?= .venv
PY     := $(VENV)/bin/python
# One stamp per install step: the virtualenv with torch, then the package with the extras a
# target needs. Installing every extra also covers train's.
TORCH_STAMP := $(VENV)/.installed-torch
TRAIN_STAMP := $(VENV)/.installed-train
ALL_STAMP   := $(VENV)/.installed-all
# torch's wheels come from pip's index unless TORCH_INDEX names another: from PyPI on Linux
# that is the CUDA build (GBs); make train TORCH_INDEX=https://download.pytorch.org/whl/cpu
# installs the CPU build. torch goes first, so the extras find their pin satisfied.
TORCH_INDEX ?=
TORCH_FROM := $(if $(TORCH_INDEX),$(TORCH_INDEX),pip's index (on Linux PyPI gives the CUDA build: \
  TORCH_INDEX=https://download.pytorch.org/whl/cpu for the CPU one))
# The extras-free install: the package alone, as `pip install pagadores-env` gives it.
CORE_VENV ?= .venv-core
CORE_PY   := $(CORE_VENV)/bin/python
CONFIG ?= configs/default.yaml

.PHONY: install train results measurements benchmark-results test test-fast lint typecheck extras-free docs bench bench-solver clean browser screenshot

# pip shows what it collects and its download progress: minutes on a first install.
$(TORCH_STAMP):
	@echo "== make: [1/3] the virtualenv $(VENV), with pip upgraded"
	python3 -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	@echo "== make: [2/3] torch 2.13.0 from $(TORCH_FROM)"
	$(PY) -m pip install torch==2.13.0 $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX))
	touch $@

$(TRAIN_STAMP): $(TORCH_STAMP) pyproject.toml
	@echo "== make: [3/3] pagadores-env with the train extra, editable"
	$(PY) -m pip install -e '.[train]'
	touch $@

$(ALL_STAMP): $(TORCH_STAMP) pyproject.toml
	@echo "== make: [3/3] pagadores-env with every extra (all), editable"
	$(PY) -m pip install -e '.[all]'
	touch $@ $(TRAIN_STAMP)

install: $(ALL_STAMP)

# --fresh: retrain from scratch instead of resuming an earlier runs/<name> folder. The table it
# prints is also written to runs/<name>/results.md, with the commit, platform and versions.
train: $(TRAIN_STAMP)
	$(PY) -m pagadores_cli.train $(CONFIG) --fresh

# make train, then publish its results.md as docs/results/<name>.md, the file the docs pages
# quote (docs/hooks.py fills their results markers from it at build time), and its learning
# curve beside it (tests/package/test_published_results.py holds the quotes to it).
RUN_NAME := $(basename $(notdir $(CONFIG)))
results: train
	mkdir -p docs/results
	cp runs/$(RUN_NAME)/results.md docs/results/$(RUN_NAME).md
	cp runs/$(RUN_NAME)/learning_curve.png docs/results/$(RUN_NAME)_learning_curve.png

# The measurements docs/training/search.md and docs/yardsticks.md quote (the NashConvs at 4
# players with 10 cards and 5 players with 5 cards run their passes two at a time), each a
# command with --out that writes its results file (the table with the command and what ran
# it) under runs/measured/,
# then published to docs/results/measured/. They read the trained runs: first
#   make results CONFIG=configs/search_3p.yaml   (and search_4p, search_6p, selfplay_4p,
#   selfplay_6p, paye_6p)
# Hours on 2 cores in all (the 6-player ones most); make -k measurements goes on past one
# that fails. A measurement already written is not repeated (delete its folder to redo it).
MEASURED := runs/measured
PAGADORES := $(VENV)/bin/pagadores
APPROX := --approximate --budget 1000 --games 200 --workers 2
# where the solver covers the table, the learned responses also scored exactly
APPROX3 := --approximate --budget 2000 --games 200 --score-exactly --workers 2
MEASUREMENTS := \
  nashconv_3p_search:nashconv^search:path=runs/search_3p^--players^3 \
  nashconv_4p5c_search:nashconv^search:path=runs/search_4p^--players^4^--cards^5 \
  nashconv_4p5c_lookahead:nashconv^lookahead^--players^4^--cards^5 \
  nashconv_4p5c_sensible:nashconv^sensible^--players^4^--cards^5 \
  nashconv_4p5c_selfplay:nashconv^model:path=runs/selfplay_4p/model.zip^--players^4^--cards^5 \
  nashconv_4p10c_sensible:nashconv^sensible^--players^4^--cards^10^--workers^2 \
  nashconv_4p10c_selfplay:nashconv^model:path=runs/selfplay_4p/model.zip^--players^4^--cards^10^--workers^2 \
  nashconv_5p5c_sensible:nashconv^sensible^--players^5^--cards^5^--workers^2 \
  approx4p_search:nashconv^search:path=runs/search_4p^--players^4^$(subst $() ,^,$(APPROX)) \
  approx4p_lookahead:nashconv^lookahead^--players^4^$(subst $() ,^,$(APPROX)) \
  eval4p_lookahead:evaluate^search:path=runs/search_4p^lookahead^--players^4^--games^20000^--no-exact \
  approx3p_sensible_exact:nashconv^sensible^--players^3^$(subst $() ,^,$(APPROX3)) \
  approx3p_lookahead_exact:nashconv^lookahead^--players^3^$(subst $() ,^,$(APPROX3)) \
  approx6p_lookahead:nashconv^lookahead^--players^6^$(subst $() ,^,$(APPROX)) \
  approx6p_search:nashconv^search:path=runs/search_6p^--players^6^$(subst $() ,^,$(APPROX)) \
  eval6p_lookahead:evaluate^search:path=runs/search_6p^lookahead^--players^6^--games^20000^--no-exact \
  paye_approx6p_lookahead:nashconv^--game^paye^lookahead^--players^6^--approximate^--workers^2 \
  paye_approx6p_paye_6p:nashconv^--game^paye^model:path=runs/paye_6p/model.zip^--players^6^--approximate^--workers^2
measurements: $(TRAIN_STAMP)
	@mkdir -p docs/results/measured
	@for entry in $(MEASUREMENTS); do \
	  name=$${entry%%:*}; args=$$(echo "$${entry#*:}" | tr '^' ' '); \
	  if [ ! -d $(MEASURED)/$$name ]; then \
	    echo "== $$name: pagadores $$args"; \
	    OPENBLAS_NUM_THREADS=1 $(PAGADORES) $$args --out $(MEASURED)/$$name --no-progress \
	      || exit 1; \
	  fi; \
	  cp $(MEASURED)/$$name/*.md docs/results/measured/$$name.md; \
	done

# The benchmark's baselines (docs/benchmark.md): the default suite and the search learner's
# trials into one folder (a rerun goes on where a killed one stopped), then its summary and
# plots published as docs/results/benchmark/, the page the docs link as the baseline table,
# with the trial records it aggregates (each names the commit that ran it) under trials/.
benchmark-results: $(ALL_STAMP)
	$(PY) -m pagadores_cli.benchmark configs/benchmark/default.yaml --out runs/benchmark --workers 2
	$(PY) -m pagadores_cli.benchmark configs/benchmark/search.yaml --out runs/benchmark --workers 2
	mkdir -p docs/results/benchmark/trials
	cp runs/benchmark/summary.md runs/benchmark/*.png docs/results/benchmark/
	cp runs/benchmark/trials/*.json docs/results/benchmark/trials/

lint: $(ALL_STAMP)
	$(VENV)/bin/ruff check .

# What mypy checks and how strictly lives in pyproject.toml ([tool.mypy]).
typecheck: lint
	$(VENV)/bin/mypy

# The wheel's declared dependencies suffice: `pip install .` with no extras (and mypy) into
# its own virtualenv, reinstalled from the sources on every run (about 50 s with a new
# virtualenv, seconds after that), then tests/extras_free.py, isolated (-I: the checkout is
# not on sys.path), runs PettingZoo's api_test and Gymnasium's check_env on every game's envs,
# plays them with masked random actions and makes the small calls of Paye's and Pasch's exact
# yardsticks, with torch, stable-baselines3, Ray and OpenSpiel absent, and mypy
# checks pagadores_env against that install's dependencies (settings in pyproject.toml,
# [tool.mypy]). build/ goes first: a stale build/lib would put deleted modules into the wheel.
extras-free:
	@echo "== make: the extras-free install into $(CORE_VENV)"
	test -x $(CORE_PY) || (python3 -m venv $(CORE_VENV) && \
		$(CORE_PY) -m pip install --upgrade pip)
	rm -rf build
	$(CORE_PY) -m pip install . mypy
	$(CORE_PY) -I tests/extras_free.py
	$(CORE_VENV)/bin/mypy

# The documentation site (mkdocs.yml) into build/site: --strict makes every warning an error (a
# broken link or image, a nav entry without its page, an object mkdocstrings cannot find), and
# docs/hooks.py stops the build at a marker it does not know, so the test command catches
# them. The generated parts of the pages (config reference, command line, observation fields,
# pictures, changelog, quoted results) come from the code at every build. In make test it
# comes after extras-free, which removes build/.
# NO_MKDOCS_2_WARNING: Material 9.8 prints a banner about MkDocs 2 on every build; it is no
# warning about this site.
docs: $(ALL_STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict

# The browser tests (tests/web/test_browser.py) drive Debian's chromium with its matching
# chromium-driver. Missing, they are installed when make runs as root (a container, CI);
# otherwise make stops with one line naming the command. USER_ID is who runs make.
CHROMIUM ?= /usr/bin/chromium
CHROMEDRIVER ?= /usr/bin/chromedriver
USER_ID ?= $(shell id -u)
BROWSER_INSTALL := apt-get update && apt-get install -y chromium chromium-driver
browser:
	@if [ -x $(CHROMIUM) ] && [ -x $(CHROMEDRIVER) ]; then :; \
	elif [ "$(USER_ID)" = 0 ]; then \
	  echo "== make: the browser tests need chromium and chromium-driver: installing them"; \
	  $(BROWSER_INSTALL); \
	else \
	  echo "make: the browser tests need $(CHROMIUM) and $(CHROMEDRIVER): run as root: $(BROWSER_INSTALL)" >&2; \
	  exit 1; \
	fi

# docs/web.png, the page as the README and docs/web.md show it: the screenshot the browser
# test takes (pagadores_web.browser), of a game against sensible with the exact hints.
screenshot: $(ALL_STAMP) browser
	$(PY) -m pagadores_web.browser docs/web.png

# pytest exits 5 when it collects no test: that must fail, never pass silently. CI installs
# every extra, so no test may be skipped there: PAGADORES_NO_SKIPS=1 makes any skipped test
# (a pytest.importorskip whose extra is missing, a skip mark) fail the run, listed with its
# reason under "skipped tests fail this run" (the hook is in tests/conftest.py).
test: browser typecheck extras-free docs
	PAGADORES_NO_SKIPS=1 $(PY) -m pytest -n 2 -q; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; exit $$rc

# Without PAGADORES_NO_SKIPS: a test whose extra is missing is skipped, and says why (-ra).
test-fast: typecheck
	$(PY) -m pytest -n 2 -q -m "not slow"

# pygame (in the dev extra) only lets PettingZoo's tictactoe_v3 (the speed anchor) import. BASELINE=FILE (what
# `pagadores bench --json` printed on another commit) adds both runs' numbers side by side.
bench: $(ALL_STAMP)
	$(PY) -m pagadores_cli.bench $(if $(BASELINE),--baseline $(BASELINE))

# The exact solver's scaling report (3 and 4 players, 1–10 cards): about half an hour, and
# the 4-player rows at 10 cards need several GB.
bench-solver: $(TRAIN_STAMP)
	$(PY) -m pagadores_cli.bench --section solver

clean:
	rm -rf $(VENV) $(CORE_VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis build
