"""The Memory tab's tree shows a scope to the depth memory paths go to, and a warning row
naming the folders whose contents are deeper (docs/formats.md §5)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.nodes import MessageKind, NodeKind, SectionId, too_deep_key
from memtab.components.tree.scan import ScanRequest
from memtab.components.tree.tree import build_tree
from memtab.store.home import Home
from memtab.store.paths import MAX_PATH_DEPTH
from support.memory_home import MAIN


@pytest.mark.expect_log(
    "memtab.store.files", "WARNING", r"^Not listed, searched or recorded: the contents of "
)
def test_a_tree_deeper_than_memory_paths_go_is_shown_to_the_depth_with_a_warning(
    tmp_path: Path, deep_tree: Callable[..., None]
) -> None:
    home = Home(tmp_path / "home")
    deep_tree(home.global_root, "deep", MAX_PATH_DEPTH + 8)

    scan = scan_home(ScanRequest(home, MAIN))
    root = build_tree(scan)

    assert len(scan.scopes[0].listing.directories) == MAX_PATH_DEPTH
    folders = [node for node in root.walk() if node.kind is NodeKind.DIRECTORY]
    assert len(folders) == MAX_PATH_DEPTH
    [row] = [node for node in root.walk() if node.key == too_deep_key(SectionId.GLOBAL)]
    assert row.message_kind is MessageKind.ERROR
    assert row.name == "⚠ Not shown: the contents of 1 folder, nested too deep"
    assert "/memories/global/deep/d/…(26 more)…/d/d/d/d are more than 32" in row.subtitle
