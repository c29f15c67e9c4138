"""What keeps a big home quick: the outline, file-by-file rescans and the lazily built
tree — each must show exactly what a full scan and a full tree show (no Qt)."""

from __future__ import annotations

from pathlib import Path

import pytest

import memtab.store.files as store_files
from memtab.components.tree import scan as views_scan
from memtab.components.tree import tree as views_tree
from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.nodes import (
    FileMatch,
    NodeKind,
    SectionId,
    TreeNode,
    directory_key,
    file_container_key,
    file_key,
    orphan_entry_key,
    orphan_key,
    section_key,
)
from memtab.components.tree.scan import HomeScan, ScanRequest, scan_outline
from memtab.components.tree.tree import build_tree, default_open_containers, fill_rows
from memtab.fs.atomic import atomic_write_text
from memtab.store.home import Home
from memtab.store.paths import Scope, VirtualPath
from support import memory_home
from support.memory_home import MAIN, memory
from support.spies import calls_through

home = memory_home.home


def containers(tree: TreeNode) -> dict[str, tuple[int, list[str]]]:
    """Every container's file count and the names of its sub-directories."""
    return {
        node.key: (
            node.file_count,
            [child.name for child in node.children if child.kind is not NodeKind.FILE],
        )
        for node in tree.walk()
        if node.is_container
    }


def files(tree: TreeNode) -> dict[str, TreeNode]:
    return {node.key: node for node in tree.walk() if node.kind is NodeKind.FILE}


def test_a_small_home_has_no_outline(home: Home) -> None:
    assert scan_outline(ScanRequest(home, MAIN)) is None


def test_the_outline_counts_what_the_scan_lists(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views_scan, "OUTLINE_MIN_FILES", 1)
    outline = scan_outline(ScanRequest(home, MAIN))
    full = scan_home(ScanRequest(home, MAIN))
    assert outline is not None and outline.is_outline and not full.is_outline
    assert outline.workspace == full.workspace
    assert outline.total_file_count == full.total_file_count == 8
    assert all(item.listing.files == () for item in outline.scopes)
    outline_tree, full_tree = build_tree(outline), build_tree(full)
    assert containers(outline_tree) == containers(full_tree)
    assert files(outline_tree) == {}
    assert all(
        node.unfilled_files == sum(1 for c in full_node.children if c.kind is NodeKind.FILE)
        for node in outline_tree.walk()
        if node.is_container
        for full_node in [next(n for n in full_tree.walk() if n.key == node.key)]
    )


def test_a_scan_after_an_outline_reads_everything_and_reports_no_changes(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views_scan, "OUTLINE_MIN_FILES", 1)
    outline = scan_outline(ScanRequest(home, MAIN))
    assert outline is not None
    notes = home.workspace_root(MAIN) / "notes.md"
    scan = scan_home(
        ScanRequest(home, MAIN, previous=outline, changed_paths=frozenset({str(notes)}))
    )
    assert not scan.is_outline
    assert scan.total_file_count == 8
    assert scan.changes.empty  # an outline is never a "before": no file looks changed


