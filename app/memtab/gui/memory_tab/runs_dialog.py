"""What the consolidator did: the last runs of a workspace, each op with its state and note.

The journal keeps the last run per workspace and per project; with the newest run of any
workspace (the global coverage) that is up to three records, often the same run seen from
two scopes. `collect_runs` merges those into distinct runs, newest first, each labelled
with the scopes that record it; `RunsDialog` lists them and shows one run's summary,
trigger, time, token usage and ops (applied / rejected / proposed, with the note).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    Slot,
)
from PySide6.QtGui import QBrush, QFont, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QStackedWidget,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memtab import humanize
from memtab.gui.style import Accent, accent_text, muted_text
from memtab.gui.widgets import ElidedLabel, WrappedLabel, fit_to_title, short_name
from memtab.store.journal import ConsolidationRecord, ConsolidationStatus, JournalOp

WORKSPACE_LABEL = "Workspace"
PROJECT_LABEL = "Project"
GLOBAL_LABEL = "Global"
EARLIER_LABEL = "Earlier run"

RecentRun = ConsolidationRecord | tuple[str, ConsolidationRecord]
"""What the tab may pass as `recent_runs`: a record, or a (label, record) pair."""


@dataclass(frozen=True)
class RunEntry:
    """One distinct run and the places that journal it (e.g. Workspace and Project)."""

    record: ConsolidationRecord
    labels: tuple[str, ...]


def collect_runs(
    status: ConsolidationStatus | None, recent_runs: Sequence[RecentRun] | None = None
) -> list[RunEntry]:
    """The distinct runs of a status (and any recent runs), newest first."""
    labelled: list[tuple[str, ConsolidationRecord]] = []
    if status is not None:
        if status.workspace_record is not None:
            labelled.append((WORKSPACE_LABEL, status.workspace_record))
        if status.project_record is not None:
            labelled.append((PROJECT_LABEL, status.project_record))
        if status.global_record is not None:
            labelled.append((GLOBAL_LABEL, status.global_record))
    for item in recent_runs or ():
        labelled.append(item if isinstance(item, tuple) else (EARLIER_LABEL, item))
    labels_of: dict[ConsolidationRecord, list[str]] = {}
    for label, record in labelled:
        labels = labels_of.setdefault(record, [])
        if label not in labels:
            labels.append(label)
    runs = [RunEntry(record, tuple(labels)) for record, labels in labels_of.items()]
    runs.sort(key=lambda run: run.record.last_run_at, reverse=True)
    return runs


class OpState:
    """The three states an op can be in, as the dialog names them."""

    APPLIED = "Applied"
    REJECTED = "Rejected"
    PROPOSED = "Proposed (dry run)"


def op_state(op: JournalOp) -> str:
    """Applied; Proposed for a dry run (not applied, note "dry-run"); otherwise Rejected."""
    if op.applied:
        return OpState.APPLIED
    if op.note == "dry-run":
        return OpState.PROPOSED
    return OpState.REJECTED


def op_target(op: JournalOp) -> str:
    """The path an op touched, `old → new` for renames."""
    return f"{op.path} → {op.new_path}" if op.new_path else op.path


def usage_line(record: ConsolidationRecord) -> str:
    """`18,240 input · 1,312 output tokens`, or "" when the run recorded no usage."""
    if record.input_tokens is None and record.output_tokens is None:
        return ""
    return f"{record.input_tokens or 0:,} input · {record.output_tokens or 0:,} output tokens"


def run_title(record: ConsolidationRecord) -> str:
    """The one-line title of a run: the footer's coverage text."""
    return humanize.coverage_text(record)


class _OpsTree(QTreeWidget):
    """The ops of a run; the note lines below ops span all columns and wrap."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setItemDelegate(_NoteWrappingDelegate(self))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.scheduleDelayedItemsLayout()  # wrapped notes change height with the width


class _NoteWrappingDelegate(QStyledItemDelegate):
    """Sizes the spanned note rows to their wrapped text at the view's full width."""

    def __init__(self, view: QTreeWidget) -> None:
        super().__init__(view)
        self._view = view

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        hint = super().sizeHint(option, index)
        if not index.parent().isValid():
            return hint
        width = max(100, self._view.viewport().width() - 12)
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        bounds = option.fontMetrics.boundingRect(
            QRect(0, 0, width, 10_000), int(Qt.TextFlag.TextWordWrap), text
        )
        return QSize(hint.width(), max(hint.height(), bounds.height() + 6))


