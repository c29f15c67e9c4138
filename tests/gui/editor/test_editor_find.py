"""Find and replace in the open file: Ctrl+F in the editor, next/previous, replace."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QTextCursor
from PySide6.QtWidgets import QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from gui import editor_support
from gui.editor_support import NOTES, disk_text, open_loaded, show_and_focus, write_disk
from memtab.components.editor.panel import ViewMode
from memtab.gui.editor.editor import EditorPanel
from memtab.gui.toolkit.text.find_bar import FindBar
from memtab.store.scopes.memory import MemoryStore

store = editor_support.store
own_writes = editor_support.own_writes
panel = editor_support.panel

TEXT = "# Tokens\n\nThe token rotates.\nA TOKEN expires 😀 token.\nTokens: see token.\n"
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def opened(panel: EditorPanel, store: MemoryStore, qtbot: QtBot) -> EditorPanel:
    write_disk(store, TEXT)
    open_loaded(qtbot, panel, NOTES)
    show_and_focus(qtbot, panel)
    return panel


def selected(panel: EditorPanel) -> tuple[int, str]:
    cursor = panel.text_edit.textCursor()
    return cursor.selectionStart(), cursor.selectedText()


def test_ctrl_f_in_the_text_opens_the_find_bar_and_finds_from_the_cursor(
    opened: EditorPanel, qtbot: QtBot
) -> None:
    bar = opened.find_bar
    assert not bar.isVisible()
    qtbot.keyClick(opened.text_edit, Qt.Key.Key_F, CTRL)
    assert bar.isVisible() and bar.query_edit.hasFocus()
    qtbot.keyClicks(bar.query_edit, "token")
    # Case-insensitive, literal: "Tokens" in the title is the first match.
    assert bar.match_count == 6
    assert selected(opened)[1] == "Token"
    assert bar.count_label.text() == "1 of 6"
    qtbot.keyClick(bar.query_edit, Qt.Key.Key_Return)
    assert selected(opened) == (TEXT.index("token"), "token")
    assert bar.count_label.text() == "2 of 6"
    qtbot.keyClick(bar.query_edit, Qt.Key.Key_Return, SHIFT)
    assert bar.count_label.text() == "1 of 6"
    qtbot.keyClick(bar.query_edit, Qt.Key.Key_Return, SHIFT)  # wraps to the last
    assert bar.count_label.text() == "6 of 6"
    # Every match is highlighted.
    assert len(opened.text_edit.extraSelections()) == 6
    qtbot.keyClick(bar.query_edit, Qt.Key.Key_Escape)
    assert not bar.isVisible()
    assert opened.text_edit.hasFocus()
    assert opened.text_edit.extraSelections() == []


def test_a_tab_makes_its_find_bar_when_find_is_first_asked_for(
    opened: EditorPanel, qtbot: QtBot
) -> None:
    # Most tabs are never searched: making one leaves the bar out.
    assert opened.findChildren(FindBar) == []
    qtbot.keyClick(opened.text_edit, Qt.Key.Key_F3)
    [bar] = opened.findChildren(FindBar)
    assert bar is opened.find_bar and bar.isVisible() and bar.query_edit.hasFocus()


def test_the_highlights_go_with_the_bar_however_it_closes(
    opened: EditorPanel, qtbot: QtBot
) -> None:
    bar = opened.find_bar
    opened.find_in_file("token")
    assert len(opened.text_edit.extraSelections()) == 6
    opened.text_edit.setFocus()
    qtbot.keyClick(opened.text_edit, Qt.Key.Key_Escape)  # Esc in the text, as in VS Code
    assert bar.isHidden() and opened.text_edit.extraSelections() == []
    assert opened.text_edit.hasFocus()
    opened.find_in_file("token")
    opened.text_edit.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(opened.text_edit, "token ")  # matches follow typing while open
    qtbot.waitUntil(lambda: len(opened.text_edit.extraSelections()) == 7)
    opened.hide()  # another tab in front: the bar is open, not visible
    text = opened.text_edit
    refresh = bar._refresh_timer
    opened.close_tab(opened.current_tab)  # its tab closes
    assert bar.isHidden() and text.extraSelections() == []
    assert not refresh.isActive()  # no re-find after typing left pending


def test_matches_after_wide_characters_select_the_right_text(
    opened: EditorPanel, qtbot: QtBot
) -> None:
    opened.find_in_file("token.")
    start = TEXT.index("token.")
    # The emoji before it takes two positions in the document.
    assert selected(opened) == (start + 1, "token.")
    opened.find_bar.find_next()
    assert selected(opened) == (TEXT.index("token.", start + 1) + 1, "token.")


def test_f3_and_options(opened: EditorPanel, qtbot: QtBot) -> None:
    opened.find_in_file("token")
    bar = opened.find_bar
    qtbot.keyClick(opened.text_edit, Qt.Key.Key_F3)
    assert bar.count_label.text() == "2 of 6"
    qtbot.keyClick(opened.text_edit, Qt.Key.Key_F3, SHIFT)
    assert bar.count_label.text() == "1 of 6"
    bar.case_button.setChecked(True)
    assert bar.match_count == 3
    bar.words_button.setChecked(True)
    assert bar.match_count == 3
    bar.case_button.setChecked(False)
    assert bar.match_count == 4  # not the two "Tokens"
    bar.query_edit.setText("absent")
    assert bar.count_label.text() == "No matches"
    assert not bar.next_button.isEnabled()


def test_find_uses_the_selection_and_shows_the_source(opened: EditorPanel) -> None:
    opened.set_view_mode(ViewMode.PREVIEW)
    cursor = opened.text_edit.textCursor()
    start = TEXT.index("rotates")
    cursor.setPosition(start)
    cursor.setPosition(start + len("rotates"), cursor.MoveMode.KeepAnchor)
    opened.text_edit.setTextCursor(cursor)
    opened.find_in_file()
    assert opened.find_bar.query == "rotates"
    assert opened.view_mode is ViewMode.SPLIT
    assert opened.find_bar.count_label.text() == "1 of 1"


def test_replace_one_then_all_with_one_undo_step(
    opened: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    qtbot.keyClick(opened.text_edit, Qt.Key.Key_H, CTRL)
    bar = opened.find_bar
    assert bar.replacing and bar.isVisible()
    bar.query_edit.setText("token")
    bar.replace_edit.setText("key")
    bar.replace_current()  # replaces the selected first match and selects the next
    assert opened.buffer_text().startswith("# keys\n")
    assert selected(opened)[1] == "token"
    assert bar.match_count == 5
    bar.replace_every()
    assert bar.count_label.text() == "Replaced 5"
    assert "token" not in opened.buffer_text().lower()
    assert opened.is_dirty
    opened.text_edit.undo()  # Replace all is one step
    assert opened.buffer_text().lower().count("token") == 5
    assert disk_text(store) == TEXT  # nothing saved


def test_read_only_files_can_be_searched_not_changed(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    store.physical(NOTES).write_bytes(b"token\x00token\n")
    open_loaded(qtbot, panel, NOTES)
    assert panel.is_read_only
    assert not panel.editor_actions.replace_action.isEnabled()
    panel.editor_actions.replace_in_file()
    assert not panel.find_bar.isVisible()
    panel.find_in_file("token")
    assert panel.find_bar.match_count == 2
    assert not panel.find_bar.replacing


def test_no_file_no_find(panel: EditorPanel) -> None:
    assert not panel.editor_actions.find_action.isEnabled()
    panel.find_in_file("x")
    assert not panel.find_bar.isVisible()


def test_editing_while_the_bar_is_open_updates_the_matches(
    opened: EditorPanel, qtbot: QtBot
) -> None:
    opened.find_in_file("token")
    assert opened.find_bar.match_count == 6
    opened.text_edit.moveCursor(opened.text_edit.textCursor().MoveOperation.End)
    qtbot.keyClicks(opened.text_edit, "token")
    qtbot.waitUntil(lambda: len(opened.text_edit.extraSelections()) == 7)


def test_the_editors_ctrl_f_wins_over_a_window_wide_one(opened: EditorPanel, qtbot: QtBot) -> None:
    """The Memory tab's Ctrl+F (search the tree) sits on an ancestor of the editor: both
    match while the text has the focus, and Qt would trigger neither."""
    host = QWidget()
    qtbot.addWidget(host)
    QVBoxLayout(host).addWidget(opened)
    try:
        check_the_editor_wins(opened, host, qtbot)
    finally:
        opened.setParent(None)  # the panel fixture owns it


def check_the_editor_wins(opened: EditorPanel, host: QWidget, qtbot: QtBot) -> None:
    searched: list[bool] = []
    tab_find = QAction("Search memories", host)
    tab_find.setShortcut(QKeySequence("Ctrl+F"))
    tab_find.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    tab_find.triggered.connect(lambda: searched.append(True))
    host.addAction(tab_find)
    other = QWidget(host)
    other.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    host.layout().addWidget(other)
    host.show()
    qtbot.waitExposed(host)
    opened.text_edit.setFocus()
    qtbot.waitUntil(opened.text_edit.hasFocus)
    qtbot.keyClick(opened.text_edit, Qt.Key.Key_F, CTRL)
    assert opened.find_bar.isVisible()
    assert searched == []
    # Outside the editor, the window's Ctrl+F still works.
    other.setFocus()
    qtbot.waitUntil(other.hasFocus)
    qtbot.keyClick(other, Qt.Key.Key_F, CTRL)
    assert searched == [True]
