"""The workspace picker: grouping and marks, its model, switching, remembering, empty homes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import open_loaded, patch_choice
from gui.memory_tree_support import WAIT_MS, WindowFactory, file_names, wait_idle, wait_watching
from memtab.components.editor.leaving import DiscardChoice
from memtab.components.tree.nodes import SectionId, message_key
from memtab.components.tree.tree import PROJECT_UNAVAILABLE_TEXT
from memtab.components.tree.workspace_rows import (
    MULTI_PROJECT_TITLE,
    NO_WORKSPACE_TEXT,
    RowKind,
    picker_rows,
)
from memtab.components.window.ui_state import UiState
from memtab.gui.memory_tab.workspace_picker import ROW_ROLE, WorkspaceListModel, WorkspacePicker
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.sidecars.registry import Registry, add_workspace, load_registry
from support.memory_home import ARCHIVED, CHILD, MAIN, MULTI

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

home = support.home
make_window = support.make_window


def test_rows_group_workspaces_by_project_with_children_under_parents(home: Home) -> None:
    rows = picker_rows(load_registry(home))
    summary = [
        (row.kind, row.text, row.depth, row.workspace.id if row.workspace else None) for row in rows
    ]
    assert summary == [
        (RowKind.PROJECT, "acme", 0, None),
        (RowKind.WORKSPACE, "Main work", 0, MAIN),
        (RowKind.WORKSPACE, "subtask", 1, CHILD),
        (RowKind.PROJECT, "web", 0, None),
        (RowKind.WORKSPACE, "old", 0, ARCHIVED),
        (RowKind.PROJECT, MULTI_PROJECT_TITLE, 0, None),
        (RowKind.WORKSPACE, "both", 0, MULTI),
    ]
    tags = {row.workspace.id: row.tags for row in rows if row.workspace}
    assert tags[ARCHIVED] == ["archived"] and tags[MULTI] == ["multi-project"]
    assert tags[MAIN] == []


def test_an_empty_registry_has_a_single_no_workspace_row() -> None:
    rows = picker_rows(Registry())
    assert [(row.kind, row.text) for row in rows] == [(RowKind.NONE, NO_WORKSPACE_TEXT)]


def test_model_passes_the_model_tester_and_headers_are_not_selectable(
    home: Home, qtmodeltester: ModelTester
) -> None:
    model = WorkspaceListModel()
    qtmodeltester.check(model)
    model.set_registry(load_registry(home))
    qtmodeltester.check(model)
    header = model.index(0, 0)
    assert not model.flags(header) & Qt.ItemFlag.ItemIsSelectable
    workspace = model.index(1, 0)
    assert model.flags(workspace) & Qt.ItemFlag.ItemIsSelectable
    archived = model.index(model.row_of(ARCHIVED), 0)
    assert archived.data(Qt.ItemDataRole.AccessibleTextRole) == "old (archived)"
    assert "Archived" in archived.data(Qt.ItemDataRole.ToolTipRole)
    assert model.index(model.row_of(CHILD), 0).data(ROW_ROLE).depth == 1


def test_picker_emits_only_for_a_different_workspace(qtbot: QtBot, home: Home) -> None:
    picker = WorkspacePicker()
    qtbot.addWidget(picker)
    picker.set_registry(load_registry(home), MAIN)
    assert picker.combo.currentIndex() == picker.model.row_of(MAIN)
    assert picker.combo.accessibleName() == "Choose workspace"
    with qtbot.waitSignal(picker.workspace_requested) as blocker:
        picker.combo.activated.emit(picker.model.row_of(MULTI))
    assert blocker.args == [MULTI]
    with qtbot.assertNotEmitted(picker.workspace_requested):
        picker.combo.activated.emit(picker.model.row_of(MAIN))


def test_choosing_a_workspace_switches_scopes_and_is_remembered(
    qtbot: QtBot, make_window: WindowFactory, home: Home, tmp_path: Path
) -> None:
    state_path = tmp_path / "remember.json"
    window = make_window(home, None, ui_state=UiState(state_path))
    tab = window.memory_tab
    assert tab.workspace is not None and tab.workspace.id == MAIN  # the most recent
    tab.picker.combo.activated.emit(tab.picker.model.row_of(MULTI))
    qtbot.waitUntil(
        lambda: tab.workspace is not None and tab.workspace.id == MULTI, timeout=WAIT_MS
    )
    wait_idle(qtbot, window)  # its tree shown whole: reconciled in slices, painting between
    message = tab.model.node_for_key(message_key(SectionId.PROJECT))
    assert message is not None and message.name == PROJECT_UNAVAILABLE_TEXT
    assert "project:architecture.md" not in file_names(window)
    qtbot.waitUntil(lambda: not window.context.files.busy)  # the UI state is written there
    assert UiState.load(state_path).workspace_for(home.root) == MULTI
    window.close_without_asking()
    again = make_window(home, None, ui_state=UiState.load(state_path))
    assert again.memory_tab.workspace is not None and again.memory_tab.workspace.id == MULTI
    assert again.memory_tab.picker.current_workspace_id == MULTI


def test_unsaved_changes_can_keep_the_current_workspace(
    qtbot: QtBot, make_window: WindowFactory, home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window(home)
    tab = window.memory_tab
    tab.assemble()
    open_loaded(qtbot, tab.controller.editor, parse_file_path("/memories/workspace/notes.md"))
    tab.controller.editor.text_edit.insertPlainText("draft ")
    asked = patch_choice(monkeypatch, tab.controller.editor, DiscardChoice.CANCEL)
    row = tab.picker.model.row_of(MULTI)
    tab.picker.combo.setCurrentIndex(row)
    tab.picker.combo.activated.emit(row)
    assert asked == [["notes.md"]]
    assert tab.picker.current_workspace_id == MAIN
    assert tab.picker.combo.currentIndex() == tab.picker.model.row_of(MAIN)
    wait_idle(qtbot, window)
    assert tab.workspace is not None and tab.workspace.id == MAIN
    assert "\ndraft \n" in tab.controller.editor.buffer_text()  # typed in its body
    # Discarding switches: the workspace's tab closes with the draft.
    patch_choice(monkeypatch, tab.controller.editor, DiscardChoice.DISCARD)
    tab.picker.combo.activated.emit(row)
    assert tab.picker.current_workspace_id == MULTI
    assert tab.controller.editor.current_ref is None


def test_a_home_without_workspaces_shows_global_only_and_a_hint(
    make_window: WindowFactory, tmp_path: Path
) -> None:
    fresh = Home(tmp_path / "fresh")
    window = make_window(fresh, None)
    tab = window.memory_tab
    assert tab.workspace is None
    assert tab.picker.hint.isVisibleTo(tab.picker)
    assert "Add a workspace" in tab.picker.hint.text()
    assert not tab.picker.combo.isEnabled()
    assert tab.picker.combo.currentText() == NO_WORKSPACE_TEXT
    # The link opens File → Add workspace (not a command to run in a terminal).
    asked: list[object] = []
    window.exec_dialog = lambda dialog: asked.append(dialog) or 0  # type: ignore[method-assign]
    tab.picker.hint.linkActivated.emit("memtab-add-workspace")
    assert [type(dialog).__name__ for dialog in asked] == ["AddWorkspaceDialog"]


def test_a_home_with_workspaces_never_builds_the_hint(
    make_window: WindowFactory, home: Home
) -> None:
    """Issue 97: the hint's rich-text label cost every start ~10 ms before the first paint;
    it is made only for a home that shows it."""
    tab = make_window(home, MAIN).memory_tab
    assert tab.picker.combo.isEnabled()
    assert tab.picker.findChild(QLabel, "noWorkspaceHint") is None


def test_a_workspace_registered_while_open_appears_in_the_picker(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    fresh = Home(tmp_path / "fresh")
    fresh.root.mkdir()
    window = make_window(fresh, None)
    wait_watching(qtbot, window)
    new_id = add_workspace(fresh, "/src/new", "new-work")
    tab = window.memory_tab
    qtbot.waitUntil(lambda: tab.picker.model.row_of(new_id) >= 0, timeout=WAIT_MS)
    qtbot.waitUntil(
        lambda: tab.workspace is not None and tab.workspace.id == new_id, timeout=WAIT_MS
    )
    assert not tab.picker.hint.isVisibleTo(tab.picker)


def test_a_task_tree_shows_as_one_notebook(tmp_path: Path) -> None:
    """A side chat sits under its main chat, a task whose parent was removed under the
    notebook xum pinned it to, and every member is tagged as sharing it (formats §2.5)."""
    tree_home = Home(tmp_path / "home")
    tree_home.root.mkdir(parents=True)

    def entry(workspace_id: str, **links: str) -> dict[str, str]:
        return {"id": workspace_id, "name": workspace_id, "path": f"/w/{workspace_id}", **links}

    tree_home.config_path.write_text(
        json.dumps(
            {
                "projects": [
                    [
                        "/work/acme",
                        {
                            "workspaces": [
                                entry("ws-root"),
                                entry("ws-task", parentWorkspaceId="ws-root"),
                                entry("ws-side", sideChatParentWorkspaceId="ws-root"),
                                entry(
                                    "ws-orphan",
                                    parentWorkspaceId="ws-removed",
                                    memoryOwnerWorkspaceId="ws-root",
                                ),
                                entry("ws-solo"),
                            ]
                        },
                    ]
                ]
            }
        ),
        encoding="utf-8",
    )
    rows = [row for row in picker_rows(load_registry(tree_home)) if row.workspace]
    assert [(row.workspace.id, row.depth, row.tags) for row in rows if row.workspace] == [
        ("ws-root", 0, []),
        ("ws-task", 1, ["shared notebook"]),
        ("ws-side", 1, ["shared notebook"]),
        ("ws-orphan", 1, ["shared notebook"]),
        ("ws-solo", 0, []),
    ]
