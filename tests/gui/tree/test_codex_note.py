"""File → Add a note to Codex memory…: the note is written off the GUI thread into
Codex's extensions/ad_hoc/notes/, and the tree shows and opens it."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS, WindowFactory, wait_idle
from memtab.gui.files.file_actions import ACTION_ID
from memtab.gui.first_paint.main_window import MainWindow
from memtab.sources.layouts import CODEX_NOTES_DIR
from support.agent_machine import WORKSPACE_ID, Machine, build_machine

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

make_window = support.make_window


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return build_machine(tmp_path / "machine")


def open_window(make_window: WindowFactory, machine: Machine, qtbot: QtBot) -> MainWindow:
    window = make_window(machine.home, WORKSPACE_ID, source_context=lambda _home: machine.context())
    qtbot.waitUntil(lambda: window.memory_tab.is_sources_loaded, timeout=WAIT_MS)
    wait_idle(qtbot, window)
    return window


def test_a_note_is_added_to_codex_memory_and_opened(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window = open_window(make_window, machine, qtbot)
    tab = window.memory_tab
    actions = tab.context.actions
    actions.refresh()
    assert actions.action(ACTION_ID).isEnabled()
    tab.controller.file_actions.codex_note.ask_text = lambda: (
        "Releases are cut from the release branch."
    )  # type: ignore[method-assign]
    actions.action(ACTION_ID).trigger()
    notes = machine.codex / "memories" / CODEX_NOTES_DIR

    def written_notes() -> list[Path]:  # not the atomic write's temp file
        return (
            [p for p in notes.glob("*.md") if not p.name.startswith(".")] if notes.is_dir() else []
        )

    qtbot.waitUntil(lambda: len(written_notes()) == 1, timeout=WAIT_MS)
    (written,) = written_notes()
    assert written.read_text(encoding="utf-8") == "Releases are cut from the release branch.\n"
    qtbot.waitUntil(
        lambda: (tab.controller.editor.current_key or "").endswith(written.name), timeout=WAIT_MS
    )
    assert not tab.controller.editor.is_read_only


def test_without_codex_the_command_is_off(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    (machine.codex / "memories").rename(machine.codex / "memories-gone")
    window = open_window(make_window, machine, qtbot)
    actions = window.memory_tab.context.actions
    actions.refresh()
    assert not actions.action(ACTION_ID).isEnabled()
