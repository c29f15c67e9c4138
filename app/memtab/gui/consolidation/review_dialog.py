"""Review before apply: the changes a consolidation plan proposes, one row per unit (ops that
go together tick together), all accepted at first; Apply asks for the ticked ones' ops
(`apply_requested`). The plan is only read here.
"""

from __future__ import annotations

import functools
import logging

from PySide6.QtCore import QSize, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QPushButton,
    QSplitter,
    QTreeWidgetItem,
    QWidget,
)

from memtab.components.consolidation.consolidation import (
    accepted_ops,
    apply_label,
    forgot_text,
    has_parts,
    ops_of,
    review_rows,
    review_summary,
    review_title,
    row_diff,
)
from memtab.components.consolidation.jobs import forget_declined
from memtab.consolidation.records import ConsolidationPlan
from memtab.consolidation.review.review_setting import save_review_mode
from memtab.gui.tasks.jobs import JobClient, JobService, Lane
from memtab.gui.toolkit.dialog_layout import fit_to_screen, fit_to_title
from memtab.gui.toolkit.row_list import RowList, tree_rows
from memtab.gui.toolkit.style import muted_text
from memtab.gui.toolkit.text.diff_view import DiffPane
from memtab.gui.toolkit.widgets import WrappedLabel, hbox, named, vbox

logger = logging.getLogger(__name__)

_INDEXES_ROLE = Qt.ItemDataRole.UserRole  # the op numbers of a unit's row, a part, a refused op


