"""The pages of a dump's detail view: one attempt, the raw JSON, and their shared parts.

An `Inspector` is a lazy table of items above a viewer of the selected one; `AttemptPage`
shows an attempt's tool executions, messages and step results; `RawJsonView` the file.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, Qt, QTimer, Slot
from PySide6.QtGui import QGuiApplication, QPalette
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from memtab.components.traces import (
    Preview,
    attempt_status,
    attempt_tab_title,
    execution_detail,
    first_failed,
    message_preview,
    message_text,
    step_preview,
)
from memtab.gui.toolkit.row_list import FittedTable
from memtab.gui.toolkit.style import Accent, accent_text, mute, tint
from memtab.gui.toolkit.text.find_bar import FindBar
from memtab.gui.toolkit.widgets import ElidedLabel, WrappedLabel
from memtab.gui.traces.models import PreviewTableModel, ToolExecutionModel
from memtab.gui.traces.text_view import LongTextView
from memtab.humanize import size_text
from memtab.traces.describe import format_json
from memtab.traces.reader import TraceAttempt, TraceDump

RAW_LIMIT_CHARS = 256 * 1024


class Styled:
    """Remembers which widgets carry an accent, to repaint them when the palette changes."""

    def __init__(self) -> None:
        self._texts: list[tuple[QWidget, Accent]] = []
        self._banners: list[tuple[QWidget, Accent]] = []

    def text(self, widget: QWidget, accent: Accent | None) -> None:
        """Draw `widget`'s text in `accent` (None: the normal text colour)."""
        self._texts = [(w, a) for w, a in self._texts if w is not widget]
        if accent is None:
            widget.setPalette(QPalette())
            return
        self._texts.append((widget, accent))
        self._apply_text(widget, accent)

    def banner(self, widget: QWidget, accent: Accent) -> None:
        """Give `widget` a background tinted with `accent`."""
        widget.setAutoFillBackground(True)
        self._banners.append((widget, accent))
        self._apply_banner(widget, accent)

    def reapply(self) -> None:
        for widget, accent in self._texts:
            self._apply_text(widget, accent)
        for widget, accent in self._banners:
            self._apply_banner(widget, accent)

    # Only the one role is set, so every other colour still follows the application palette.
    @staticmethod
    def _apply_text(widget: QWidget, accent: Accent) -> None:
        palette = widget.palette()
        palette.setColor(
            QPalette.ColorRole.WindowText, accent_text(QGuiApplication.palette(), accent)
        )
        widget.setPalette(palette)

    @staticmethod
    def _apply_banner(widget: QWidget, accent: Accent) -> None:
        palette = widget.palette()
        app_palette = QGuiApplication.palette()
        palette.setColor(
            QPalette.ColorRole.Window, tint(app_palette, accent, QPalette.ColorRole.Window, 0.16)
        )
        widget.setPalette(palette)


class Inspector(QWidget):
    """A table of items above a viewer that shows the selected item in full."""

    def __init__(self, name: str, parent: QWidget | None = None, *, monospace: bool = True) -> None:
        """`name` is the table's accessible name; the viewer is "`name` detail"."""
        super().__init__(parent)
        self.table = FittedTable(name, self)
        self.viewer = LongTextView(f"{name} detail", self, monospace=monospace)
        self._detail: Callable[[Any], str] = format_json
        self._model: PreviewTableModel | None = None
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(self.table)
        splitter.addWidget(self.viewer)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)

    @property
    def model(self) -> PreviewTableModel | None:
        """The current model (None before `set_items`)."""
        return self._model

    def set_items(
        self,
        headers: Sequence[str],
        items: Sequence[Any],
        describe: Callable[[int, Any], Preview],
        detail: Callable[[Any], str],
        *,
        stretch: int,
        whole: Collection[int] = (),
    ) -> None:
        """Show `items` (described lazily) and the first one in the viewer; the column
        `stretch` takes the room the others leave, the `whole` ones are never cut."""
        old = self._model
        self._model = PreviewTableModel(headers, items, describe, self)
        self._detail = detail
        self.table.set_model(self._model, stretch=stretch, whole=whole)
        self.table.selectionModel().currentRowChanged.connect(self._on_table_current_row_changed)
        if old is not None:
            old.deleteLater()
        if items:
            self.table.setCurrentIndex(self._model.index(0, 0))
        else:
            self.viewer.set_text("")

    @Slot(QModelIndex, QModelIndex)
    def _on_table_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._model is None or not current.isValid():
            return
        self.viewer.set_text(self._detail(self._model.item(current.row())))


