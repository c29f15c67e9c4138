"""The review of a plan, opened without stalling the window.

Building `review_dialog.ReviewDialog` at once when a plan arrives took one 20–30 ms slice
of the GUI thread (PySide's first use of the enums it needs, the widgets, the rows, the
first diff, showing and painting it): a frame or two dropped. `ReviewOpener` does the same
work as short steps a frame apart (`STEP_PAUSE_MS`: the window paints and takes input
between them), each a few ms:

1. build the dialog, empty and hidden;
2. when the plan is there, list its changes, show the first one's diff (`show_plan`)
   and lay the dialog out (`lay_out`);
3. open it (shown and painted).

`prepare()` runs step 1 while the plan is being made (the footer calls it when
Consolidate now starts a run: making a plan takes seconds), so the plan's arrival costs
only steps 2–3; a plan that comes unannounced (the check's Apply fix) goes through all
three. The dialog opened is the same either way, and it is one-shot: closed, it is
deleted, and the next run prepares another. (Its module is imported with the footer.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal, Slot
from PySide6.QtWidgets import QWidget

from memtab.consolidation.records import ConsolidationPlan
from memtab.gui.tasks.jobs import JobService

if TYPE_CHECKING:  # lazy: the dialog loads with the first plan's first step (see _advance)
    from memtab.gui.consolidation.review_dialog import ReviewDialog

# Between two steps the window gets a frame's time of its own (paints, input, timers).
STEP_PAUSE_MS = 16


class ReviewOpener(QObject):
    """Opens the review of a plan in steps (see the module docstring), one at a time.

    Signals:
        apply_requested(object, object): the open review's Apply (the plan, the accepted
            op numbers).
        discarded(): the open review was closed without applying.
    """

    apply_requested = Signal(object, object)
    discarded = Signal()

    def __init__(self, jobs: JobService, parent: QWidget) -> None:
        """Dialogs are made as children of `parent` (the footer), their jobs on `jobs`."""
        super().__init__(parent)
        self._jobs = jobs
        self._parent = parent
        self._spare: ReviewDialog | None = None  # built ahead, hidden, without a plan
        self._pending: tuple[ConsolidationPlan, str] | None = None  # a plan to show
        self._filled: ReviewDialog | None = None  # showing the plan, not open yet
        self._open: ReviewDialog | None = None
        self._step = QTimer(self)
        self._step.setSingleShot(True)
        self._step.setInterval(STEP_PAUSE_MS)
        self._step.timeout.connect(self._on_step_timeout)

    @property
    def dialog(self) -> ReviewDialog | None:
        """The review open now (None while it is still being opened)."""
        return self._open

    def prepare(self) -> None:
        """Build a review ahead, hidden, in short steps: a plan is being made."""
        self._schedule()

    def open(self, plan: ConsolidationPlan, workspace_name: str) -> None:
        """Show `plan` for review, in short steps; a review still open is closed first
        (as a discard), and a plan not shown yet gives way to this one."""
        if self._open is not None:
            self._open.reject()
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
        """Take the next step, and ask for the one after it."""
        if self._advance():
            self._schedule()

    def _advance(self) -> bool:
        """One step; returns whether another is due."""
        if self._filled is not None:
            self._show(self._filled)
            return False
        if self._spare is None:
            # lazy: the dialog and what only it uses (the review's view and setting, the
            # consolidation's operations) are not imported by a window that never reviews
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
        dialog.apply_requested.connect(self._on_dialog_apply_requested)
        dialog.discarded.connect(self._on_dialog_discarded)
        dialog.finished.connect(self._on_dialog_finished)
        self._open = dialog
        dialog.open()

    @Slot(object, object)
    def _on_dialog_apply_requested(self, plan: object, accepted: object) -> None:
        self.apply_requested.emit(plan, accepted)

    @Slot()
    def _on_dialog_discarded(self) -> None:
        self.discarded.emit()

    @Slot(int)
    def _on_dialog_finished(self, _result: int) -> None:
        dialog, self._open = self._open, None  # the one open review is the one closing
        if dialog is not None:
            dialog.deleteLater()
