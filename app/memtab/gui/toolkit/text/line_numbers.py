"""The editor's line numbers, the margin farthest from the text (a click selects the line),
and `go_to` a line (Go to line, Go to the cut)."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Slot
from PySide6.QtGui import QFontMetrics, QMouseEvent, QPainter, QPaintEvent, QPalette, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

from memtab.components.editor.find import MIN_DIGITS, cursor_place, number_digits
from memtab.gui.toolkit.style import muted_text
from memtab.gui.toolkit.text.line_margin import LineMargin, Side

PADDING = 6


class LineNumbers(LineMargin):
    """The numbers of `text_edit`'s lines, on its left (see the module docstring)."""

    order = 0

    def __init__(self, text_edit: QPlainTextEdit) -> None:
        super().__init__(text_edit, Side.LEFT)
        self.setObjectName("lineNumbers")
        self.setAccessibleName("Line numbers")
        self._digits = MIN_DIGITS
        text_edit.blockCountChanged.connect(self._on_text_block_count_changed)
        text_edit.cursorPositionChanged.connect(self._on_text_cursor_position_changed)
        self._current = text_edit.textCursor().blockNumber()

    def sizeHint(self) -> QSize:
        advance = QFontMetrics(self.text_edit.font()).horizontalAdvance("9")
        return QSize(self._digits * advance + 2 * PADDING, 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        self.fill_background(painter, event.rect())
        painter.setFont(self.text_edit.font())
        metrics = painter.fontMetrics()
        muted = muted_text(self.palette())
        text = self.palette().color(QPalette.ColorRole.Text)
        right = self.width() - PADDING
        document = self.text_edit.document()
        for line, top, _height in self.visible_blocks():
            number = str(line + 1)
            layout = document.findBlockByNumber(line).layout()
            first = layout.lineAt(0) if layout.lineCount() else None
            # On the baseline of the line's first row, as the text draws it.
            baseline = top + (first.y() + first.ascent() if first is not None else metrics.ascent())
            painter.setPen(text if line == self._current else muted)
            painter.drawText(
                round(right - metrics.horizontalAdvance(number)), round(baseline), number
            )

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """A click on a number selects its line (as a code editor's gutter does)."""
        line = self._block_at(round(event.position().y()))
        if line is None or event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        block = self.text_edit.document().findBlockByNumber(line)
        cursor = QTextCursor(block)
        cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
        self.text_edit.setTextCursor(cursor)
        self.text_edit.setFocus(Qt.FocusReason.MouseFocusReason)
        event.accept()

    def _block_at(self, y: int) -> int | None:
        for line, top, height in self.visible_blocks():
            if top <= y < top + height:
                return line
        return None

    @Slot(int)
    def _on_text_block_count_changed(self, count: int) -> None:
        digits = number_digits(count)
        if digits != self._digits:
            self._digits = digits
            if self._shown:
                self.relayout()

    @Slot()
    def _on_text_cursor_position_changed(self) -> None:
        current = self.text_edit.textCursor().blockNumber()
        if current != self._current:
            self._current = current
            self.update()


def go_to(text_edit: QPlainTextEdit, line: int, column: int = 1) -> None:
    """Put the cursor on `line` at `column` (1-based; past the end: the last line, the end
    of the line), bring it into view and give the text the keyboard."""
    document = text_edit.document()
    index, offset = cursor_place(
        line, column, document.blockCount(), lambda at: document.findBlockByNumber(at).length() - 1
    )
    block = document.findBlockByNumber(index)
    cursor = QTextCursor(block)
    cursor.setPosition(block.position() + offset)
    text_edit.setTextCursor(cursor)
    text_edit.centerCursor()
    text_edit.setFocus(Qt.FocusReason.OtherFocusReason)
