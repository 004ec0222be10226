# The one way to install, run and test Mü Online.  `make help` lists the targets.
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# The Postgres half of the server tests runs against this server (each test run creates and
# drops its own randomly named database).  `make test MU_TEST_POSTGRES_URL=` skips it.
MU_TEST_POSTGRES_URL ?= postgresql://postgres@127.0.0.1:5432/test
export MU_TEST_POSTGRES_URL

.PHONY: help install run test lint bench
help:  ## list the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $@

install: $(VENV)/.installed  ## create .venv and install the project with its dev tools

run: install  ## migrate the database (SQLite by default) and serve on http://$(HOST):$(PORT)
	$(PY) -m app --host $(HOST) --port $(PORT)

test: install  ## the whole test suite (engine, server, SQLite + PostgreSQL, browser)
	$(PY) -m pytest

lint: install  ## ruff and mypy (strict on engine/ and app/)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy engine app

bench: install  ## engine speed
	$(PY) bench/engine_bench.py
