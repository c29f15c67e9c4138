"""The check in the window: `CheckFeature` runs `components.check.jobs` (rechecking only what
changed) on the runs lane after the first scan and each change, shows it in the Check panel, the
tree's rows and the open file's lines, and hands "Apply fix"'s plan to `review`."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, cast

from PySide6.QtCore import QObject, QSize, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QPlainTextEdit,
    QPushButton,
    QToolTip,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from memtab.check.records import CheckReport, Finding
from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.check.check import (
    FIX_TIP,
    MAKING_FIXES,
    NO_WORKSPACE,
    NOT_CHECKED_YET,
    PanelState,
    finding_key,
    finding_place,
    finding_tip,
    fixable,
    fixes_ready,
    line_notes,
    not_checked,
    panel_row,
    rechecks,
    report_status,
    row_marks,
    selection_view,
    shown_in,
)
from memtab.components.check.jobs import NotChecked, WindowCheck, plan_check_fixes
from memtab.components.jobs import plain
from memtab.components.tree.marks import MarkedRows
from memtab.consolidation.records import ConsolidationPlan
from memtab.fs.heap import release_free_heap
from memtab.gui.context import WindowContext, WindowShell
from memtab.gui.tasks.jobs import JobClient, Lane
from memtab.gui.toolkit.clock import qtimer
from memtab.gui.toolkit.keyboard_return import PanelLetters
from memtab.gui.toolkit.style import Accent
from memtab.gui.toolkit.text.line_margin import LineMargin, MarginEditor, Side
from memtab.gui.toolkit.widgets import WrappedLabel, hbox, named, vbox

if TYPE_CHECKING:  # lazy: the consolidation engine loads with the first fix
    from memtab.consolidation.review.check_fixes import FixPlan


_INDEX_ROLE = Qt.ItemDataRole.UserRole
COLUMNS = ("File", "Line", "Kind", "Message")  # File: the name (its tooltip: path or id)


class CheckPanel(QWidget):
    """The findings of the last check. Signals: check_requested(), open_requested(object)
    (a Finding), fix_requested(object) (a tuple of Findings)."""

    check_requested = Signal()
    open_requested = Signal(object)
    fix_requested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("checkPanel")
        self._findings: list[Finding] = []
        self.status = named(WrappedLabel(NOT_CHECKED_YET, self), accessible="Check status")
        self.list = named(QTreeWidget(self), accessible="Findings")
        self.list.setHeaderLabels(list(COLUMNS))
        self.list.setRootIsDecorated(False)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setColumnWidth(0, 120)
        self.list.setColumnWidth(1, 36)
        self.list.setColumnWidth(2, 175)
        self.why = named(WrappedLabel("", self), accessible="Why")
        self.why.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.check_button = QPushButton("Check no&w", self)
        self.open_button = QPushButton("&Open", self)
        self.fix_button = QPushButton("Apply fi&x…", self)  # Alt+F: the File menu
        self.fix_button.setToolTip(FIX_TIP)
        buttons = hbox(self.check_button, 1, self.open_button, self.fix_button)
        vbox(self.status, (self.list, 1), self.why, buttons, on=self, margins=6)
        self.setFocusProxy(self.list)  # the panel's key puts the keyboard in the findings
        self.letters = PanelLetters(self)  # Alt+O is Trust's Open too: each panel's own
        self.check_button.clicked.connect(self.check_requested)
        self.open_button.clicked.connect(self._on_open_button_clicked)
        self.fix_button.clicked.connect(self._on_fix_button_clicked)
        self.list.itemSelectionChanged.connect(self._on_list_selection_changed)
        self.list.itemActivated.connect(self._on_list_item_activated)
        self._on_list_selection_changed()

    def sizeHint(self) -> QSize:
        return QSize(640, 220)  # below the tabs: a few rows, the message beside the rest

    @property
    def findings(self) -> list[Finding]:
        return list(self._findings)

    def set_status(self, text: str) -> None:
        """The line over the list ("Checking…", what the last check found)."""
        self.status.setText(text)

    def set_findings(self, findings: Sequence[Finding]) -> None:
        """List `findings`, keeping the selection of those still listed."""
        selected = {finding_key(f) for f in self.selected()}
        self._findings = list(findings)
        self.list.clear()
        for index, finding in enumerate(self._findings):
            row = panel_row(finding)
            item = QTreeWidgetItem([row.name, row.line, row.kind, row.message])
            item.setData(0, _INDEX_ROLE, index)
            tip = finding_tip(finding)
            for column in range(len(COLUMNS)):
                item.setToolTip(column, tip)
            self.list.addTopLevelItem(item)
            if finding_key(finding) in selected:
                item.setSelected(True)
        self._on_list_selection_changed()

    def selected(self) -> list[Finding]:
        """The selected findings, in list order."""
        indexes = sorted(
            int(item.data(0, _INDEX_ROLE))
            for item in self.list.selectedItems()
            if item.data(0, _INDEX_ROLE) is not None
        )
        return [self._findings[i] for i in indexes if i < len(self._findings)]

    def select(self, index: int) -> None:
        """Select the `index`th finding only."""
        item = self.list.topLevelItem(index)
        if item is not None:
            self.list.setCurrentItem(item)

    @Slot()
    def _on_list_selection_changed(self) -> None:
        shown = selection_view(self.selected())
        self.open_button.setEnabled(shown.open_enabled)
        self.fix_button.setEnabled(shown.fix_enabled)
        self.why.setText(shown.why)

    @Slot()
    def _on_open_button_clicked(self) -> None:
        chosen = self.selected()
        if len(chosen) == 1:
            self.open_requested.emit(chosen[0])

    @Slot(QTreeWidgetItem, int)
    def _on_list_item_activated(self, item: QTreeWidgetItem, _column: int) -> None:
        index = item.data(0, _INDEX_ROLE)
        if index is not None:
            self.open_requested.emit(self._findings[int(index)])

    @Slot()
    def _on_fix_button_clicked(self) -> None:
        if chosen := fixable(self.selected()):
            self.fix_requested.emit(chosen)


WIDTH = 6


class CheckLineMarks(LineMargin):
    """Bars beside the lines with findings (see the module docstring)."""

    def __init__(self, text_edit: QPlainTextEdit) -> None:
        super().__init__(text_edit, Side.RIGHT)
        self.setObjectName("checkLineMarks")
        self.setAccessibleName("Lines the check found something in")
        self._notes: dict[int, list[str]] = {}

    @property
    def notes(self) -> dict[int, list[str]]:
        """What is marked: the findings' messages by line (0-based)."""
        return dict(self._notes)

    def set_notes(self, notes: Mapping[int, list[str]]) -> None:
        """Mark these lines (0-based) with these messages; none: the strip hides."""
        self._notes = dict(notes)
        self.follow_lines()
        self.set_shown(bool(self._notes))
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(WIDTH, 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        self.fill_background(painter, event.rect())
        color = QColor(Accent.WARNING.value)
        for line, top, height in self.visible_lines():
            if line in self._notes:
                painter.fillRect(1, top, WIDTH - 2, height, color)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        line = self.line_at(round(event.position().y()))
        notes = self._notes.get(line) if line is not None else None
        if notes:
            QToolTip.showText(event.globalPosition().toPoint(), "\n".join(notes), self)
        else:
            QToolTip.hideText()
        super().mouseMoveEvent(event)


CHECK_KEY = "check"
FIX_KEY = "check-fix"
RECHECK_DELAY_MS = 2000  # how long the disk stays quiet before the memory is checked again
# After the first report is shown, when the window's start is over: then the heap's free
# pages go back to the system once more (earlier, what the start's last steps free stayed).
HEAP_RELEASE_DELAY_MS = 3000
PANEL_FLAG = "check-panel"  # the UI-state flag: whether the Check panel is shown


class MarkedEditor(MarginEditor, Protocol):
    """The editor whose lines the check marks (`EditorPanel`)."""

    @property
    def has_file(self) -> bool: ...


class CheckFeature(QObject):
    """The check's panel, row marks and line marks; `reported(CheckReport)`: each report shown."""

    reported = Signal(object)

    def __init__(
        self,
        context: WindowContext,
        shell: WindowShell,
        editor: MarkedEditor,
        rows: MarkedRows,
        *,
        review: Callable[[ConsolidationPlan], None],
        in_background: bool = True,
        parent: QObject | None = None,
    ) -> None:
        """Dock the panel in `shell`, mark `editor`'s lines and `rows`, send fixes to
        `review`; check once the tab shows its first scan, unless not `in_background`
        (then when the user asks, and after changes from then on)."""
        super().__init__(parent)
        self._in_background = in_background
        self._context = context
        self._shell = shell
        self._editor = editor
        self._rows = rows
        self._review = review
        self._engine = WindowCheck(context.home)
        self._client: JobClient | None = None
        self._shut_down = False  # no worker is started after the window closed
        self._started = False
        self.report: CheckReport | None = None
        self.shown = PanelState()
        self._panel: CheckPanel | None = None
        # a list: its rows want the window's width
        self.dock = shell.add_dock("Check", "checkDock", below=True)
        self.action = context.actions.add_panel_toggle(
            "check.panel",
            "&Check: still true of the code?",
            self.dock,
            keys=["Ctrl+Shift+K"],
            menu="view",
            tip="What the memory says that its project's code no longer bears out",
        )
        self._recheck = qtimer(self, self.check_now, RECHECK_DELAY_MS)
        self.dock.visibilityChanged.connect(self._on_dock_visibility_changed)
        editor.file_opened.connect(self._mark_lines)
        context.shown.scan_applied.connect(self._on_shown_scan_applied)
        context.shown.workspace_changed.connect(self._on_shown_workspace_changed)
        context.changes.published.connect(self._on_changes_published)
        state = context.ui_state
        if state is not None and state.flag(PANEL_FLAG):
            self.dock.show()

    @property
    def panel(self) -> CheckPanel:
        """The Check panel, built now if it was not (it is when the dock first shows)."""
        if self._panel is None:
            # Its widgets are kept only by a window whose Check panel has shown.
            panel = CheckPanel()
            panel.set_findings(self.shown.findings)
            panel.set_status(self.shown.status)
            panel.check_requested.connect(self.check_now)
            panel.open_requested.connect(self._on_panel_open_requested)
            panel.fix_requested.connect(self._on_panel_fix_requested)
            self.dock.setWidget(panel)
            self._panel = panel
        return self._panel

    @property
    def line_marks(self) -> CheckLineMarks:
        """The marks of the editor's text widget now (each editor tab has its own)."""
        text = self._editor.text_edit
        return CheckLineMarks.attached_to(text) or CheckLineMarks(text)

    @property
    def busy(self) -> bool:
        """Whether a check or a plan of fixes is being made (tests wait for it to end)."""
        return self._client is not None and self._client.is_busy()

    def check_now(self) -> None:
        """Check the home's memory (on the worker; a newer check supersedes)."""
        if self._shut_down:
            return
        self._started = True
        self._recheck.stop()
        self._set_status("Checking…")
        job = functools.partial(self._engine.check, None)  # the home: as `memtab check`
        self._jobs().submit_latest(CHECK_KEY, job)

    @Slot(object)
    def _on_changes_published(self, batch: ChangeBatch) -> None:
        if self._started and rechecks(batch):  # once the disk is quiet
            self._recheck.start()

    def save_ui_state(self) -> None:
        if self._context.ui_state is not None:
            self._context.ui_state.set_flag(PANEL_FLAG, self.dock.isVisible())

    def shutdown(self) -> None:
        """Stop checking (on window close); nothing is checked after it."""
        self._shut_down = True
        self._recheck.stop()
        if self._client is not None:
            self._client.shutdown()

    def _show(self, report: CheckReport) -> None:
        self.report = report
        self.shown.findings = tuple(report.findings)
        if self._panel is not None:
            self._panel.set_findings(report.findings)
        self._set_status(report_status(report))
        self._rows.set_marks("check", row_marks(self._shown_findings()))
        self._mark_lines()
        self.reported.emit(report)

    def show_panel(self) -> None:
        """Show the Check panel (the room's "No longer true of the code")."""
        self.dock.show()
        self.dock.raise_()

    def _set_status(self, text: str) -> None:
        self.shown.status = text
        if self._panel is not None:
            self._panel.set_status(text)

    def _shown_findings(self) -> list[Finding]:
        """The findings in files the tree shows (the shown workspace's scopes, other agents')."""
        if self.report is None:
            return []
        shown = self._context.shown
        project = shown.view().project_path if shown.workspace is not None else None
        return shown_in(self.report.findings, shown.workspace_id, project)

    @Slot()
    def _mark_lines(self) -> None:
        if not self._editor.has_file:
            return  # no file's text shown (its `file_opened` comes once it is)
        file = self._editor.current_file
        if self.report is None or file is None:
            self.line_marks.set_notes({})
            return
        self.line_marks.set_notes(line_notes(self._shown_findings(), file.ref))

    def _release_free_heap(self) -> None:
        # The start's big jobs are done: give back the heap they freed (`fs.heap`), on the
        # lane (it walks the heap).
        if not self._shut_down:
            self._jobs().submit(plain(release_free_heap))

    def _jobs(self) -> JobClient:
        if self._client is None:
            # The runs lane: the first check of a big home reads every file for seconds.
            self._client = self._context.jobs.client("check", Lane.RUNS, parent=self)
            self._client.latest_finished.connect(self._on_client_latest_finished)
            self._client.latest_failed.connect(self._on_client_latest_failed)
        return self._client

    @Slot(str, object)
    def _on_client_latest_finished(self, key: str, result: object) -> None:
        if isinstance(result, NotChecked):
            self._set_status(not_checked(result.message))
            return
        if key == CHECK_KEY:
            first = self.report is None
            self._show(result)  # type: ignore[arg-type]
            if first:
                QTimer.singleShot(HEAP_RELEASE_DELAY_MS, self._release_free_heap)
            return
        if key == FIX_KEY:  # plan_check_fixes's answer
            fixes = cast("FixPlan", result)
            self._context.status.show(fixes_ready(fixes.later))
            self._review(fixes.plan)

    @Slot(str, str)
    def _on_client_latest_failed(self, key: str, message: str) -> None:
        if key == CHECK_KEY:
            self._set_status(not_checked(message))
        else:
            self._context.status.show(f"Could not make the fixes' plan: {message}")

    @Slot(object)
    def _on_shown_scan_applied(self, _scan: object) -> None:
        if not self._started and self._in_background:
            self.check_now()  # the first scan shown: check in the background

    @Slot(object)
    def _on_shown_workspace_changed(self, _workspace: object) -> None:
        if self.report is not None:
            self._show(self.report)  # the same findings, marked for what is shown now

    @Slot(bool)
    def _on_dock_visibility_changed(self, visible: bool) -> None:
        if visible:
            _ = self.panel  # built as it first shows

    @Slot(object)
    def _on_panel_open_requested(self, finding: Finding) -> None:
        place = finding_place(finding, self._context.shown.workspace_id)
        if place.path is None:
            self._context.status.show(place.words)
        else:
            self._shell.reveal_file(place.workspace_id, place.path, place.lines)

    @Slot(object)
    def _on_panel_fix_requested(self, findings: tuple[Finding, ...]) -> None:
        workspace = self._context.shown.workspace
        if self._shut_down:
            return
        if workspace is None:
            self._context.status.show(NO_WORKSPACE)
            return
        self._context.status.show(MAKING_FIXES)
        self._jobs().submit_latest(
            FIX_KEY, functools.partial(plan_check_fixes, self._context.home, workspace, findings)
        )