class ReviewDialog(QDialog):
    """A plan's ops to accept or reject (see the module docstring)."""

    apply_requested = Signal(object, object)  # (the plan, the tuple of accepted op numbers)
    discarded = Signal()  # closed without applying

    def __init__(
        self,
        jobs: JobService,
        plan: ConsolidationPlan | None = None,
        workspace_name: str = "",
        parent: QWidget | None = None,
    ) -> None:
        """The review of `plan`; without one, an empty dialog that `show_plan` fills (the
        footer builds it while the plan is being made: see `footer.ReviewOpener`). Forget
        declined changes runs on `jobs`' jobs lane."""
        super().__init__(parent)
        self._jobs = jobs
        self._plan: ConsolidationPlan | None = None
        self.setAccessibleName("Review consolidation")
        self.summary = WrappedLabel("", self)
        self.ops = RowList(["Apply", "Change"], "Proposed changes", self)
        self.ops.setWordWrap(True)
        self.ops.currentItemChanged.connect(self._on_ops_current_item_changed)
        self.ops.itemChanged.connect(self._update_apply)
        self.diff = DiffPane(self)
        self.diff.show_message("Select a change to see its diff.")
        self.reason = WrappedLabel("", self)  # why the consolidator proposes the change
        self.reason.setAccessibleName("Why this change")
        self.reason.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reason.hide()
        details = QWidget(self)
        vbox(self.reason, (self.diff, 1), on=details, margins=0)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(self.ops)
        splitter.addWidget(details)
        splitter.setSizes([220, 300])

        self.accept_all_button = QPushButton("Accept &all", self)
        self.accept_all_button.clicked.connect(self._on_accept_all_button_clicked)
        self.reject_all_button = QPushButton("&Reject all", self)
        self.reject_all_button.clicked.connect(self._on_reject_all_button_clicked)
        self.always_direct = QCheckBox("Always apply &directly (no review next time)", self)
        self.always_direct.setToolTip(
            "Consolidate now will apply its changes at once; File → Settings turns the "
            "review back on"
        )
        self.apply_button = QPushButton(self)
        self.apply_button.setDefault(True)
        self.apply_button.clicked.connect(self._on_apply_button_clicked)
        self.forget_button = QPushButton("&Forget declined changes", self)
        self.forget_button.setToolTip(
            "Changes you declined in an earlier review are held back while their files are "
            "unchanged; forget them, and the next Consolidate now may propose them again"
        )
        self.forget_button.clicked.connect(self._on_forget_button_clicked)
        self.forget_button.hide()
        self._client: JobClient | None = None  # forgets the declines off the GUI thread
        self.discard_button = named(QPushButton("Di&scard", self), tip="Change nothing")
        self.discard_button.clicked.connect(self.reject)
        choices = hbox(
            self.accept_all_button,
            self.reject_all_button,
            self.forget_button,
            1,
            self.discard_button,
            self.apply_button,
        )
        vbox(self.summary, (splitter, 1), self.always_direct, choices, on=self)
        fit_to_screen(self, QSize(900, 600), remember="review")
        self.rejected.connect(self.discarded)
        self._update_apply()
        if plan is not None:
            self.show_plan(plan, workspace_name)

    @property
    def plan(self) -> ConsolidationPlan:
        """The plan under review (`show_plan`'s)."""
        if self._plan is None:
            raise RuntimeError("the review has no plan yet")
        return self._plan

    def show_plan(self, plan: ConsolidationPlan, workspace_name: str) -> None:
        """List `plan`'s changes (every proposed one ticked) and show the first one's diff."""
        self._plan = plan
        self.setWindowTitle(review_title(workspace_name))
        self.summary.setText(review_summary(plan))
        self._fill(plan)
        self.forget_button.setVisible(plan.held_back_count > 0)
        self.forget_button.setEnabled(True)
        self._update_apply()
        fit_to_title(self)
        first = self.ops.topLevelItem(0)
        if first is not None:
            self.ops.setCurrentItem(first)

    @property
    def accepted_ops(self) -> tuple[int, ...]:
        """The numbers of the ops of the ticked changes, in plan order."""
        return accepted_ops(
            item.data(0, _INDEXES_ROLE)
            for item in self._change_rows()
            if item.checkState(0) == Qt.CheckState.Checked
        )

    @property
    def accepted_changes(self) -> int:
        """How many changes (rows) are ticked."""
        return sum(1 for item in self._change_rows() if item.checkState(0) == Qt.CheckState.Checked)

    def set_all(self, accepted: bool) -> None:
        """Tick (or untick) every proposed change."""
        state = Qt.CheckState.Checked if accepted else Qt.CheckState.Unchecked
        for item in self._change_rows():
            item.setCheckState(0, state)

    def lay_out(self) -> None:
        """Lay out the widgets and the rows now, while hidden: the step before it is shown
        (`footer.ReviewOpener`) takes that work off the one that shows and paints it."""
        self.ensurePolished()
        for widget in (self, *self.findChildren(QWidget)):
            layout = widget.layout()
            if layout is not None:
                layout.activate()
        self.ops.doItemsLayout()

    def _change_rows(self) -> list[QTreeWidgetItem]:
        """The rows that can be ticked: one per unit of the plan."""
        checkable = Qt.ItemFlag.ItemIsUserCheckable
        return [item for item in tree_rows(self.ops) if item.flags() & checkable]

    def _fill(self, plan: ConsolidationPlan) -> None:
        # A QColor, not a QBrush: PySide builds QBrush's enums (QGradient's ~200 presets,
        # ~4 ms) the first time one is made.
        muted = muted_text(self.palette())
        selectable = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        self.ops.blockSignals(True)
        self.ops.clear()
        for row in review_rows(plan):
            item = QTreeWidgetItem([row.apply, row.words])
            item.setData(0, _INDEXES_ROLE, row.indexes)
            if row.checkable:
                item.setFlags(selectable | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(0, Qt.CheckState.Checked)
            else:
                item.setFlags(selectable)
                item.setForeground(0, muted)
                item.setForeground(1, muted)
            if row.tooltip:
                item.setToolTip(0, row.tooltip)
            for words, index in row.parts:
                child = QTreeWidgetItem(["", words])
                child.setFlags(selectable)
                child.setData(0, _INDEXES_ROLE, (index,))
                child.setToolTip(1, words)
                item.addChild(child)
            item.setToolTip(1, row.words)
            self.ops.addTopLevelItem(item)
            item.setExpanded(True)
        self.ops.setRootIsDecorated(has_parts(plan))
        self.ops.blockSignals(False)

    def _update_apply(self) -> None:
        self.apply_button.setText(apply_label(self._plan, self.accepted_ops))
        self.apply_button.setEnabled(self.accepted_changes > 0)

    @Slot(QTreeWidgetItem, QTreeWidgetItem)
    def _on_ops_current_item_changed(
        self, current: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None
    ) -> None:
        ops = ops_of(self._plan, current.data(0, _INDEXES_ROLE) or ()) if current else []
        if not ops:
            return
        shown = row_diff(ops)
        self.reason.setText(shown.reason)
        self.reason.setVisible(bool(shown.reason))
        if shown.diff is None:
            self.diff.set_sides("", "")
            self.diff.show_message(shown.message or "")
            return
        self.diff.set_sides("before this change", "after it")
        self.diff.set_diff(shown.diff)

    @Slot()
    def _on_accept_all_button_clicked(self) -> None:
        self.set_all(True)

    @Slot()
    def _on_reject_all_button_clicked(self) -> None:
        self.set_all(False)

    @Slot()
    def _on_forget_button_clicked(self) -> None:
        if self._plan is None:
            return
        if self._client is None:
            self._client = self._jobs.client("review-declines", Lane.JOBS, parent=self)
            self._client.job_finished.connect(self._on_client_job_finished)
            self._client.job_failed.connect(self._on_client_job_failed)
        self.forget_button.setEnabled(False)
        self._client.submit(
            functools.partial(forget_declined, self._plan.home, self._plan.workspace_id)
        )

    @Slot(int, object)
    def _on_client_job_finished(self, _job: int, forgotten: object) -> None:
        self.forget_button.hide()
        self.summary.setText(f"{self.summary.text()}\n{forgot_text(forgotten)}")

    @Slot(int, str)
    def _on_client_job_failed(self, _job: int, message: str) -> None:
        self.forget_button.setEnabled(True)
        self.summary.setText(f"{self.summary.text()}\nCould not forget them: {message}")

    def done(self, result: int) -> None:
        """Closing drops Forget declined changes, if it runs."""
        client, self._client = self._client, None
        if client is not None:
            client.shutdown()
        super().done(result)

    @Slot()
    def _on_apply_button_clicked(self) -> None:
        accepted = self.accepted_ops
        if not accepted or self._plan is None:
            return
        if self.always_direct.isChecked():
            try:
                save_review_mode("apply-directly")
            except (OSError, ValueError) as error:
                logger.warning("Could not store the review setting: %s", error)
        self.apply_requested.emit(self._plan, accepted)
        self.done(QDialog.DialogCode.Accepted)
