"""Edit → Go to line (Ctrl+G): a small dialog with one field, over the editor.

Typing a line number (or `line:column`, `components.editor.find`) and Enter puts the
cursor there, brings it into view and gives the text the keyboard
(`gui.toolkit.text.line_numbers.go_to`); Escape leaves the cursor where it was. The dialog opens
window-modal and never blocks: `chosen` brings the line.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal, Slot
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout, QWidget

from memtab.components.editor.find import LineTarget, go_to_hint, parse_target
from memtab.gui.toolkit.dialog_layout import fit_to_screen, give_mnemonics
from memtab.gui.toolkit.style import mute


class GoToLineDialog(QDialog):
    """Asks for a line of a text of `lines` lines whose cursor is on `current`.

    Signals:
        chosen(object): the `LineTarget` typed, on Enter (or Go).
    """

    chosen = Signal(object)

    def __init__(self, current: int, lines: int, parent: QWidget | None = None) -> None:
        # A small dialog: a title and a close button, no minimize or maximize.
        flags = Qt.WindowType
        super().__init__(
            parent,
            flags.Dialog
            | flags.CustomizeWindowHint
            | flags.WindowTitleHint
            | flags.WindowCloseButtonHint,
        )
        self.setObjectName("goToLineDialog")
        self.setWindowTitle("Go to line")
        self._lines = lines
        self.field = QLineEdit(self)
        self.field.setAccessibleName("Line number")
        self.field.setPlaceholderText(f"{current}")
        self.hint = QLabel(go_to_hint(current, lines), self)
        self.hint.setWordWrap(True)
        mute(self.hint)
        label = QLabel("&Line:", self)
        label.setBuddy(self.field)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        go = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        go.setText("&Go")
        give_mnemonics(self.buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(self.field)
        layout.addWidget(self.hint)
        layout.addWidget(self.buttons)
        self.buttons.accepted.connect(self._on_buttons_accepted)
        self.buttons.rejected.connect(self.reject)
        self.field.textChanged.connect(self._on_field_text_changed)
        self._on_field_text_changed("")
        self.setWindowModality(Qt.WindowModality.WindowModal)
        fit_to_screen(self, QSize(380, 0))
        self.field.setFocus()

    def target(self) -> LineTarget | None:
        """What the field asks for now (None: no line number)."""
        return parse_target(self.field.text(), self._lines)

    @Slot(str)
    def _on_field_text_changed(self, _text: str) -> None:
        go = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        go.setEnabled(self.target() is not None)

    @Slot()
    def _on_buttons_accepted(self) -> None:
        target = self.target()
        if target is None:
            return
        self.accept()
        self.chosen.emit(target)
