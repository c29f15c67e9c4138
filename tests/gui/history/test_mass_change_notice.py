"""A mass change is news with Restore all (docs/formats.md §14.5): a consolidation that
prunes most of Claude Code's auto memory while the window is open says so over the tree
("Mass change: Claude Code removed 20 of … files at 15:27"), Restore all puts every file
back as one step, and Edit → Undo takes that step back whole."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.history.test_burst_news import notice, open_window, record_auto_memory
from gui.memory_tree_support import WindowFactory, wait_for
from memtab.components.history.burst_news import RESTORE_ALL, REVIEW
from memtab.components.window.ui_state import UiState
from memtab.sources.claude.settings import CONSOLIDATE_LOCK
from support.agent_machine import Machine, build_machine

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here
make_window = support.make_window
TOPICS = 24
PRUNED = 20


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Machine:
    """A machine whose Claude Code auto memory has `TOPICS` topics, in history."""
    built = build_machine(tmp_path / "machine")
    monkeypatch.setenv("HOME", str(built.user))
    for index in range(TOPICS):
        (built.claude_memory / f"topic_{index:02d}.md").write_text(f"# Topic {index}\n", "utf-8")
    record_auto_memory(built)
    return built


def test_a_mass_change_is_news_restored_whole_and_undone_whole(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine, tmp_path: Path
) -> None:
    window = open_window(make_window, machine, qtbot, UiState(tmp_path / "ui.json"))
    support.wait_watching(qtbot, window)
    bar = window.memory_tab.controller.news_bar
    topics = sorted(machine.claude_memory.glob("topic_*.md"))[:PRUNED]
    before = {topic: topic.read_text("utf-8") for topic in topics}
    (machine.claude_memory / CONSOLIDATE_LOCK).write_text(str(os.getpid()), "utf-8")
    for topic in topics:  # its consolidation prunes while the window is open
        topic.unlink()
    wait_for(
        qtbot, lambda: notice(window).startswith(f"Mass change: Claude Code removed {PRUNED} of ")
    )
    assert bar.action_ids() == [RESTORE_ALL, REVIEW]

    bar.button(RESTORE_ALL).click()
    wait_for(qtbot, lambda: bar.text.startswith(f"Restored {PRUNED} files"))
    assert bar.text.endswith("Edit → Undo takes it back")
    assert {topic: topic.read_text("utf-8") for topic in topics} == before
    undo = window.context.actions.action("files.undo")
    support.refresh_menus(qtbot, window)
    assert undo.text().startswith("&Undo restore of Claude Code removed 20 files")
    undo.trigger()
    wait_for(qtbot, lambda: not any(topic.exists() for topic in topics))
    # The line offered an undo now taken: it goes, never left to offer it again.
    wait_for(qtbot, lambda: bar.isHidden())
    redo = window.context.actions.action("files.redo")
    support.refresh_menus(qtbot, window)
    redo.trigger()
    wait_for(qtbot, lambda: all(topic.exists() for topic in topics))
    assert bar.isHidden()
