"""What a delete takes with it, counted from the scan (not the rows a search leaves)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.components.files.ops import DeletionCount, count_deletion
from memtab.components.tree import scan as scan_module
from memtab.components.tree.scan import ScanRequest, scan_outline
from memtab.store.paths import VirtualPath, parse_virtual_path
from support.memory_home import MAIN, make_home, scanned


def paths(*raw: str) -> list[VirtualPath]:
    return [parse_virtual_path(text) for text in raw]


def test_a_folder_counts_every_file_inside_and_those_a_search_hides(tmp_path: Path) -> None:
    scan = scanned(make_home(tmp_path / "home"))
    tools, notes = paths("/memories/global/tools", "/memories/workspace/notes.md")
    assert count_deletion(scan, [tools], None) == DeletionCount(1, 2, 0)
    shown = paths("/memories/global/tools/python.md")
    assert count_deletion(scan, [tools, notes], shown) == DeletionCount(2, 3, 2)
    assert count_deletion(scan, paths("/memories/global/empty-dir"), None).files == 0


def test_a_big_homes_outline_counts_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = make_home(tmp_path / "home")
    monkeypatch.setattr(scan_module, "OUTLINE_MIN_FILES", 0)
    outline = scan_outline(ScanRequest(home, MAIN))
    assert outline is not None and outline.scopes[0].outline is not None
    tools, git = paths("/memories/global/tools", "/memories/global/tools/git.md")
    assert count_deletion(outline, [tools], None) == DeletionCount(1, 2, 0)
    assert count_deletion(outline, [git], None) == DeletionCount(1, 1, 0)
    assert count_deletion(outline, paths("/memories/global"), None).files == 4
