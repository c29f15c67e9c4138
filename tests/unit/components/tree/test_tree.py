"""The scope tree as plain nodes built from a scan (no Qt)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memtab.components.tree.nodes import FileMatch, MessageKind, NodeKind, TreeNode, file_key
from memtab.components.tree.tree import PROJECT_UNAVAILABLE_TEXT, build_tree
from memtab.loads.limits import PINNED_PAST_ITEM_CUT
from memtab.store.home import Home
from memtab.store.paths import Scope, parse_file_path
from support import memory_home
from support.memory_home import MULTI, scanned, write_registry

home = memory_home.home


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


def test_a_pinned_file_over_xums_16_kib_preload_is_marked(home: Home) -> None:
    """xum preloads at most 16 KiB of a pinned file (docs/formats.md §17.6)."""
    key = file_key(parse_file_path("/memories/global/preferences.md"))

    def preferences() -> TreeNode:
        return next(n for n in build_tree(scanned(home)).walk() if n.key == key)

    assert preferences().warning is None  # pinned, small
    path = home.global_root / "preferences.md"
    path.write_text(path.read_text(encoding="utf-8") + "- more\n" * 3000, encoding="utf-8")
    assert preferences().warning == PINNED_PAST_ITEM_CUT


def test_multi_project_workspace_says_project_memory_is_unavailable(home: Home) -> None:
    tree = build_tree(scanned(home, MULTI))
    project = tree.children[1]
    assert [(n.kind, n.message_kind, n.name) for n in project.children] == [
        (NodeKind.MESSAGE, MessageKind.UNAVAILABLE, PROJECT_UNAVAILABLE_TEXT)
    ]
    assert not project.accepts_drops


def test_empty_scopes_show_empty_state_text(tmp_path: Path) -> None:
    fresh = Home(tmp_path / "fresh")
    write_registry(fresh)
    tree = build_tree(scanned(fresh))
    for section in tree.children:
        assert section.children[0].message_kind is MessageKind.EMPTY
        assert "No" in section.children[0].name and "memories yet" in section.children[0].name


def test_a_listing_error_shows_an_inline_error_line(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    import memtab.components.tree.full_scan as scan_module
    from memtab.store.files import ScopeListing

    real = scan_module.list_scope

    def failing(scope: Scope, root: Path | None, **options: Any) -> ScopeListing:
        if scope is Scope.GLOBAL:
            return ScopeListing(scope, error=f"Cannot read {root}: Permission denied")
        return real(scope, root, **options)

    monkeypatch.setattr(scan_module, "list_scope", failing)
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
