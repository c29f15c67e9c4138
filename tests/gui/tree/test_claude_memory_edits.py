"""Saving Claude Code's own memory files in the window: its `modified:` timestamp follows
the save (docs/formats.md §17.2)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import saved, type_at_end
from gui.memory_tree_support import WAIT_MS, FakeDialogs, WindowFactory, wait_idle
from memtab.components.tree.nodes import ref_key
from memtab.gui.window.main_window import MainWindow
from memtab.sources.claude import encode_project_path
from memtab.sources.file_ref import MemoryFileRef
from support.agent_machine import WORKSPACE_ID, Machine, build_machine

from .test_sources import open_key

make_window = support.make_window
TOPIC = "memory/feedback_vercel-env-newline.md"


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return build_machine(tmp_path / "machine")


def open_window(make_window: WindowFactory, machine: Machine, qtbot: QtBot) -> MainWindow:
    window = make_window(machine.home, WORKSPACE_ID, source_context=lambda _home: machine.context())
    qtbot.waitUntil(lambda: window.memory_tab.is_sources_loaded, timeout=WAIT_MS)
    wait_idle(qtbot, window)
    window.memory_tab.dialogs = FakeDialogs()  # type: ignore[assignment]
    return window


def test_saving_a_memory_with_a_modified_stamp_sets_it_to_now(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    topic = machine.claude_memory / TOPIC.split("/", 1)[1]
    text = topic.read_text(encoding="utf-8")
    topic.write_text(
        text.replace("type: feedback\n", "type: feedback\nmodified: 2026-06-04T10:20:30.456Z\n"),
        encoding="utf-8",
    )
    window = open_window(make_window, machine, qtbot)
    editor = window.memory_tab.editor
    source_id = f"claude-code:memory-{encode_project_path(str(machine.project))}"
    open_key(qtbot, window, ref_key(MemoryFileRef(source_id, TOPIC)))
    type_at_end(qtbot, editor, "- Checked again.")
    assert saved(qtbot, editor)
    written = topic.read_text(encoding="utf-8")
    stamp = re.search(r"^modified: (\S+)$", written, re.MULTILINE)
    assert stamp is not None and stamp.group(1) != "2026-06-04T10:20:30.456Z"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", stamp.group(1))
    assert written.endswith("- Checked again.\n")
    # The editor shows what was written, and has nothing left to save.
    assert editor.buffer_text() == written and not editor.is_dirty
