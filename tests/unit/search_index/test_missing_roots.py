"""Rows of roots no listing names again go: a workspace removed, a project's memory
deleted — its folder is gone, so no server serves it and its rows would stay in the index
file for good. Another process's roots that exist stay, and so do other agents' sources
(their roots are ids, not folders) (docs/formats.md §22.11)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from memtab.search_index.documents import IndexedFile
from memtab.search_index.index import SearchIndex
from support.indexed import indexed_count


def _listed(folder: Path, root: str) -> list[IndexedFile]:
    files = []
    for path in sorted(folder.iterdir()):
        info = os.lstat(path)
        stamp = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
        files.append(IndexedFile(root, path.name, path.name, str(path), stamp))
    return files


def test_the_rows_of_a_root_whose_folder_went_are_taken_out(tmp_path: Path) -> None:
    kept, removed, source = tmp_path / "kept", tmp_path / "removed", tmp_path / "source"
    for folder in (kept, removed, source):
        folder.mkdir()
        for number in range(3):
            (folder / f"n{number}.md").write_text(f"{folder.name} kestrel\n")
    path = tmp_path / "index"
    mine, theirs = SearchIndex(path), SearchIndex(path)  # two servers of one home
    mine.refresh(_listed(kept, str(kept)), [str(kept)])
    theirs.refresh(_listed(removed, str(removed)), [str(removed)])
    theirs.refresh(_listed(source, "claude-code:user"), ["claude-code:user"])
    theirs.close()
    shutil.rmtree(removed)  # the workspace removed; its server ended
    assert indexed_count(mine) == 9
    mine.forget_missing_roots()
    assert indexed_count(mine) == 6
    roots = [str(kept), str(removed), "claude-code:user"]
    hits = mine.search("kestrel", roots, limit=10)
    assert sorted({hit.id for hit in hits}) == ["n0.md", "n1.md", "n2.md"]
    assert len(hits) == 6  # the kept folder's and the source's
    assert mine.search("removed", roots, limit=10) == []
    mine.forget_missing_roots()
    assert indexed_count(mine) == 6
    mine.close()
