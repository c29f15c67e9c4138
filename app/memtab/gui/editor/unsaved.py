"""The unsaved-changes question, asked without blocking: closing a tab or the window.

`ask_unsaved` opens a window-modal box (`QMessageBox.open()`, never `exec()`) and calls
back with the answer, so nothing waits in a nested event loop — a worker's callback that
arrives meanwhile runs as usual. Switching tabs never asks: each tab keeps its draft.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from memtab.components.editor.leaving import DiscardChoice, save_label, unsaved_question
from memtab.gui.toolkit.dialog_layout import fit_to_title, give_mnemonics, small_dialog

_ANSWERS = {
    QMessageBox.StandardButton.Save: DiscardChoice.SAVE,
    QMessageBox.StandardButton.Discard: DiscardChoice.DISCARD,
}


def ask_unsaved(
    parent: QWidget, names: Sequence[str], answer: Callable[[DiscardChoice], None]
) -> QMessageBox:
    """Ask Save / Discard / Cancel about unsaved changes to `names`; `answer` is called
    once with the choice (closing the box is Cancel). Returns the open box."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle("Unsaved changes")
    box.setWindowModality(Qt.WindowModality.WindowModal)  # sets the box's window flags
    small_dialog(box)
    text, detail = unsaved_question(names)
    box.setText(text)
    box.setInformativeText(detail)
    box.setStandardButtons(
        QMessageBox.StandardButton.Save
        | QMessageBox.StandardButton.Discard
        | QMessageBox.StandardButton.Cancel
    )
    for button, label in (
        (QMessageBox.StandardButton.Save, save_label(names)),
        (QMessageBox.StandardButton.Discard, "&Discard"),
        (QMessageBox.StandardButton.Cancel, "Cancel"),  # give_mnemonics: Alt+C
    ):
        widget = box.button(button)
        if widget is not None:
            widget.setText(label)
    give_mnemonics(box)
    box.setDefaultButton(QMessageBox.StandardButton.Save)
    box.setEscapeButton(QMessageBox.StandardButton.Cancel)
    fit_to_title(box)

    def finished(_result: int) -> None:
        clicked = box.standardButton(box.clickedButton())
        box.deleteLater()
        answer(_ANSWERS.get(clicked, DiscardChoice.CANCEL))

    box.finished.connect(finished)
    box.open()
    return box