def test_the_scan_after_an_outline_lists_its_walk_each_file_as_it_is_now(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No root is walked again: the outline's names are listed, each file stat'ed and read
    now — one rewritten since shows its new description, one deleted since is not listed
    — and the rest is what a fresh scan lists."""
    monkeypatch.setattr(views_scan, "OUTLINE_MIN_FILES", 1)
    outline = scan_outline(ScanRequest(home, MAIN))
    assert outline is not None
    git = home.global_root / "tools" / "git.md"
    atomic_write_text(git, memory("Git, rewritten after the outline"))
    (home.global_root / "preferences.md").unlink()
    walked = calls_through(monkeypatch, store_files, "walk_scope")
    scan = scan_home(ScanRequest(home, MAIN, previous=outline))
    assert walked == []
    shown = {
        entry.path.relative: entry for entry in scan.scope_if_shown(Scope.GLOBAL).listing.files
    }
    assert shown["tools/git.md"].description == "Git, rewritten after the outline"
    assert "preferences.md" not in shown
    fresh = scan_home(ScanRequest(home, MAIN))
    assert len(walked) == len(fresh.scopes) + len(fresh.orphans)
    assert [item.listing for item in scan.scopes] == [item.listing for item in fresh.scopes]
    assert scan.orphans == fresh.orphans


def rescan(previous: HomeScan, *paths: Path) -> HomeScan:
    changed = frozenset(str(path) for path in paths)
    return scan_home(ScanRequest(previous.home, MAIN, previous=previous, changed_paths=changed))


def test_a_rescan_reads_only_the_files_that_changed(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = scan_home(ScanRequest(home, MAIN))
    read: list[str] = []
    original = store_files._read_entry

    def counting(physical: str, *args: object) -> store_files.FileEntry:
        read.append(physical)
        return original(physical, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(store_files, "_read_entry", counting)
    git = home.global_root / "tools" / "git.md"
    atomic_write_text(git, memory("Git, rewritten by an agent"))
    second = rescan(first, git)
    assert read == [str(git)]
    assert second.scope_if_shown(Scope.PROJECT) is first.scope_if_shown(Scope.PROJECT)
    assert (
        second.scope_if_shown(Scope.GLOBAL).listing
        == scan_home(ScanRequest(home, MAIN)).scope_if_shown(Scope.GLOBAL).listing
    )
    assert second.changes.changed == {VirtualPath(Scope.GLOBAL, ("tools", "git.md"))}
    # A new directory is a change of structure: the scope is listed again.
    read.clear()
    fresh = home.global_root / "new-dir" / "a.md"
    atomic_write_text(fresh, memory("In a new folder"))
    third = rescan(second, fresh)
    assert len(read) == 5
    assert (
        VirtualPath(Scope.GLOBAL, ("new-dir",))
        in third.scope_if_shown(Scope.GLOBAL).listing.directories
    )


def test_a_large_home_builds_only_the_open_containers(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    scan = scan_home(ScanRequest(home, MAIN))
    full = build_tree(scan)
    monkeypatch.setattr(views_tree, "LAZY_FILL_MIN_FILES", 0)
    lazy = build_tree(scan)
    assert containers(lazy) == containers(full)
    tools = directory_key(VirtualPath(Scope.GLOBAL, ("tools",)))
    git = file_key(VirtualPath(Scope.GLOBAL, ("tools", "git.md")))
    orphan = orphan_key("gone-0123456789ab")
    assert git not in files(lazy)
    assert file_key(VirtualPath(Scope.GLOBAL, ("preferences.md",))) in files(lazy)
    unfilled = {node.key: node.unfilled_files for node in lazy.walk() if node.unfilled_files}
    assert unfilled == {
        tools: 2,
        directory_key(VirtualPath(Scope.PROJECT, ("decisions",))): 1,
        orphan: 1,
    }
    opened = build_tree(scan, open_containers={tools, orphan, *default_open_containers()})
    assert git in files(opened)
    assert {node.key for node in opened.walk() if node.unfilled_files} == {
        directory_key(VirtualPath(Scope.PROJECT, ("decisions",)))
    }
    # Searching builds every match, open or not.
    match = FileMatch(1)
    searched = build_tree(scan, {git: match})
    assert list(files(searched)) == [git]


def test_fill_rows_are_the_rows_a_full_tree_has(home: Home) -> None:
    scan = scan_home(ScanRequest(home, MAIN))
    full = build_tree(scan)
    by_key = {node.key: node for node in full.walk()}
    for key in (
        section_key(SectionId.GLOBAL),
        directory_key(VirtualPath(Scope.GLOBAL, ("tools",))),
        directory_key(VirtualPath(Scope.PROJECT, ("decisions",))),
        orphan_key("gone-0123456789ab"),
    ):
        rows = fill_rows(scan, key)
        expected = [child for child in by_key[key].children if child.kind is NodeKind.FILE]
        assert rows is not None
        assert [(row.key, row.signature()) for row in rows] == [
            (row.key, row.signature()) for row in expected
        ]
        assert all(row.fingerprint for row in rows)
    assert fill_rows(scan, directory_key(VirtualPath(Scope.GLOBAL, ("nowhere",)))) == []
    assert fill_rows(scan, "dir:/not/a/path") is None


def test_fill_rows_need_a_listing(home: Home, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(views_scan, "OUTLINE_MIN_FILES", 1)
    outline = scan_outline(ScanRequest(home, MAIN))
    assert outline is not None
    assert fill_rows(outline, section_key(SectionId.GLOBAL)) is None


def test_the_container_of_a_file_row() -> None:
    top = VirtualPath(Scope.PROJECT, ("a.md",))
    deep = VirtualPath(Scope.GLOBAL, ("tools", "git.md"))
    assert file_container_key(file_key(top)) == section_key(SectionId.PROJECT)
    assert file_container_key(file_key(deep)) == directory_key(
        VirtualPath(Scope.GLOBAL, ("tools",))
    )
    orphan_file = orphan_entry_key("gone", VirtualPath(Scope.PROJECT, ("x", "y.md")), is_dir=False)
    assert file_container_key(orphan_file) == orphan_entry_key(
        "gone", VirtualPath(Scope.PROJECT, ("x",)), is_dir=True
    )
    top_orphan = orphan_entry_key("gone", VirtualPath(Scope.PROJECT, ("y.md",)), is_dir=False)
    assert file_container_key(top_orphan) == orphan_key("gone")
    assert file_container_key(directory_key(deep)) is None
    assert file_container_key("file:/elsewhere/x.md") is None
