"""The scope tree's Qt model: the model tester, merges, badges, drag and drop."""

from __future__ import annotations

import time

from PySide6.QtCore import QPersistentModelIndex, Qt
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from memtab.components.activity.badges import Actor, Badge
from memtab.components.tree.nodes import (
    SectionId,
    TreeNode,
    directory_key,
    file_key,
    message_key,
    orphan_key,
    section_key,
)
from memtab.components.tree.tree import build_tree
from memtab.fs.atomic import atomic_write_text
from memtab.gui.tree.model import (
    AGENT_EDITED_ROLE,
    BADGE_ROLE,
    MIME_TYPE,
    NODE_ROLE,
    MemoryTreeModel,
)
from memtab.store.home import Home
from memtab.store.paths import Scope, VirtualPath, parse_file_path
from support.memory_home import MAIN, MULTI, memory, scanned, touch_later

home = support.home


def loaded_model(
    home: Home, qtmodeltester: ModelTester, workspace_id: str | None = MAIN
) -> MemoryTreeModel:
    model = MemoryTreeModel()
    qtmodeltester.check(model)
    model.replace_tree(build_tree(scanned(home, workspace_id)))
    qtmodeltester.check(model)
    return model


def names(node: TreeNode) -> list[str]:
    return [child.name for child in node.children]


def test_model_passes_the_model_tester_and_exposes_roles(
    home: Home, qtmodeltester: ModelTester
) -> None:
    model = loaded_model(home, qtmodeltester)
    global_index = model.index(0, 0)
    assert global_index.data(Qt.ItemDataRole.AccessibleTextRole) == "Global"
    assert "4 files" in global_index.data(Qt.ItemDataRole.AccessibleDescriptionRole)
    assert model.index(1, 0).data(Qt.ItemDataRole.AccessibleTextRole) == "Project"
    assert model.index(2, 0).data(Qt.ItemDataRole.AccessibleTextRole) == "Workspace"
    preferences = model.index_for_key(file_key(parse_file_path("/memories/global/preferences.md")))
    tooltip = preferences.data(Qt.ItemDataRole.ToolTipRole)
    assert "/memories/global/preferences.md" in tooltip and "modified" in tooltip
    assert "B ·" in tooltip or "KiB ·" in tooltip  # the size
    assert "mux may overwrite" in tooltip  # pinned: the docs/formats.md §7 note
    assert "Used 4×" in tooltip
    assert "every save" in tooltip and "each pin" in tooltip  # what a use is (mux's rule)
    description = preferences.data(Qt.ItemDataRole.AccessibleDescriptionRole)
    assert description.startswith("pinned")
    assert not model.flags(global_index) & Qt.ItemFlag.ItemIsDragEnabled
    assert model.flags(global_index) & Qt.ItemFlag.ItemIsDropEnabled


def test_merge_keeps_unchanged_rows_and_persistent_indexes(
    home: Home, qtmodeltester: ModelTester
) -> None:
    first = scanned(home)
    model = MemoryTreeModel()
    qtmodeltester.check(model)
    model.replace_tree(build_tree(first))
    tools = QPersistentModelIndex(
        model.index_for_key(directory_key(parse_file_path("/memories/global/tools")))
    )
    kept_node = model.node(tools)
    atomic_write_text(home.global_root / "tools" / "docker.md", memory("Docker"))
    (home.global_root / "Zeta.md").unlink()
    touch_later(home.global_root / "preferences.md", memory("Changed description"))
    second = scanned(home, previous=first)
    model.replace_tree(build_tree(second))
    assert tools.isValid() and model.node(tools) is kept_node
    assert names(kept_node) == ["docker.md", "git.md", "python.md"]
    assert kept_node.file_count == 3
    global_section = model.root.children[0]
    assert "Zeta.md" not in names(global_section)
    preferences = model.node_for_key(file_key(parse_file_path("/memories/global/preferences.md")))
    assert preferences is not None and preferences.description == "Changed description"


def test_a_tree_that_replaces_a_reconcile_in_progress_is_shown_whole(
    home: Home, qtmodeltester: ModelTester
) -> None:
    """A newer tree wins over a reconcile in progress, and what that one left undone below
    the rows it had reached is reconciled too — a scan in slices, replaced by the
    watcher's rescan of the same disk, once left a file dropped back into Global unshown."""
    first = scanned(home)
    model = MemoryTreeModel()
    qtmodeltester.check(model)
    model.replace_tree(build_tree(first))
    (home.global_root / "Zeta.md").unlink()
    atomic_write_text(home.global_root / "tools" / "docker.md", memory("Docker"))
    second = scanned(home, previous=first)
    model.start_reconcile(build_tree(second))
    assert not model.continue_reconcile(0)  # one step (the sections' row), then a paint
    model.replace_tree(build_tree(scanned(home, previous=second)))  # the same disk again
    expected = MemoryTreeModel()
    expected.replace_tree(build_tree(scanned(home, previous=second)))
    assert [node.key for node in model.nodes()] == [node.key for node in expected.nodes()]
    assert "Zeta.md" not in names(model.root.children[0])
    qtmodeltester.check(model)


