"""Sync in the window: built with the menus, started with the watcher; File → Sync now
sends through the window's sync service; the status bar follows; a file-sync tool's
conflict copy is marked beside its original in the tree."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WindowFactory, action, node, wait_for, wait_watching
from memtab.components.activity.badges import Actor
from memtab.components.sync.conflicts import (
    SYNC_CONFLICT_DETAIL,
    SYNC_CONFLICT_MARK,
    conflict_marks,
)
from memtab.components.sync.status import NOT_SET_UP
from memtab.components.tree.nodes import file_key
from memtab.components.tree.text import file_tooltip
from memtab.gui.tree.model import MARKS_ROLE
from memtab.gui.window import keys
from memtab.store.actors import actor_name
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.sidecars.registry import Workspace
from memtab.sync.repository.layout import GLOBAL_SCOPE, SyncedScope
from memtab.sync.service import SyncConflict
from support.sync_machines import Machine

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

make_window = support.make_window
NOTES = "/memories/global/notes.md"


def test_sync_now_in_the_window_sends_and_says_so(
    qtbot: QtBot, make_window: WindowFactory, alpha: Machine, beta: Machine
) -> None:
    alpha.write(NOTES, "# Notes\n\n- from the window\n")
    window = make_window(alpha.home, None, start_writer=False)
    wait_watching(qtbot, window)
    feature = window.part(keys.SYNC)
    assert feature is not None
    wait_for(qtbot, lambda: feature.sync.configured and not feature.sync.busy, 60_000)
    said: list[str] = []
    window.context.status.shown.connect(lambda text, _ms: said.append(text))
    action(window, "sync.now").trigger()
    wait_for(qtbot, lambda: feature.sync.look.report is not None and not feature.sync.busy, 60_000)
    assert feature.status.isVisibleTo(window) and feature.status.text() == "In sync"
    assert said == ["Syncing memory…", "Sync finished: In sync"]  # not "Syncing…" left up
    beta.sync()
    assert beta.text(NOTES) == "# Notes\n\n- from the window\n"


# slow: two machines syncing through a git remote (git processes, ~0.5 s of CPU)
@pytest.mark.slow
def test_a_file_a_sync_brings_in_is_badged_as_syncs(
    qtbot: QtBot, make_window: WindowFactory, alpha: Machine, beta: Machine
) -> None:
    """A sync pull is the other machine's change, not another program's (issue 36)."""
    alpha.publish(NOTES, "# Notes\n", beta)
    window = make_window(alpha.home, None, start_writer=False)
    wait_watching(qtbot, window)
    feature = window.part(keys.SYNC)
    assert feature is not None
    wait_for(qtbot, lambda: feature.sync.configured and not feature.sync.busy, 60_000)
    beta.write(NOTES, "# Notes\n\n- from beta\n")
    beta.sync()
    action(window, "sync.now").trigger()
    wait_for(qtbot, lambda: feature.sync.look.report is not None and not feature.sync.busy, 60_000)
    assert alpha.text(NOTES) == "# Notes\n\n- from beta\n"
    tab = window.memory_tab
    notes = str(alpha.home.global_root / "notes.md")
    wait_for(qtbot, lambda: notes in tab.agent_edited, 30_000)
    badge = tab.controller.marks.edits.badge(notes)
    assert badge is not None and badge.actor is Actor.SYNC
    row = tab.model.index_for_key(file_key(parse_file_path(NOTES)))
    tip = row.data(Qt.ItemDataRole.ToolTipRole)
    assert f"{actor_name('sync')} changed it" in tip and "Another program" not in tip


# slow: two machines syncing through a git remote (git processes, ~0.5 s of CPU)
@pytest.mark.slow
def test_a_file_a_sync_outside_the_window_brings_in_is_badged_as_syncs(
    qtbot: QtBot, make_window: WindowFactory, alpha: Machine, beta: Machine
) -> None:
    """`memtab sync` in a terminal (here: alpha's sync service outside the window) logs
    its run; the window names the change sync's from the run, not another program's."""
    alpha.publish(NOTES, "# Notes\n", beta)
    window = make_window(alpha.home, None, start_writer=False)
    wait_watching(qtbot, window)
    beta.write(NOTES, "# Notes\n\n- from beta\n")
    beta.sync()
    alpha.sync()
    tab = window.memory_tab
    notes = str(alpha.home.global_root / "notes.md")
    wait_for(qtbot, lambda: notes in tab.agent_edited, 30_000)
    wait_for(qtbot, lambda: tab.controller.marks.edits.badges[notes].actor is Actor.SYNC, 30_000)


def test_without_sync_the_status_is_hidden_and_sync_now_says_how(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    home = Home(tmp_path / "plain")
    home.global_root.mkdir(parents=True)
    (home.global_root / "a.md").write_text("a\n")
    window = make_window(home, None, start_writer=False)
    wait_watching(qtbot, window)
    feature = window.part(keys.SYNC)
    assert feature is not None
    wait_for(qtbot, lambda: not feature.sync.busy)
    assert not feature.status.isVisibleTo(window)
    action(window, "sync.now").trigger()
    assert window.statusBar().currentMessage() == NOT_SET_UP
    setup = feature.setup  # File → Sync… opens, to set it up
    assert setup is not None and setup.isVisible()
    assert action(window, "sync.setup").text() == "Sy&nc…"
    wait_for(qtbot, lambda: not setup.busy)
    assert setup.primary.text() == "&Start first sync"


def test_a_conflict_copy_is_marked_beside_its_original(
    qtbot: QtBot, make_window: WindowFactory, alpha: Machine
) -> None:
    alpha.write(NOTES, "mine\n")
    copy = alpha.home.global_root / "notes (conflicted copy 2026-11-22).md"
    copy.write_text("theirs\n")
    window = make_window(alpha.home, None, start_writer=False)
    wait_watching(qtbot, window)
    key = file_key(parse_file_path("/memories/global/notes (conflicted copy 2026-11-22).md"))
    wait_for(qtbot, lambda: node(window, key) is not None)
    row = node(window, key)
    assert row is not None and row.tag == "conflict copy (Dropbox)"
    assert "File → Resolve conflicts" in file_tooltip(row, None)
    original = node(window, file_key(parse_file_path(NOTES)))
    assert original is not None and original.tag == ""
    feature = window.part(keys.SYNC)
    assert feature is not None
    wait_for(qtbot, lambda: feature.status.text() == "1 conflict")
    feature.status.click()
    dialog = feature.dialog
    assert dialog is not None
    wait_for(qtbot, lambda: not dialog.busy and dialog.view.texts is not None)
    assert [item.title for item in dialog.items] == ["notes.md\nconflict copy (Dropbox)"]


# slow: two machines syncing through a git remote (git processes, ~0.5 s of CPU)
@pytest.mark.slow
def test_a_file_in_sync_conflict_is_marked_in_the_tree_until_it_is_resolved(
    qtbot: QtBot, make_window: WindowFactory, alpha: Machine, beta: Machine
) -> None:
    alpha.conflict_with(beta, NOTES)
    window = make_window(alpha.home, None, start_writer=False)
    wait_watching(qtbot, window)
    model = window.memory_tab.model
    key = file_key(parse_file_path(NOTES))

    def marks() -> list[str]:
        index = model.index_for_key(key)
        return [mark.text for mark in model.data(index, MARKS_ROLE)] if index.isValid() else []

    wait_for(qtbot, lambda: marks() == [SYNC_CONFLICT_MARK], 60_000)
    index = model.index_for_key(key)
    assert SYNC_CONFLICT_DETAIL in model.data(index, Qt.ItemDataRole.ToolTipRole)
    assert SYNC_CONFLICT_MARK in model.data(index, Qt.ItemDataRole.AccessibleDescriptionRole)
    feature = window.part(keys.SYNC)
    assert feature is not None
    feature.open_conflicts()
    dialog = feature.dialog
    assert dialog is not None
    wait_for(qtbot, lambda: not dialog.busy and dialog.view.texts is not None, 30_000)
    dialog.decide("mine")
    wait_for(qtbot, lambda: not dialog.busy and marks() == [], 60_000)
    assert alpha.conflicts() == []


def test_only_conflicts_in_the_scopes_the_tree_shows_are_marked() -> None:
    workspace = Workspace("ws1", "main", "/src/app", "/src/app", "app", ("/src/app",))

    def conflict(scope: SyncedScope | None, repo_path: str) -> SyncConflict:
        return SyncConflict(
            target="memory",
            path="?",
            repo_path=repo_path,
            reason="both sides changed it",
            since=0,
            scope=scope,
        )

    conflicts = [
        conflict(GLOBAL_SCOPE, "global/a.md"),
        conflict(SyncedScope.of("project", "app", "/src/app"), "projects/app/b.md"),
        conflict(SyncedScope.of("project", "other", "/src/other"), "projects/other/c.md"),
        conflict(SyncedScope.of("workspace", "main", "ws1"), "workspaces/main/d.md"),
        conflict(SyncedScope.of("workspace", "old", "ws0"), "workspaces/old/e.md"),
        conflict(None, "stray.md"),
    ]
    shown = sorted(conflict_marks(conflicts, workspace))
    assert shown == [
        "file:/memories/global/a.md",
        "file:/memories/project/b.md",
        "file:/memories/workspace/d.md",
    ]
    assert sorted(conflict_marks(conflicts, None)) == ["file:/memories/global/a.md"]
