"""The Traces tab as the window builds it, when first shown (`TracesTab`)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QLabel,
    QSplitter,
    QStackedWidget,
    QWidget,
)

from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.jobs import plain
from memtab.components.traces import (
    ALL_WORKSPACES,
    AfterScan,
    TraceOpening,
    cannot_list,
    cannot_open,
    count_text,
    outcome_choices,
    outcome_of,
    rescans,
    workspace_choices,
)
from memtab.gui.context import ChangeFeed
from memtab.gui.tasks.jobs import JobService, Lane
from memtab.gui.toolkit.clock import qtimer
from memtab.gui.toolkit.row_list import FittedTable
from memtab.gui.toolkit.style import mute
from memtab.gui.toolkit.widgets import named, vbox
from memtab.gui.traces.detail import TraceDetailView
from memtab.gui.traces.models import (
    SUMMARY_ROLE,
    TraceFilterProxy,
    TraceListModel,
    outcome_icon,
)
from memtab.store.home import Home
from memtab.traces.catalog import TraceCatalog
from memtab.traces.reader import TraceDump, TraceSummary, parse_trace

logger = logging.getLogger(__name__)


EMPTY_TEXT = (
    "No trace dumps yet — the writer saves one when a run fails, a consolidation with a "
    "model after every run"
)
TIME_REFRESH_MS = 60_000
SPLIT_UNIT = 1000  # the list gets 2/5 of the width, the detail 3/5
_SCAN_KEY = "traces:scan"
_OPEN_KEY = "traces:open"


class TracesTab(QWidget):
    """The list of dumps (filterable, live) beside the selected dump in full."""

    scan_finished = Signal()  # a rescan landed and the list shows it
    trace_shown = Signal(object)  # a dump (`TraceDump`) is now displayed in the detail pane

    def __init__(
        self,
        home: Home,
        changes: ChangeFeed | None,
        jobs: JobService,
        parent: QWidget | None = None,
    ) -> None:
        """Build the tab over `home` and start the first scan (on `jobs`' scans lane); the
        watcher's batches (`changes`, the window context's) keep it live."""
        super().__init__(parent)
        self._home = home
        self._changes = changes
        self._catalog = TraceCatalog(home)
        self._jobs = jobs.client("traces", Lane.SCANS, parent=self)
        self._scan_job: int | None = None
        self._open_job: int | None = None
        self._opening = TraceOpening()
        self._closed = False

        self.model = TraceListModel(self)
        self.proxy = TraceFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self._build()

        self._jobs.job_finished.connect(self._on_jobs_job_finished)
        self._jobs.job_failed.connect(self._on_jobs_job_failed)
        if changes is not None:
            changes.published.connect(self._on_changes_published)
        self._time_timer = qtimer(
            self, self.model.refresh_times, TIME_REFRESH_MS, single_shot=False
        )
        self._time_timer.start()
        self.refresh()

    def _build(self) -> None:
        self.workspace_filter = named(QComboBox(self), accessible="Filter by workspace")
        # A long workspace name must not widen the window: the popup shows it whole.
        self.workspace_filter.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.workspace_filter.setMinimumContentsLength(14)
        self.workspace_filter.addItem(ALL_WORKSPACES, None)
        self.workspace_filter.currentIndexChanged.connect(self._on_filter_changed)
        self.outcome_filter = named(QComboBox(self), accessible="Filter by outcome")
        self.outcome_filter.addItem("All outcomes", None)
        for outcome, label in outcome_choices():
            self.outcome_filter.addItem(outcome_icon(outcome), label, outcome.value)
        self.outcome_filter.currentIndexChanged.connect(self._on_filter_changed)
        self.count_label = mute(QLabel(self))
        workspace_label = QLabel("&Workspace:", self)
        workspace_label.setBuddy(self.workspace_filter)
        outcome_label_widget = QLabel("&Outcome:", self)
        outcome_label_widget.setBuddy(self.outcome_filter)
        # Two rows: in one, the filters made the list ~570 px wide at the least, and the
        # window could not go narrower than 923 px (half a laptop screen is 683).
        filters = QGridLayout()
        filters.setContentsMargins(0, 8, 0, 4)
        filters.addWidget(workspace_label, 0, 0)
        filters.addWidget(self.workspace_filter, 0, 1)
        filters.addWidget(self.count_label, 0, 3)
        filters.addWidget(outcome_label_widget, 1, 0)
        filters.addWidget(self.outcome_filter, 1, 1)
        filters.setColumnStretch(2, 1)

        self.list_view = FittedTable("Trace dumps", self)
        self.list_view.set_model(
            self.proxy,
            stretch=TraceListModel.WORKSPACE,
            whole=(TraceListModel.TIME, TraceListModel.OUTCOME),
        )
        self.list_view.selectionModel().currentRowChanged.connect(self._on_list_current_row_changed)
        self.no_match = mute(QLabel("No dumps match these filters.", self))
        self.no_match.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.no_match.hide()
        list_pane = QWidget(self)
        vbox(filters, (self.list_view, 1), self.no_match, on=list_pane, margins=(0, 0, 0, 8))

        self.detail = TraceDetailView(self)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(list_pane)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setSizes([2 * SPLIT_UNIT, 3 * SPLIT_UNIT])

        self.empty_label = mute(QLabel(EMPTY_TEXT, self), wrap=True)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.loading_label = mute(QLabel("Looking for trace dumps…", self))
        self.loading_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.loading_label)
        self.stack.addWidget(self.empty_label)
        self.stack.addWidget(self.splitter)
        vbox(self.stack, on=self, margins=(8, 0, 8, 0))
        self.setFocusProxy(self.list_view)

    def refresh(self) -> None:
        """Rescan the home's dumps (off the GUI thread); `scan_finished` when it lands."""
        if self._closed:
            return
        self._scan_job = self._jobs.submit(plain(self._catalog.scan), key=_SCAN_KEY)

    def show_trace(self, path: Path) -> None:
        """Select and open the dump at `path` (clearing filters that would hide it); one the
        last scan has not seen yet opens at once and is selected when the rescan lands."""
        path = Path(os.path.abspath(path))
        if self._select_path(path, clear_filters=True):
            return
        self._opening.ask(path)
        self._open(path)
        self.refresh()

    def find_in_trace(self) -> None:
        """Ctrl+F here: find in the dump being read (its raw JSON), else filter the list's
        focus."""
        if not self.detail.find_in_dump():
            self.list_view.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def selected_path(self) -> Path | None:
        """The dump selected in the list, or None."""
        summary = self.proxy.data(self.list_view.currentIndex(), SUMMARY_ROLE)
        return summary.path if isinstance(summary, TraceSummary) else None

    def shutdown(self) -> None:
        """Stop the background work (call on window close); the tab stays as it is."""
        self._closed = True
        self._time_timer.stop()
        if self._changes is not None:
            self._changes.published.disconnect(self._on_changes_published)
            self._changes = None
        self._jobs.shutdown()

    @Slot(object)
    def _on_changes_published(self, batch: ChangeBatch) -> None:
        if rescans(batch):
            self.refresh()

    @Slot(int, object)
    def _on_jobs_job_finished(self, job: int, result: object) -> None:
        if job == self._scan_job and isinstance(result, list):
            self._scan_job = None
            self._apply_scan(result)
        elif job == self._open_job and isinstance(result, TraceDump):
            self._open_job = None
            self._show_dump(result)

    @Slot(int, str)
    def _on_jobs_job_failed(self, job: int, message: str) -> None:
        # The reader never raises on bad files; this is a bug, shown rather than hidden.
        logger.error("Traces tab job %d failed: %s", job, message)
        if job == self._open_job:
            self._open_job = None
            self.detail.show_placeholder(cannot_open(message))
        elif job == self._scan_job:
            self._scan_job = None
            self.empty_label.setText(cannot_list(message))
            self.stack.setCurrentWidget(self.empty_label)

    def _apply_scan(self, summaries: list[TraceSummary]) -> None:
        selected = self.selected_path()
        self.model.set_summaries(summaries)
        self._update_workspace_filter(summaries)
        self.stack.setCurrentWidget(self.splitter if summaries else self.empty_label)

        select, path = self._opening.after_scan(selected, rows=self.proxy.rowCount())
        if select is AfterScan.ASKED and path is not None:  # read already: selected if listed
            self._select_path(path, clear_filters=True)
        elif select is AfterScan.KEPT and path is not None:
            if not self._select_path(path, clear_filters=False):
                self.detail.show_placeholder(self._opening.lost())
        elif select is AfterScan.NEWEST:
            self.list_view.setCurrentIndex(self.proxy.index(0, 0))
        self._update_counts()
        self.scan_finished.emit()

    def _update_workspace_filter(self, summaries: list[TraceSummary]) -> None:
        current = self.workspace_filter.currentData()
        self.workspace_filter.blockSignals(True)
        self.workspace_filter.clear()
        self.workspace_filter.addItem(ALL_WORKSPACES, None)
        for workspace_id, name in workspace_choices(summaries, current):
            self.workspace_filter.addItem(name, workspace_id)
            self.workspace_filter.setItemData(
                self.workspace_filter.count() - 1, workspace_id, Qt.ItemDataRole.ToolTipRole
            )
        self.workspace_filter.setCurrentIndex(max(0, self.workspace_filter.findData(current)))
        self.workspace_filter.blockSignals(False)

    def _update_counts(self) -> None:
        total, shown = self.model.rowCount(), self.proxy.rowCount()
        self.count_label.setText(count_text(total, shown))
        self.no_match.setVisible(total > 0 and shown == 0)

    def _select_path(self, path: Path, *, clear_filters: bool) -> bool:
        row = self.model.row_of(path)
        if row is None:
            return False
        proxy_index = self.proxy.mapFromSource(self.model.index(row, 0))
        if not proxy_index.isValid():
            if not clear_filters:
                return False
            self.workspace_filter.setCurrentIndex(0)
            self.outcome_filter.setCurrentIndex(0)
            proxy_index = self.proxy.mapFromSource(self.model.index(row, 0))
        self.list_view.selectionModel().setCurrentIndex(
            proxy_index,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.list_view.scrollTo(proxy_index)
        summary = self.model.summaries()[row]
        if self._opening.listed(summary):  # the same row as before, changed on disk
            self._open(summary.path)
        return True

    @Slot(QModelIndex, QModelIndex)
    def _on_list_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        summary = self.proxy.data(current, SUMMARY_ROLE)
        if isinstance(summary, TraceSummary) and self._opening.selected(summary.path):
            self._open(summary.path)

    def _open(self, path: Path) -> None:
        if self._closed:
            return
        self._opening.read(path)
        self.detail.show_loading(path.name)
        # The reader never raises on a bad file.
        self._open_job = self._jobs.submit(plain(parse_trace, path), key=_OPEN_KEY)

    def _show_dump(self, dump: TraceDump) -> None:
        row = self.model.row_of(dump.path)
        listed = self.model.summaries()[row] if row is not None else None
        self.detail.show_dump(dump, self._opening.landed(listed, dump.summary()).display_workspace)
        self.trace_shown.emit(dump)

    @Slot(int)
    def _on_filter_changed(self, _index: int) -> None:
        outcome = outcome_of(self.outcome_filter.currentData())
        self.proxy.set_filters(self.workspace_filter.currentData(), outcome)
        self._update_counts()
        if not self.list_view.currentIndex().isValid() and self.proxy.rowCount():
            self.list_view.setCurrentIndex(self.proxy.index(0, 0))
