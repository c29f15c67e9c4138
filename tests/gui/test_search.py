"""The search box in the Memory tab: filtering off the GUI thread, keys, restoring."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS, WindowFactory, file_names
from memtab.gui.memory_tab import search_tasks
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.views.tree import SectionId, directory_key, file_key, section_key

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
home = support.home
make_window = support.make_window


def key(raw: str) -> str:
    return file_key(parse_file_path(raw))


def search_box(window: object) -> QLineEdit:
    box = window.memory_tab.search_edit  # type: ignore[attr-defined]
    assert box.accessibleName() == "Search memories"
    return box


def test_typing_filters_every_scope_off_the_gui_thread(
    qtbot: QtBot, make_window: WindowFactory, home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[threading.Thread] = []
    real = search_tasks.find_matches

    def recording(*args: object) -> object:
        threads.append(threading.current_thread())
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(search_tasks, "find_matches", recording)
    window = make_window(home)
    tab = window.memory_tab
    qtbot.keyClicks(search_box(window), "ruff")
    qtbot.waitUntil(lambda: file_names(window) == ["global:python.md"], timeout=WAIT_MS)
    assert threads and all(thread is not threading.main_thread() for thread in threads)
    python = tab.model.node_for_key(key("/memories/global/tools/python.md"))
    assert python is not None and python.content_hits == 2
    global_section = tab.model.node_for_key(section_key(SectionId.GLOBAL))
    assert global_section is not None
    assert (global_section.file_count, global_section.total_count) == (1, 4)
    assert tab.tree.delegate.highlight_terms == ("ruff",)
    tools = tab.model.index_for_key(directory_key(parse_file_path("/memories/global/tools")))
    assert tab.tree.isExpanded(tools)  # results are shown expanded


def test_clearing_the_search_restores_the_tree_and_its_expansion(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    tab = window.memory_tab
    everything = file_names(window)
    tools_key = directory_key(parse_file_path("/memories/global/tools"))
    tab.tree.setExpanded(tab.model.index_for_key(tools_key), False)
    box = search_box(window)
    box.setText("postgres")
    qtbot.waitUntil(lambda: file_names(window) == ["project:db.md"], timeout=WAIT_MS)
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Escape)
    assert box.text() == ""
    qtbot.waitUntil(lambda: file_names(window) == everything, timeout=WAIT_MS)
    assert not tab.tree.isExpanded(tab.model.index_for_key(tools_key))
    assert tab.tree.delegate.highlight_terms == ()


def test_ctrl_f_focuses_the_search_box_and_down_goes_to_the_results(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
    tab = window.memory_tab
    tab.tree.setFocus()
    qtbot.keyClick(tab.tree, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert search_box(window).hasFocus()
    qtbot.keyClicks(search_box(window), "zeta")
    qtbot.waitUntil(lambda: file_names(window) == ["global:Zeta.md"], timeout=WAIT_MS)
    qtbot.keyClick(search_box(window), Qt.Key.Key_Down)
    assert tab.tree.hasFocus()
    current = tab.tree.current_node()
    assert current is not None and current.name == "Zeta.md"


def test_no_matches_says_so_in_each_section(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    search_box(window).setText("xyzzy")
    qtbot.waitUntil(lambda: file_names(window) == [], timeout=WAIT_MS)
    tab = window.memory_tab
    for section in (SectionId.GLOBAL, SectionId.PROJECT, SectionId.WORKSPACE):
        node = tab.model.node_for_key(section_key(section))
        assert node is not None and node.children[0].name == "No matches"
