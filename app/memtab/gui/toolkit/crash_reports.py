"""Errors nobody caught are shown, not lost: `CrashReporter` routes a slot's, a thread's or
a job's defect to a dialog with the traceback and the log (`crash_dialog.py`), one dialog at
a time, an error seen before only logged and counted."""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from types import TracebackType
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal, Slot

if TYPE_CHECKING:  # lazy: loaded with the first dialog, after the first paint
    from memtab.gui.toolkit.crash_dialog import CrashDialog

logger = logging.getLogger(__name__)

_installed: CrashReporter | None = None


def is_defect(error: BaseException) -> bool:
    """Whether a job's exception is a defect worth a report: Memtab's own errors and OSError
    carry a message the job's owner shows; anything else is a bug."""
    if isinstance(error, OSError):
        return False
    module = type(error).__module__
    return not (module == "memtab" or module.startswith("memtab."))


def report_exception(where: str, error: BaseException) -> None:
    """Report `error` (caught in `where`) to the installed reporter, from any thread; without
    one (tests, headless commands) nothing: the caller logs."""
    reporter = _installed
    if reporter is not None:
        reporter.report(where, type(error), error, error.__traceback__, log=False)


def _signature(exc_type: type[BaseException], tb: TracebackType | None) -> tuple[str, ...]:
    """What makes two errors "the same": the type and the innermost frame's place."""
    frames = traceback.extract_tb(tb) if tb is not None else []
    where = (frames[-1].filename, str(frames[-1].lineno)) if frames else ("", "")
    return (exc_type.__qualname__, *where)


class CrashReporter(QObject):
    """Receives uncaught errors from any thread and shows them on the GUI thread (on stderr
    with `show_dialogs=False`); `errors_seen` counts every report."""

    dialog_shown = Signal(object)  # the CrashDialog, when one opens
    _reported = Signal(str, object, str)  # where, signature, details: to the GUI thread

    def __init__(self, parent: QObject | None = None, *, show_dialogs: bool = True) -> None:
        super().__init__(parent)
        self._show_dialogs = show_dialogs
        self._seen: set[tuple[str, ...]] = set()
        self.dialog: CrashDialog | None = None
        self.errors_seen = 0
        self._previous_excepthook = sys.excepthook
        self._previous_thread_excepthook = threading.excepthook
        self._reported.connect(self._on_reported, Qt.ConnectionType.QueuedConnection)

    def install(self) -> None:
        """Become the process's handler of uncaught errors (GUI thread and threads)."""
        global _installed
        self._previous_excepthook = sys.excepthook
        self._previous_thread_excepthook = threading.excepthook
        sys.excepthook = self._excepthook
        threading.excepthook = self._thread_excepthook
        _installed = self

    def uninstall(self) -> None:
        """Give the hooks back (if they are still ours)."""
        global _installed
        if sys.excepthook == self._excepthook:
            sys.excepthook = self._previous_excepthook
        if threading.excepthook == self._thread_excepthook:
            threading.excepthook = self._previous_thread_excepthook
        if _installed is self:
            _installed = None

    def report(
        self,
        where: str,
        exc_type: type[BaseException],
        error: BaseException | None,
        tb: TracebackType | None,
        *,
        log: bool = True,
    ) -> None:
        """Log (unless the caller did) and show an error; safe from any thread."""
        details = "".join(traceback.format_exception(exc_type, error, tb))
        if log:
            logger.error("Uncaught error in %s:\n%s", where, details.rstrip())
        self._reported.emit(where, _signature(exc_type, tb), details)

    def _excepthook(
        self, exc_type: type[BaseException], error: BaseException, tb: TracebackType | None
    ) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            self._previous_excepthook(exc_type, error, tb)
            return
        where = (
            "the window"
            if threading.current_thread() is threading.main_thread()
            else (f"thread {threading.current_thread().name}")
        )
        self.report(where, exc_type, error, tb)

    def _thread_excepthook(self, args: threading.ExceptHookArgs) -> None:
        if issubclass(args.exc_type, SystemExit):
            return
        name = args.thread.name if args.thread is not None else "a background thread"
        self.report(f"thread {name}", args.exc_type, args.exc_value, args.exc_traceback)

    @Slot(str, object, str)
    def _on_reported(self, where: str, signature: tuple[str, ...], details: str) -> None:
        self.errors_seen += 1
        if signature in self._seen:
            if self.dialog is not None:
                self.dialog.add_report(where, details)
            return
        self._seen.add(signature)
        if not self._show_dialogs:
            print(f"memtab: uncaught error in {where}:\n{details}", file=sys.stderr, end="")
            return
        if self.dialog is None:
            from memtab.gui.toolkit.crash_dialog import (
                CrashDialog,  # lazy: with the first crash
            )

            # A window of its own: closing whatever dialog was active must not take it along.
            self.dialog = CrashDialog()
            self.dialog.finished.connect(self._on_dialog_finished)
            self.dialog.add_report(where, details)
            self.dialog.show()
            self.dialog_shown.emit(self.dialog)
        else:
            self.dialog.add_report(where, details)

    @Slot(int)
    def _on_dialog_finished(self, result: int) -> None:
        self.dialog = None
