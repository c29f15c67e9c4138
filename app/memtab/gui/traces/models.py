"""Item models of the Traces tab (the dump list and its filter, tool executions, previews):
thin adapters over `memtab.traces`' views, coloured from the palette at paint time.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence, Sized
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QApplication, QStyle

from memtab.components.traces import (
    ExecutionColumn,
    Preview,
    TraceColumn,
    TraceFilter,
    TraceRows,
    execution_cell,
    execution_tooltip,
    trace_cell,
    trace_tooltip,
)
from memtab.gui.toolkit.style import Accent, accent_text, muted_text, tint
from memtab.traces.outcome import Outcome
from memtab.traces.reader import TraceSummary
from memtab.traces.schema import ToolExecutionRecord

AnyIndex = QModelIndex | QPersistentModelIndex
_ROOT = QModelIndex()

SUMMARY_ROLE = Qt.ItemDataRole.UserRole + 1  # the row's `TraceSummary`, or preview model item
PATH_ROLE = Qt.ItemDataRole.UserRole + 2  # the dump's path as a str (list model)
FAILED_ROLE = Qt.ItemDataRole.UserRole + 3  # bool: the row is a failure (highlighted)

# The accent each outcome's dot is drawn in.
_OUTCOME_ACCENTS = {
    Outcome.TIMED_OUT: Accent.WARNING,
    Outcome.POLICY_NOT_SATISFIED: Accent.WARNING,
    Outcome.ABORTED: Accent.WARNING,
    Outcome.PROVIDER_ERROR: Accent.ERROR,
    Outcome.FAILED: Accent.ERROR,
    Outcome.UNREADABLE: Accent.ERROR,
    Outcome.WROTE_MEMORY: Accent.SUCCESS,
    Outcome.NO_NEW_MEMORIES: Accent.INFO,
    Outcome.CHANGED_MEMORY: Accent.SUCCESS,
    Outcome.NO_CHANGES: Accent.INFO,
}


@functools.cache
def outcome_icon(outcome: Outcome) -> QIcon:
    """A small coloured dot for an outcome (drawn at 2× for high-DPI screens)."""
    size, ratio = 10, 2.0
    pixmap = QPixmap(int(size * ratio), int(size * ratio))
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(_OUTCOME_ACCENTS[outcome].color)
    painter.drawEllipse(1, 1, size - 2, size - 2)
    painter.end()
    return QIcon(pixmap)


def _palette_error_text() -> QColor:
    return accent_text(QGuiApplication.palette(), Accent.ERROR)


def _palette_muted() -> QColor:
    return muted_text(QGuiApplication.palette())


class _FlatTableModel(QAbstractTableModel):
    """A table without children: a row of `_rows` a row, columns of `headers`."""

    headers: tuple[str, ...] = ()
    _rows: Sized

    def rowCount(self, parent: AnyIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self.headers)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(self.headers)
        ):
            return self.headers[section]
        return None


class TraceListModel(_FlatTableModel):
    """Every dump as a row: time, workspace, outcome, error (newest first, as given)."""

    TIME, WORKSPACE, OUTCOME, ERROR = (
        TraceColumn.TIME,
        TraceColumn.WORKSPACE,
        TraceColumn.OUTCOME,
        TraceColumn.ERROR,
    )
    headers = TraceColumn.HEADERS

    def __init__(self, parent: QObject | None = None) -> None:
        """An empty list; fill it with `set_summaries`."""
        super().__init__(parent)
        self._rows: TraceRows = TraceRows()

    def set_summaries(self, summaries: Sequence[TraceSummary]) -> None:
        """Swap in a new scan (views restore their selection by path afterwards)."""
        self.beginResetModel()
        self._rows.set(summaries)
        self.endResetModel()

    def summaries(self) -> list[TraceSummary]:
        return self._rows.summaries()

    def row_of(self, path: Path) -> int | None:
        return self._rows.row_of(path)

    def refresh_times(self) -> None:
        """Relative times age: repaint the time column."""
        if len(self._rows):
            last = self.index(len(self._rows) - 1, self.TIME)
            self.dataChanged.emit(self.index(0, self.TIME), last, [Qt.ItemDataRole.DisplayRole])

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        summary = self._rows.at(index.row()) if index.isValid() else None
        if summary is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return trace_cell(summary, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return trace_tooltip(summary, column)
        if role == Qt.ItemDataRole.DecorationRole and column == self.OUTCOME:
            return outcome_icon(summary.outcome)
        if role == Qt.ItemDataRole.DecorationRole and column == self.ERROR and summary.problem:
            # The style's warning icon: this file is damaged (truncated, corrupt, unreadable).
            return QApplication.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        if role == Qt.ItemDataRole.ForegroundRole and column in (self.TIME, self.ERROR):
            return _palette_muted()
        if role == SUMMARY_ROLE:
            return summary
        if role == PATH_ROLE:
            return str(summary.path)
        if role == FAILED_ROLE:
            return summary.outcome.failed
        return None


class TraceFilterProxy(QSortFilterProxyModel):
    """Keeps the rows `TraceFilter` accepts; the source order is kept."""

    def __init__(self, parent: QObject | None = None) -> None:
        """No filter until one is set."""
        super().__init__(parent)
        self._filter = TraceFilter()

    def set_filters(self, workspace_id: str | None, outcome: Outcome | None) -> None:
        """Show only `workspace_id`'s dumps with `outcome` (None: any)."""
        wanted = TraceFilter(workspace_id, outcome)
        if wanted == self._filter:
            return
        self.beginFilterChange()
        self._filter = wanted
        self.endFilterChange()

    def filterAcceptsRow(self, source_row: int, source_parent: AnyIndex) -> bool:
        source = self.sourceModel()
        summary = source.data(source.index(source_row, 0, source_parent), SUMMARY_ROLE)
        return isinstance(summary, TraceSummary) and self._filter.accepts(summary)


