# The one way to install, run and test Mü Online.  `make help` lists the targets.
VENV ?= .venv
PY := $(VENV)/bin/python
# -qq: errors only (a machine's pip configuration may add warnings of its own).
PIP := $(PY) -m pip -qq --disable-pip-version-check
HOST ?= 127.0.0.1
PORT ?= 8000
# The dependencies, pinned with their hashes (`make lock` writes them from pyproject.toml):
# run.txt is what the server needs, dev.txt adds the test and lint tools. CI and the Docker
# image install from these, so everyone runs the same versions.
LOCK_RUN := requirements/run.txt
LOCK_DEV := requirements/dev.txt
# The Postgres half of the server tests runs against this server (each test run creates and
# drops its own randomly named database); without a server there that half is skipped.
MU_TEST_POSTGRES_URL ?= postgresql://postgres@127.0.0.1:5432/test
export MU_TEST_POSTGRES_URL
# Python's bytecode cache (__pycache__, git-ignored): a machine that sets PYTHONDONTWRITEBYTECODE
# makes every process compile the app, the engine and the tests from source again (each test
# worker, each server the tests start, and pytest rewriting every test module's asserts).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: help install run test check screenshots lint bench lock compile clean-compiled engine-build bundle
help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(PY):
	@echo "creating $(VENV)"
	@python3 -m venv $(VENV)
	@$(PIP) install --upgrade pip

# What running needs, then the app itself (editable: the checkout is the app).
$(VENV)/.run: $(LOCK_RUN) pyproject.toml | $(PY)
	@echo "installing the app and what it needs to run ($(LOCK_RUN))"
	@$(PIP) install --require-hashes --no-deps -r $(LOCK_RUN)
	@$(PIP) install --no-deps -e .
	@touch $@

$(VENV)/.dev: $(VENV)/.run $(LOCK_DEV)
	@echo "installing the test and lint tools ($(LOCK_DEV))"
	@$(PIP) install --require-hashes --no-deps -r $(LOCK_DEV)
	@touch $@

install: $(VENV)/.dev  ## create .venv with the app, its dependencies and the dev tools

# The engine compiled with mypyc (issue 26; setup_mypyc.py): extensions beside the sources,
# rebuilt only when a source changed.  `make run`, `make test` and `make bench` run the sources
# (coverage and doctests need them) and remove a compiled build first; with MU_COMPILED=1 they
# compile first and run the compiled engine.  A compiled module older than its source refuses
# to import (engine/_guard.py).
MU_COMPILED ?=
COMPILED_RECORD := engine/_compiled.txt
ENGINE_SOURCES := $(shell find engine -name '*.py' -not -path '*/__pycache__/*')
ifeq ($(MU_COMPILED),1)
ENGINE_BUILD := compile
else
ENGINE_BUILD := clean-compiled
endif

$(COMPILED_RECORD): $(ENGINE_SOURCES) setup_mypyc.py | $(VENV)/.dev
	$(PY) setup_mypyc.py

compile: $(COMPILED_RECORD)  ## compile the engine in place with mypyc (MU_COMPILED=1 make run/test/bench use it)

clean-compiled:  ## remove the compiled engine: back to the sources alone
	@python3 setup_mypyc.py --clean

engine-build: $(ENGINE_BUILD)

# The pages' scripts and styles, bundled by esbuild (issue 38, point 8; app/web/bundle.py):
# one minified file per page in bundle/ (git-ignored), rebuilt when a script, stylesheet or
# template changed.  esbuild comes from npm, pinned in package-lock.json (`npm ci`).  The app
# serves the bundle while it matches the sources, else the sources.  `make test` and
# `make screenshots` build and test it; `make run` serves the sources (edit a script, reload
# the page) unless MU_BUNDLE=1 (then it builds the bundle and serves it, as the Docker image does).
MU_BUNDLE ?= 0
NODE_MODULES := node_modules/.package-lock.json
BUNDLE_MANIFEST := bundle/manifest.json
BUNDLE_SOURCES := $(shell find static/js static/css templates -type f)

$(NODE_MODULES): package.json package-lock.json
	@echo "installing esbuild (npm ci, package-lock.json)"
	@npm ci --no-audit --no-fund --loglevel=error
	@touch $@

$(BUNDLE_MANIFEST): $(BUNDLE_SOURCES) tools/bundle.py app/web/bundle.py $(NODE_MODULES)
	python3 tools/bundle.py

bundle: $(BUNDLE_MANIFEST)  ## bundle each page's scripts and styles (esbuild from npm; make test does)

ifeq ($(MU_BUNDLE),1)
RUN_BUNDLE := bundle
endif

run: $(VENV)/.run engine-build $(RUN_BUNDLE)  ## migrate the database (SQLite by default) and serve on http://$(HOST):$(PORT)
	MU_BUNDLE=$(MU_BUNDLE) $(PY) -m app --host $(HOST) --port $(PORT)

# One worker per core (pytest-xdist). Each worker launches one Chromium, starts one browser-test
# server and copies its PostgreSQL databases from one migrated template; tests/conftest.py
# orders the tests (the slow ones first, the browser tests last). --maxschedchunk 2: a worker is
# handed two tests at a time as it frees up, so the slow tests go to whichever worker is free;
# by default the first worker's first batch is an eighth of the suite, and every slow test in it.
XDIST := -n auto --maxschedchunk 2
test: $(VENV)/.dev engine-build bundle  ## the whole test suite (engine, server, SQLite + PostgreSQL, browser)
	MU_BUNDLE=1 $(PY) -m pytest $(XDIST)

# The loop for a working day: the engine's fast tests and the in-process server tests on SQLite
# (no PostgreSQL, no browser, no server processes, no long random play). The API contract's
# fuzzing (schemathesis, about 25 s) is left to make test; its plugin is not even loaded here,
# as it builds its cases while pytest collects. --dist worksteal: each worker starts with half
# of the tests and takes from the other's queue once its own is empty, so both end together
# (59 to 61 s against 61 to 65 s with the default batches, 2026-12-07). "not slow" also leaves
# out the engine's tests of bots, samplers and reviews over many deals (half a second or more
# each; make test runs them): a third of the loop's CPU (126 and 139 CPU-s against 178 and 206
# in alternating runs on a slow day, 2026-12-07).
CHECK_MARKS := not slow and not postgres and not browser and not processes
check: $(VENV)/.dev engine-build  ## the working day's loop: engine fast tests and in-process server tests on SQLite
	$(PY) -m pytest -n auto --dist worksteal -q -m "$(CHECK_MARKS)" -p no:schemathesis \
	    --ignore=tests/app/test_api_contract.py tests/engine tests/app tests/test_import_cycles.py \
	    engine docs

screenshots: $(VENV)/.dev engine-build bundle  ## the browser tests, writing their screenshots to artifacts/screenshots/
	MU_BUNDLE=1 $(PY) -m pytest $(XDIST) -m browser --screenshots tests/browser

lint: $(VENV)/.dev  ## ruff and mypy (strict on engine/ and app/)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy engine app

bench: $(VENV)/.dev engine-build  ## engine speed (MU_COMPILED=1: compiled)
	$(PY) bench/engine_bench.py

lock: $(VENV)/.dev  ## rewrite requirements/*.txt from pyproject.toml (newest versions allowed)
	$(VENV)/bin/uv pip compile pyproject.toml --universal --python-version 3.11 \
	    --generate-hashes --quiet -o $(LOCK_RUN)
	$(VENV)/bin/uv pip compile pyproject.toml --extra dev --universal --python-version 3.11 \
	    --generate-hashes --quiet -o $(LOCK_DEV)
