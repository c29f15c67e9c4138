"""A test fails on a warning it did not declare (tests/support/logfail.py), Qt's included."""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parents[1]

CONFTEST = f"""
import sys
sys.path.insert(0, {str(TESTS_DIR)!r})
pytest_plugins = ["support.logfail"]
"""

CASES = """
import logging
import threading

import pytest

logger = logging.getLogger("memtab.example.part")


def test_info_is_fine():
    logger.info("just saying")


def test_an_undeclared_warning_fails():
    logger.warning("disk nearly full")


def test_an_undeclared_error_in_a_thread_fails():
    thread = threading.Thread(target=lambda: logger.error("worker broke"))
    thread.start()
    thread.join()


@pytest.mark.expect_log("memtab.example", "WARNING", r"nearly \\w+")
def test_a_declared_warning_passes():
    logger.warning("disk nearly full")


@pytest.mark.expect_log("memtab.example", "ERROR", r"nearly full")
def test_the_level_must_match():
    logger.warning("disk nearly full")


@pytest.mark.expect_log("memtab.example.part", "WARNING", r"nearly full")
def test_a_declared_warning_never_logged_fails():
    pass


def test_the_fixture_declares_too(expect_log):
    expect_log("memtab.example.part", "WARNING", "nearly full")
    logger.warning("disk nearly full")


@pytest.fixture
def noisy_teardown():
    yield
    logger.warning("left a mess")


def test_a_warning_in_teardown_is_an_error(noisy_teardown):
    pass


def test_a_qt_warning_fails(qapp):
    from PySide6.QtCore import qWarning

    qWarning("QObject::connect: No such signal")


@pytest.mark.expect_log("qt", "WARNING", "No such signal")
def test_a_declared_qt_warning_passes(qapp):
    from PySide6.QtCore import qWarning

    qWarning("QObject::connect: No such signal")
"""


# slow: starts other processes (pytest in a child, pytester; ~0.5 s of CPU or more)
@pytest.mark.slow
def test_undeclared_and_missing_messages_fail(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_cases=CASES)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--no-qt-log", "-rA")
    outcomes = {}  # a teardown error comes after the PASSED of its call
    for line in result.outlines:
        outcome, _, rest = line.partition(" test_cases.py::")
        if outcome in ("PASSED", "FAILED", "ERROR") and rest:
            outcomes[rest.split(" ")[0]] = outcome
    assert outcomes == {
        "test_info_is_fine": "PASSED",
        "test_an_undeclared_warning_fails": "FAILED",
        "test_an_undeclared_error_in_a_thread_fails": "FAILED",
        "test_a_declared_warning_passes": "PASSED",
        "test_the_level_must_match": "FAILED",
        "test_a_declared_warning_never_logged_fails": "FAILED",
        "test_the_fixture_declares_too": "PASSED",
        "test_a_warning_in_teardown_is_an_error": "ERROR",
        "test_a_qt_warning_fails": "FAILED",
        "test_a_declared_qt_warning_passes": "PASSED",
    }
    result.stdout.fnmatch_lines(
        [
            "*memtab.example.part WARNING: disk nearly full",
            "*memtab.example.part ERROR: worker broke",
            "*Declared log message(s) never logged: memtab.example.part WARNING /nearly full/*",
            "*qt WARNING: QObject::connect: No such signal",
        ]
    )
