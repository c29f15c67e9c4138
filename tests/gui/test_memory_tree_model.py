"""The scope tree: nodes built from a scan, the Qt model over them, merges, drag and drop."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPersistentModelIndex, Qt
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from gui import test_memory_tree_support as support
from gui.test_memory_tree_support import MAIN, MULTI, memory, touch_later
from memtab.fs.atomic import atomic_write_text
from memtab.gui.memory_tab.tree_model import (
    AGENT_EDITED_ROLE,
    MIME_TYPE,
    NODE_ROLE,
    MemoryTreeModel,
)
from memtab.gui.memory_tab.tree_nodes import (
    PROJECT_UNAVAILABLE_TEXT,
    FileMatch,
    MessageKind,
    NodeKind,
    SectionId,
    TreeNode,
    build_tree,
    directory_key,
    file_key,
    message_key,
    orphan_key,
    section_key,
)
from memtab.gui.tasks.scan import HomeScan, ScanRequest, scan_home
from memtab.store.home import Home
from memtab.store.paths import Scope, VirtualPath, parse_file_path

home = support.home


def scanned(
    home: Home, workspace_id: str | None = MAIN, previous: HomeScan | None = None
) -> HomeScan:
    return scan_home(ScanRequest(home, workspace_id, previous=previous))


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


def test_sections_in_order_then_directories_first_then_files_alphabetically(home: Home) -> None:
    tree = build_tree(scanned(home))
    assert names(tree) == ["Global", "Project", "Workspace", "Orphaned project memory"]
    global_section = tree.children[0]
    assert names(global_section) == ["empty-dir", "tools", "preferences.md", "Zeta.md"]
    assert [child.kind for child in global_section.children[:2]] == [NodeKind.DIRECTORY] * 2


def test_sections_and_directories_count_files_recursively(home: Home) -> None:
    tree = build_tree(scanned(home))
    global_section, project, workspace, orphans = tree.children
    assert global_section.file_count == 4
    assert global_section.children[1].file_count == 2  # tools/
    assert global_section.children[0].file_count == 0  # empty-dir/
    assert project.file_count == 2 and workspace.file_count == 1
    assert orphans.file_count == 1


def test_file_nodes_carry_description_pin_usage_and_disk_facts(home: Home) -> None:
    tree = build_tree(scanned(home))
    preferences = next(
        n
        for n in tree.walk()
        if n.key == file_key(parse_file_path("/memories/global/preferences.md"))
    )
    assert preferences.description == "How I like code written"
    assert preferences.pinned and preferences.access_count == 4
    assert preferences.size_bytes > 0 and preferences.modified_at_ms > 0
    assert preferences.physical == str(home.global_root / "preferences.md")


def test_multi_project_workspace_says_project_memory_is_unavailable(home: Home) -> None:
    tree = build_tree(scanned(home, MULTI))
    project = tree.children[1]
    assert [(n.kind, n.message_kind, n.name) for n in project.children] == [
        (NodeKind.MESSAGE, MessageKind.UNAVAILABLE, PROJECT_UNAVAILABLE_TEXT)
    ]
    assert not project.accepts_drops


def test_empty_scopes_show_empty_state_text(tmp_path: Path) -> None:
    fresh = Home(tmp_path / "fresh")
    support.write_registry(fresh)
    tree = build_tree(scanned(fresh))
    for section in tree.children:
        assert section.children[0].message_kind is MessageKind.EMPTY
        assert "No" in section.children[0].name and "memories yet" in section.children[0].name


def test_a_listing_error_shows_an_inline_error_line(home: Home, monkeypatch: object) -> None:
    import memtab.gui.tasks.scan as scan_module
    from memtab.store.files import ScopeListing

    real = scan_module.list_scope

    def failing(scope: Scope, root: Path | None) -> ScopeListing:
        if scope is Scope.GLOBAL:
            return ScopeListing(scope, error=f"Cannot read {root}: Permission denied")
        return real(scope, root)

    monkeypatch.setattr(scan_module, "list_scope", failing)  # type: ignore[attr-defined]
    tree = build_tree(scanned(home))
    line = tree.children[0].children[0]
    assert line.message_kind is MessageKind.ERROR and "Permission denied" in line.name


def test_filtered_tree_keeps_matching_files_and_their_folders(home: Home) -> None:
    scan = scanned(home)
    git = file_key(parse_file_path("/memories/global/tools/git.md"))
    tree = build_tree(scan, {git: FileMatch(content_hits=2)})
    global_section, project, workspace, *_ = tree.children
    assert names(global_section) == ["tools"]
    assert names(global_section.children[0]) == ["git.md"]
    assert global_section.file_count == 1 and global_section.total_count == 4
    assert global_section.children[0].children[0].content_hits == 2
    assert project.children[0].message_kind is MessageKind.NO_MATCHES
    assert workspace.children[0].message_kind is MessageKind.NO_MATCHES


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
    assert "mux may overwrite" in tooltip  # pinned: the SPEC §6 note
    assert "Used 4×" in tooltip
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
    with qtbot.waitSignal(model.dataChanged):
        model.set_agent_edited({physical})
    assert notes.data(AGENT_EDITED_ROLE) is True
    assert "agent edited" in notes.data(Qt.ItemDataRole.AccessibleDescriptionRole)
    model.set_agent_edited(set())
    assert notes.data(AGENT_EDITED_ROLE) is False


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
