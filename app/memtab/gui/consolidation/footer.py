"""The consolidation footer under the tree: how recently each scope was consolidated, and
Consolidate now with its progress, failure and Cancel on a status line of fixed height (a run
never moves the tree). It never reads disk; what it says is
`components.consolidation.consolidation.RunStates`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal, Slot
from PySide6.QtGui import QFont, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QWidget,
)

from memtab.components import glossary
from memtab.components.consolidation.consolidation import (
    CONSOLIDATE_NOW,
    LINE_KEYS,
    NO_WORKSPACE,
    WAITING,
    Controls,
    RunStates,
    Tone,
    harvest_line,
    header_summary,
    scope_lines,
    summaries_tooltip,
)
from memtab.consolidation.records import ConsolidationPlan, ConsolidationRequest, PlanChoice
from memtab.gui.consolidation.tasks import ConsolidationTasks
from memtab.gui.tasks.jobs import JobService
from memtab.gui.toolkit.clock import qtimer
from memtab.gui.toolkit.icons import tinted_icon
from memtab.gui.toolkit.style import Accent, accent_text, muted_text, set_style_sheet
from memtab.gui.toolkit.widgets import ElidedLabel, hbox, named, vbox
from memtab.store.sidecars.journal import (
    ConsolidationRecord,
    ConsolidationStatus,
    RunScope,
)
from memtab.store.sidecars.registry import Workspace

if TYPE_CHECKING:  # lazy: the review dialog loads with the first plan (review_opener)
    from memtab.gui.consolidation.review_dialog import ReviewDialog

logger = logging.getLogger(__name__)


STEP_PAUSE_MS = 16  # between two steps, a frame's time for the window (paints, input, timers)


class ReviewOpener(QObject):
    """Opens the review of a plan in steps (see the module docstring), one at a time."""

    # the open review's Apply (the plan, the accepted op numbers)
    apply_requested = Signal(object, object)
    discarded = Signal()  # the open review was closed without applying

    def __init__(self, jobs: JobService, parent: QWidget) -> None:
        """Dialogs are made as children of `parent` (the footer), their jobs on `jobs`."""
        super().__init__(parent)
        self._jobs = jobs
        self._parent = parent
        self._spare: ReviewDialog | None = None  # built ahead, hidden, without a plan
        self._pending: tuple[ConsolidationPlan, str] | None = None  # a plan to show
        self._filled: ReviewDialog | None = None  # showing the plan, not open yet
        self.dialog: ReviewDialog | None = None  # the review open (None while it opens)
        self._step = qtimer(self, self._on_step_timeout, STEP_PAUSE_MS)

    def prepare(self) -> None:
        """Build a review ahead, hidden, in short steps: a plan is being made."""
        self._schedule()

    def open(self, plan: ConsolidationPlan, workspace_name: str) -> None:
        """Show `plan` for review, in short steps; a review still open is closed first
        (as a discard), and a plan not shown yet gives way to this one."""
        if self.dialog is not None:
            self.dialog.reject()
        if self._filled is not None:
            self._filled.deleteLater()  # never shown: nothing to say about it
            self._filled = None
        self._pending = (plan, workspace_name)
        self._schedule()

    def _schedule(self) -> None:
        if not self._step.isActive():
            self._step.start()

    @Slot()
    def _on_step_timeout(self) -> None:
        if self._advance():
            self._schedule()

    def _advance(self) -> bool:
        """One step; returns whether another is due."""
        if self._filled is not None:
            self._show(self._filled)
            return False
        if self._spare is None:
            # lazy: the dialog and what only it uses (the review's view and setting, the
            # consolidation's jobs) are not imported by a window that never reviews
            from memtab.gui.consolidation.review_dialog import ReviewDialog

            self._spare = ReviewDialog(self._jobs, parent=self._parent)
            return self._pending is not None
        if self._pending is None:
            return False  # prepared: the plan's arrival asks for the rest
        (plan, workspace_name), self._pending = self._pending, None
        self._filled, self._spare = self._spare, None
        self._filled.show_plan(plan, workspace_name)
        self._filled.lay_out()
        return True

    def _show(self, dialog: ReviewDialog) -> None:
        self._filled = None
        dialog.apply_requested.connect(self.apply_requested)
        dialog.discarded.connect(self.discarded)
        dialog.finished.connect(self._on_dialog_finished)
        self.dialog = dialog
        dialog.open()

    @Slot(int)
    def _on_dialog_finished(self, _result: int) -> None:
        dialog, self.dialog = self.dialog, None  # the one open review is the one closing
        if dialog is not None:
            dialog.deleteLater()


class CoverageLines(QWidget):
    """The grid of scope lines under the footer's header (see the module docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        """Empty lines; `show_status` or `show_waiting` fills them."""
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setContentsMargins(22, 0, 0, 0)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(1)
        self._keys: dict[str, QLabel] = {}
        self._values: dict[str, ElidedLabel] = {}
        for row, key in enumerate(LINE_KEYS):
            key_label = QLabel(f"{key}:", self)
            value = named(ElidedLabel("", self, min_width=0), accessible=f"{key} consolidation")
            grid.addWidget(key_label, row, 0)
            grid.addWidget(value, row, 1)
            self._keys[key] = key_label
            self._values[key] = value
        self._keys["Harvest"].setToolTip(glossary.HARVEST)
        # The last harvest's error, on the Harvest line (whole in its tooltip).
        self.harvest_error = named(ElidedLabel("", self, min_width=0), accessible="Harvest error")
        # In a widget of its own, hidden with the line: a layout whose widgets are all
        # hidden still counts in the grid, and left no width to the other values.
        self._harvest_row = QWidget(self)
        hbox(
            (self._values["Harvest"], 1),
            (self.harvest_error, 2),
            on=self._harvest_row,
            margins=0,
            spacing=6,
        )
        grid.addWidget(self._harvest_row, LINE_KEYS.index("Harvest"), 1)
        grid.setColumnStretch(1, 1)
        self._values["Session"].set_full_text(glossary.SESSION_NEVER_CONSOLIDATED, glossary.SESSION)
        self._keys["Session"].setToolTip(glossary.SESSION)
        self.show_session(False)

    def value(self, key: str) -> ElidedLabel:
        """The value label after `Workspace:`, `Project:`, `Global:`, `Session:` or
        `Harvest:`."""
        return self._values[key]

    def show_session(self, shown: bool) -> None:
        """Show the `Session:` line: the workspace shows xum's session scope, which no run
        consolidates."""
        for widget in (self._keys["Session"], self._values["Session"]):
            widget.setVisible(shown)

    def show_waiting(self) -> None:
        """A workspace whose status is not known yet: "…" on each scope's line."""
        for key in ("Workspace", "Project", "Global"):
            self._values[key].set_full_text(WAITING)
        self._set_harvest(None)

    def show_status(self, status: ConsolidationStatus) -> None:
        """Each scope's last run, and the last harvest when there is one."""
        muted = muted_text(self.palette()).name()
        for key, line in scope_lines(status).items():
            value = self._values[key]
            value.set_full_text(line.text, line.tooltip)
            set_style_sheet(value, f"color: {muted}" if line.muted else "")
        self._set_harvest(status)

    def apply_palette(self) -> None:
        """Muted keys, the harvest error in the error colour (light ↔ dark)."""
        palette = self.palette()
        muted = muted_text(palette).name()
        for key_label in self._keys.values():
            set_style_sheet(key_label, f"color: {muted}")
        set_style_sheet(self.harvest_error, f"color: {accent_text(palette, Accent.ERROR).name()}")

    def _set_harvest(self, status: ConsolidationStatus | None) -> None:
        harvest = harvest_line(status)
        for widget in (self._keys["Harvest"], self._harvest_row, self._values["Harvest"]):
            widget.setVisible(harvest is not None)
        error = harvest.error if harvest is not None else None
        self.harvest_error.setVisible(bool(error))
        self.harvest_error.set_full_text(error or "")
        if harvest is None:
            return
        self._values["Harvest"].set_full_text(harvest.text, harvest.tooltip)
        failed = harvest.error is not None
        color = accent_text(self.palette(), Accent.ERROR) if failed else None
        set_style_sheet(
            self._values["Harvest"], f"color: {color.name()}" if color is not None else ""
        )


