"""Keys that work wherever the focus is: Save from the tree, Find on the Traces tab,
Settings on Ctrl+,, and the same keys on every Linux desktop (a real X display)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest
from PySide6 import QtGui
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import QApplication, QDialog, QWidget
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import settle
from gui.memory_tree_support import WAIT_MS, WindowFactory, activate, wait_idle
from memtab.components.tree.tree import file_key
from memtab.gui.actions import ActionRegistry, Focus, key_sequences
from memtab.gui.window import keys as window_keys
from memtab.gui.window.menus import menu_plan
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from support.memory_home import MAIN
from support.trace_dumps import DEMO_STARTED, fixture_dump, install_dump
from support.x_display import fresh_x_display, xcb_child_env

home = support.home
make_window = support.make_window

CTRL = Qt.KeyboardModifier.ControlModifier
GIT = "/memories/global/tools/git.md"
DESKTOPS = (None, "KDE", "GNOME", "XFCE")
CHILD = Path(__file__).with_name("keys_on_desktop.py")


def open_file(window_tab: object, path: str) -> None:
    window_tab.controller.editor_link.select_key(file_key(parse_file_path(path)), open_it=True)  # type: ignore[attr-defined]


def test_actions_given_the_same_keys_each_have_them_in_order_once(qtbot: QtBot) -> None:
    keys = ["Ctrl+Shift+H", QtGui.QKeySequence.StandardKey.Find, "Ctrl+F"]
    registries = ActionRegistry(), ActionRegistry()
    first = registries[0].add("one.find", "Find", lambda: None, keys=keys)
    second = registries[1].add("two.find", "Find", lambda: None, keys=keys)
    shown = [key.toString() for key in first.shortcuts()]
    assert shown[0] == "Ctrl+Shift+H" and shown.count("Ctrl+F") == 1  # Find's binding too
    assert second.shortcuts() == first.shortcuts()
    key_sequences(keys).clear()  # a caller's list is its own: the next one is whole
    assert key_sequences(keys) == first.shortcuts()


def test_ctrl_s_saves_the_open_file_from_the_tree(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    activate(qtbot, window)
    wait_idle(qtbot, window)
    tab = window.memory_tab
    open_file(tab, GIT)
    editor = tab.controller.editor
    qtbot.waitUntil(lambda: editor.current_path == parse_file_path(GIT), timeout=WAIT_MS)
    settle(qtbot, editor)
    editor.text_edit.setFocus()
    qtbot.keyClicks(editor.text_edit, "Squash first. ")
    assert editor.is_dirty
    tab.tree.setFocus()
    qtbot.keyClick(tab.tree, Qt.Key.Key_S, CTRL)
    qtbot.waitUntil(lambda: not editor.is_dirty, timeout=WAIT_MS)
    assert "Squash first. " in (home.global_root / "tools" / "git.md").read_text()


def test_ctrl_d_in_the_text_pins_the_open_file_and_deletes_nothing(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    activate(qtbot, window)
    wait_idle(qtbot, window)
    tab = window.memory_tab
    open_file(tab, GIT)
    editor = tab.controller.editor
    qtbot.waitUntil(lambda: editor.current_path == parse_file_path(GIT), timeout=WAIT_MS)
    settle(qtbot, editor)
    text_edit = editor.text_edit
    text_edit.setFocus()
    text_edit.moveCursor(QTextCursor.MoveOperation.Start)
    before = text_edit.toPlainText()
    # X11's bindings make Ctrl+D the text's Delete: the text must not take it over.
    override = QKeyEvent(QEvent.Type.ShortcutOverride, Qt.Key.Key_D, CTRL)
    QApplication.sendEvent(text_edit, override)
    assert not override.isAccepted()
    qtbot.keyClick(text_edit, Qt.Key.Key_D, CTRL)
    node = lambda: tab.model.node_for_key(file_key(parse_file_path(GIT)))  # noqa: E731
    qtbot.waitUntil(lambda: bool((n := node()) and n.pinned), timeout=WAIT_MS)
    assert text_edit.toPlainText() == before and not editor.is_dirty
    # A key press the shortcut did not take (say, on X11 before it) deletes nothing either.
    QApplication.sendEvent(text_edit, QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_D, CTRL))
    assert text_edit.toPlainText() == before


def test_ctrl_f_on_the_traces_tab_finds_in_the_dump_being_read(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    install_dump(home, MAIN, fixture_dump("demo"), f"{DEMO_STARTED}_assistant-0001.json")
    window = make_window(home)
    activate(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.AltModifier)
    traces = window.traces_tab
    assert traces is not None
    qtbot.waitUntil(lambda: traces.detail.dump is not None, timeout=WAIT_MS)
    traces.list_view.setFocus()
    qtbot.keyClick(traces.list_view, Qt.Key.Key_F, CTRL)
    raw = traces.detail.raw_view
    assert window.tabs.currentWidget() is not window.memory_tab
    assert traces.detail.tabs.currentWidget() is raw and raw.find_bar.isVisible()
    qtbot.keyClicks(raw.find_bar.query_edit, "toolName")
    qtbot.waitUntil(lambda: raw.find_bar.match_count > 0, timeout=WAIT_MS)
    assert raw.text_view.editor.textCursor().selectedText() == "toolName"
    assert not window.memory_tab.controller.editor.find_bar.isVisible()


def test_ctrl_comma_opens_settings(qtbot: QtBot, make_window: WindowFactory, home: Home) -> None:
    window = make_window(home)
    activate(qtbot, window)
    shown: list[QDialog] = []
    window.exec_dialog = lambda dialog: shown.append(dialog) or 0  # type: ignore[method-assign]
    qtbot.keyClick(window.memory_tab.tree, Qt.Key.Key_Comma, CTRL)
    assert [type(dialog).__name__ for dialog in shown] == ["SettingsDialog"]
    shown[0].reject()  # its workers stop with it


# --- the same keys on every desktop ---------------------------------------------------------


@pytest.fixture(scope="module")
def x_display() -> Iterator[str]:
    """A display of a fresh Xvfb (the xcb platform asks the desktop's theme for keys)."""
    with fresh_x_display() as display:
        yield display


@pytest.fixture(scope="module")
def keys_by_desktop(x_display: str) -> dict[str | None, dict[str, object]]:
    """Each desktop's window: every action's keys and the conflicts among them."""
    children = {}
    for desktop in DESKTOPS:
        children[desktop] = subprocess.Popen(
            [sys.executable, str(CHILD)],
            env=xcb_child_env(x_display, desktop),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    found = {}
    for desktop, child in children.items():
        out, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
        found[desktop] = json.loads(out.strip().splitlines()[-1])
    return found


# slow: four windows in processes of their own on a fresh Xvfb (~5 s of CPU, ~12 s here)
@pytest.mark.slow
@pytest.mark.parametrize("desktop", DESKTOPS)
def test_the_keys_are_the_same_on_every_desktop(
    keys_by_desktop: dict[str | None, dict[str, object]], desktop: str | None
) -> None:
    found = keys_by_desktop[desktop]
    keys = found["keys"]
    assert isinstance(keys, dict)
    assert "Ctrl+H" in keys["editor.replace"]  # StandardKey.Replace has none on X11 and KDE
    assert keys["editor.save"][0] == "Ctrl+S"
    assert "Ctrl+," in keys["window.settings"]
    assert "Ctrl+Q" in keys["window.quit"]
    assert keys["tree.delete"] == ["Del"]  # X11's Delete is Ctrl+D too: Pin's key
    assert keys["editor.find"][0] == keys["window.find"][0] == "Ctrl+F"
    # F3 is Find next's alone: in the file its next match, elsewhere the search's next line.
    assert keys["editor.find_next"] == ["F3"] and keys["search.next_result"] == []
    # Ctrl+G is Go to line, in the text too: never Find next (GNOME's and XFCE's FindNext).
    assert keys["editor.go_to_line"] == ["Ctrl+G"] and found["go_to_line"] is True
    assert keys["files.undo"][0] == "Ctrl+Z"
    assert keys["files.redo"][:2] == ["Ctrl+Shift+Z", "Ctrl+Y"]
    # In the text and the description both redo, though the desktop's Redo is one of them.
    assert found["redone"] == {key: ["Ctrl+Shift+Z", "Ctrl+Y"] for key in ("text", "description")}
    # Every key written as a standard one is bound, whatever the desktop.
    assert all(bound for action, bound in keys.items() if action in KEYED), keys
    assert found["conflicts"] == []


KEYED = {
    "editor.save",
    "editor.find",
    "editor.replace",
    "editor.find_next",
    "editor.find_previous",
    "tree.delete",
    "files.undo",
    "files.redo",
    "window.open_home",
    "window.settings",
    "window.quit",
    "window.find",
    "window.shortcuts",
}
"""The actions whose keys were (or are, besides a written one) Qt's standard keys."""


TREE_ONLY_KEYS = {"tree.rename", "tree.delete", "tree.copy_path", "files.undo", "files.redo"}
"""Tree commands whose keys are the text's own elsewhere (Del, Ctrl+Z…) or act on a row."""


class _KeysCaught(QObject):
    """Which action a key reached, caught before it is carried out: the `Shortcut` event
    Qt sends an action, or the key press a claimed action takes (`ActionRegistry`)."""

    def __init__(self, actions: ActionRegistry) -> None:
        super().__init__()
        self._actions = actions
        self.reached: list[QObject] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Shortcut:
            self.reached.append(watched)
            return True
        if event.type() == QEvent.Type.KeyPress and isinstance(watched, QWidget):
            claimer = self._actions.claiming(watched, cast(QKeyEvent, event))
            if claimer is not None:
                self.reached.append(claimer)
                return True
        return False


def test_every_menu_key_does_its_menu_action_wherever_the_focus_is(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    """Each key of the File, Edit and View menus, pressed with the focus in the text, the
    tree, the search field and a panel beside the tab, reaches its menu action — or, where
    the key means the same thing closer to the focus (Ctrl+F: find in the file, F3: its
    next match), the action that claims it there. The tree's own keys (Del, Ctrl+Z…) are
    the text's elsewhere; the editor's (Ctrl+F in the file…) are the editor's."""
    window = make_window(home)
    activate(qtbot, window)
    wait_idle(qtbot, window)
    tab = window.memory_tab
    open_file(tab, GIT)
    qtbot.waitUntil(
        lambda: tab.controller.editor.current_path == parse_file_path(GIT), timeout=WAIT_MS
    )
    settle(qtbot, tab.controller.editor)
    window.context.actions.action("history.panel").trigger()
    assert window.part(window_keys.HISTORY) is not None
    places = {
        "text": tab.controller.editor.text_edit,
        "tree": tab.tree,
        "search field": tab.controller.search_box.edit,
        "a dialog-free panel": window.part(window_keys.HISTORY).panel.versions,
    }
    actions = window.context.actions
    menu_keyed = [
        entry
        for menu in ("file", "edit", "view")
        for entry in menu_plan(actions, menu)
        if entry is not None and entry.keys
    ]
    assert not [e.id for e in menu_keyed if e.focus is Focus.WIDGET and e.id not in TREE_ONLY_KEYS]
    caught = _KeysCaught(actions)
    for entry in actions.entries():
        entry.action.installEventFilter(caught)
    for widget in places.values():
        for owner in _ancestors(widget):
            owner.installEventFilter(caught)
    swallowed: list[str] = []
    for place, widget in places.items():
        for entry in menu_keyed:
            if entry.id in TREE_ONLY_KEYS and widget is not tab.tree:
                continue
            if entry.on is not None and entry.on is not tab and not _within(entry.on, widget):
                continue  # the editor's own keys (in the text), the tree's
            widget.setFocus()
            qtbot.waitUntil(widget.hasFocus, timeout=WAIT_MS)
            caught.reached.clear()
            key = entry.keys[0]
            combo = key[0]  # type: ignore[index]
            qtbot.keyClick(widget, combo.key(), combo.keyboardModifiers())
            reached = [action for action in caught.reached if isinstance(action, QtGui.QAction)]
            same_key = [action for action in reached if key in action.shortcuts()]
            if entry.action not in reached and not same_key:
                swallowed.append(f"{place}: {entry.id} ({key.toString()})")
    assert swallowed == []


def _within(outer: QWidget, widget: QWidget) -> bool:
    return outer is widget or outer.isAncestorOf(widget)


def _ancestors(widget: QWidget) -> list[QWidget]:
    found = []
    parent: QWidget | None = widget
    while parent is not None:
        found.append(parent)
        parent = parent.parentWidget()
    return found