class AttemptPage(QWidget):
    """One attempt: its status, the tool executions table, and the selected call in full."""

    def __init__(self, attempt: TraceAttempt, run_started_at: int | None) -> None:
        """Build the page for `attempt` (tool start times relative to `run_started_at`)."""
        super().__init__()
        self.attempt = attempt
        styled = self._styled = Styled()
        number = QLabel(f"<b>{attempt_tab_title(attempt.number)}</b>", self)
        facts = attempt_status(attempt)  # may hold a model's finish reason: elided
        self.status = ElidedLabel(f"· {facts}" if facts else "", self)
        status = QHBoxLayout()
        status.addWidget(number)
        status.addWidget(self.status, 1)
        record = attempt.record
        self.error_label = WrappedLabel(record.error or "", self)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.setVisible(bool(record.error))
        styled.text(self.error_label, Accent.ERROR)

        calls = record.tool_executions
        calls_title = QLabel(f"<b>Tool executions</b> ({len(calls)})", self)
        self.tool_model = ToolExecutionModel(calls, run_started_at, self)
        self.tool_table = FittedTable("Tool executions", self)
        self.tool_table.set_model(
            self.tool_model,
            stretch=ToolExecutionModel.RESULT,
            whole=(ToolExecutionModel.DURATION, ToolExecutionModel.STARTED),
        )
        self.tool_table.selectionModel().currentRowChanged.connect(
            self._on_tool_table_current_row_changed
        )
        self.tool_table.setVisible(bool(calls))
        no_calls = QLabel("No tool calls in this attempt.", self)
        mute(no_calls)
        no_calls.setVisible(not calls)

        self.call_view = LongTextView("Selected tool call", self)
        self.messages = Inspector("Messages", self, monospace=False)
        self.messages.set_items(
            ("#", "Role", "Text"),
            attempt.messages,
            message_preview,
            message_text,
            stretch=2,
            whole=(0,),
        )
        self.steps = Inspector("Step results", self)
        self.steps.set_items(
            ("#", "Summary"),
            record.step_results,
            step_preview,
            format_json,
            stretch=1,
            whole=(0,),
        )
        self.inner_tabs = QTabWidget(self)
        self.inner_tabs.setDocumentMode(True)
        self.inner_tabs.addTab(self.call_view, "Selected call")
        self.inner_tabs.addTab(self.messages, f"Messages ({len(attempt.messages)})")
        self.inner_tabs.addTab(self.steps, f"Step results ({len(record.step_results)})")

        top = QWidget(self)
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(calls_title)
        top_layout.addWidget(self.tool_table, 1)
        top_layout.addWidget(no_calls)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(top)
        splitter.addWidget(self.inner_tabs)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 3)
        # Room for the calls there are (up to a dozen), the rest for the selected one.
        row_height = self.fontMetrics().height() + 6
        table_height = row_height * (min(max(len(calls), 2), 12) + 2) + 30
        splitter.setSizes([table_height, 3 * table_height])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(status)
        layout.addWidget(self.error_label)
        layout.addWidget(splitter, 1)

        if calls:
            self.tool_table.setCurrentIndex(self.tool_model.index(first_failed(calls), 0))
        else:
            self.call_view.set_placeholder("No tool calls in this attempt.")
            self.inner_tabs.setCurrentWidget(self.messages)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # the app palette, propagated
            self._styled.reapply()

    @Slot(QModelIndex, QModelIndex)
    def _on_tool_table_current_row_changed(self, current: QModelIndex, _prev: QModelIndex) -> None:
        execution = self.tool_model.execution(current.row())
        if execution is not None:
            self.call_view.set_text(execution_detail(execution))
            self.inner_tabs.setCurrentWidget(self.call_view)


class RawJsonView(QWidget):
    """The dump file as it is on disk, read-only, with a Copy button and a find bar
    (Ctrl+F on the Traces tab: `open_find`)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        """Empty until `load`."""
        super().__init__(parent)
        self._text = ""
        self.info = ElidedLabel("", self)  # the dump's path: as long as the home's
        mute(self.info)
        self.copy_button = QPushButton("Copy", self)
        self.copy_button.setAccessibleName("Copy raw JSON")
        self.copy_button.setToolTip("Copy the whole file to the clipboard")
        self.copy_button.clicked.connect(self._on_copy_button_clicked)
        self.text_view = LongTextView("Raw JSON", self, limit=RAW_LIMIT_CHARS)
        self.find_bar = FindBar(self.text_view.editor, parent=self)
        self._reset_timer = QTimer(self)
        self._reset_timer.setSingleShot(True)
        self._reset_timer.setInterval(1500)
        self._reset_timer.timeout.connect(self._on_reset_timer_timeout)
        bar = QHBoxLayout()
        bar.addWidget(self.info, 1)
        bar.addWidget(self.copy_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(bar)
        layout.addWidget(self.text_view, 1)
        layout.addWidget(self.find_bar)

    def open_find(self) -> None:
        """Open the find bar over the whole file (the rest of a long one streams in and
        is searched as it comes)."""
        self.text_view.show_all()
        self.find_bar.open()

    def load(self, dump: TraceDump) -> None:
        """Show the dump's text (its start, if it is large)."""
        self._text = dump.raw_text
        self.info.set_full_text(f"{size_text(dump.size_bytes)} · {dump.path}")
        self.text_view.set_text(dump.raw_text)
        self.copy_button.setEnabled(bool(dump.raw_text))

    def clear(self) -> None:
        """Forget the text (a new dump is being shown)."""
        self._text = ""
        self.text_view.set_text("")

    @Slot()
    def _on_copy_button_clicked(self) -> None:
        QGuiApplication.clipboard().setText(self._text)
        self.copy_button.setText("Copied")
        self._reset_timer.start()

    @Slot()
    def _on_reset_timer_timeout(self) -> None:
        self.copy_button.setText("Copy")
