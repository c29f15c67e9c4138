"""Benchmark fixtures: the homes (built once per run) and the closing table."""

from __future__ import annotations

import pytest

from bench.homes import HOME_3K, HOME_20K, build_home
from bench.table import table_lines
from memtab.store.home import Home


@pytest.fixture(scope="session")
def home_3k(tmp_path_factory: pytest.TempPathFactory) -> Home:
    """Three scopes of 1000 files (`bench.homes.HOME_3K`)."""
    return build_home(tmp_path_factory.mktemp("bench-3k") / "home", HOME_3K)


@pytest.fixture(scope="session")
def home_20k(tmp_path_factory: pytest.TempPathFactory) -> Home:
    """20,000 files, all shown by the window (`bench.homes.HOME_20K`)."""
    return build_home(tmp_path_factory.mktemp("bench-20k") / "home", HOME_20K)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    lines = table_lines()
    if lines:
        terminalreporter.section("issue 15: Memtab against its floors (this run)")
        for line in lines:
            terminalreporter.write_line(line)
