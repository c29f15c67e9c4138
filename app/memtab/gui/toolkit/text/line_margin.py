"""A strip beside a text widget's lines for features that say something per line (line
numbers, blame's gutter, the check's marks); margins of one side stand in their `order`,
and follow the text's edits (`components.text`)."""

from __future__ import annotations

import enum
import functools
from typing import ClassVar, Protocol, Self

from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt, SignalInstance, Slot
from PySide6.QtGui import (
    QFontMetrics,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import QPlainTextEdit, QWidget
from shiboken6 import isValid

from memtab.components.editor.find import MIN_DIGITS, cursor_place, number_digits
from memtab.components.text import ToldLines
from memtab.file_protocol.memory_file import MemoryFile
from memtab.gui.toolkit.style import blend, muted_text


class MarginEditor(Protocol):
    """What a per-line feature (blame, the check's marks) needs of an editor (`EditorPanel`):
    the current tab's text widget to attach its margin to, and when files come and go."""

    @property
    def file_opened(self) -> SignalInstance: ...
    @property
    def file_closed(self) -> SignalInstance: ...
    @property
    def current_file(self) -> MemoryFile | None: ...
    @property
    def text_edit(self) -> QPlainTextEdit: ...


class Side(enum.Enum):
    LEFT = "left"
    RIGHT = "right"


_attached: dict[tuple[int, type[LineMargin]], LineMargin] = {}
"""The margins made, by their text widget's id and their kind (`LineMargin.attached_to`)."""


class LineMargin(QWidget):
    """A strip on one side of `text_edit`'s lines (see the module docstring)."""

    order: ClassVar[int] = 1
    """Where the strip stands among the shown margins of its side: lower is farther from
    the text."""

    def __init__(self, text_edit: QPlainTextEdit, side: Side) -> None:
        super().__init__(text_edit)
        self.setMouseTracking(True)
        self.text_edit = text_edit
        self.side = side
        self._shown = False
        self._told = ToldLines(text_edit.document().blockCount())
        text_edit.document().contentsChange.connect(self._on_contents_change)
        text_edit.updateRequest.connect(self._on_text_update_request)
        text_edit.installEventFilter(self)
        self.hide()
        key = (id(text_edit), type(self))
        _attached[key] = self
        self.destroyed.connect(functools.partial(_forget, key, self))

    @classmethod
    def attached_to(cls, text_edit: QPlainTextEdit) -> Self | None:
        """The margin of this kind made for `text_edit`, if one was — looked up, not
        searched for among the widget's children (which makes a Python object of each:
        a millisecond on every file opened)."""
        margin = _attached.get((id(text_edit), cls))
        if isinstance(margin, cls) and isValid(margin) and margin.text_edit is text_edit:
            return margin
        return None

    def margin_width(self) -> int:
        """How wide the strip is (subclasses say)."""
        return self.sizeHint().width()

    def set_shown(self, shown: bool) -> None:
        """Show the strip (taking its margin of the text's viewport, beside the other shown
        margins of its side) or hide it."""
        self._shown = shown
        self.setVisible(shown)
        self.relayout()

    def relayout(self) -> None:
        """Give the shown margins of this side their room and place (after one showed,
        hid or changed its width)."""
        beside = self._side_margins()
        margins = self.text_edit.viewportMargins()
        width = sum(margin.margin_width() for margin in beside)
        if self.side is Side.LEFT:
            margins.setLeft(width)
        else:
            margins.setRight(width)
        self.text_edit.setViewportMargins(margins)
        for margin in beside:
            margin._place()

    def _side_margins(self) -> list[LineMargin]:
        """The shown margins of this text's side, farthest from the text first."""
        found = [
            margin
            for (text_id, _kind), margin in _attached.items()
            if text_id == id(self.text_edit)
            and isValid(margin)
            and margin.text_edit is self.text_edit
            and margin.side is self.side
            and margin._shown
        ]
        return sorted(found, key=lambda margin: margin.order)

    def fill_background(self, painter: QPainter, rect: QRect) -> None:
        """Paint the strip's background: between the window's and the text's colours."""
        palette = self.palette()
        window = palette.color(QPalette.ColorRole.Window)
        painter.fillRect(rect, blend(window, palette.color(QPalette.ColorRole.Base), 0.5))

    def follow_lines(self) -> None:
        """What the margin says from now on is about the text as it is now (a subclass
        calls this when it is told what to paint)."""
        self._told.told(self.text_edit.document().blockCount())

    def visible_lines(self) -> list[tuple[int, int, int]]:
        """(line, top, height) of each line that shows and was there when the margin was
        told (its number then, 0-based), in the strip's coordinates."""
        found: list[tuple[int, int, int]] = []
        for now, top, height in self.visible_blocks():
            line = self._told.line(now)
            if line is not None:
                found.append((line, top, height))
        return found

    def visible_blocks(self) -> list[tuple[int, int, int]]:
        """(line, top, height) of each line of the text that shows, by its number now
        (0-based), in the strip's coordinates."""
        text = self.text_edit
        block = text.firstVisibleBlock()
        offset = text.contentOffset()
        found: list[tuple[int, int, int]] = []
        bottom_limit = self.height()
        shift = text.viewport().y() - self.y()
        while block.isValid():
            geometry = text.blockBoundingGeometry(block).translated(offset)
            top = round(geometry.top()) + shift
            if top > bottom_limit:
                break
            if block.isVisible():
                found.append((block.blockNumber(), top, max(1, round(geometry.height()))))
            block = block.next()
        return found

    def line_at(self, y: int) -> int | None:
        """The line (0-based) at height `y` of the strip, or None."""
        for line, top, height in self.visible_lines():
            if top <= y < top + height:
                return line
        return None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.text_edit and event.type() == QEvent.Type.Resize:
            self._place()
        return False

    def _place(self) -> None:
        contents = self.text_edit.contentsRect()
        width = self.margin_width()
        outer = 0  # the widths of the shown margins farther from the text
        for margin in self._side_margins():
            if margin is self:
                break
            outer += margin.margin_width()
        if self.side is Side.LEFT:
            left = contents.left() + outer
        else:
            left = contents.right() + 1 - outer - width
        self.setGeometry(left, contents.top(), width, contents.height())

    @Slot(int, int, int)
    def _on_contents_change(self, position: int, removed: int, added: int) -> None:
        """Lines added or removed: where each told line is now. Typing within a line
        (most keys) changes no line number and costs nothing here. A text replaced whole
        (a reload, a merge taken) keeps no line the margin was told of."""
        document = self.text_edit.document()
        count = document.blockCount()
        chars_before = document.characterCount() - added + removed
        if position == 0 and removed >= chars_before - 1:
            self._told.replaced(count)
        else:
            self._told.edited(count, functools.partial(_edited_line, document, position))

    @Slot(QRect, int)
    def _on_text_update_request(self, rect: QRect, dy: int) -> None:
        if not self.isVisible():
            return
        if dy:
            self.scroll(0, dy)
        else:
            self.update(0, rect.y(), self.width(), rect.height())


def _edited_line(document: QTextDocument, position: int) -> int:
    """Where lines came or went in an edit at `position`: at a line's start, lines typed
    come before it and lines removed end in it (what stays of it is the last one's end);
    elsewhere the line keeps its start."""
    block = document.findBlock(position)
    return block.blockNumber() + (0 if position == block.position() else 1)


def _forget(key: tuple[int, type[LineMargin]], margin: LineMargin, *_destroyed: object) -> None:
    if _attached.get(key) is margin:
        del _attached[key]


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
