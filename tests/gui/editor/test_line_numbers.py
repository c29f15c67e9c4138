"""The editor's line numbers (a strip left of the text, beside blame's gutter) and Edit →
Go to line (Ctrl+G): where the cursor goes, from the keyboard."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from gui import editor_support
from gui.editor_support import NOTES, open_loaded, settle, show_and_focus, write_disk
from memtab.components.blame import GutterEntry
from memtab.gui.blame.feature import BlameGutter
from memtab.gui.editor.editor import EditorPanel
from memtab.gui.toolkit.text.line_margin import LineNumbers
from memtab.store.scopes.memory import MemoryStore

store = editor_support.store
own_writes = editor_support.own_writes
panel = editor_support.panel

CTRL = Qt.KeyboardModifier.ControlModifier
LONG = "---\ndescription: Long\n---\n" + "".join(f"- line {n}\n" for n in range(4, 131))


def numbers_of(panel: EditorPanel) -> LineNumbers:
    numbers = LineNumbers.attached_to(panel.text_edit)
    assert numbers is not None
    return numbers


def test_the_text_s_lines_are_numbered_on_its_left_beside_blame(
    qtbot: QtBot, panel: EditorPanel
) -> None:
    open_loaded(qtbot, panel, NOTES)
    show_and_focus(qtbot, panel)
    text = panel.text_edit
    numbers = numbers_of(panel)
    assert numbers.isVisible() and text.viewportMargins().left() == numbers.width()
    assert numbers.x() + numbers.width() <= text.viewport().x()
    shown = [line for line, _top, _height in numbers.visible_blocks()]
    assert shown[:4] == [0, 1, 2, 3]
    # Blame's gutter stands between the numbers and the text; hidden, the numbers stay.
    gutter = BlameGutter(text)
    gutter.set_entries([GutterEntry("user", "you 1d", "you", "you", ())] * 4)
    gutter.set_shown(True)
    assert text.viewportMargins().left() == numbers.width() + gutter.width()
    assert numbers.x() + numbers.width() == gutter.x()
    assert gutter.x() + gutter.width() == text.viewport().x()
    gutter.set_shown(False)
    assert text.viewportMargins().left() == numbers.width() and numbers.isVisible()


def test_the_numbers_widen_with_the_text_and_a_click_selects_a_line(
    qtbot: QtBot, panel: EditorPanel
) -> None:
    open_loaded(qtbot, panel, NOTES)
    show_and_focus(qtbot, panel)
    numbers = numbers_of(panel)
    narrow = numbers.width()
    cursor = panel.text_edit.textCursor()
    cursor.movePosition(QTextCursor.MoveOperation.End)
    cursor.insertText("- more\n" * 120)  # three digits now
    assert numbers.width() > narrow
    assert panel.text_edit.viewportMargins().left() == numbers.width()
    panel.text_edit.moveCursor(QTextCursor.MoveOperation.Start)
    line, top, height = numbers.visible_blocks()[5]
    qtbot.mouseClick(numbers, Qt.MouseButton.LeftButton, pos=QPoint(4, top + height // 2))
    selected = panel.text_edit.textCursor()
    assert selected.blockNumber() == line == 5
    assert selected.selectedText() == panel.text_edit.document().findBlockByNumber(5).text()


def test_ctrl_g_goes_to_the_line_typed(
    qtbot: QtBot, panel: EditorPanel, store: MemoryStore
) -> None:
    write_disk(store, LONG)
    open_loaded(qtbot, panel, NOTES)
    show_and_focus(qtbot, panel)
    text = panel.text_edit
    qtbot.keyClick(text, Qt.Key.Key_G, CTRL)
    dialog = panel.editor_actions.go_to_line_dialog
    assert dialog is not None and dialog.isVisible()
    assert "line 4 of 131" in dialog.hint.text()  # past the frontmatter, as opened
    qtbot.keyClicks(dialog.field, "120:3")
    qtbot.keyClick(dialog.field, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: panel.editor_actions.go_to_line_dialog is None)
    cursor = text.textCursor()
    assert (cursor.blockNumber(), cursor.positionInBlock()) == (119, 2)
    assert QApplication.focusWidget() is text
    assert text.cursorRect().top() >= 0 and text.cursorRect().bottom() <= text.viewport().height()
    # Escape leaves the cursor where it was; a word is no line (Go stays off).
    qtbot.keyClick(text, Qt.Key.Key_G, CTRL)
    dialog = panel.editor_actions.go_to_line_dialog
    assert dialog is not None
    qtbot.keyClicks(dialog.field, "top")
    assert not dialog.buttons.buttons()[0].isEnabled() or dialog.target() is None
    qtbot.keyClick(dialog.field, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: panel.editor_actions.go_to_line_dialog is None)
    assert text.textCursor().blockNumber() == 119
    settle(qtbot, panel)
