"""What "Revert this run" did: the files it restored, and the ones it left alone — each
with the reason (changed after the run, by whom and when) and the diff the revert would
have applied to the file as it is now, so nothing is overwritten without the user
seeing it."""

from __future__ import annotations

import logging

from PySide6.QtCore import QSize, Qt, Slot
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTreeWidgetItem, QVBoxLayout, QWidget

from memtab.components.history.diff import (
    BACK_AGAIN,
    first_message,
    parse_unified_diff,
    refusal_message,
    revert_rows,
    revert_summary,
)
from memtab.gui.toolkit.dialog_layout import fit_to_screen, fit_to_title, give_mnemonics
from memtab.gui.toolkit.row_list import RowList
from memtab.gui.toolkit.text.diff_pane import DiffPane
from memtab.gui.toolkit.widgets import WrappedLabel
from memtab.store.restore.from_history import RevertResult

logger = logging.getLogger(__name__)

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
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        give_mnemonics(buttons)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.files, 1)
        layout.addWidget(self.diff, 2)
        layout.addWidget(buttons)
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