class ToolExecutionModel(_FlatTableModel):
    """An attempt's tool calls: tool, input, output or error, duration, start; errors tinted."""

    TOOL, INPUT, RESULT, DURATION, STARTED = (
        ExecutionColumn.TOOL,
        ExecutionColumn.INPUT,
        ExecutionColumn.RESULT,
        ExecutionColumn.DURATION,
        ExecutionColumn.STARTED,
    )
    headers = ExecutionColumn.HEADERS

    def __init__(
        self,
        executions: Sequence[ToolExecutionRecord] = (),
        run_started_at: int | None = None,
        parent: QObject | None = None,
    ) -> None:
        """`run_started_at` turns start times into offsets (`+1.2 s`)."""
        super().__init__(parent)
        self._rows: list[ToolExecutionRecord] = list(executions)
        self._run_started_at = run_started_at

    def execution(self, row: int) -> ToolExecutionRecord | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        execution = self.execution(index.row()) if index.isValid() else None
        if execution is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return execution_cell(execution, column, self._run_started_at)
        if role == Qt.ItemDataRole.ToolTipRole:
            return execution_tooltip(execution, column)
        if role == FAILED_ROLE:
            return execution.failed
        if role == Qt.ItemDataRole.BackgroundRole and execution.failed:
            return tint(QGuiApplication.palette(), Accent.ERROR, QPalette.ColorRole.Base, 0.13)
        if role == Qt.ItemDataRole.ForegroundRole:
            if execution.failed and column in (self.TOOL, self.RESULT):
                return _palette_error_text()
            if column in (self.DURATION, self.STARTED):
                return _palette_muted()
        if role == Qt.ItemDataRole.DecorationRole and column == self.TOOL and execution.failed:
            return outcome_icon(Outcome.PROVIDER_ERROR)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (self.DURATION, self.STARTED):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class PreviewTableModel(_FlatTableModel):
    """A table over any sequence, each row's preview computed once, on first paint."""

    def __init__(
        self,
        headers: Sequence[str],
        items: Sequence[Any],
        describe: Callable[[int, Any], Preview],
        parent: QObject | None = None,
    ) -> None:
        """`describe(row, item)` returns the row's preview (one cell per header)."""
        super().__init__(parent)
        self.headers = tuple(headers)
        self._rows: Sequence[Any] = items
        self._describe = describe
        self._previews: dict[int, Preview] = {}

    def item(self, row: int) -> Any:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def preview(self, row: int) -> Preview:
        """The (cached) preview of `row`."""
        if row not in self._previews:
            self._previews[row] = self._describe(row, self._rows[row])
        return self._previews[row]

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row, column = index.row(), index.column()
        if not (index.isValid() and 0 <= row < len(self._rows) and 0 <= column < len(self.headers)):
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            cells = self.preview(index.row()).cells
            return cells[index.column()] if index.column() < len(cells) else ""
        if role == FAILED_ROLE:
            return self.preview(index.row()).failed
        if role == Qt.ItemDataRole.ForegroundRole:
            if self.preview(index.row()).failed:
                return _palette_error_text()
            if index.column() == 0:
                return _palette_muted()
        if role == SUMMARY_ROLE:
            return self._rows[index.row()]
        return None