DONE_NOTE_MS = 12_000
LINES_REFRESH_MS = 60_000  # "5 min ago" must not go stale while nothing changes on disk
_ACCENTS = {Tone.SUCCESS: Accent.SUCCESS, Tone.ERROR: Accent.ERROR, Tone.INFO: Accent.INFO}


class ConsolidationFooter(QFrame):
    """Coverage lines, harvest line and the Consolidate now button for one workspace."""

    runs_dialog_requested = Signal()  # the runs button was clicked (the window opens Runs…)
    # the pointer or the focus reached Consolidate now for the first time — a click may follow (the
    # window loads the engine then)
    about_to_consolidate = Signal()

    def __init__(
        self, consolidation: ConsolidationTasks, jobs: JobService, parent: QWidget | None = None
    ) -> None:
        """Listen to the window's consolidation facade; `set_context` fills the lines. The
        reviews' own jobs run on `jobs`."""
        super().__init__(parent)
        self.setObjectName("consolidationFooter")
        self._facade = consolidation
        self._status: ConsolidationStatus | None = None
        self._runs = RunStates()
        self._said = self._runs.said  # the last note put in the status line
        self._reviews = ReviewOpener(jobs, self)
        self._reviews.apply_requested.connect(self._on_reviews_apply_requested)
        self._reviews.discarded.connect(self._on_reviews_discarded)

        self._build_ui()
        consolidation.run_started.connect(self._on_consolidation_run_started)
        consolidation.progress.connect(self._on_consolidation_progress)
        consolidation.run_finished.connect(self._on_consolidation_run_finished)
        consolidation.run_failed.connect(self._on_consolidation_run_failed)
        consolidation.run_cancelled.connect(self._on_consolidation_run_cancelled)
        consolidation.plan_ready.connect(self._on_consolidation_plan_ready)

        self._note_timer = qtimer(self, self._on_note_timer_timeout, DONE_NOTE_MS)
        self._lines_timer = qtimer(self, self._refresh_lines, LINES_REFRESH_MS, single_shot=False)
        self._lines_timer.start()
        self._refresh()

    def _build_ui(self) -> None:
        self.details_expanded = True  # the line of each scope shown (else the summary alone)
        self.details_button = QToolButton(self)
        self.details_button.setText("Consolidation")
        self.details_button.setAutoRaise(True)
        self.details_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.details_button.setAccessibleName("Hide consolidation details")
        self.details_button.setToolTip("Show or hide the line of each scope")
        title_font = QFont(self.details_button.font())
        title_font.setBold(True)
        self.details_button.setFont(title_font)
        self.details_button.clicked.connect(self._on_details_button_clicked)
        self.summary = ElidedLabel("", self, min_width=0)  # the header line, collapsed
        self.summary.setAccessibleName("Consolidation summary")

        self.runs_button = QToolButton(self)
        self.runs_button.setAutoRaise(True)
        self.runs_button.setToolTipDuration(-1)
        self.runs_button.setToolTip(
            "Runs… — every consolidation, writer run, sync and revert, its changes, and Revert"
        )
        self.runs_button.setAccessibleName("Consolidation runs")
        self.runs_button.clicked.connect(self.runs_dialog_requested)
        self.consolidate_button = QPushButton(CONSOLIDATE_NOW, self)
        self.consolidate_button.setAccessibleName(CONSOLIDATE_NOW)
        self.consolidate_button.setIconSize(QSize(16, 16))
        self.consolidate_button.clicked.connect(self._on_consolidate_button_clicked)
        self.consolidate_button.installEventFilter(self)
        self.consolidate_button.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        header = hbox(
            self.details_button,
            (self.summary, 1),
            0,
            self.runs_button,
            self.consolidate_button,
            spacing=4,
        )

        self._lines = CoverageLines(self)
        self.harvest_error = self._lines.harvest_error

        self.hint = ElidedLabel(
            "Select a workspace to see and run its consolidation.", self, min_width=0
        )
        self.mux_only_note = ElidedLabel("", self, min_width=0, elide=Qt.TextElideMode.ElideRight)
        self.mux_only_note.setObjectName("muxOnlyNote")
        self.mux_only_note.setToolTip(glossary.OTHER_AGENTS)
        self.mux_only_note.hide()

        self.progress_bar = named(QProgressBar(self), accessible="Consolidation progress")
        self.progress_bar.setRange(0, 0)  # busy: the number of model steps is not known
        self.progress_bar.setTextVisible(False)
        self.progress_bar.setFixedSize(48, 4)
        self.progress_text = ElidedLabel("", self, min_width=0)
        self.progress_text.setAccessibleName("Consolidation step")
        self.status_text = ElidedLabel("", self, min_width=0)
        self.status_text.setAccessibleName("Consolidation status")
        self.cancel_button = QToolButton(self)
        self.cancel_button.setText("Cancel")
        self.cancel_button.setAutoRaise(True)
        self.cancel_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.cancel_button.setAccessibleName("Cancel consolidation")
        self.cancel_button.setToolTip("Stop the run; nothing is journaled for a cancelled run")
        self.cancel_button.clicked.connect(self._on_cancel_button_clicked)
        self.status_area = named(QWidget(self), "consolidationStatus")
        status = hbox(
            (self.progress_bar, 0, Qt.AlignmentFlag.AlignVCenter),
            (self.progress_text, 1),
            (self.status_text, 1),
            on=self.status_area,
            margins=0,
            spacing=6,
        )
        status.addWidget(self.mux_only_note, 1)  # when nothing else is said there
        status.addWidget(self.cancel_button)
        # Fixed: progress, notes and Cancel come and go without moving the tree.
        line = self.fontMetrics().height() + 4
        self.status_area.setFixedHeight(max(line, self.cancel_button.sizeHint().height()))

        vbox(
            header,
            self._lines,
            self.hint,
            self.status_area,
            on=self,
            margins=(6, 4, 8, 4),
            spacing=2,
        )
        self._apply_palette()

    def set_context(
        self,
        workspace: Workspace | None,
        status: ConsolidationStatus | None,
        *,
        session: bool = False,
    ) -> None:
        """Show the coverage of `workspace` (called by the tab after every scan); `session`:
        it shows xum's session scope, which the footer says is never consolidated. A
        different workspace clears the last error or note."""
        self._runs.show_workspace(workspace)
        self._status = status if workspace is not None else None
        self._lines.show_session(session and workspace is not None)
        self._refresh()

    @property
    def workspace(self) -> Workspace | None:
        return self._runs.workspace

    def set_mux_only_note(self, agent: str | None) -> None:
        """Say that consolidation leaves `agent`'s files alone (None: no such file is open)."""
        # Short enough for the footer's width; the tooltip says the rest.
        self.mux_only_note.set_full_text(f"Consolidation skips {agent}'s memory" if agent else "")
        self._show_mux_only_note()

    def _show_mux_only_note(self) -> None:
        """The note takes the status line when no run, error or result needs it (the
        line's height is fixed: the tree above never moves)."""
        said = self.progress_text.isVisibleTo(self) or self.status_text.isVisibleTo(self)
        self.mux_only_note.setVisible(bool(self.mux_only_note.full_text) and not said)

    @property
    def is_running(self) -> bool:
        """Whether the shown workspace has a run queued or going."""
        return self._runs.busy_here

    def line_text(self, key: str) -> str:
        """The value shown after `Workspace:`, `Project:`, `Global:`, `Session:` or
        `Harvest:`."""
        return self._lines.value(key).full_text

    def line_tooltip(self, key: str) -> str:
        """The tooltip of a line's value (the whole of what it says)."""
        return self._lines.value(key).toolTip()

    def is_line_visible(self, key: str) -> bool:
        """Whether a line is shown (Harvest only when mux wrote harvests)."""
        return self._lines.value(key).isVisibleTo(self)

    def set_details_expanded(self, expanded: bool) -> None:
        """Show or hide the lines (the header keeps a one-line summary)."""
        self.details_expanded = expanded
        self.details_button.setAccessibleName(
            "Hide consolidation details" if expanded else "Show consolidation details"
        )
        self._apply_palette()  # the chevron
        self._refresh_lines()

    @property
    def review_dialog(self) -> ReviewDialog | None:
        """The review of the last plan, while it is open (it opens in steps: see
        `ReviewOpener`)."""
        return self._reviews.dialog

    def _refresh(self) -> None:
        self._refresh_lines()
        self._refresh_controls()

    def _refresh_lines(self) -> None:
        status = self._status
        has_workspace = self._runs.workspace is not None
        expanded = self.details_expanded
        self._lines.setVisible(has_workspace and expanded)
        self.hint.setVisible(not has_workspace and expanded)
        self.summary.setVisible(not expanded)
        if not has_workspace:
            self.setToolTip("")
            self.summary.set_full_text(NO_WORKSPACE)
            return
        if status is None:
            self._lines.show_waiting()
            self.setToolTip("")
            self.summary.set_full_text(WAITING)
            return
        self._lines.show_status(status)
        self.setToolTip(summaries_tooltip(status))
        self.summary.set_full_text(header_summary(status), summaries_tooltip(status))

    def _refresh_controls(self) -> None:
        shown = self._runs.controls()
        button = self.consolidate_button
        button.setText(shown.button_text)
        button.setEnabled(shown.button_enabled)
        button.setToolTip(shown.button_tip)
        self.cancel_button.setVisible(shown.cancel_visible)
        self.cancel_button.setEnabled(shown.cancel_enabled)
        self.cancel_button.setText(shown.cancel_text)
        self.progress_bar.setVisible(shown.progress_visible)
        self.progress_text.set_full_text(shown.progress_text)
        self.progress_text.setVisible(shown.progress_text_visible)
        self._show_status(shown)
        self.status_text.setVisible(shown.status_visible)
        self._show_mux_only_note()
        self.runs_button.setEnabled(shown.runs_enabled)

    def _show_status(self, shown: Controls) -> None:
        """The status line's note; a new one (re)starts its timer when it fades."""
        if self._said == self._runs.said:
            return
        self._said = self._runs.said
        self._note_timer.stop()
        status = shown.status
        self.status_text.set_full_text(status.text)
        accent = _ACCENTS.get(status.tone)
        color = accent_text(self.palette(), accent) if accent is not None else None
        set_style_sheet(self.status_text, f"color: {color.name()}" if color is not None else "")
        if status.fades:
            self._note_timer.start()

    def _apply_palette(self) -> None:
        palette = self.palette()
        muted = muted_text(palette).name()
        self._lines.apply_palette()
        for label in (self.hint, self.mux_only_note, self.progress_text, self.summary):
            set_style_sheet(label, f"color: {muted}")
        text = palette.color(QPalette.ColorRole.ButtonText)
        self.consolidate_button.setIcon(tinted_icon("footer-consolidate", text))
        self.cancel_button.setIcon(tinted_icon("footer-cancel", text))
        self.runs_button.setIcon(tinted_icon("footer-runs", muted_text(palette)))
        chevron = "chevron-down" if self.details_expanded else "chevron-right"
        self.details_button.setIcon(tinted_icon(chevron, muted_text(palette)))

    def paintEvent(self, event: QPaintEvent) -> None:
        """A hairline above the footer separates it from the trees."""
        super().paintEvent(event)
        painter = QPainter(self)
        painter.setPen(self.palette().color(QPalette.ColorRole.Mid))
        painter.drawLine(0, 0, self.width(), 0)
        painter.end()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Say `about_to_consolidate` once, when Consolidate now is first hovered or focused."""
        if watched is self.consolidate_button and event.type() in (
            QEvent.Type.Enter,
            QEvent.Type.FocusIn,
        ):
            self.consolidate_button.removeEventFilter(self)
            self.about_to_consolidate.emit()
        return False

    def changeEvent(self, event: QEvent) -> None:
        """Follow palette changes (light ↔ dark)."""
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_palette()
            self._refresh_lines()
        super().changeEvent(event)

    @Slot()
    def _on_consolidate_button_clicked(self) -> None:
        self.consolidate()

    def consolidate(self, scope: RunScope | None = None) -> None:
        """Consolidate now: a plan to review first or a run, as the setting says, of the shown
        workspace (`scope`: that scope alone, "Consolidate Global only", docs/formats.md §9.8)."""
        workspace_id = self._runs.consolidate_clicked(scope)
        if workspace_id is None:
            return
        self._refresh_controls()
        try:
            self._facade.start(ConsolidationRequest(workspace_id, review=None, scope=scope))
        except Exception as error:  # the facade refusing at once (e.g. shut down)
            logger.warning("Could not start consolidation of %s: %s", workspace_id, error)
            self._runs.start_refused(error)
        else:
            if self._runs.busy_here:  # not refused: a plan may come, its review gets ready
                self._reviews.prepare()
        finally:
            self._runs.call_returned()
        self._refresh_controls()

    @Slot()
    def _on_cancel_button_clicked(self) -> None:
        if self._runs.cancel_clicked():
            self._refresh_controls()
            self._facade.cancel()

    @Slot()
    def _on_details_button_clicked(self) -> None:
        self.set_details_expanded(not self.details_expanded)

    @Slot(str)
    def _on_consolidation_run_started(self, workspace_id: str) -> None:
        self._runs.run_started(workspace_id)
        self._refresh_controls()

    @Slot(int, str)
    def _on_consolidation_progress(self, step: int, message: str) -> None:
        self._runs.progressed(step, message)
        self._refresh_controls()

    @Slot(object)
    def _on_consolidation_run_finished(self, record: object) -> None:
        self._runs.run_finished(record.summary if isinstance(record, ConsolidationRecord) else "")
        self._refresh_controls()

    @Slot(str)
    def _on_consolidation_run_failed(self, message: str) -> None:
        self._runs.run_failed(message)
        self._refresh_controls()

    @Slot(str)
    def _on_consolidation_run_cancelled(self, workspace_id: str) -> None:
        self._runs.run_cancelled(workspace_id)
        self._refresh_controls()

    @Slot(object)
    def _on_consolidation_plan_ready(self, plan: ConsolidationPlan) -> None:
        name = self._runs.plan_ready(plan)
        if name is not None:
            self._reviews.open(plan, name)  # first: a review still open closes as discarded
            self._runs.reviewing(plan)
        self._refresh_controls()

    @Slot(object, object)
    def _on_reviews_apply_requested(
        self, plan: ConsolidationPlan, accepted: tuple[int, ...]
    ) -> None:
        self._runs.apply_requested(plan, accepted)
        self._refresh_controls()
        try:
            choice = PlanChoice(plan, tuple(accepted))
            self._facade.start(ConsolidationRequest(plan.workspace_id, plan.trigger, choice=choice))
        finally:
            self._runs.call_returned()

    @Slot()
    def _on_reviews_discarded(self) -> None:
        self._runs.discarded()
        self._refresh_controls()

    @Slot()
    def _on_note_timer_timeout(self) -> None:
        self._runs.note_expired()
        self._refresh_controls()
