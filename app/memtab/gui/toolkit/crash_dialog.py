"""The dialog `CrashReporter` shows uncaught errors in: what happened, the tracebacks, the log
and "Copy details"; past `MAX_REPORTS_PER_DIALOG` errors are only counted."""

from __future__ import annotations

import platform

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QSize, Qt, Slot
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QWidget,
)

from memtab import __version__
from memtab.gui.toolkit.dialog_layout import button_box, fit_to_screen
from memtab.gui.toolkit.widgets import named, vbox
from memtab.logs import log_file

# Reports after this many in one dialog are only counted (their tracebacks are in the log).
MAX_REPORTS_PER_DIALOG = 5


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
        named(self.log_label, "crashLogPath").setWordWrap(True)
        self.log_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details = named(QPlainTextEdit(self), "crashDetails")
        self.details.setReadOnly(True)
        self.details.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.details.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.copy_button = QPushButton("&Copy details", self)
        buttons = button_box(self, extra=[self.copy_button])
        self.copy_button.clicked.connect(self._on_copy_button_clicked)
        vbox(self.summary, (self.details, 1), self.log_label, buttons, on=self)
        fit_to_screen(self, QSize(720, 420))

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
        ran_on = (
            f"Memtab {__version__} · Python {platform.python_version()} · PySide6 "
            f"{pyside_version} · {platform.platform()}"
        )
        parts = [ran_on, f"Log: {path if path is not None else '(none)'}", ""]
        parts.append("\n\n".join(self._reports))
        if self._unshown:
            parts.append(f"\n… and {self._unshown} more; see the log.")
        return "\n".join(parts)

    @Slot()
    def _on_copy_button_clicked(self) -> None:
        QGuiApplication.clipboard().setText(self.details_text())
        self.copy_button.setText("Copied")
