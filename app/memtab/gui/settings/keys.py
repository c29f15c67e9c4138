"""The Settings dialog's question before a key typed for one host is sent or saved for
another (docs/formats.md §12.3); its words are `components.settings.model_form`'s."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

from memtab.components.settings.model_form import key_question
from memtab.gui.toolkit.dialog_layout import fit_to_title, give_mnemonics, small_dialog


def confirm_key_host(parent: QWidget, typed_for: str, host: str, action: str) -> bool:
    """Ask before a key typed for origin `typed_for` goes to origin `host` (`action`:
    "Send" or "Save"); True to go ahead."""
    question = key_question(typed_for, host, action)
    box = QMessageBox(parent)
    small_dialog(box)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle("Use the key for another host?")
    box.setText(question.text)
    box.setInformativeText(question.informative)
    confirm = box.addButton(question.confirm, QMessageBox.ButtonRole.AcceptRole)
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(cancel)
    box.setEscapeButton(cancel)
    give_mnemonics(box)
    fit_to_title(box)
    box.exec()
    return box.clickedButton() is confirm
