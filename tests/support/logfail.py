"""A test fails when a WARNING or above is logged that it did not declare (as qutebrowser's do).

Every record at WARNING or above, from any thread, is collected while a test runs (its
fixtures' setup and teardown included). Qt's own messages count too: they reach logging
through the window's handler (`memtab.gui.first_paint.app._log_qt_message`, logger "qt"), which is
installed here instead of pytest-qt's capture (`--no-qt-log` in pyproject.toml).

A test declares the messages it expects, by logger (the name or a parent of it), level
and a regular expression searched in the message::

    @pytest.mark.expect_log("memtab.store.sidecars", "WARNING", r"kept aside")
    def test_a_corrupt_sidecar_is_kept_aside(...): ...

    def test_a_parametrized_case(expect_log, case):
        if case.broken:
            expect_log("memtab.writer.config", "WARNING", r"falls back")

A declared message that is never logged fails the test too: the declaration is also the
assertion that the warning is given, and an allow-list entry cannot outlive its reason.
Tests that run Memtab in a subprocess check its stderr instead.
"""

from __future__ import annotations

import logging
import re
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest

from memtab.logs import CHATTY_LOGGERS

FAIL_LEVEL = logging.WARNING


@dataclass
class Expectation:
    """One message a test expects: its logger (or a parent's name), level and pattern."""

    logger: str
    level: int
    pattern: re.Pattern[str]
    seen: int = 0

    def matches(self, record: logging.LogRecord) -> bool:
        in_logger = record.name == self.logger or record.name.startswith(self.logger + ".")
        return (
            in_logger
            and record.levelno == self.level
            and self.pattern.search(record.getMessage()) is not None
        )

    def __str__(self) -> str:
        return f"{self.logger} {logging.getLevelName(self.level)} /{self.pattern.pattern}/"


def expectation(logger: str, level: int | str, pattern: str) -> Expectation:
    """An `Expectation` from a marker's or the fixture's arguments."""
    number = level if isinstance(level, int) else logging.getLevelNamesMapping().get(level)
    if not isinstance(number, int) or number < FAIL_LEVEL:
        raise ValueError(f"expect_log: level {level!r} is not WARNING or above")
    return Expectation(logger, number, re.compile(pattern))


@dataclass
class TestLog:
    """What one test logged at WARNING or above, and what it declared."""

    expected: list[Expectation]
    unexpected: list[logging.LogRecord] = field(default_factory=list)
    reported: int = 0  # unexpected records already failed a phase

    def take(self, record: logging.LogRecord) -> None:
        for wanted in self.expected:
            if wanted.matches(record):
                wanted.seen += 1
                return
        self.unexpected.append(record)

    def fail_on_unexpected(self) -> None:
        new = self.unexpected[self.reported :]
        self.reported = len(self.unexpected)
        if new:
            lines = "\n".join(f"  {_describe(record)}" for record in new)
            pytest.fail(
                f"Unexpected log message(s) at WARNING or above:\n{lines}\nFix the cause, or "
                'declare it where the test expects it: @pytest.mark.expect_log("logger", '
                '"LEVEL", r"pattern") or the expect_log fixture (tests/support/logfail.py).',
                pytrace=False,
            )

    def fail_on_missing(self) -> None:
        missing = [str(wanted) for wanted in self.expected if not wanted.seen]
        if missing:
            pytest.fail(
                "Declared log message(s) never logged: " + "; ".join(missing), pytrace=False
            )


def _describe(record: logging.LogRecord) -> str:
    """One line for a record (its full text is in the report's captured log)."""
    first, _, rest = record.getMessage().partition("\n")
    text = f"{record.name} {record.levelname}: {first}{' …' if rest else ''}"
    if record.exc_info and record.exc_info[1] is not None:
        error = record.exc_info[1]
        text += f" [{type(error).__name__}: {error}]"
    return text


class LogFailHandler(logging.Handler):
    """Hands every record at FAIL_LEVEL or above to the running test's `TestLog`.

    Records logged between tests (by a thread a test left behind) go to the next test.
    """

    def __init__(self) -> None:
        super().__init__(FAIL_LEVEL)
        self._lock_current = threading.Lock()
        self._current: TestLog | None = None
        self._between: list[logging.LogRecord] = []

    def start(self, test_log: TestLog) -> None:
        with self._lock_current:
            self._current = test_log
            between, self._between = self._between, []
        for record in between:
            test_log.take(record)

    def stop(self) -> None:
        with self._lock_current:
            self._current = None

    def emit(self, record: logging.LogRecord) -> None:
        with self._lock_current:
            if self._current is None:
                self._between.append(record)
            else:
                self._current.take(record)


ExpectLog = Callable[[str, int | str, str], None]  # the `expect_log` fixture's type

_handler = LogFailHandler()
_test_log_key = pytest.StashKey[TestLog]()
_qt_handler_installed = False


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "expect_log(logger, level, pattern): the test expects this message (logger or its "
        "children, exact level, regex searched in the message); see tests/support/logfail.py",
    )
    logging.getLogger().addHandler(_handler)


def pytest_unconfigure(config: pytest.Config) -> None:
    logging.getLogger().removeHandler(_handler)


def _route_qt_messages_to_logging() -> None:
    """Install the window's Qt message handler once Qt is loaded (unit tests never load it)."""
    global _qt_handler_installed
    if _qt_handler_installed or "PySide6.QtCore" not in sys.modules:
        return
    from PySide6.QtCore import qInstallMessageHandler

    from memtab.gui.first_paint.app import _log_qt_message

    qInstallMessageHandler(_log_qt_message)
    _qt_handler_installed = True


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    expected = [expectation(*mark.args) for mark in item.iter_markers("expect_log")]
    test_log = TestLog(expected)
    item.stash[_test_log_key] = test_log
    _route_qt_messages_to_logging()
    _handler.start(test_log)
    return (yield)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    test_log = item.stash[_test_log_key]
    try:
        result = yield
    except BaseException:
        # A failing test keeps its own failure; what it logged is in the report.
        test_log.reported = len(test_log.unexpected)
        raise
    test_log.fail_on_unexpected()
    test_log.fail_on_missing()
    return result


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    try:
        result = yield
    finally:
        _handler.stop()
        _restore_logging()
    item.stash[_test_log_key].fail_on_unexpected()
    return result


_ROOT_LEVEL = logging.getLogger().level


def _restore_logging() -> None:
    """Undo what `memtab.logs.setup_logging` did in a test: its handlers and levels."""
    root = logging.getLogger()
    for handler in [h for h in root.handlers if getattr(h, "_memtab", False)]:
        root.removeHandler(handler)
        handler.close()
    # Only where changed: each setLevel clears the cache of every logger there is.
    if root.level != _ROOT_LEVEL:
        root.setLevel(_ROOT_LEVEL)
    for chatty in CHATTY_LOGGERS:
        if logging.getLogger(chatty).level != logging.NOTSET:
            logging.getLogger(chatty).setLevel(logging.NOTSET)
    logging.captureWarnings(False)


@pytest.fixture
def expect_log(request: pytest.FixtureRequest) -> ExpectLog:
    """Declare, from inside a test, a message it expects (see the module docstring)."""
    test_log = request.node.stash[_test_log_key]

    def declare(logger: str, level: int | str, pattern: str) -> None:
        test_log.expected.append(expectation(logger, level, pattern))

    return declare
