"""Codex's memory in the window as Codex writes it now (docs/formats.md §17.3): the files
its consolidation keeps a hand edit of open editable and save with every file's rails, and
an edit of memory_summary.md never loses its first line `v1`."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import replace_in_buffer, saved, settle, type_at_end
from gui.memory_tree_support import WAIT_MS, WindowFactory, wait_idle
from memtab.components.tree.nodes import ref_key
from memtab.file_protocol.file_ref import parse_file_ref
from memtab.gui.first_paint.main_window import MainWindow
from memtab.sources.agent_file import SourceVersions
from support.agent_machine import WORKSPACE_ID, Machine, build_machine

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

make_window = support.make_window


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return build_machine(tmp_path / "machine")


def open_codex_file(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine, relative: str
) -> MainWindow:
    window = make_window(machine.home, WORKSPACE_ID, source_context=lambda _home: machine.context())
    qtbot.waitUntil(lambda: window.memory_tab.is_sources_loaded, timeout=WAIT_MS)
    wait_idle(qtbot, window)
    key = ref_key(parse_file_ref(f"codex:memories:{relative}"))
    window.memory_tab.controller.editor_link.select_key(key, open_it=True)
    qtbot.waitUntil(lambda: window.memory_tab.controller.editor.current_key == key, timeout=WAIT_MS)
    settle(qtbot, window.memory_tab.controller.editor)
    return window


def test_codexs_memory_md_is_edited_and_saved_with_history(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window = open_codex_file(qtbot, make_window, machine, "MEMORY.md")
    editor = window.memory_tab.controller.editor
    assert not editor.is_read_only
    type_at_end(qtbot, editor, "- Checked by hand: the nvm layout is versions/node/.")
    assert saved(qtbot, editor)
    text = (machine.codex / "memories" / "MEMORY.md").read_text(encoding="utf-8")
    assert text.endswith("- Checked by hand: the nvm layout is versions/node/.\n")
    versions = SourceVersions(machine.home).versions("codex:memories:MEMORY.md")
    assert [(v.op, v.actor) for v in versions] == [("edit", "user"), ("seen", "external")]


def test_a_summary_without_its_v1_line_is_not_saved_and_the_draft_is_kept(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window = open_codex_file(qtbot, make_window, machine, "memory_summary.md")
    editor = window.memory_tab.controller.editor
    summary = machine.codex / "memories" / "memory_summary.md"
    before = summary.read_bytes()
    assert not editor.is_read_only and editor.buffer_text().startswith("v1\n")
    replace_in_buffer(editor, "v1\n", "")  # the line gone, as a stray delete leaves it
    assert not saved(qtbot, editor)
    assert "Not saved" in editor.message_bar.text
    assert "must begin with the line `v1`" in editor.message_bar.text
    assert summary.read_bytes() == before and editor.is_dirty
    assert editor.buffer_text().startswith("\n## User Profile")
    replace_in_buffer(editor, "\n## User Profile", "v1\n\n## User Profile\n\nEdited.")
    assert saved(qtbot, editor)
    assert summary.read_text(encoding="utf-8").startswith("v1\n\n## User Profile\n\nEdited.")
