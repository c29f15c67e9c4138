"""What a window's features keep stays alive while they keep it (issue 81 point 1): a widget
one feature holds and lends to another's (the room the editor shows with no file open,
lent to whichever empty page shows it) is never deleted with what it was lent to — a tab
closed, a file deleted, a workspace switched, a pane narrowed, a dialog closed.

The walk goes through everything the window's objects hold (`support.held_qt_objects`), so
it finds the shape wherever a feature keeps a widget another deleted, not one instance."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import QDialog, QWidget
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.every_dialog import open_every_dialog
from gui.memory_tree_support import FakeDialogs, WindowFactory, wait_for, wait_for_look, wait_idle
from memtab.demo import DARK_MODE_ID, MAIN_ID
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.window import keys
from memtab.store.home import Home
from support.demo_homes import copied_demo_home
from support.held_qt_objects import deleted_qt_objects

make_window = support.make_window


def _deleted_now() -> None:
    """Delete what was asked to be deleted later (a closed tab, a closed dialog)."""
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def _open(qtbot: QtBot, window: MainWindow, name: str, *, keep: bool) -> None:
    editor = window.part(keys.EDITOR)
    node = support.node(window, f"file:/memories/global/{name}")
    assert node is not None, name
    window.part(keys.EDITOR_LINK).open_node(node, keep=keep)
    wait_for(qtbot, lambda: (ref := editor.current_ref) is not None and ref.key.endswith(name))
    # Its row selected, as the editor's load selects it: what Delete then deletes.
    tree = window.memory_tab.tree
    wait_for(qtbot, lambda: [row.key for row in tree.selected_nodes()] == [node.key])


@pytest.mark.slow  # slow: a window on the demo home walked through every rebuild and dialog
def test_no_feature_keeps_a_widget_that_was_deleted(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    demo: Home = copied_demo_home(tmp_path / "demo")
    window = make_window(demo, MAIN_ID)
    window.show()
    dialogs = FakeDialogs()
    window.memory_tab.controller.dialogs = dialogs  # type: ignore[assignment]
    trust = window.part(keys.TRUST)
    trust.find_now()
    wait_for_look(qtbot, trust)
    editor = window.part(keys.EDITOR)
    # Two kept tabs and a preview; the preview closed, then another deleted from the tree.
    _open(qtbot, window, "preferences.md", keep=True)
    _open(qtbot, window, "environment.md", keep=True)
    _open(qtbot, window, "tools/git.md", keep=False)
    editor.close_tab_asking(editor.tabs[-1])
    _open(qtbot, window, "frontend-build.md", keep=False)
    window.part(keys.FILE_ACTIONS).delete_selected()
    wait_for(qtbot, lambda: support.node(window, "file:/memories/global/frontend-build.md") is None)
    window.part(keys.FILE_ACTIONS).turns.undo_last()
    wait_for(qtbot, lambda: support.node(window, "file:/memories/global/frontend-build.md"))
    _deleted_now()
    assert deleted_qt_objects(window, "window") == []
    # The panels each key opens and closes, a narrow window and a wide one, a search,
    # another workspace and back, every tab closed.
    for command in ("trust.panel", "check.panel", "history.panel"):
        for _ in range(2):
            support.action(window, command).trigger()
    window.resize(683, 700)
    wait_for(qtbot, lambda: window.memory_tab.panes.narrow)
    window.resize(1366, 700)
    wait_for(qtbot, lambda: not window.memory_tab.panes.narrow)
    search = window.memory_tab.controller.search_box.edit
    every_file = support.file_names(window)
    qtbot.keyClicks(search, "ruff")

    def found() -> bool:
        shown = support.file_names(window)
        return shown != every_file and "global:python.md" in shown

    wait_for(qtbot, found)
    search.clear()
    wait_idle(qtbot, window)
    window.memory_tab.switch_workspace(DARK_MODE_ID)
    wait_idle(qtbot, window)
    window.memory_tab.switch_workspace(MAIN_ID)
    wait_idle(qtbot, window)
    for tab in editor.tabs:
        editor.close_tab(tab)
    wait_for(qtbot, trust.room.isVisible)
    trust.find_now()
    wait_for_look(qtbot, trust)

    def close(dialog: QWidget) -> None:
        assert isinstance(dialog, QDialog)
        if dialog.parent() is None and not dialog.testAttribute(
            Qt.WidgetAttribute.WA_DeleteOnClose
        ):
            qtbot.addWidget(dialog)
        dialog.reject()

    open_every_dialog(window, demo, close)
    _deleted_now()
    assert deleted_qt_objects(window, "window") == []
