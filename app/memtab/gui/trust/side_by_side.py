"""A contradiction's two files side by side (one above the other when narrow), each at its
line, the newer one named; read-only, each side's Open opens it in the editor."""

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
    QVBoxLayout,
    QWidget,
)

from memtab.components.trust.room import Target, place_target
from memtab.gui.toolkit.dialog_layout import fit_to_screen, stack_when_narrow
from memtab.humanize import relative_time
from memtab.operations.trust import SideBySide
from memtab.trust.contradictions.records import ClaimedLine
from memtab.trust.memories import where_in_words

STACK_BELOW = 700
"""px: narrower than this, the two files are one above the other."""


class SideBySideDialog(QDialog):
    """Both files of a contradiction; `open_requested(Target)`: a side's Open."""

    open_requested = Signal(object)

    def __init__(self, read: SideBySide, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sideBySide")
        found = read.contradiction
        self.setWindowTitle(f"Disagreeing: {found.about}")
        layout = QVBoxLayout(self)
        why = QLabel(found.why + (f"\n{read.problem}" if read.problem else ""), self)
        why.setWordWrap(True)
        layout.addWidget(why)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.texts: list[QPlainTextEdit] = []
        self._targets: list[Target] = []
        sides = ((found.first, read.first, "first"), (found.second, read.second, "second"))
        for column, (side, text, name) in enumerate(sides):
            newer = found.newer == name
            pane = QWidget(self.splitter)
            title = QLabel(_title(side, newer=newer, undecided=found.newer is None), pane)
            title.setWordWrap(True)
            title.setTextFormat(Qt.TextFormat.PlainText)
            edit = QPlainTextEdit(pane)
            edit.setReadOnly(True)
            edit.setObjectName(f"side{column}")
            edit.setAccessibleName(f"{'Newer' if newer else 'Older'}: {side.place.path}")
            edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
            edit.setPlainText(text if text is not None else "(cannot be read)")
            button = QPushButton("&Open this one" if column == 0 else "O&pen this one", pane)
            button.clicked.connect(self._on_open_clicked)
            button.setProperty("side", column)
            column_layout = QVBoxLayout(pane)
            column_layout.setContentsMargins(0, 0, 0, 0)
            column_layout.addWidget(title)
            column_layout.addWidget(edit, 1)
            column_layout.addWidget(button)
            self.splitter.addWidget(pane)
            self.texts.append(edit)
            self._targets.append(place_target(side.place))
            _mark_line(edit, side.place.line)
        layout.addWidget(self.splitter, 1)
        stack_when_narrow(self.splitter, STACK_BELOW)
        fit_to_screen(self, QSize(1000, 560), remember="side-by-side")

    @Slot()
    def _on_open_clicked(self) -> None:
        column = self.sender().property("side")
        self.open_requested.emit(self._targets[int(column)])
        self.accept()


def _title(side: ClaimedLine, *, newer: bool, undecided: bool) -> str:
    place = side.place
    when = relative_time(side.written_at) if side.written_at else "at an unknown time"
    age = "" if undecided else ("Newer — " if newer else "Older — ")
    line = f":{place.line}" if place.line is not None else ""
    return f"{age}{place.path}{line} ({where_in_words(place)})\nsays {side.value}, written {when}"


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
