"""The three-way view: the common version, mine and theirs side by side, and the text to keep.

One widget for every conflict a person resolves by hand — a file two machines changed
on the same lines (sync), a file-sync tool's conflict copy beside its original, the
editor's draft against the file on disk:

    view = ThreeWayView()
    view.set_texts(three_way_texts(base, mine, theirs))   # prepared on a worker
    view.use_side("theirs")                                # what "Keep theirs" puts below
    text = view.merged_text()                              # what the person kept

The upper panes are read-only; each side's lines that differ from the common version
(from the other side, when there is none) are tinted. The lower pane starts with the
clean merge when there is one, else with "mine", and is edited freely. The buttons that
decide belong to the caller (each conflict decides its own way).
"""

from __future__ import annotations

from typing import Literal

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFontDatabase, QPalette, QTextBlockFormat, QTextCursor
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QSplitter, QVBoxLayout, QWidget

from memtab.components.merge.three_way import ThreeWayTexts
from memtab.gui.source_edit import SourceEdit
from memtab.gui.style import Accent, mute, tint

Pane = Literal["base", "mine", "theirs"]
_NO_FILE = "(no file on this side: it was deleted or never made)"


class _TextPane(QWidget):
    """A titled, read-only text with some lines tinted."""

    def __init__(self, title: str, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.title = QLabel(title, self)
        self.text = QPlainTextEdit(self)
        self.text.setObjectName(name)
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setAccessibleName(title)
        layout.addWidget(self.title)
        layout.addWidget(self.text, 1)

    def show_text(
        self, text: str | None, missing: str, changed: frozenset[int], accent: Accent
    ) -> None:
        self.text.setPlainText(text if text is not None else missing)
        if text is None:
            return
        background = tint(self.palette(), accent, QPalette.ColorRole.Base, 0.16)
        _tint_lines(self.text, changed, background)


def _tint_lines(edit: QPlainTextEdit, lines: frozenset[int], background: QColor) -> None:
    document = edit.document()
    cursor = QTextCursor(document)
    cursor.beginEditBlock()
    block_format = QTextBlockFormat()
    block_format.setBackground(QBrush(background))
    for number in sorted(lines):
        block = document.findBlockByNumber(number)
        if block.isValid():
            cursor.setPosition(block.position())
            cursor.setBlockFormat(block_format)
    cursor.endEditBlock()


class ThreeWayView(QWidget):
    """Three texts above, the one to keep below (see the module docstring).

    Signals:
        merged_edited(): the person changed the text to keep.
    """

    merged_edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.texts: ThreeWayTexts | None = None
        self.base = _TextPane("Common version", "threeWayBase", self)
        self.mine = _TextPane("Mine", "threeWayMine", self)
        self.theirs = _TextPane("Theirs", "threeWayTheirs", self)
        sides = QSplitter(Qt.Orientation.Horizontal, self)
        for pane in (self.base, self.mine, self.theirs):
            sides.addWidget(pane)
        merged = QWidget(self)
        merged_layout = QVBoxLayout(merged)
        merged_layout.setContentsMargins(0, 0, 0, 0)
        merged_layout.setSpacing(2)
        self.merged_title = QLabel("Text to keep", merged)
        self.merged = SourceEdit(merged)  # the editor's keys (Ctrl+Y redoes)
        self.merged.setTabChangesFocus(True)  # …but Tab goes on to the window's buttons
        self.merged.setObjectName("threeWayMerged")
        self.merged.setAccessibleName("Text to keep")
        self.merged.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.merged.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.merged.textChanged.connect(self.merged_edited)
        self.note = QLabel(merged)
        self.note.setWordWrap(True)
        mute(self.note)
        merged_layout.addWidget(self.merged_title)
        merged_layout.addWidget(self.merged, 1)
        merged_layout.addWidget(self.note)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(sides)
        splitter.addWidget(merged)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)

    def set_texts(self, texts: ThreeWayTexts) -> None:
        """Show a conflict's texts; the text to keep starts as `texts.draft`."""
        self.texts = texts
        base_label, mine_label, theirs_label = texts.labels
        self.base.title.setText(base_label)
        self.mine.title.setText(mine_label)
        self.theirs.title.setText(theirs_label)
        self.base.setVisible(texts.base is not None)
        self.base.show_text(texts.base, "", frozenset(), Accent.INFO)
        self.mine.show_text(texts.mine, _NO_FILE, texts.mine_changed, Accent.ADDED)
        self.theirs.show_text(texts.theirs, _NO_FILE, texts.theirs_changed, Accent.INFO)
        self.merged.setReadOnly(texts.binary)
        self.merged.setPlainText(texts.draft)
        if texts.binary:
            self.note.setText("A side is not text: keep one of them whole.")
        elif texts.clean:
            self.note.setText("Both sides' changes merged: check the text, edit it if needed.")
        elif texts.base is None:
            self.note.setText(
                f"No common version to merge from: this starts as {mine_label.lower()}; edit "
                "it, or start from a side with its button."
            )
        else:
            self.note.setText(
                f"Both changed the same lines: this starts as {mine_label.lower()}; edit it, "
                "or start from a side with its button."
            )

    def use_side(self, pane: Pane) -> None:
        """Put one side's whole text in the text to keep (nothing when it has none)."""
        if self.texts is None:
            return
        text = {"base": self.texts.base, "mine": self.texts.mine, "theirs": self.texts.theirs}[pane]
        self.merged.setPlainText(text or "")

    def merged_text(self) -> str:
        """The text to keep, as the person left it."""
        return self.merged.toPlainText()

    def clear(self) -> None:
        self.texts = None
        for pane in (self.base, self.mine, self.theirs):
            pane.text.clear()
        self.merged.clear()
        self.note.clear()
