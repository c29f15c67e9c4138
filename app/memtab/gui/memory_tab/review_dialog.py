"""Review before apply: the changes "Consolidate now" proposes, accepted one by one.

The plan (`memtab.consolidation.plan.ConsolidationPlan`, made on a scratch copy: nothing
has changed yet) lists each op in words with its diff. Every proposed op starts accepted;
the user unticks the ones to leave out (or uses Accept all / Reject all), then **Apply**
asks for exactly the ticked ones (`apply_requested`) — they go through the same guard,
budget and journal as any run, and an op whose file changed since the plan is refused
then. Ops the rails refused while planning are listed, greyed, with why. "Always apply
directly" stores the setting, so the next Consolidate now applies without asking (the
Settings dialog turns the review back on).

The plan is only read here (no engine import at start-up: the type is for the checker).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QPushButton,
    QSplitter,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memtab import humanize
from memtab.gui.memory_tab.history_widgets import DiffPane, RowList
from memtab.gui.style import muted_text
from memtab.gui.widgets import WrappedLabel, fit_to_title, short_name
from memtab.views.history_diff import join_diffs

if TYPE_CHECKING:
    from memtab.consolidation.plan import ConsolidationPlan, PlannedOp

logger = logging.getLogger(__name__)

_INDEX_ROLE = Qt.ItemDataRole.UserRole


class ReviewDialog(QDialog):
    """A plan's ops to accept or reject (see the module docstring).

    Signals:
        apply_requested(object, object): (the plan, the tuple of accepted op numbers).
        discarded(): closed without applying.
    """

    apply_requested = Signal(object, object)
    discarded = Signal()

    def __init__(
        self, plan: ConsolidationPlan, workspace_name: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.plan = plan
        self.setWindowTitle(f"Review consolidation — {short_name(workspace_name)}")
        self.setAccessibleName("Review consolidation")
        self.resize(900, 600)
        proposed = len(plan.proposed)
        self.summary = WrappedLabel(
            f"{plan.summary or 'The consolidator proposes these changes.'}\n"
            f"Nothing has changed yet: tick the {humanize.plural(proposed, 'change')} to "
            "apply. Each goes through the same rails as any run.",
            self,
        )
        self.ops = RowList(["Apply", "Change"], "Proposed changes", self)
        self.ops.setWordWrap(True)
        self.ops.currentItemChanged.connect(self._on_ops_current_item_changed)
        self.ops.itemChanged.connect(self._on_ops_item_changed)
        self.diff = DiffPane(self)
        self.diff.show_message("Select a change to see its diff.")
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(self.ops)
        splitter.addWidget(self.diff)
        splitter.setSizes([220, 300])
        self._fill()

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
        self.discard_button = QPushButton("Di&scard", self)
        self.discard_button.setToolTip("Change nothing")
        self.discard_button.clicked.connect(self.reject)
        choices = QHBoxLayout()
        choices.addWidget(self.accept_all_button)
        choices.addWidget(self.reject_all_button)
        choices.addStretch(1)
        choices.addWidget(self.discard_button)
        choices.addWidget(self.apply_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.always_direct)
        layout.addLayout(choices)
        self.rejected.connect(self._on_rejected)
        self._update_apply()
        fit_to_title(self)
        first = self.ops.topLevelItem(0)
        if first is not None:
            self.ops.setCurrentItem(first)

    @property
    def accepted_ops(self) -> tuple[int, ...]:
        """The numbers of the ticked ops, in plan order."""
        chosen = []
        for row in range(self.ops.topLevelItemCount()):
            item = self.ops.topLevelItem(row)
            if item is not None and item.checkState(0) == Qt.CheckState.Checked:
                chosen.append(int(item.data(0, _INDEX_ROLE)))
        return tuple(chosen)

    def set_accepted(self, index: int, accepted: bool) -> None:
        """Tick or untick op number `index`."""
        for row in range(self.ops.topLevelItemCount()):
            item = self.ops.topLevelItem(row)
            if item is not None and item.data(0, _INDEX_ROLE) == index:
                item.setCheckState(
                    0, Qt.CheckState.Checked if accepted else Qt.CheckState.Unchecked
                )

    def set_all(self, accepted: bool) -> None:
        """Tick (or untick) every proposed op."""
        for op in self.plan.proposed:
            self.set_accepted(op.index, accepted)

    def _fill(self) -> None:
        muted = QBrush(muted_text(self.palette()))
        self.ops.blockSignals(True)
        for op in self.plan.ops:
            words = op.description or f"{op.command} {op.path}"
            if op.proposed:
                item = QTreeWidgetItem(["", words])
                item.setFlags(
                    Qt.ItemFlag.ItemIsEnabled
                    | Qt.ItemFlag.ItemIsSelectable
                    | Qt.ItemFlag.ItemIsUserCheckable
                )
                item.setCheckState(0, Qt.CheckState.Checked)
            else:
                item = QTreeWidgetItem(["refused", f"{words}: {op.note or 'refused'}"])
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                item.setForeground(0, muted)
                item.setForeground(1, muted)
            item.setData(0, _INDEX_ROLE, op.index)
            item.setToolTip(1, item.text(1))
            self.ops.addTopLevelItem(item)
        self.ops.blockSignals(False)

    def _op(self, item: QTreeWidgetItem | None) -> PlannedOp | None:
        if item is None:
            return None
        index = item.data(0, _INDEX_ROLE)
        return next((op for op in self.plan.ops if op.index == index), None)

    def _update_apply(self) -> None:
        count = len(self.accepted_ops)
        self.apply_button.setText(f"&Apply {humanize.plural(count, 'change')}")
        self.apply_button.setEnabled(count > 0)

    def _save_direct_mode(self) -> None:
        from memtab.consolidation.review_setting import save_review_mode

        try:
            save_review_mode("apply-directly")
        except (OSError, ValueError) as error:
            logger.warning("Could not store the review setting: %s", error)

    @Slot(QTreeWidgetItem, QTreeWidgetItem)
    def _on_ops_current_item_changed(
        self, current: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None
    ) -> None:
        op = self._op(current)
        if op is None:
            return
        if not op.proposed or not op.files:
            self.diff.set_sides("", "")
            self.diff.show_message(f"Not proposed: {op.note or 'the rails refused it'}.")
            return
        self.diff.set_sides("before this change", "after it")
        self.diff.set_diff(join_diffs(file.diff for file in op.files))

    @Slot(QTreeWidgetItem, int)
    def _on_ops_item_changed(self, _item: QTreeWidgetItem, _column: int) -> None:
        self._update_apply()

    @Slot()
    def _on_accept_all_button_clicked(self) -> None:
        self.set_all(True)

    @Slot()
    def _on_reject_all_button_clicked(self) -> None:
        self.set_all(False)

    @Slot()
    def _on_apply_button_clicked(self) -> None:
        accepted = self.accepted_ops
        if not accepted:
            return
        if self.always_direct.isChecked():
            self._save_direct_mode()
        self.apply_requested.emit(self.plan, accepted)
        self.done(QDialog.DialogCode.Accepted)

    @Slot()
    def _on_rejected(self) -> None:
        self.discarded.emit()
