"""Where the keyboard lands: in the tree at launch; in the text, past the frontmatter, after
Quick open, Back and Forward; Ctrl+E puts it in the text as Ctrl+0 puts it in the tree; a
file opened from the tree has its cursor in its body."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import settle
from gui.memory_tree_support import WAIT_MS, WindowFactory, activate, wait_idle
from gui.window.test_palette import answer_with
from memtab.components.tree.tree import file_key
from memtab.components.window.ui_state import UiState
from memtab.gui.activity.watch import HomeWatcher
from memtab.gui.first_paint.app import create_main_window
from memtab.gui.first_paint.main_window import MainWindow
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from support.memory_home import MAIN

home = support.home
make_window = support.make_window

CTRL = Qt.KeyboardModifier.ControlModifier
ALT = Qt.KeyboardModifier.AltModifier
PYTHON = parse_file_path("/memories/global/tools/python.md")
GIT = parse_file_path("/memories/global/tools/git.md")
BODY = 3
"""The line (0-based) a memory_home file's body starts on: after its three-line frontmatter."""


def keyboard_in_body(window: MainWindow) -> bool:
    text = window.memory_tab.controller.editor.text_edit
    return text.hasFocus() and text.textCursor().blockNumber() == BODY


def ready(qtbot: QtBot, make_window: WindowFactory, home: Home) -> MainWindow:
    window = make_window(home)
    activate(qtbot, window)
    wait_idle(qtbot, window)
    return window


def open_from_tree(qtbot: QtBot, window: MainWindow, path: object) -> None:
    tab = window.memory_tab
    tab.tree.setFocus()
    tab.controller.editor_link.select_key(file_key(path), open_it=True)  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: tab.controller.editor.current_path == path, timeout=WAIT_MS)
    settle(qtbot, tab.controller.editor)


def test_the_tree_has_the_keyboard_at_launch(qtbot: QtBot, home: Home, tmp_path: Path) -> None:
    # Shown and activated before its first scan, as `memtab` shows it: the activation
    # gave the keyboard to the tab bar, where no key does anything.
    window = create_main_window(
        home,
        MAIN,
        ui_state=UiState(tmp_path / "ui.json"),
        watcher=HomeWatcher(debounce_ms=30, max_latency_ms=300),
    )
    qtbot.addWidget(window)
    try:
        window.show()
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
        qtbot.waitUntil(lambda: window.memory_tab.is_loaded, timeout=WAIT_MS)
        assert QApplication.focusWidget() is window.memory_tab.tree
    finally:
        window.close_without_asking()


def test_quick_open_puts_the_cursor_in_the_file_past_its_frontmatter(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = ready(qtbot, make_window, home)
    answer_with(window, "tools py")
    window.memory_tab.tree.setFocus()
    qtbot.keyClick(window.memory_tab.tree, Qt.Key.Key_P, CTRL)
    editor = window.memory_tab.controller.editor
    qtbot.waitUntil(lambda: editor.current_path == PYTHON, timeout=WAIT_MS)
    settle(qtbot, editor)
    assert keyboard_in_body(window)


def test_back_and_forward_put_the_cursor_in_the_editor(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = ready(qtbot, make_window, home)
    editor = window.memory_tab.controller.editor
    open_from_tree(qtbot, window, PYTHON)
    open_from_tree(qtbot, window, GIT)
    tree = window.memory_tab.tree
    assert tree.hasFocus()
    qtbot.keyClick(tree, Qt.Key.Key_Left, ALT)
    qtbot.waitUntil(lambda: editor.current_path == PYTHON, timeout=WAIT_MS)
    settle(qtbot, editor)
    assert keyboard_in_body(window)
    tree.setFocus()
    qtbot.keyClick(tree, Qt.Key.Key_Right, ALT)
    qtbot.waitUntil(lambda: editor.current_path == GIT, timeout=WAIT_MS)
    settle(qtbot, editor)
    assert keyboard_in_body(window)


def test_a_file_opened_from_the_tree_has_its_cursor_in_its_body_and_ctrl_e_goes_there(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = ready(qtbot, make_window, home)
    tree = window.memory_tab.tree
    tree.setFocus()
    qtbot.keyClick(tree, Qt.Key.Key_E, CTRL)  # no file open: the keyboard stays
    assert tree.hasFocus()
    open_from_tree(qtbot, window, GIT)
    text = window.memory_tab.controller.editor.text_edit
    assert tree.hasFocus()  # walking the tree opens files without leaving it
    assert text.textCursor().blockNumber() == BODY
    qtbot.keyClick(tree, Qt.Key.Key_E, CTRL)
    assert keyboard_in_body(window)
    qtbot.keyClick(text, Qt.Key.Key_0, CTRL)  # and back to the tree
    assert tree.hasFocus()
    qtbot.keyClick(tree, Qt.Key.Key_E, CTRL)
    assert text.hasFocus()
