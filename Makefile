# Two commands do everything on a fresh machine with Python 3.11+:
#   make run   — bootstrap .venv, install, open Memtab on the demo home
#   make test  — bootstrap .venv, install, then lint, types, import contracts, tests
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint types contracts pytest bench system-deps clean

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Memtab needs Python 3.11+"'
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

# Qt needs a few shared libraries that minimal Debian/Ubuntu images lack.
system-deps:
	@scripts/install-system-deps

run: system-deps $(STAMP)
	$(BIN)/memtab --demo

test: system-deps $(STAMP) lint types contracts pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

types: $(STAMP)
	$(BIN)/mypy

contracts: $(STAMP)
	$(BIN)/lint-imports

pytest: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python -m pytest -q --bench tests/bench -s

clean:
	rm -rf $(VENV) build dist
