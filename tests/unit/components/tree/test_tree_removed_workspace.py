"""A workspace xum removed (docs/formats.md §21.3): the tree marks its notebook read-only
with the reason — the section, its folders and files — as the editor and the store do;
its files stay readable (listed, searchable, openable)."""

from __future__ import annotations

from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.nodes import NodeKind, SectionId, TreeNode
from memtab.components.tree.scan import ScanRequest
from memtab.components.tree.text import row_tooltip
from memtab.components.tree.tree import REMOVED_SUBTITLE, build_tree, fill_rows
from memtab.fs.atomic import atomic_write_json
from memtab.store.home import Home
from memtab.store.xum_locks import removal_tombstone_path, removed_message
from support import memory_home
from support.memory_home import MAIN, scanned

home = memory_home.home


def _workspace_section(tree: TreeNode) -> TreeNode:
    return next(n for n in tree.children if n.section is SectionId.WORKSPACE)


def test_a_removed_workspaces_notebook_is_read_only_with_the_reason(home: Home) -> None:
    first = scanned(home)
    section = _workspace_section(build_tree(first))
    rows = [n for n in section.walk() if n.kind in (NodeKind.FILE, NodeKind.DIRECTORY)]
    assert rows and not any(n.read_only for n in rows) and section.accepts_drops

    atomic_write_json(removal_tombstone_path(home, MAIN), {"workspaceId": MAIN})
    reason = removed_message(MAIN)
    # Nothing in the notebook changed: the incremental scan still sees the removal.
    later = scan_home(ScanRequest(home, MAIN, previous=first, changed_paths=frozenset()))
    for scan in (later, scanned(home)):
        section = _workspace_section(build_tree(scan))
        assert section.read_only and not section.accepts_drops
        assert section.subtitle.startswith(REMOVED_SUBTITLE)
        assert f"Read-only: {reason}" in (row_tooltip(section, None) or "")
        rows = [n for n in section.walk() if n.kind in (NodeKind.FILE, NodeKind.DIRECTORY)]
        assert len(rows) == len([n for n in rows if n.read_only and not n.accepts_drops])
        files = [n for n in rows if n.kind is NodeKind.FILE]
        assert files and all(n.not_editable_reason == reason for n in files)
        assert all(n.path is not None for n in files)  # still opened, read-only
        assert f"Read-only: {reason}" in (row_tooltip(files[0], None) or "")
        filled = fill_rows(scan, section.key) or []
        assert all(n.read_only and n.not_editable_reason == reason for n in filled)

    global_section = next(n for n in build_tree(later).children if n.section is SectionId.GLOBAL)
    assert global_section.accepts_drops and not global_section.read_only
