"""A mass change is news with Restore all (docs/formats.md §14.5): a consolidation that
prunes most of Claude Code's auto memory while the window is open says so over the tree
("Mass change: Claude Code removed 20 of … files at 15:27"), Restore all puts every file
back as one step, and Edit → Undo takes that step back whole."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.history.test_burst_news import notice, open_window, record_auto_memory
from gui.memory_tree_support import WindowFactory, wait_for
from memtab.components.history.burst_news import RESTORE_ALL, REVIEW
from memtab.components.window.ui_state import UiState
from memtab.sources.claude.settings import CONSOLIDATE_LOCK
from memtab.store.catch_up.external import record_external
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import add_workspace, load_registry
from support.agent_machine import Machine, build_machine

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here
make_window = support.make_window
TOPICS = 24
PRUNED = 20
MUX_WORKSPACE = "a1a1a1a1a1"


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


NOTES = 30
GONE = 12
REWRITTEN = 8


def _mux_memory(root: Path) -> tuple[Home, list[Path]]:
    """mux's global memory of `NOTES` notes, in history (as `memtab watch` recorded it)."""
    home = Home(root / "home")
    add_workspace(home, str(root / "project"), "main", workspace_id=MUX_WORKSPACE)
    store = MemoryStore(home, load_registry(home).workspaces[0])
    folder = store.root(Scope.GLOBAL)
    folder.mkdir(parents=True)
    for index in range(NOTES):
        (folder / f"note{index:02d}.md").write_text(f"# Note {index}\n", "utf-8")
    record_external(store)
    return home, sorted(folder.glob("*.md"))


def test_the_users_restore_of_a_mass_change_is_no_agents_change(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    """Restore all, its Undo and its Redo are the user's: the room's "Changed since you
    last looked" never names mux (nor another program) for the files they write (it said
    "mux 20" after Restore all: the restore counted as mux's writes)."""
    home, notes = _mux_memory(tmp_path)
    window = make_window(home, MUX_WORKSPACE)
    support.wait_watching(qtbot, window)
    tab = window.memory_tab
    bar = tab.controller.news_bar
    taken = notes[: GONE + REWRITTEN]
    for note in notes[:GONE]:  # a consolidator gone wrong, in another program
        note.unlink()
    for note in notes[GONE : GONE + REWRITTEN]:
        note.write_text("# merged\n", "utf-8")
    wait_for(qtbot, lambda: bar.text.startswith("Mass change: "))
    wait_for(qtbot, lambda: all(str(n) in tab.agent_edited for n in notes[GONE : GONE + REWRITTEN]))
    scans: list[object] = []
    tab.context.shown.scan_applied.connect(scans.append)

    def settled_after(turn: Callable[[], object], restored: bool) -> None:
        scans.clear()
        turn()
        rewritten = notes[GONE : GONE + REWRITTEN]
        wait_for(qtbot, lambda: all(n.exists() is restored for n in notes[:GONE]))
        wait_for(
            qtbot,
            lambda: (
                all(n.read_text("utf-8") != "# merged\n" for n in rewritten)
                if restored
                else all(n.read_text("utf-8") == "# merged\n" for n in rewritten)
            ),
        )
        wait_for(qtbot, lambda: scans)  # the watcher's scan after it is counted in
        support.wait_idle(qtbot, window)

    settled_after(bar.button(RESTORE_ALL).click, restored=True)
    assert not {str(n) for n in taken} & set(tab.agent_edited)
    undo = window.context.actions.action("files.undo")
    redo = window.context.actions.action("files.redo")
    support.refresh_menus(qtbot, window)
    settled_after(undo.trigger, restored=False)
    assert not {str(n) for n in taken} & set(tab.agent_edited)
    support.refresh_menus(qtbot, window)
    settled_after(redo.trigger, restored=True)
    assert not {str(n) for n in taken} & set(tab.agent_edited)
