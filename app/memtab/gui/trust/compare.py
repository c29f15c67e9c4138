"""Compare: a finding's or a candidate's places side by side, read-only, each file at its
line, each with its Open — the one action a candidate has besides asking the model."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal, Slot
from PySide6.QtGui import QColor, QFontDatabase, QPalette, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTextEdit,
    QWidget,
)

from memtab.components.trust.compare import Compared
from memtab.components.trust.room import Target, place_target
from memtab.gui.toolkit.dialog_layout import fit_to_screen, stack_when_narrow
from memtab.gui.toolkit.widgets import vbox

STACK_BELOW = 700  # px: narrower than this, the files are one above the other
_OPEN_LETTERS = ("&Open this one", "O&pen this one", "Op&en this one", "Ope&n this one")


class SideBySideDialog(QDialog):
    """Every place of `read.found`, side by side; `open_requested(Target)`: a side's Open."""

    open_requested = Signal(object)

    def __init__(self, read: Compared, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sideBySide")
        self.setWindowTitle(read.title)
        why = QLabel(read.why + (f"\n{read.problem}" if read.problem else ""), self)
        why.setWordWrap(True)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.texts: list[QPlainTextEdit] = []
        self._targets: list[Target] = []
        for column, side in enumerate(read.sides):
            pane = QWidget(self.splitter)
            title = QLabel(side.title, pane)
            title.setWordWrap(True)
            title.setTextFormat(Qt.TextFormat.PlainText)
            edit = QPlainTextEdit(pane)
            edit.setReadOnly(True)
            edit.setObjectName(f"side{column}")
            edit.setAccessibleName(side.title.split("\n", 1)[0])
            edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
            edit.setPlainText(side.text if side.text is not None else "(cannot be read)")
            opened = _OPEN_LETTERS[column] if column < len(_OPEN_LETTERS) else "Open this one"
            button = QPushButton(opened, pane)
            button.clicked.connect(self._on_open_clicked)
            button.setProperty("side", column)
            vbox(title, (edit, 1), button, on=pane, margins=0)
            self.splitter.addWidget(pane)
            self.texts.append(edit)
            self._targets.append(place_target(side.place))
            _mark_line(edit, side.place.line)
        vbox(why, (self.splitter, 1), on=self)
        stack_when_narrow(self.splitter, STACK_BELOW)
        fit_to_screen(self, QSize(1000, 560), remember="side-by-side")

    @Slot()
    def _on_open_clicked(self) -> None:
        self.open_requested.emit(self._targets[int(self.sender().property("side"))])
        self.accept()


def _mark_line(edit: QPlainTextEdit, line: int | None) -> None:
    if line is None:
        return
    block = edit.document().findBlockByNumber(line - 1)
    if not block.isValid():
        return
    color = QColor(edit.palette().color(QPalette.ColorRole.Highlight))
    color.setAlphaF(0.25)
    selection = QTextEdit.ExtraSelection()
    selection.cursor = QTextCursor(block)
    selection.format.setBackground(color)
    selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
    edit.setExtraSelections([selection])
    edit.setTextCursor(QTextCursor(block))
    edit.centerCursor()
