"""A line margin's marks follow the text while the user types: they are about the lines as
they were when the margin was told (the check's marks here; blame's gutter alike)."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit
from pytestqt.qtbot import QtBot

from memtab.gui.check.feature import CheckLineMarks


def marked(qtbot: QtBot, text: str, notes: dict[int, list[str]]) -> CheckLineMarks:
    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    edit.setPlainText(text)
    edit.resize(400, 300)
    marks = CheckLineMarks(edit)
    marks.set_notes(notes)
    edit.show()
    qtbot.waitExposed(edit)
    return marks


def shown(marks: CheckLineMarks) -> dict[int, int]:
    """Each shown line's number now → the line it was when the marks were set."""
    edit = marks.text_edit
    rows = {top: told for told, top, _height in marks.visible_lines()}
    now: dict[int, int] = {}
    block = edit.document().firstBlock()
    while block.isValid():
        top = round(edit.blockBoundingGeometry(block).translated(edit.contentOffset()).top())
        top += edit.viewport().y() - marks.y()
        if top in rows:
            now[block.blockNumber()] = rows[top]
        block = block.next()
    return now


def edit_at(marks: CheckLineMarks, line: int, column: int, insert: str, remove: int = 0) -> None:
    cursor = QTextCursor(marks.text_edit.document().findBlockByNumber(line))
    cursor.movePosition(QTextCursor.MoveOperation.Right, n=column)
    cursor.movePosition(QTextCursor.MoveOperation.Right, QTextCursor.MoveMode.KeepAnchor, remove)
    cursor.insertText(insert)


def test_a_mark_moves_with_its_line_and_new_lines_have_none(qtbot: QtBot) -> None:
    marks = marked(qtbot, "a\nb\nc\nd\n", {2: ["`c` is gone"]})
    assert shown(marks) == {0: 0, 1: 1, 2: 2, 3: 3, 4: 4}
    edit_at(marks, 0, 0, "new\nnewer\n")  # two lines typed above
    assert shown(marks) == {2: 0, 3: 1, 4: 2, 5: 3, 6: 4}
    assert marks.line_at(_top_of(marks, 4)) == 2  # the mouse over `c` finds its note
    assert marks.line_at(_top_of(marks, 0)) is None  # a line the user added: nothing to say
    edit_at(marks, 4, 1, "\nsplit")  # Enter at the end of `c`: the new line is below it
    assert shown(marks)[4] == 2 and 5 not in shown(marks)


def test_removed_lines_take_their_marks_and_typing_in_a_line_keeps_it(qtbot: QtBot) -> None:
    marks = marked(qtbot, "a\nb\nc\nd\n", {1: ["b"], 3: ["d"]})
    edit_at(marks, 1, 0, "", remove=2)  # `b` and its line break: `c` moves up
    assert shown(marks) == {0: 0, 1: 2, 2: 3, 3: 4}
    edit_at(marks, 2, 1, " and more")  # typing within `d`: same line
    assert shown(marks) == {0: 0, 1: 2, 2: 3, 3: 4}
    marks.set_notes({0: ["a"]})  # told again: about the text as it is now
    assert shown(marks) == {0: 0, 1: 1, 2: 2, 3: 3}


def _top_of(marks: CheckLineMarks, line: int) -> int:
    edit = marks.text_edit
    block = edit.document().findBlockByNumber(line)
    top = edit.blockBoundingGeometry(block).translated(edit.contentOffset()).top()
    return round(top) + edit.viewport().y() - marks.y() + 1


def test_a_text_replaced_whole_keeps_no_mark(qtbot: QtBot) -> None:
    marks = marked(qtbot, "a\nb\nc\nd\n", {2: ["c"], 3: ["d"]})
    cursor = marks.text_edit.textCursor()
    cursor.select(QTextCursor.SelectionType.Document)
    cursor.insertText("q\nr\n")  # a merge taken, a draft restored
    assert shown(marks) == {}
    marks.text_edit.setPlainText("x\ny\nz\nw\nv\n")  # a reload from disk
    assert shown(marks) == {}
    marks.set_notes({1: ["y"]})
    assert shown(marks) == {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5}