class RunsDialog(QDialog):
    """Lists the runs of a workspace; selecting one shows its details and ops."""

    def __init__(self, parent: QWidget | None = None) -> None:
        """An empty dialog; `set_runs` fills it."""
        super().__init__(parent)
        self.setWindowTitle("Consolidation runs")
        self.setAccessibleName("Consolidation runs")
        self.resize(900, 520)
        self._runs: list[RunEntry] = []

        self.run_list = QListWidget(self)
        self.run_list.setAccessibleName("Runs")
        self.run_list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.run_list.setWordWrap(True)
        self.run_list.setSpacing(3)
        self.run_list.currentRowChanged.connect(self._on_run_list_current_row_changed)

        self._detail = QWidget(self)
        self._heading = ElidedLabel("", self._detail)
        heading_font = QFont(self._heading.font())
        heading_font.setBold(True)
        heading_font.setPointSizeF(heading_font.pointSizeF() * 1.1)
        self._heading.setFont(heading_font)
        self._meta = WrappedLabel("", self._detail)
        self._meta.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary = WrappedLabel("", self._detail)  # a model's words: long paths too
        self.summary.setAccessibleName("Run summary")
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.ops = _OpsTree(self._detail)
        self.ops.setAccessibleName("Operations")
        self.ops.setRootIsDecorated(False)
        self.ops.setIndentation(0)
        self.ops.setUniformRowHeights(False)
        self.ops.setWordWrap(True)
        self.ops.setItemsExpandable(False)
        self.ops.setHeaderLabels(["State", "Command", "Path"])
        header = self.ops.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self._no_ops = QLabel("This run changed nothing.", self._detail)
        self._no_ops.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._ops_stack = QStackedWidget(self._detail)
        self._ops_stack.addWidget(self.ops)
        self._ops_stack.addWidget(self._no_ops)

        detail_layout = QVBoxLayout(self._detail)
        detail_layout.setContentsMargins(8, 0, 0, 0)
        detail_layout.setSpacing(6)
        detail_layout.addWidget(self._heading)
        detail_layout.addWidget(self._meta)
        detail_layout.addWidget(self.summary)
        detail_layout.addWidget(self._ops_stack, 1)

        self._empty = WrappedLabel(
            "No consolidation runs yet. Runs appear here after Consolidate now, a launch "
            "sweep, an archive or a compaction.",
            self,
        )
        self._empty.setAlignment(Qt.AlignmentFlag.AlignCenter)

        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self.run_list)
        splitter.addWidget(self._detail)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([260, 640])
        self._body = QStackedWidget(self)
        self._body.addWidget(splitter)
        self._body.addWidget(self._empty)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self._body, 1)
        layout.addWidget(buttons)
        self._recolor()
        fit_to_title(self)

    @property
    def runs(self) -> list[RunEntry]:
        """The runs listed, newest first."""
        return list(self._runs)

    def set_runs(self, runs: list[RunEntry], workspace_name: str | None = None) -> None:
        """Show `runs`, keeping the selected run selected when it is still listed."""
        if workspace_name:
            self.setWindowTitle(f"Consolidation runs — {short_name(workspace_name)}")
            fit_to_title(self)
        selected = self._selected_record()
        self._runs = list(runs)
        self.run_list.blockSignals(True)
        self.run_list.clear()
        for run in self._runs:
            item = QListWidgetItem(f"{run_title(run.record)}\n{', '.join(run.labels)}")
            item.setToolTip(humanize.absolute_time(run.record.last_run_at))
            self.run_list.addItem(item)
        self.run_list.blockSignals(False)
        self._body.setCurrentIndex(0 if self._runs else 1)
        records = [run.record for run in self._runs]
        row = records.index(selected) if selected in records else 0
        if self._runs:
            self.run_list.setCurrentRow(row)
            self._show_run(row)

    def _selected_record(self) -> ConsolidationRecord | None:
        row = self.run_list.currentRow()
        return self._runs[row].record if 0 <= row < len(self._runs) else None

    def _show_run(self, row: int) -> None:
        if not 0 <= row < len(self._runs):
            return
        run = self._runs[row]
        record = run.record
        self._heading.set_full_text(f"{record.trigger.capitalize()} run · {', '.join(run.labels)}")
        meta = [
            f"{humanize.absolute_time(record.last_run_at)} "
            f"({humanize.relative_time(record.last_run_at)})",
            humanize.plural(record.applied_count, "change") + " applied",
        ]
        if usage := usage_line(record):
            meta.append(usage)
        self._meta.setText(" · ".join(meta))
        self.summary.setText(record.summary or "(no summary)")
        self.ops.clear()
        palette = self.palette()
        colors = {
            OpState.APPLIED: accent_text(palette, Accent.SUCCESS),
            OpState.REJECTED: accent_text(palette, Accent.ERROR),
            OpState.PROPOSED: muted_text(palette),
        }
        muted = QBrush(muted_text(palette))
        for op in record.ops:
            state = op_state(op)
            item = QTreeWidgetItem([state, op.command, op_target(op)])
            item.setForeground(0, QBrush(colors[state]))
            item.setToolTip(2, op_target(op))
            self.ops.addTopLevelItem(item)
            if op.note and state != OpState.PROPOSED:
                # The note (why it was rejected) on its own full-width line below the op.
                note = QTreeWidgetItem([f"↳ {op.note}"])
                note.setForeground(0, muted)
                note.setToolTip(0, op.note)
                note.setFlags(Qt.ItemFlag.ItemIsEnabled)
                item.addChild(note)
                note.setFirstColumnSpanned(True)
                item.setExpanded(True)
        self._ops_stack.setCurrentWidget(self.ops if record.ops else self._no_ops)

    def changeEvent(self, event: QEvent) -> None:
        """Follow palette changes (light ↔ dark)."""
        if event.type() == QEvent.Type.PaletteChange:
            self._recolor()
            self._show_run(self.run_list.currentRow())
        super().changeEvent(event)

    def _recolor(self) -> None:
        muted = muted_text(self.palette()).name()
        self._meta.setStyleSheet(f"color: {muted}")
        self._empty.setStyleSheet(f"color: {muted}")
        self._no_ops.setStyleSheet(f"color: {muted}")

    @Slot(int)
    def _on_run_list_current_row_changed(self, row: int) -> None:
        self._show_run(row)
