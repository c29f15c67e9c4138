"""The Markdown source's text widget, with a code editor's keys: Ctrl+Y and Ctrl+Shift+Z redo,
Tab indents lines but never traps the keyboard (frontmatter, Ctrl+M, dialogs), a window's key
is never the text's (`components.text`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent, QTextCursor, QTextDocument
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from memtab.components.text import TabKey, frontmatter_head, indent_width, tab_key
from memtab.gui.toolkit.text.text_fields import is_redo_key

_CHORD_MODIFIERS = (
    Qt.KeyboardModifier.ControlModifier
    | Qt.KeyboardModifier.AltModifier
    | Qt.KeyboardModifier.MetaModifier
)


class SourceEdit(QPlainTextEdit):
    """The editor's source text (see the module docstring)."""

    tab_moves_focus: ClassVar[bool] = False
    """Ctrl+M's mode: Tab moves the focus instead of indenting (every source edit)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)

    @classmethod
    def set_tab_moves_focus(cls, on: bool) -> None:
        """Turn "Tab moves focus" on or off (Ctrl+M)."""
        cls.tab_moves_focus = on

    def in_frontmatter(self) -> bool:
        """Whether the cursor is inside the frontmatter (between its fences, or on one)."""
        lines = self._frontmatter_lines()
        return lines is not None and self.textCursor().blockNumber() < lines

    def take_keyboard(self) -> None:
        """Take the focus handed from elsewhere (not a click in the text), at the start of
        the body when the cursor is at the very top (`start_past_frontmatter`)."""
        self.start_past_frontmatter()
        self.setFocus(Qt.FocusReason.OtherFocusReason)

    def start_past_frontmatter(self) -> None:
        """A cursor at the very top of a file with a frontmatter goes to the start of its
        body: there the next key typed would break the YAML that holds the file's
        description. A cursor anywhere else is where the user left it."""
        lines = self._frontmatter_lines()
        if lines is None or self.textCursor().position() != 0:
            return
        body = self.document().findBlockByNumber(lines)
        cursor = self.textCursor()
        if body.isValid():
            cursor.setPosition(body.position())
        else:
            cursor.movePosition(QTextCursor.MoveOperation.End)
        self.setTextCursor(cursor)

    def _frontmatter_lines(self) -> int | None:
        """How many lines the frontmatter takes, its fences included (None: it has none)."""
        return frontmatter_head(_block_texts(self.document()))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Tab and Shift+Tab (see the module docstring), Redo's keys."""
        if is_redo_key(event):
            if not self.isReadOnly():
                self.redo()
            event.accept()
            return
        plain_tab = event.key() in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab) and not (
            event.modifiers() & _CHORD_MODIFIERS
        )  # Ctrl+Tab, Ctrl+Shift+Tab: the editor's tabs, not the focus
        if not plain_tab:
            super().keyPressEvent(event)
            return
        forward = event.key() == Qt.Key.Key_Tab and not (
            event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        )
        does = tab_key(
            forward=forward,
            moves_focus=self._tab_moves_focus(),
            selects_lines=self._selects_lines(),
        )
        if does is TabKey.MOVE_FOCUS:
            # QPlainTextEdit's own focusNextPrevChild refuses while it takes Tab: QWidget's.
            QWidget.focusNextPrevChild(self, forward)
        elif does is TabKey.SHIFT_LINES:
            self.shift_lines(indent=forward)
        else:
            super().keyPressEvent(event)
        event.accept()

    def shift_lines(self, *, indent: bool) -> None:
        """Indent every line the selection touches (the cursor's line without one) by a
        tab, or outdent it by a tab or up to four spaces — one undo step, the lines then
        selected whole (Tab on several lines, Shift+Tab, as code editors do)."""
        cursor = self.textCursor()
        document = self.document()
        first = document.findBlock(cursor.selectionStart())
        last = document.findBlock(cursor.selectionEnd())
        if last != first and cursor.selectionEnd() == last.position():
            last = last.previous()  # the selection ends at a line's start: not that line
        edit = QTextCursor(document)
        edit.beginEditBlock()
        block = first
        while True:
            edit.setPosition(block.position())
            if indent:
                edit.insertText("\t")
            elif width := indent_width(block.text()):
                edit.setPosition(block.position() + width, QTextCursor.MoveMode.KeepAnchor)
                edit.removeSelectedText()
            if block == last:
                break
            block = block.next()
        edit.endEditBlock()
        if cursor.hasSelection():
            cursor.setPosition(first.position())
            cursor.setPosition(last.position() + last.length() - 1, QTextCursor.MoveMode.KeepAnchor)
            self.setTextCursor(cursor)

    def _selects_lines(self) -> bool:
        """Whether the selection reaches over a line break."""
        cursor = self.textCursor()
        document = self.document()
        return document.findBlock(cursor.selectionStart()) != document.findBlock(
            cursor.selectionEnd()
        )

    def _tab_moves_focus(self) -> bool:
        # tabChangesFocus: a text in a dialog (the three-way merge's), where Ctrl+M's
        # editor action does not reach and Tab must get to the buttons.
        return (
            self.tab_moves_focus
            or self.tabChangesFocus()
            or self.isReadOnly()
            or self.in_frontmatter()
        )


def _block_texts(document: QTextDocument) -> Iterator[str]:
    """The document's lines, from the first, read as they are asked for."""
    block = document.firstBlock()
    while block.isValid():
        yield block.text()
        block = block.next()
