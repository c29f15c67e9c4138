# Two commands do everything on a fresh machine with Python 3.11+:
#   make run   — bootstrap .venv, install, open Memtab on a fresh demo home
#   make test  — bootstrap .venv, install, then lint, types, import contracts, tests
# (make test-fast: the quick tier for the edit-test loop, below.)
# Packaging (docs/install.md): make dist (wheel + sdist in dist/), make bundle (the
# PyInstaller onedir bundle in dist/memtab/), make bundle-test (build it and smoke-test it).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Python's bytecode cache stays on for what make runs, whatever the environment says
# (PYTHONDONTWRITEBYTECODE=1 on some machines, this one included). Without it each test
# worker compiles ~1,000 modules again at each collection (pytest's rewritten tests and
# Memtab's: 23 s of CPU instead of 7 here), and each `memtab` a test starts compiles what
# it imports (`memtab --help`: 3.5 s of CPU instead of 1.5).
export PYTHONDONTWRITEBYTECODE :=

.PHONY: run test test-fast lint types contracts pytest bench system-deps test-system-deps dist bundle \
	bundle-test clean

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Memtab needs Python 3.11+"'
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

# Qt's platform plugins need shared libraries that minimal Debian/Ubuntu images lack:
# checked with ldd on the plugins in .venv, so it runs after the install.
system-deps: $(STAMP)
	@scripts/install-system-deps $(BIN)/python

# ... and the tests validate the desktop files with appstreamcli and desktop-file-validate.
test-system-deps: $(STAMP)
	@scripts/install-system-deps --test $(BIN)/python

run: $(STAMP) system-deps
	$(BIN)/memtab --demo

test: $(STAMP) test-system-deps lint types contracts pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

types: $(STAMP)
	$(BIN)/mypy

contracts: $(STAMP)
	$(BIN)/lint-imports

# One worker per core (pytest-xdist); a test file's tests stay together on one worker, so a
# module's fixtures (the wheel, a seeded home) are built once. Each worker is its own process
# with its own QApplication; every test has its own HOME, config and XDG dirs (conftest.py).
pytest: $(STAMP)
	$(BIN)/python -m pytest -q --numprocesses auto --dist loadfile

# The quick tier for the edit-test loop (not CI's): ruff, then the tests not marked slow,
# outside the real-data quality corpus, the wheel install and the end-to-end runs, with
# fsync off but where it is tested (`--no-fsync`, tests/conftest.py), and a quarter of each
# property test's examples (Hypothesis's `quick` profile; CI's `make test` draws them all).
# One worker more than the cores: the GUI tests wait on timers and threads part of the time,
# and the extra worker fills it (2 cores: 72 s against 84 s, 110 s against 117 s).
FAST_WORKERS := $(shell $(PYTHON) -c 'import os; print(len(os.sched_getaffinity(0)) + 1)' 2>/dev/null || echo auto)
# Its temp files on a RAM disk where the machine has one (Linux's /dev/shm): a run writes and
# deletes ~25,000 files, and on a disk the file system's bookkeeping of it cost ~15 s of CPU
# of ~113 (2 cores, load 5: 87 s wall against 68 s). What a test wrote goes as it passes
# (in RAM, the files of a run would stay: ~240 MB); a failed test's stays until the next
# run (one directory per user and checkout: two checkouts' runs may overlap). Its path is no
# longer than pytest's own (/tmp/pytest-of-<user>/pytest-<n>): a Unix socket's path holds
# at most 107 bytes, and the tests that bind one in a test's folder (the MCP host's
# rendezvous, a socket in a memory folder) failed under /dev/shm/memtab-test-fast-….
FAST_TMP := $(shell [ -d /dev/shm ] && [ -w /dev/shm ] && \
	echo /dev/shm/mtest-$$(id -u)-$$(echo '$(CURDIR)' | cksum | cut -d' ' -f1))
test-fast: $(STAMP)
	$(BIN)/ruff check .
	$(if $(FAST_TMP),rm -rf $(FAST_TMP) && mkdir -p $(FAST_TMP)/tmp)
	$(if $(FAST_TMP),TMPDIR=$(FAST_TMP)/tmp) HYPOTHESIS_PROFILE=$${HYPOTHESIS_PROFILE:-quick} \
		$(BIN)/python -m pytest -q \
		--numprocesses $(FAST_WORKERS) --dist loadfile --no-fsync \
		$(if $(FAST_TMP),--basetemp=$(FAST_TMP)/p -o tmp_path_retention_policy=failed) \
		-m "not slow and not bench" --ignore=tests/quality --ignore=tests/integration --ignore=tests/bundle \
		--ignore=tests/bench

bench: $(STAMP)
	$(BIN)/python -m pytest -q --bench tests/bench -s

dist: $(STAMP)
	rm -rf dist/memtab-*.whl dist/memtab-*.tar.gz
	$(BIN)/python -m build --outdir dist .

BUNDLE_STAMP := $(VENV)/.bundle-tools
$(BUNDLE_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,bundle]'
	@touch $(BUNDLE_STAMP)

bundle: system-deps $(BUNDLE_STAMP)
	$(BIN)/pyinstaller --noconfirm --clean --log-level WARN \
		--distpath dist --workpath build/pyinstaller packaging/memtab.spec

bundle-test: bundle
	MEMTAB_BUNDLE=dist/memtab $(BIN)/python -m pytest -q tests/bundle

clean:
	rm -rf $(VENV) build dist
