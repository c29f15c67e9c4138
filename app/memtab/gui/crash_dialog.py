"""Errors nobody caught are shown, not lost: a dialog with the traceback, the log and "Copy
details".

`CrashReporter.install()` (done by `run_app`) routes three kinds of failure to it, from
any thread:

- an exception escaping a slot or event handler on the GUI thread (`sys.excepthook`, which
  PySide6 calls for them),
- an exception ending a Python thread (`threading.excepthook`),
- a background job of a `TaskRunner` failing with a defect rather than an error it
  reports itself (`report_exception`; see `is_defect`).

Every report is logged with its traceback. The dialog never comes as a storm: one is open
at a time (later errors are added to it), and an error seen before in this session —
same type, same place in the code — is only logged and counted.
"""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from types import TracebackType

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from memtab import __version__
from memtab.gui.widgets import give_mnemonics
from memtab.logs import log_file

logger = logging.getLogger(__name__)

# Reports after this many in one dialog are only counted (their tracebacks are in the log).
MAX_REPORTS_PER_DIALOG = 5

_installed: CrashReporter | None = None


def is_defect(error: BaseException) -> bool:
    """Whether a job's exception is a defect worth a report, not a reported condition.

    The errors Memtab defines (a missing workspace, a provider's refusal, a save conflict)
    and OSError (a full disk, a permission) carry a message the job's owner shows; any
    other exception (TypeError, KeyError, a library's error that escaped) is a bug.
    """
    if isinstance(error, OSError):
        return False
    module = type(error).__module__
    return not (module == "memtab" or module.startswith("memtab."))


def report_exception(where: str, error: BaseException) -> None:
    """Report `error` (caught in `where`) to the installed reporter; any thread.

    Without one (tests, the headless commands) this does nothing: the caller logs.
    """
    reporter = _installed
    if reporter is not None:
        reporter.report(where, type(error), error, error.__traceback__, log=False)


def _signature(exc_type: type[BaseException], tb: TracebackType | None) -> tuple[str, ...]:
    """What makes two errors "the same": the type and the innermost frame's place."""
    frames = traceback.extract_tb(tb) if tb is not None else []
    where = (frames[-1].filename, str(frames[-1].lineno)) if frames else ("", "")
    return (exc_type.__qualname__, *where)


def _environment() -> str:
    """What "Copy details" says the error ran on. `platform` (~2 ms to import, with its
    regexes) is loaded here, when details are copied, not before the window's first paint."""
    import platform

    from PySide6 import __version__ as pyside_version

    return (
        f"Memtab {__version__} · Python {platform.python_version()} · PySide6 "
        f"{pyside_version} · {platform.platform()}"
    )


class CrashDialog(QDialog):
    """Shows one or more errors: what happened, the tracebacks, the log, "Copy details"."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("crashDialog")
        self.setWindowTitle("Memtab hit an error")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self._reports: list[str] = []
        self._unshown = 0
        path = log_file()
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.log_label = QLabel(
            f"The log: {path}" if path is not None else "The log file could not be opened.",
            self,
        )
        self.log_label.setObjectName("crashLogPath")
        self.log_label.setWordWrap(True)
        self.log_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details = QPlainTextEdit(self)
        self.details.setObjectName("crashDetails")
        self.details.setReadOnly(True)
        self.details.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.details.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.copy_button = QPushButton("&Copy details", self)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        give_mnemonics(buttons)
        buttons.rejected.connect(self.reject)
        self.copy_button.clicked.connect(self._on_copy_button_clicked)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.details, 1)
        layout.addWidget(self.log_label)
        layout.addWidget(buttons)
        self.resize(720, 420)

    @property
    def report_count(self) -> int:
        """How many errors this dialog has received (shown or only counted)."""
        return len(self._reports) + self._unshown

    def add_report(self, where: str, details: str) -> None:
        """Add one error; past `MAX_REPORTS_PER_DIALOG` it is only counted."""
        if len(self._reports) >= MAX_REPORTS_PER_DIALOG:
            self._unshown += 1
        else:
            self._reports.append(f"In {where}:\n{details}")
            self.details.setPlainText("\n\n".join(self._reports))
        count = self.report_count
        first = "An error Memtab did not expect happened"
        more = f" ({count} errors so far)" if count > 1 else ""
        self.summary.setText(
            f"{first}{more}. Memtab keeps running; save your open edits, and if something "
            "looks wrong, restart it. Please include the details when you report this."
        )

    def details_text(self) -> str:
        """What "Copy details" copies: the environment, the log path and the tracebacks."""
        path = log_file()
        parts = [_environment(), f"Log: {path if path is not None else '(none)'}", ""]
        parts.append("\n\n".join(self._reports))
        if self._unshown:
            parts.append(f"\n… and {self._unshown} more; see the log.")
        return "\n".join(parts)

    @Slot()
    def _on_copy_button_clicked(self) -> None:
        QGuiApplication.clipboard().setText(self.details_text())
        self.copy_button.setText("Copied")


class CrashReporter(QObject):
    """Receives uncaught errors from any thread and shows them on the GUI thread.

    With `show_dialogs=False` (`--screenshot`, no one to read a dialog) the tracebacks are
    printed on stderr instead. `errors_seen` counts every report.
    """

    dialog_shown = Signal(object)  # the CrashDialog, when one opens
    _reported = Signal(str, object, str)  # where, signature, details: to the GUI thread

    def __init__(self, parent: QObject | None = None, *, show_dialogs: bool = True) -> None:
        super().__init__(parent)
        self._show_dialogs = show_dialogs
        self._seen: set[tuple[str, ...]] = set()
        self._dialog: CrashDialog | None = None
        self.errors_seen = 0
        self._previous_excepthook = sys.excepthook
        self._previous_thread_excepthook = threading.excepthook
        self._reported.connect(self._on_reported, Qt.ConnectionType.QueuedConnection)

    @property
    def dialog(self) -> CrashDialog | None:
        """The open dialog, if any."""
        return self._dialog

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
            if self._dialog is not None:
                self._dialog.add_report(where, details)
            return
        self._seen.add(signature)
        if not self._show_dialogs:
            print(f"memtab: uncaught error in {where}:\n{details}", file=sys.stderr, end="")
            return
        if self._dialog is None:
            # A window of its own: closing whatever dialog was active must not take it along.
            self._dialog = CrashDialog()
            self._dialog.finished.connect(self._on_dialog_finished)
            self._dialog.add_report(where, details)
            self._dialog.show()
            self.dialog_shown.emit(self._dialog)
        else:
            self._dialog.add_report(where, details)

    @Slot(int)
    def _on_dialog_finished(self, result: int) -> None:
        self._dialog = None