def test_merge_across_a_workspace_switch_replaces_section_contents(
    home: Home, qtmodeltester: ModelTester
) -> None:
    model = loaded_model(home, qtmodeltester)
    model.replace_tree(build_tree(scanned(home, MULTI)))
    project = model.node_for_key(section_key(SectionId.PROJECT))
    assert project is not None
    assert [child.key for child in project.children] == [message_key(SectionId.PROJECT)]
    qtmodeltester.check(model)


def test_agent_edited_badges_are_model_state(
    home: Home, qtmodeltester: ModelTester, qtbot: QtBot
) -> None:
    model = loaded_model(home, qtmodeltester)
    notes = model.index_for_key(file_key(parse_file_path("/memories/workspace/notes.md")))
    physical = str(home.workspace_root(MAIN) / "notes.md")
    badge = Badge(actor=Actor.MUX, at_ms=int(time.time() * 1000))
    with qtbot.waitSignal(model.dataChanged):
        model.set_agent_edited({physical: badge})
    assert notes.data(AGENT_EDITED_ROLE) is True and notes.data(BADGE_ROLE) == badge
    assert "mux changed it just now" in notes.data(Qt.ItemDataRole.AccessibleDescriptionRole)
    assert "mux changed it just now" in notes.data(Qt.ItemDataRole.ToolTipRole)
    # Another actor for the same file is a change the view must repaint.
    with qtbot.waitSignal(model.dataChanged):
        model.set_agent_edited({physical: Badge(actor=Actor.WRITER, at_ms=badge.at_ms)})
    assert "Memory writer changed it" in notes.data(Qt.ItemDataRole.ToolTipRole)
    model.set_agent_edited({})
    assert notes.data(AGENT_EDITED_ROLE) is False and notes.data(BADGE_ROLE) is None


def test_dragging_files_onto_a_folder_of_another_scope_requests_a_move(
    home: Home, qtmodeltester: ModelTester, qtbot: QtBot
) -> None:
    model = loaded_model(home, qtmodeltester)
    git = model.index_for_key(file_key(parse_file_path("/memories/global/tools/git.md")))
    decisions = model.index_for_key(directory_key(parse_file_path("/memories/project/decisions")))
    data = model.mimeData([git])
    assert data.hasFormat(MIME_TYPE)
    assert model.canDropMimeData(data, Qt.DropAction.MoveAction, -1, -1, decisions)
    with qtbot.waitSignal(model.move_requested) as blocker:
        accepted = model.dropMimeData(data, Qt.DropAction.MoveAction, -1, -1, decisions)
    assert accepted is False  # the rows move when the rescan shows it
    sources, target = blocker.args
    assert sources == [parse_file_path("/memories/global/tools/git.md")]
    assert target == parse_file_path("/memories/project/decisions")


def test_drops_that_would_do_nothing_or_go_nowhere_are_refused(
    home: Home, qtmodeltester: ModelTester
) -> None:
    model = loaded_model(home, qtmodeltester)
    tools = model.index_for_key(directory_key(parse_file_path("/memories/global/tools")))
    git = model.index_for_key(file_key(parse_file_path("/memories/global/tools/git.md")))
    move = Qt.DropAction.MoveAction
    # Into its own folder, into itself, onto the orphans.
    assert not model.canDropMimeData(model.mimeData([git]), move, -1, -1, tools)
    assert not model.canDropMimeData(model.mimeData([tools]), move, -1, -1, tools)
    orphans = model.index_for_key(orphan_key("gone-0123456789ab"))
    assert not model.canDropMimeData(model.mimeData([git]), move, -1, -1, orphans)
    # Dropping on a file means its folder; the Workspace section is the scope root.
    workspace = model.index_for_key(section_key(SectionId.WORKSPACE))
    assert model.drop_target(workspace) == VirtualPath(Scope.WORKSPACE)
    assert model.drop_target(git) == parse_file_path("/memories/global/tools")
    assert model.canDropMimeData(model.mimeData([git]), move, -1, -1, workspace)


def test_orphan_rows_are_read_only(home: Home, qtmodeltester: ModelTester) -> None:
    model = loaded_model(home, qtmodeltester)
    orphan = model.index_for_key(orphan_key("gone-0123456789ab"))
    assert orphan.isValid()
    file_index = model.index(0, 0, orphan)
    node = file_index.data(NODE_ROLE)
    assert node.read_only and node.path is None and node.name == "old.md"
    assert not model.flags(file_index) & Qt.ItemFlag.ItemIsDragEnabled
    assert model.mimeData([file_index]).data(MIME_TYPE).isEmpty()
