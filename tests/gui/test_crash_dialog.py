"""Uncaught errors reach a dialog (traceback, log path, "Copy details"), never a storm."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from memtab.components.jobs import JobContext
from memtab.gui.tasks.runner import TaskRunner
from memtab.gui.toolkit.crash_dialog import MAX_REPORTS_PER_DIALOG
from memtab.gui.toolkit.crash_reports import CrashReporter, is_defect
from memtab.logs import setup_logging
from memtab.store.scopes.memory import NotFoundError

WAIT_MS = 5000


@pytest.fixture
def log_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The log, set up as the window does (tests/support/logfail.py undoes it)."""
    monkeypatch.setenv("MEMTAB_LOG_DIR", str(tmp_path / "log"))
    path = setup_logging()
    assert path is not None
    return path


@pytest.fixture
def reporter(qtbot: QtBot, log_path: Path) -> Iterator[CrashReporter]:
    crashes = CrashReporter()
    crashes.install()
    yield crashes
    crashes.uninstall()
    if crashes.dialog is not None:
        crashes.dialog.close()


@pytest.fixture
def runner(qtbot: QtBot) -> Iterator[TaskRunner]:
    task_runner = TaskRunner("crash-test")
    yield task_runner
    task_runner.shutdown(timeout_ms=5000)


def failing_job(error: BaseException) -> object:
    def job(ctx: JobContext) -> object:
        raise error

    return job


@pytest.mark.expect_log("memtab.gui.tasks.runner", "ERROR", r"Background job \d+ .* failed")
def test_a_defect_in_a_background_job_opens_the_dialog(
    qtbot: QtBot, reporter: CrashReporter, runner: TaskRunner, log_path: Path
) -> None:
    with (
        qtbot.waitSignal(reporter.dialog_shown, timeout=WAIT_MS) as shown,
        qtbot.waitSignal(runner.job_failed, timeout=WAIT_MS),  # still reported as failed
    ):
        runner.submit(failing_job(KeyError("workspace")))
    dialog = shown.args[0]
    assert dialog.isVisible()
    assert "KeyError: 'workspace'" in dialog.details.toPlainText()
    assert "Traceback" in dialog.details.toPlainText()
    assert str(log_path) in dialog.log_label.text()
    assert "KeyError" in log_path.read_text()  # and the traceback is in the log


@pytest.mark.expect_log("memtab.gui.tasks.runner", "ERROR", r"Background job \d+ .* failed")
@pytest.mark.parametrize(
    "error", [OSError(28, "No space left on device"), NotFoundError("/memories/x.md")]
)
def test_errors_a_job_reports_itself_open_no_dialog(
    qtbot: QtBot, reporter: CrashReporter, runner: TaskRunner, error: BaseException
) -> None:
    assert not is_defect(error)
    # A defect submitted after it on the same (serial) worker reaches the reporter after
    # anything the first failure sent it: once its dialog is up, the first one's is due.
    with qtbot.waitSignal(reporter.dialog_shown, timeout=WAIT_MS) as shown:
        runner.submit(failing_job(error))
        runner.submit(failing_job(KeyError("the defect after it")))
    assert reporter.errors_seen == 1
    dialog = shown.args[0]
    assert dialog.report_count == 1
    assert "the defect after it" in dialog.details.toPlainText()


def raise_value_error() -> None:
    raise ValueError("the same defect")


@pytest.mark.expect_log(
    "memtab.gui.toolkit.crash_reports", "ERROR", r"^Uncaught error in a (paint|click|timer):"
)
def test_a_storm_of_errors_makes_one_dialog(qtbot: QtBot, reporter: CrashReporter) -> None:
    shown: list[object] = []
    reporter.dialog_shown.connect(shown.append)
    for _ in range(50):
        try:
            raise_value_error()
        except ValueError as error:
            reporter.report("a paint", type(error), error, error.__traceback__)
    try:
        {}["other"]
    except KeyError as error:
        reporter.report("a click", type(error), error, error.__traceback__)
    qtbot.waitUntil(lambda: reporter.errors_seen == 51, timeout=WAIT_MS)

    assert len(shown) == 1
    dialog = reporter.dialog
    assert dialog is not None
    assert dialog.report_count == 51
    assert dialog.details.toPlainText().count("In a paint") == MAX_REPORTS_PER_DIALOG
    assert "51 errors so far" in dialog.summary.text()

    # Closed, the same defect again is only logged; a new one opens a new dialog.
    dialog.close()
    qtbot.waitUntil(lambda: reporter.dialog is None, timeout=WAIT_MS)
    try:
        raise_value_error()
    except ValueError as error:
        reporter.report("a paint", type(error), error, error.__traceback__)
    qtbot.waitUntil(lambda: reporter.errors_seen == 52, timeout=WAIT_MS)
    assert len(shown) == 1
    try:
        raise RuntimeError("something new")
    except RuntimeError as error:
        reporter.report("a timer", type(error), error, error.__traceback__)
    qtbot.waitUntil(lambda: len(shown) == 2, timeout=WAIT_MS)


@pytest.mark.expect_log("memtab.gui.toolkit.crash_reports", "ERROR", r"^Uncaught error in a paint:")
def test_copy_details_copies_traceback_versions_and_log(
    qtbot: QtBot, reporter: CrashReporter, log_path: Path
) -> None:
    try:
        raise_value_error()
    except ValueError as error:
        reporter.report("a paint", type(error), error, error.__traceback__)
    qtbot.waitUntil(lambda: reporter.dialog is not None, timeout=WAIT_MS)
    dialog = reporter.dialog
    assert dialog is not None
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)

    copied = QGuiApplication.clipboard().text()
    assert "ValueError: the same defect" in copied
    assert f"Log: {log_path}" in copied
    assert "Memtab " in copied and "PySide6 " in copied


@pytest.mark.expect_log(
    "memtab.gui.toolkit.crash_reports", "ERROR", r"^Uncaught error in the window:"
)
def test_an_exception_in_a_gui_thread_callback_opens_the_dialog(
    qtbot: QtBot, reporter: CrashReporter
) -> None:
    def broken_slot() -> None:
        raise AttributeError("'NoneType' object has no attribute 'root'")

    with qtbot.waitSignal(reporter.dialog_shown, timeout=WAIT_MS) as shown:
        QTimer.singleShot(0, broken_slot)
    assert "the window" in shown.args[0].details.toPlainText()
    assert "AttributeError" in shown.args[0].details.toPlainText()


@pytest.mark.expect_log(
    "memtab.gui.toolkit.crash_reports", "ERROR", r"^Uncaught error in thread memtab-lease-renewer:"
)
def test_an_exception_ending_a_thread_opens_the_dialog(
    qtbot: QtBot, reporter: CrashReporter
) -> None:
    def broken() -> None:
        raise TypeError("unsupported operand")

    with qtbot.waitSignal(reporter.dialog_shown, timeout=WAIT_MS) as shown:
        thread = threading.Thread(target=broken, name="memtab-lease-renewer")
        thread.start()
        thread.join()
    assert "thread memtab-lease-renewer" in shown.args[0].details.toPlainText()


def test_uninstall_gives_the_hooks_back(qtbot: QtBot) -> None:
    before, before_thread = sys.excepthook, threading.excepthook
    crashes = CrashReporter()
    crashes.install()
    assert sys.excepthook is not before
    crashes.uninstall()
    assert sys.excepthook is before and threading.excepthook is before_thread
