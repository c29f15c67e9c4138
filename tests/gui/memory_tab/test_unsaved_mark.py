"""A file with unsaved changes is marked in the files view, as its tab is."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import open_loaded, saved, settle
from gui.memory_tree_support import WindowFactory, wait_for
from memtab.components.memory_tab import UNSAVED_MARK
from memtab.components.tree.tree import file_key
from memtab.gui.first_paint.main_window import MainWindow
from memtab.store.home import Home
from memtab.store.paths import VirtualPath, parse_file_path

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

home = support.home
make_window = support.make_window

GIT = parse_file_path("/memories/global/tools/git.md")
PYTHON = parse_file_path("/memories/global/tools/python.md")


def marked(window: MainWindow, path: VirtualPath) -> bool:
    model = window.memory_tab.model
    node = model.reveal(file_key(path))
    assert node is not None
    return UNSAVED_MARK in model.marks_for(node)


def test_a_file_with_unsaved_changes_is_marked_in_the_tree(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    support.activate(qtbot, window)
    support.wait_idle(qtbot, window)
    editor = window.memory_tab.controller.editor
    open_loaded(qtbot, editor, GIT, keep=True)
    assert not marked(window, GIT)
    editor.text_edit.insertPlainText("draft ")
    wait_for(qtbot, lambda: marked(window, GIT))
    open_loaded(qtbot, editor, PYTHON, keep=True)  # another tab: the draft stays marked
    assert marked(window, GIT) and not marked(window, PYTHON)
    open_loaded(qtbot, editor, GIT)
    assert saved(qtbot, editor)
    settle(qtbot, editor)
    wait_for(qtbot, lambda: not marked(window, GIT))
