"""The editor's text widget on its own: Tab and Shift+Tab indent and outdent lines as a
code editor's do (one undo step each), the frontmatter lets Tab leave, Redo's two keys."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPushButton, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from memtab.gui.toolkit.text.source_edit import SourceEdit

SHIFT = Qt.KeyboardModifier.ShiftModifier
BODY = "# Notes\n- one\n- two\n\t- nested\n    - spaced\n"


@pytest.fixture
def text(qtbot: QtBot) -> Iterator[SourceEdit]:
    page = QWidget()  # held here: the text is its child
    qtbot.addWidget(page)
    layout = QVBoxLayout(page)
    edit = SourceEdit(page)
    layout.addWidget(edit)
    layout.addWidget(QPushButton("after", page))
    edit.setPlainText(BODY)
    page.show()
    qtbot.waitExposed(page)
    edit.setFocus()
    yield edit
    page.close()


def select_lines(text: SourceEdit, first: int, last: int, *, to_next_start: bool = False) -> None:
    """Select from line `first`'s start to line `last`'s end (0-based), or to the start
    of the line after it."""
    document = text.document()
    cursor = text.textCursor()
    cursor.setPosition(document.findBlockByNumber(first).position() + 1)  # mid-line
    end = document.findBlockByNumber(last)
    stop = end.next().position() if to_next_start else end.position() + end.length() - 1
    cursor.setPosition(stop, QTextCursor.MoveMode.KeepAnchor)
    text.setTextCursor(cursor)


def test_tab_on_several_lines_indents_each_and_one_undo_takes_it_back(
    qtbot: QtBot, text: SourceEdit
) -> None:
    select_lines(text, 1, 2, to_next_start=True)  # the next line's start: not that line
    qtbot.keyClick(text, Qt.Key.Key_Tab)
    assert text.toPlainText() == "# Notes\n\t- one\n\t- two\n\t- nested\n    - spaced\n"
    assert text.textCursor().selectedText() == "\t- one\u2029\t- two"  # the lines, whole
    assert text.hasFocus()
    text.undo()
    assert text.toPlainText() == BODY


def test_shift_tab_outdents_a_tab_or_up_to_four_spaces(qtbot: QtBot, text: SourceEdit) -> None:
    select_lines(text, 2, 4)
    qtbot.keyClick(text, Qt.Key.Key_Backtab, SHIFT)
    assert text.toPlainText() == "# Notes\n- one\n- two\n- nested\n- spaced\n"
    qtbot.keyClick(text, Qt.Key.Key_Backtab, SHIFT)  # nothing left to take: unchanged
    assert text.toPlainText() == "# Notes\n- one\n- two\n- nested\n- spaced\n"
    text.undo()
    assert text.toPlainText() == BODY
    cursor = text.textCursor()  # no selection: the cursor's line
    cursor.setPosition(text.document().findBlockByNumber(3).position() + 3)
    text.setTextCursor(cursor)
    qtbot.keyClick(text, Qt.Key.Key_Backtab, SHIFT)
    assert text.toPlainText() == "# Notes\n- one\n- two\n- nested\n    - spaced\n"
    assert text.hasFocus()


def test_tab_in_a_line_types_a_tab_over_the_selection(qtbot: QtBot, text: SourceEdit) -> None:
    cursor = text.textCursor()
    cursor.setPosition(2)
    cursor.setPosition(7, QTextCursor.MoveMode.KeepAnchor)  # "Notes"
    text.setTextCursor(cursor)
    qtbot.keyClick(text, Qt.Key.Key_Tab)
    assert text.toPlainText().startswith("# \t\n- one")


def test_in_the_frontmatter_tab_leaves_and_read_only_text_never_takes_it(
    qtbot: QtBot, text: SourceEdit
) -> None:
    text.setPlainText("---\ndescription: x\n---\n" + BODY)
    cursor = text.textCursor()
    cursor.setPosition(5)  # on `description:`
    text.setTextCursor(cursor)
    assert text.in_frontmatter()
    qtbot.keyClick(text, Qt.Key.Key_Tab)
    assert "\t" not in text.toPlainText().split("---")[1] and not text.hasFocus()
    text.setFocus()
    text.moveCursor(QTextCursor.MoveOperation.End)
    assert not text.in_frontmatter()
    text.setReadOnly(True)
    qtbot.keyClick(text, Qt.Key.Key_Tab)
    assert not text.hasFocus() and text.toPlainText().endswith(BODY)


@pytest.mark.parametrize(
    ("content", "start", "expected"),
    [
        ("---\ndescription: d\n---\n# Notes\n", 0, len("---\ndescription: d\n---\n")),
        ("---\ndescription: d\n---", 0, len("---\ndescription: d\n---")),  # no body yet
        ("---\ndescription: d\n---\n# Notes\n", 5, 5),  # the user's place is kept
        (BODY, 0, 0),  # no frontmatter: the top is the body
        ("---\nnot closed\n# Notes\n", 0, 0),  # no frontmatter either
    ],
)
def test_taking_the_keyboard_from_elsewhere_starts_past_the_frontmatter(
    text: SourceEdit, content: str, start: int, expected: int
) -> None:
    text.setPlainText(content)
    cursor = text.textCursor()
    cursor.setPosition(start)
    text.setTextCursor(cursor)
    text.clearFocus()
    text.take_keyboard()
    assert text.hasFocus() and text.textCursor().position() == expected
