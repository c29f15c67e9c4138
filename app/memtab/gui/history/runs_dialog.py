"""Runs…: every run Memtab logged or saw in mux's journal, filtered, each with its ops and
their diffs and a way to its trace dump; "Revert this run" restores what it touched, except
files changed since (`RevertResultDialog`). Reads and reverts run on the dialog's own worker.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, Signal, Slot
from PySide6.QtGui import QBrush, QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QMessageBox,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTreeWidgetItem,
    QWidget,
)

from memtab.components.history.diff import (
    BACK_AGAIN,
    first_message,
    parse_unified_diff,
    refusal_message,
    revert_rows,
    revert_summary,
)
from memtab.components.history.runs import (
    EMPTY_TEXT,
    KIND_WORDS,
    PICK_A_CHANGE,
    READING_CHANGES,
    REVERTING,
    OpState,
    OpView,
    RunDetail,
    RunFilter,
    RunList,
    RunsPresenter,
    empty_text,
    load_run_detail,
    load_run_list,
    no_change_message,
    op_diff_view,
    revert_tip,
    run_heading,
    run_rows,
    trace_tip,
)
from memtab.components.jobs import plain
from memtab.gui.tasks.jobs import JobClient, JobService, Lane
from memtab.gui.toolkit.dialog_layout import (
    button_box,
    fit_to_screen,
    fit_to_title,
    message_box,
    stack_when_narrow,
)
from memtab.gui.toolkit.row_list import RowList, tree_rows
from memtab.gui.toolkit.style import Accent, accent_text, muted_text, set_style_sheet
from memtab.gui.toolkit.text.diff_view import DiffPane
from memtab.gui.toolkit.widgets import ElidedLabel, WrappedLabel, hbox, named, vbox
from memtab.store.history.records import RunEntry
from memtab.store.home import Home
from memtab.store.restore.from_history import RevertResult, revert_run
from memtab.store.sidecars.journal import TRIGGERS

_INDEX_ROLE = Qt.ItemDataRole.UserRole


class RevertResultDialog(QDialog):
    """Lists the files a revert restored and refused; a refused one shows its diff."""

    def __init__(self, result: RevertResult, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Revert this run")
        self.setAccessibleName("Revert result")
        self.revert = result
        self.summary = WrappedLabel(revert_summary(result), self)
        self.files = RowList(["Result", "File", "Why"], "Reverted files", self, whole=(0,))
        self.files.currentItemChanged.connect(self._on_files_current_item_changed)
        for row in revert_rows(result):
            item = QTreeWidgetItem([row.result, row.name, row.why])
            if row.refusal is not None:
                item.setData(0, _INDEX_ROLE, row.refusal)
                item.setToolTip(2, row.why)
            self.files.addTopLevelItem(item)
        self.diff = DiffPane(self)
        self.diff.show_message(first_message(result))
        vbox(self.summary, (self.files, 1), (self.diff, 2), button_box(self), on=self)
        fit_to_title(self)
        fit_to_screen(self, QSize(760, 480), remember="revert")
        first_refused = self.files.topLevelItem(len(result.restored))
        if first_refused is not None:
            self.files.setCurrentItem(first_refused)

    @Slot(QTreeWidgetItem, QTreeWidgetItem)
    def _on_files_current_item_changed(
        self, current: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None
    ) -> None:
        index = current.data(0, _INDEX_ROLE) if current is not None else None
        if not isinstance(index, int):
            self.diff.set_sides("", "")
            self.diff.show_message(BACK_AGAIN)
            return
        refusal = self.revert.refused[index]
        message = refusal_message(refusal)
        if message is not None:
            self.diff.show_message(message)
            return
        self.diff.set_sides("the file now", "what it held before the run")
        self.diff.set_diff(parse_unified_diff(refusal.diff))


STACK_BELOW = 760  # px: narrower, the list of runs goes above the run
LIST_KEY = "runs"
DETAIL_KEY = "run-detail"
ALL_WORKSPACES = "All workspaces"
_RUN_ROLE = Qt.ItemDataRole.UserRole


class RunsDialog(QDialog):
    """Every run, filtered, with its ops and their diffs (see the module docstring)."""

    open_file_requested = Signal(object, str)  # (workspace id or None, virtual path) to open
    open_trace_requested = Signal(object)  # the Path of a run's trace dump, to show in Traces
    loaded = Signal()  # a list or a run's details were shown (tests wait for it)
    reverted = Signal(object)  # a revert ended (its `RevertResult`)

    def __init__(self, home: Home, jobs: JobService, parent: QWidget | None = None) -> None:
        """An empty dialog; `set_workspaces` names the workspaces, `reload` lists runs (on
        `jobs`' scans lane)."""
        super().__init__(parent)
        self.setWindowTitle("Runs")
        self.setAccessibleName("Runs")
        self._home = home
        self._state = RunsPresenter()
        self._job_service = jobs
        self._client: JobClient | None = None  # made on first use, let go on close
        self.result_dialog: RevertResultDialog | None = None
        self._build()
        self._recolor()
        fit_to_title(self)
        fit_to_screen(self, QSize(980, 580), remember="runs")

    def _build(self) -> None:
        self.workspace_filter = named(QComboBox(self), accessible="Workspace filter")
        self.workspace_filter.addItem(ALL_WORKSPACES, None)
        # Workspace names can be long: the combo elides them rather than widen the dialog.
        self.workspace_filter.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.workspace_filter.setMinimumContentsLength(18)
        self.kind_filter = named(QComboBox(self), accessible="Kind filter")
        self.kind_filter.addItem("All kinds", None)
        for kind, words in KIND_WORDS.items():
            self.kind_filter.addItem(words, kind)
        self.trigger_filter = named(QComboBox(self), accessible="Trigger filter")
        self.trigger_filter.addItem("Any trigger", None)
        for trigger in TRIGGERS:
            self.trigger_filter.addItem(trigger, trigger)
        self.failed_only = QCheckBox("&Failed only", self)
        for combo in (self.workspace_filter, self.kind_filter, self.trigger_filter):
            combo.currentIndexChanged.connect(self._on_filter_changed)
        self.failed_only.toggled.connect(self._on_filter_changed)
        filters = hbox(
            (self.workspace_filter, 2),
            (self.kind_filter, 1),
            (self.trigger_filter, 1),
            self.failed_only,
        )

        self.run_list = RowList(["When", "Run", "Result", "Workspace"], "Runs", self, whole=(0,))
        self.run_list.currentItemChanged.connect(self._on_run_list_current_item_changed)

        self._detail_pane = QWidget(self)
        self._heading = ElidedLabel("", self._detail_pane, min_width=0)
        heading_font = QFont(self._heading.font())
        heading_font.setBold(True)
        heading_font.setPointSizeF(heading_font.pointSizeF() * 1.1)
        self._heading.setFont(heading_font)
        self._meta = WrappedLabel("", self._detail_pane)
        self._meta.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary = named(WrappedLabel("", self._detail_pane), accessible="Run summary")
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.ops = RowList(["State", "Change"], "Operations", self._detail_pane)
        self.ops.currentItemChanged.connect(self._on_ops_current_item_changed)
        self.ops.itemDoubleClicked.connect(self._open_selected_op)
        self.diff = DiffPane(self._detail_pane)
        self.diff.show_message(PICK_A_CHANGE)
        ops_split = QSplitter(Qt.Orientation.Vertical, self._detail_pane)
        ops_split.setChildrenCollapsible(False)
        ops_split.addWidget(self.ops)
        ops_split.addWidget(self.diff)
        ops_split.setSizes([170, 260])
        self.open_button = QPushButton("&Open file", self._detail_pane)
        self.open_button.setToolTip("Open the selected change's file (or double-click it)")
        self.open_button.clicked.connect(self._open_selected_op)
        self.trace_button = QPushButton("Open &trace", self._detail_pane)
        self.trace_button.clicked.connect(self._on_trace_button_clicked)
        self.revert_button = QPushButton("&Revert this run…", self._detail_pane)
        self.revert_button.clicked.connect(self.revert_selected)
        self.note = ElidedLabel("", self._detail_pane, min_width=0)
        actions = hbox((self.note, 1), self.open_button, self.trace_button, self.revert_button)
        vbox(
            self._heading,
            self._meta,
            self.summary,
            (ops_split, 1),
            actions,
            on=self._detail_pane,
            margins=(8, 0, 0, 0),
            spacing=6,
        )

        self._empty = WrappedLabel(EMPTY_TEXT, self)
        self._empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self.run_list)
        splitter.addWidget(self._detail_pane)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([400, 580])
        stack_when_narrow(splitter, STACK_BELOW)
        self._body = QStackedWidget(self)
        self._body.addWidget(splitter)
        self._body.addWidget(self._empty)
        vbox(filters, (self._body, 1), button_box(self), on=self)
        self._show_detail(None)

    @property
    def runs(self) -> list[RunEntry]:
        """The runs listed, newest first."""
        return list(self._state.runs)

    @property
    def detail(self) -> RunDetail | None:
        return self._state.detail

    @property
    def busy(self) -> bool:
        """Whether runs are being read or a run reverted."""
        return self._client is not None and self._client.is_busy()

    def set_workspaces(self, workspaces: list[tuple[str, str]], current: str | None) -> None:
        """The workspaces to filter by, (id, name); `current` is chosen the first time."""
        self._state.names = dict(workspaces)
        first = self.workspace_filter.count() == 1
        chosen = current if first else self.workspace_filter.currentData()
        self.workspace_filter.blockSignals(True)
        while self.workspace_filter.count() > 1:
            self.workspace_filter.removeItem(1)
        for workspace_id, name in workspaces:
            self.workspace_filter.addItem(name, workspace_id)
        index = self.workspace_filter.findData(chosen) if chosen is not None else 0
        self.workspace_filter.setCurrentIndex(max(index, 0))
        self.workspace_filter.blockSignals(False)

    @property
    def run_filter(self) -> RunFilter:
        return RunFilter(
            workspace_id=self.workspace_filter.currentData(),
            kind=self.kind_filter.currentData(),
            trigger=self.trigger_filter.currentData(),
            failed_only=self.failed_only.isChecked(),
        )

    def reload(self, *, newest: bool = False) -> None:
        """List the runs again (off the GUI thread), keeping the selected run; `newest`:
        select the newest run instead (the dialog is opened again)."""
        if newest:
            self._state.ask_newest()
        self._jobs().submit_latest(LIST_KEY, plain(load_run_list, self._home, self.run_filter))

    def select_run(self, run_id: str) -> bool:
        """Select a listed run (False when it is not listed)."""
        for item in tree_rows(self.run_list):
            if item.data(0, _RUN_ROLE) == run_id:
                self.run_list.setCurrentItem(item)
                return True
        return False

    def show_run(self, run_id: str, op_index: int | None = None) -> None:
        """List every run again and select `run_id` (and its `op_index`th op) once listed
        (blame's card: the run that wrote a line)."""
        self._state.want(run_id, op_index)
        for combo in (self.workspace_filter, self.kind_filter, self.trigger_filter):
            combo.blockSignals(True)
            combo.setCurrentIndex(0)
            combo.blockSignals(False)
        self.failed_only.blockSignals(True)
        self.failed_only.setChecked(False)
        self.failed_only.blockSignals(False)
        self.reload()

    def select_op(self, index: int) -> None:
        """Select the `index`th op of the shown run."""
        item = self.ops.topLevelItem(index)
        if item is not None:
            self.ops.setCurrentItem(item)

    def confirm_revert(self, run: RunEntry) -> bool:
        """Ask before reverting (a seam for tests)."""
        box, (revert, _) = message_box(
            self,
            QMessageBox.Icon.Question,
            "Revert this run",
            "Restore every file this run changed to what it held before?",
            "A file changed after the run is left alone; you will see which and why. "
            "The revert is recorded too: each file's history can restore what it replaced.",
            [("Revert", QMessageBox.ButtonRole.AcceptRole), QMessageBox.StandardButton.Cancel],
            default=0,
        )
        box.exec()
        return box.clickedButton() is revert

    def revert_selected(self) -> bool:
        """Revert the selected run after asking; False when nothing was started."""
        detail = self._state.detail
        if detail is None or not self._state.can_revert():
            return False
        if not self.confirm_revert(detail.run):
            return False
        self._state.revert_job = self._jobs().submit(plain(revert_run, self._home, detail.run.id))
        self.revert_button.setEnabled(False)
        self.note.set_full_text(REVERTING)
        return True

    def shutdown(self) -> None:
        """Drop the jobs under way (on window close)."""
        client, self._client = self._client, None
        if client is not None:
            client.shutdown()

    def done(self, result: int) -> None:
        """Closing drops the jobs under way — unless a revert is under way (it finishes,
        and the window drops what is left when it closes)."""
        if self._state.revert_job is None:
            self.shutdown()
        super().done(result)

    def _jobs(self) -> JobClient:
        if self._client is None:
            self._client = self._job_service.client("runs-dialog", Lane.SCANS, parent=self)
            self._client.latest_finished.connect(self._on_client_latest_finished)
            self._client.latest_failed.connect(self._on_client_latest_failed)
            self._client.job_finished.connect(self._on_client_job_finished)
            self._client.job_failed.connect(self._on_client_job_failed)
        return self._client

    def _show_runs(self, listing: RunList) -> None:
        choice = self._state.listed(listing, self._selected_run_id())
        self.run_list.blockSignals(True)
        self.run_list.clear()
        failed = QBrush(accent_text(self.palette(), Accent.ERROR))
        for row in run_rows(listing, self._state.names):
            item = QTreeWidgetItem(row.cells)
            item.setData(0, _RUN_ROLE, row.run_id)
            item.setToolTip(0, row.when_tip)
            item.setToolTip(2, row.outcome)
            item.setToolTip(3, row.workspace)
            if row.failed:
                item.setForeground(2, failed)
            self.run_list.addTopLevelItem(item)
        self.run_list.blockSignals(False)
        self._empty.setText(empty_text(self.run_filter))
        self._body.setCurrentIndex(0 if listing.runs else 1)
        if choice.note is not None:
            self.note.set_full_text(choice.note)
        first = self.run_list.topLevelItem(0)
        if first is not None and not (choice.run_id is not None and self.select_run(choice.run_id)):
            self.run_list.setCurrentItem(first)
        if choice.op_now is not None:
            self.select_op(choice.op_now)
        if not listing.runs:
            self._show_detail(None)
        self.loaded.emit()

    def _selected_run_id(self) -> str | None:
        item = self.run_list.currentItem()
        return str(item.data(0, _RUN_ROLE)) if item is not None else None

    def _show_detail(self, detail: RunDetail | None, run: RunEntry | None = None) -> None:
        self._state.detail = detail
        run = detail.run if detail is not None else run
        self.ops.clear()
        self.note.set_full_text(self._state.note_over(run.id if run is not None else None))
        self.diff.set_sides("", "")
        self.diff.show_message(PICK_A_CHANGE)
        heading = run_heading(run, detail, self._state.names) if run is not None else None
        self._heading.set_full_text(heading.title if heading is not None else "")
        self._meta.setText(heading.meta if heading is not None else "")
        self.summary.setText(heading.summary if heading is not None else "")
        self.trace_button.setEnabled(detail is not None and detail.trace is not None)
        self.trace_button.setToolTip(trace_tip(detail) if detail is not None else "")
        if run is None:
            self.revert_button.setEnabled(False)
            self.open_button.setEnabled(False)
            return
        if detail is None:
            self.ops.addTopLevelItem(QTreeWidgetItem(["", READING_CHANGES]))
            self.revert_button.setEnabled(False)
            return
        self._fill_ops(detail)
        self.revert_button.setEnabled(self._state.can_revert())
        self.revert_button.setToolTip(revert_tip(detail))
        if not detail.ops:
            self.diff.show_message(no_change_message(run))

    def _fill_ops(self, detail: RunDetail) -> None:
        palette = self.palette()
        colors = {
            OpState.APPLIED: accent_text(palette, Accent.SUCCESS),
            OpState.REJECTED: accent_text(palette, Accent.ERROR),
            OpState.PROPOSED: muted_text(palette),
        }
        for index, op in enumerate(detail.ops):
            item = QTreeWidgetItem([op.state.value, op.words])
            item.setData(0, _RUN_ROLE, index)
            item.setForeground(0, QBrush(colors[op.state]))
            item.setToolTip(1, op.words)
            self.ops.addTopLevelItem(item)
        self.open_button.setEnabled(False)

    def _selected_op(self) -> OpView | None:
        item = self.ops.currentItem()
        return self._state.op(item.data(0, _RUN_ROLE)) if item is not None else None

    def _open_selected_op(self) -> None:
        op = self._selected_op()
        if op is None:
            return
        opened = self._state.open_op(op)
        if isinstance(opened, str):
            self.note.set_full_text(opened)
            return
        self.open_file_requested.emit(*opened)

    @Slot()
    def _on_trace_button_clicked(self) -> None:
        detail = self._state.detail
        if detail is not None and detail.trace is not None:
            self.open_trace_requested.emit(detail.trace)

    def changeEvent(self, event: QEvent) -> None:
        """Follow palette changes (light ↔ dark)."""
        if event.type() == QEvent.Type.PaletteChange:
            self._recolor()
        super().changeEvent(event)

    def _recolor(self) -> None:
        muted = muted_text(self.palette()).name()
        for label in (self._meta, self._empty, self.note):
            set_style_sheet(label, f"color: {muted}")

    @Slot()
    def _on_filter_changed(self) -> None:
        self.reload()

    @Slot(QTreeWidgetItem, QTreeWidgetItem)
    def _on_run_list_current_item_changed(
        self, current: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None
    ) -> None:
        run = self._state.run(self._selected_run_id())
        if run is None:
            self._show_detail(None)
            return
        if not self._state.needs_detail(run):
            return
        self._show_detail(None, run)
        self._jobs().submit_latest(DETAIL_KEY, plain(load_run_detail, self._home, run))

    @Slot(QTreeWidgetItem, QTreeWidgetItem)
    def _on_ops_current_item_changed(
        self, current: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None
    ) -> None:
        op = self._selected_op()
        self.open_button.setEnabled(op is not None and op.open_path is not None)
        if op is None:
            return
        view = op_diff_view(op)
        if view.sides is not None:
            self.diff.set_sides(*view.sides)
        if view.message is None:
            self.diff.set_diff(op.diff)
        else:
            self.diff.show_message(view.message)

    @Slot(str, object)
    def _on_client_latest_finished(self, key: str, result: object) -> None:
        if key == LIST_KEY and isinstance(result, RunList):
            self._show_runs(result)
        elif (
            key == DETAIL_KEY
            and isinstance(result, RunDetail)
            and result.run.id == self._selected_run_id()
        ):
            self._show_detail(result)
            if self._state.is_wanted(result.run.id):
                op_index = self._state.take_wanted_op()
                if op_index is not None:
                    self.select_op(op_index)
            self.loaded.emit()

    @Slot(str, str)
    def _on_client_latest_failed(self, key: str, message: str) -> None:
        self.note.set_full_text(f"Cannot read the runs: {message}")
        self.loaded.emit()

    @Slot(int, object)
    def _on_client_job_finished(self, job: int, result: object) -> None:
        if job != self._state.revert_job or not isinstance(result, RevertResult):
            return
        self._state.revert_job = None
        self.note.set_full_text("")
        self.result_dialog = RevertResultDialog(result, self)
        self.result_dialog.open()
        self.reverted.emit(result)
        if self._state.detail is not None:  # read again: reverted, or partly (offered again)
            run = self._state.detail.run
            self._show_detail(None, run)
            self._jobs().submit_latest(DETAIL_KEY, plain(load_run_detail, self._home, run))
        self.reload()  # the revert is a run of its own

    @Slot(int, str)
    def _on_client_job_failed(self, job: int, message: str) -> None:
        if job != self._state.revert_job:
            return
        self._state.revert_job = None
        self.note.set_full_text(f"Revert failed: {message}")
        if self._state.detail is not None:
            self.revert_button.setEnabled(self._state.detail.revertible)
