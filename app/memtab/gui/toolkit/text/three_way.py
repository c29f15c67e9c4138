"""The three-way view every hand-resolved conflict uses: the common version, mine and theirs
above (tinted, changed words marked, wrapping and scrolling together line for line), the text
to keep below. What it says is `components.text`."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFontDatabase,
    QPalette,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextOption,
)
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QSplitter, QWidget

from memtab.components.merge import ThreeWayTexts
from memtab.components.text import (
    BOTH_NOTE,
    NO_FILE,
    facing_line,
    merge_note,
)
from memtab.gui.toolkit.style import Accent, mute, tint
from memtab.gui.toolkit.text.source_edit import SourceEdit
from memtab.gui.toolkit.widgets import named, vbox

WordSpans = Mapping[int, tuple[tuple[int, int], ...]]


def wrap_lines(edit: QPlainTextEdit) -> None:
    """Wrap at the pane's width, between words where it can (a long URL anywhere)."""
    edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
    edit.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)


class _TextPane(QWidget):
    """A titled, read-only text with some lines tinted."""

    def __init__(self, title: str, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = vbox(on=self, margins=0, spacing=2)
        self.title = QLabel(title, self)
        self.text = named(QPlainTextEdit(self), name, accessible=title)
        self.text.setReadOnly(True)
        wrap_lines(self.text)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.places: tuple[int, ...] = ()
        """Each line's place in the view's common order (`ThreeWayTexts.places`)."""
        layout.addWidget(self.title)
        layout.addWidget(self.text, 1)

    def show_text(
        self,
        text: str | None,
        missing: str,
        changed: frozenset[int],
        accent: Accent,
        words: WordSpans | None = None,
    ) -> None:
        self.text.setPlainText(text if text is not None else missing)
        if text is None:
            return
        palette = self.palette()
        lines = tint(palette, accent, QPalette.ColorRole.Base, 0.16)
        _mark(
            self.text,
            changed,
            lines,
            words or {},
            tint(palette, accent, QPalette.ColorRole.Base, 0.45),
        )

    def top_line(self) -> int:
        """The line at the top of the pane (wrapped lines count as one)."""
        document = self.text.document()
        return document.findBlockByLineNumber(self.text.verticalScrollBar().value()).blockNumber()

    def scroll_to_line(self, number: int) -> None:
        """Put line `number` (0-based) at the top, as far as the text reaches."""
        block = self.text.document().findBlockByNumber(number)
        if block.isValid():
            self.text.verticalScrollBar().setValue(block.firstLineNumber())


def _mark(
    edit: QPlainTextEdit,
    lines: frozenset[int],
    background: QColor,
    words: WordSpans,
    word_background: QColor,
) -> None:
    """Tint `lines`, and mark the `words` in them more strongly (one edit block: Qt lays
    the text out once)."""
    document = edit.document()
    cursor = QTextCursor(document)
    cursor.beginEditBlock()
    block_format = QTextBlockFormat()
    block_format.setBackground(QBrush(background))
    word_format = QTextCharFormat()
    word_format.setBackground(QBrush(word_background))
    for number in sorted(lines):
        block = document.findBlockByNumber(number)
        if not block.isValid():
            continue
        cursor.setPosition(block.position())
        cursor.setBlockFormat(block_format)
        for start, end in words.get(number, ()):
            cursor.setPosition(block.position() + start)
            cursor.setPosition(block.position() + end, QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(word_format)
    cursor.endEditBlock()


class ThreeWayView(QWidget):
    """Three texts above, the one to keep below; `merged_edited()`: the person changed it."""

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
        self.merged_title = QLabel("Text to keep", merged)
        # the editor's keys (Ctrl+Y redoes)…
        self.merged = named(SourceEdit(merged), "threeWayMerged", accessible="Text to keep")
        self.merged.setTabChangesFocus(True)  # …but Tab goes on to the window's buttons
        wrap_lines(self.merged)
        self.merged.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.merged.textChanged.connect(self.merged_edited)
        self.note = mute(QLabel(merged), wrap=True)
        vbox(self.merged_title, (self.merged, 1), self.note, on=merged, margins=0, spacing=2)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(sides)
        splitter.addWidget(merged)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        vbox(splitter, on=self, margins=0)
        self._following = False  # the panes are being scrolled to follow one
        for pane in (self.base, self.mine, self.theirs):
            scroll_bar = pane.text.verticalScrollBar()
            scroll_bar.valueChanged.connect(functools.partial(self._on_pane_scrolled, pane))

    def set_texts(self, texts: ThreeWayTexts) -> None:
        """Show a conflict's texts; the text to keep starts as `texts.draft`."""
        self.texts = texts
        base_label, mine_label, theirs_label = texts.labels
        self.base.title.setText(base_label)
        self.mine.title.setText(mine_label)
        self.theirs.title.setText(theirs_label)
        self.base.setVisible(texts.base is not None)
        self._following = True  # new texts start at the top, each pane on its own
        try:
            self.base.show_text(texts.base, "", frozenset(), Accent.INFO)
            self.mine.show_text(
                texts.mine, NO_FILE, texts.mine_changed, Accent.ADDED, texts.mine_words
            )
            self.theirs.show_text(
                texts.theirs, NO_FILE, texts.theirs_changed, Accent.INFO, texts.theirs_words
            )
        finally:
            self._following = False
        for pane, places in zip((self.base, self.mine, self.theirs), texts.places, strict=True):
            pane.places = places
        self.merged.setReadOnly(texts.binary)
        self.merged.setPlainText(texts.draft)
        self.note.setText(merge_note(texts))

    def show_both(self) -> bool:
        """Put what Keep both keeps in the text to keep, and say so; False when there is
        no such text (a side is not text)."""
        if self.texts is None or self.texts.both is None:
            return False
        self.merged.setPlainText(self.texts.both)
        self.note.setText(BOTH_NOTE)
        return True

    def merged_text(self) -> str:
        """The text to keep, as the person left it."""
        return self.merged.toPlainText()

    def clear(self) -> None:
        self.texts = None
        for pane in (self.base, self.mine, self.theirs):
            pane.places = ()
            pane.text.clear()
        self.merged.clear()
        self.note.clear()

    @Slot()
    def _on_pane_scrolled(self, pane: _TextPane, _value: int) -> None:
        """The other panes follow: the line facing `pane`'s top line goes to their top."""
        if self._following or not pane.places:
            return
        top = pane.top_line()
        self._following = True
        try:
            for other in (self.base, self.mine, self.theirs):
                line = facing_line(pane.places, top, other.places)
                if other is not pane and line is not None:
                    other.scroll_to_line(line)
        finally:
            self._following = False
