"""View → What each agent loads, in the window: filled on a worker for the shown workspace,
MEMORY.md's cut said in its row, a row opens its file (docs/formats.md §17.6)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QTreeWidgetItem
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import replace_in_buffer, saved, settle
from gui.memory_tree_support import WAIT_MS, WindowFactory, wait_idle
from memtab.components.tree.nodes import ref_key
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.gui.editor.tab.file_tab import SAVE_PAST_CUT
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.loads.dialog import FILE_ROLE, LoadsDialog
from memtab.loads.records import LoadedFile
from memtab.sources.claude.source import encode_project_path
from memtab.store.sidecars.registry import add_workspace
from support.agent_machine import WORKSPACE_ID, Machine, build_machine

from ..tree.test_sources import open_key

make_window = support.make_window


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return build_machine(tmp_path / "machine")


def open_loads(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> tuple[MainWindow, LoadsDialog]:
    window = make_window(machine.home, WORKSPACE_ID, source_context=lambda _home: machine.context())
    qtbot.waitUntil(lambda: window.memory_tab.is_sources_loaded, timeout=WAIT_MS)
    wait_idle(qtbot, window)
    window.context.actions.action("loads.show").trigger()
    feature = window.loads
    assert feature is not None and feature.dialog is not None
    dialog = feature.dialog
    qtbot.waitUntil(lambda: dialog.tree.topLevelItemCount() == 3, timeout=WAIT_MS)
    return window, dialog


def open_memory_md(qtbot: QtBot, make_window: WindowFactory, machine: Machine) -> MainWindow:
    """A window with Claude Code's MEMORY.md of the project open."""
    window = make_window(machine.home, WORKSPACE_ID, source_context=lambda _home: machine.context())
    qtbot.waitUntil(lambda: window.memory_tab.is_sources_loaded, timeout=WAIT_MS)
    wait_idle(qtbot, window)
    source_id = f"claude-code:memory-{encode_project_path(str(machine.project))}"
    open_key(qtbot, window, ref_key(MemoryFileRef(source_id, "memory/MEMORY.md")))
    return window


def rows(agent: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    return [agent.child(index) for index in range(agent.childCount())]


def test_each_agent_in_its_order_with_memory_mds_cut(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window, dialog = open_loads(qtbot, make_window, machine)
    claude, codex, xum = (dialog.tree.topLevelItem(i) for i in range(3))
    assert claude.text(0).startswith("Claude Code — about ")
    assert codex.text(0).startswith("Codex — about ") and xum.text(0).startswith("xum — about ")
    index = rows(claude)[-1]
    assert index.text(0).endswith("MEMORY.md") and (index.text(1), index.text(2)) == ("249", "200")
    assert index.text(4).startswith("From line 201 on it is not read")
    assert str(machine.project) in dialog.summary.text()
    # Activating the row opens MEMORY.md in the Memory tab.
    dialog.tree.itemActivated.emit(index, 0)
    editor = window.memory_tab.editor
    file = index.data(0, FILE_ROLE)
    assert isinstance(file, LoadedFile) and file.id is not None
    qtbot.waitUntil(lambda: editor.current_ref is not None, timeout=WAIT_MS)
    settle(qtbot, editor)
    assert editor.real_path == machine.claude_memory / "MEMORY.md"


def test_memory_md_shows_claude_codes_cut_and_says_when_an_edit_pushes_lines_past_it(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window = open_memory_md(qtbot, make_window, machine)
    feature = window.loads
    assert feature is not None
    line = feature.cut_line()
    assert line is not None and line.cut is not None
    assert (line.cut.cut_at_line, line.past_cut) == (201, 49)
    # Ten lines typed at the top push ten more past the cut, before any save.
    editor = window.memory_tab.editor
    cursor = editor.text_edit.textCursor()
    cursor.movePosition(QTextCursor.MoveOperation.Start)
    cursor.insertText("- new\n" * 10)
    qtbot.waitUntil(lambda: line.past_cut == 59, timeout=WAIT_MS)
    assert "59 lines of MEMORY.md are now past Claude Code's cut" in (
        window.status_bar.currentMessage()
    )
    # Another agent's file has no cut drawn.
    open_key(qtbot, window, ref_key(MemoryFileRef("claude-code:user", "CLAUDE.md")))
    assert feature.cut_line() is None


def test_the_lines_past_the_cut_move_into_a_topic_file_linked_from_the_index(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window = open_memory_md(qtbot, make_window, machine)
    original = (machine.claude_memory / "MEMORY.md").read_text(encoding="utf-8").split("\n")
    action = window.context.actions.action("loads.move_past_cut")
    window.context.actions.refresh()
    assert action.isEnabled()
    action.trigger()
    topic = machine.claude_memory / "MEMORY-continued.md"
    editor = window.memory_tab.editor
    qtbot.waitUntil(
        lambda: topic.exists() and editor.buffer_text().count("\n") == 200, timeout=WAIT_MS
    )
    lines = editor.buffer_text().split("\n")
    assert lines[:199] == original[:199]
    assert lines[199].startswith("- [More of this index](MEMORY-continued.md)")
    written = topic.read_text(encoding="utf-8")
    assert written.startswith("---\nname: MEMORY.md, continued\n")
    assert written.split("---\n\n", 1)[1].split("\n") == original[199:]
    line = window.loads.cut_line() if window.loads else None
    qtbot.waitUntil(lambda: line is not None and line.past_cut == 0, timeout=WAIT_MS)
    assert editor.is_dirty  # the index is saved when the user saves it


def test_a_save_that_pushes_lines_past_the_cut_waits_for_save_anyway(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window = open_memory_md(qtbot, make_window, machine)
    index = machine.claude_memory / "MEMORY.md"
    before = index.read_text(encoding="utf-8")
    editor = window.memory_tab.editor
    cursor = editor.text_edit.textCursor()
    cursor.movePosition(QTextCursor.MoveOperation.Start)
    cursor.insertText("- new\n" * 3)
    assert not saved(qtbot, editor)
    assert index.read_text(encoding="utf-8") == before
    assert "Not saved: 3 more lines of MEMORY.md would be past the cut" in editor.message_bar.text
    assert editor.message_bar.button(SAVE_PAST_CUT).text() == "Save anyway"
    editor.message_bar.button(SAVE_PAST_CUT).click()
    qtbot.waitUntil(
        lambda: index.read_text(encoding="utf-8").startswith("- new\n" * 3), timeout=WAIT_MS
    )
    settle(qtbot, editor)
    assert not editor.is_dirty
    # A change that pushes nothing past the cut saves at once.
    replace_in_buffer(editor, "- new\n- new\n- new\n", "- one\n- two\n- six\n")
    assert saved(qtbot, editor)
    assert index.read_text(encoding="utf-8").startswith("- one\n- two\n- six\n")


def test_the_dialog_follows_the_workspace_the_memory_tab_shows(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    other = machine.project.parent / "billing"
    other.mkdir()
    add_workspace(machine.home, str(other), "main", workspace_id="b1b2c3d4e5")
    window, dialog = open_loads(qtbot, make_window, machine)
    assert str(machine.project) in dialog.summary.text()
    window.memory_tab.switch_workspace("b1b2c3d4e5")
    qtbot.waitUntil(lambda: str(other) in dialog.summary.text(), timeout=WAIT_MS)
