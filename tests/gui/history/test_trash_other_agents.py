"""Recently deleted lists what another program removed from another agent's memory (it
said "Nothing was deleted here" while a burst of Claude Code's was offered): each file
with what it held, put back alone as a file operation of the window (Edit → Undo takes
it back), never over a file that is there again."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS, WindowFactory, refresh_menus, wait_for
from memtab.components.window.ui_state import UiState
from memtab.gui.window import keys
from memtab.sources.claude.settings import CONSOLIDATE_LOCK
from memtab.sources.config import SourceContext
from memtab.sources.discovery import discover
from memtab.watch.sources import record_source
from support.agent_machine import WORKSPACE_ID, Machine, build_machine

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

make_window = support.make_window


def record_auto_memory(machine: Machine) -> str:
    """What the recorder does while no window runs; the auto memory's source id."""
    (source,) = [
        source
        for source in discover(SourceContext.load(machine.home)).sources
        if source.root == machine.claude_memory.parent
    ]
    record_source(machine.home, source)
    return source.id


def test_another_agents_deleted_files_are_listed_and_restored_one_by_one(
    qtbot: QtBot,
    make_window: WindowFactory,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    machine = build_machine(tmp_path / "machine")
    monkeypatch.setenv("HOME", str(machine.user))
    topics = [machine.claude_memory / f"topic_{index}.md" for index in range(2)]
    for index, topic in enumerate(topics):
        topic.write_text(f"# Topic {index}\n", "utf-8")
    source_id = record_auto_memory(machine)
    (machine.claude_memory / CONSOLIDATE_LOCK).write_text(str(os.getpid()), "utf-8")
    for topic in topics:
        topic.unlink()  # Claude Code's consolidation, while no window ran
    record_auto_memory(machine)

    window = make_window(
        machine.home,
        WORKSPACE_ID,
        source_context=lambda _home: machine.context(),
        ui_state=UiState(tmp_path / "ui.json"),
        start_writer=False,
    )
    qtbot.waitUntil(lambda: window.memory_tab.is_sources_loaded, timeout=WAIT_MS)
    assert window.part(keys.HISTORY) is not None
    trash = window.part(keys.HISTORY).open_trash()
    first, second = (f"{source_id}:memory/{topic.name}" for topic in topics)
    wait_for(qtbot, lambda: trash.select_path(first))
    wait_for(qtbot, lambda: trash.preview.toPlainText() == "# Topic 0\n")
    assert not trash.restore_to_button.isEnabled()  # another agent's: back in its place
    trash.restore_button.click()
    wait_for(qtbot, lambda: topics[0].exists())
    assert topics[0].read_text("utf-8") == "# Topic 0\n"
    wait_for(qtbot, lambda: trash.note.full_text == "Restored Claude Code · memory/topic_0.md")
    refresh_menus(qtbot, window)
    assert window.context.actions.action("files.undo").text() == "&Undo restore of topic_0.md"

    topics[1].write_text("Claude Code wrote it again\n", "utf-8")
    assert trash.select_path(second)
    trash.restore_button.click()  # not over what its agent wrote since
    wait_for(qtbot, lambda: "is there again" in trash.note.full_text)
    assert topics[1].read_text("utf-8") == "Claude Code wrote it again\n"
