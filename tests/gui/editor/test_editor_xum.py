"""The editor beside a running xum (docs/formats.md §21): a save waits for xum's lock on
the files lane — the window goes on meanwhile — and is refused with a clear message when
xum keeps it; a workspace xum removed opens read-only, saying why."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from pytestqt.qtbot import QtBot

from gui import editor_support
from gui.editor_support import NOTES, ORIGINAL, disk_text, open_loaded, saved, type_at_end
from memtab.components.editor.session import BarKind
from memtab.fs.atomic import atomic_write_json
from memtab.gui.context import WindowContext
from memtab.gui.editor.editor import EditorPanel
from memtab.store import xum_locks
from memtab.store.home import Home
from memtab.store.paths import parse_virtual_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import add_workspace, load_registry
from support.memory_paths import vpath
from support.xum import xum_holding

store = editor_support.store
own_writes = editor_support.own_writes
panel = editor_support.panel

WS = "a1b2c3d4e5"
NOTE = parse_virtual_path("/memories/workspace/plan.md")


def shared_target(home: Home) -> Path:
    return xum_locks.target_lock_path(home, xum_locks.memory_lock_key(home, home.global_root))


def test_a_save_waits_for_xum_off_the_gui_thread_then_lands(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(xum_locks, "TARGET_WAIT_S", 30.0)
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, "- third")
    outcome: list[bool] = []
    with xum_holding(shared_target(store.home)) as xum:
        panel.save(outcome.append)
        # The GUI thread turns its event loop while the save waits for xum on a worker.
        turned: list[bool] = []
        QTimer.singleShot(50, lambda: turned.append(panel.saving))
        qtbot.waitUntil(lambda: bool(turned))
        assert turned == [True] and outcome == [] and disk_text(store) == ORIGINAL
        assert xum.stdin is not None
        xum.stdin.close()
        qtbot.waitUntil(lambda: bool(outcome), timeout=20_000)
    assert outcome == [True]
    assert disk_text(store) == ORIGINAL + "- third\n"


def test_a_save_xum_keeps_its_lock_through_is_refused_keeping_the_draft(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(xum_locks, "TARGET_WAIT_S", 0.05)
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, "- third")
    with xum_holding(shared_target(store.home)):
        assert not saved(qtbot, panel)
    assert panel.message_bar.kind is BarKind.ERROR
    assert "Another process is changing this memory" in panel.message_bar.text
    assert panel.is_dirty and disk_text(store) == ORIGINAL
    assert saved(qtbot, panel)  # xum let go: the same save lands
    assert disk_text(store) == ORIGINAL + "- third\n"


@pytest.fixture
def workspace_home(tmp_path: Path) -> Home:
    home = Home(tmp_path / "home")
    add_workspace(home, "/src/app", "main", workspace_id=WS)
    return home


@pytest.fixture
def workspace_panel(qtbot: QtBot, workspace_home: Home) -> Iterator[EditorPanel]:
    home = workspace_home
    workspace_store = MemoryStore(home, load_registry(home).require_workspace(WS))
    workspace_store.create_file(vpath(NOTE), "# Plan\n")
    context = WindowContext(home)
    editor = EditorPanel(context)
    context.owned_by(editor)  # the panel is the window here
    qtbot.addWidget(editor)
    editor.set_store(workspace_store)
    yield editor
    editor.shutdown()
    context.shutdown()


def test_a_removed_workspaces_note_opens_read_only_saying_why(
    workspace_panel: EditorPanel, workspace_home: Home, qtbot: QtBot
) -> None:
    tombstone = xum_locks.removal_tombstone_path(workspace_home, WS)
    atomic_write_json(tombstone, {"workspaceId": WS, "removedAt": 1, "attemptId": "x"})
    open_loaded(qtbot, workspace_panel, NOTE)
    assert workspace_panel.is_read_only
    assert workspace_panel.message_bar.isVisibleTo(workspace_panel)
    assert f"Workspace {WS} was removed in xum" in workspace_panel.message_bar.text
