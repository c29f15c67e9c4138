"""An index a process keeps open is checked before each use of its folder, not only when
opened (docs/formats.md §22.11): a link swapped in for the folder is never written
through — tantivy took its `.tantivy-meta.lock` through it — and a FIFO where tantivy
opens a file never hangs it nor leaves every search failing "Failed to acquire
Lockfile" until a restart: the index is opened again where it was, made safe first, and
the next refresh and search answer."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from memtab.agent_server.service import MemoryService
from memtab.search_index.documents import IndexedFile
from memtab.search_index.index import SearchIndex, index_file_for
from memtab.store.home import Home

ROOTS = ("r",)
CHANGED = r"changed under this process \(.*\): opened again where it was$"
MADE_SAFE = r"was no folder|was a link or no file: removed"
# Long enough for a loaded machine's refresh and search of one file.
WITHIN_S = 20.0


def listed(folder: Path) -> list[IndexedFile]:
    files = []
    for path in sorted(folder.iterdir()):
        info = os.lstat(path)
        stamp = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
        files.append(IndexedFile("r", path.name, path.name, str(path), stamp))
    return files


def open_index(tmp_path: Path) -> tuple[SearchIndex, Path]:
    """An index holding one file, searched (its folder opened), and the files' folder."""
    files = tmp_path / "files"
    files.mkdir()
    (files / "a.md").write_text("kestrel\n")
    index = SearchIndex(tmp_path / "cache" / "index")
    index.refresh(listed(files), ROOTS)
    assert [hit.id for hit in index.search("kestrel", ROOTS, limit=5)] == ["a.md"]
    return index, files


def refresh_and_search(index: SearchIndex, files: Path) -> list[str]:
    """What a server does on its next call: the files brought up to date, then searched."""
    (files / "b.md").write_text("osprey\n")
    index.refresh(listed(files), ROOTS)
    return [hit.id for hit in index.search("osprey", ROOTS, limit=5)]


@pytest.mark.expect_log("memtab.search_index.index", "WARNING", CHANGED)
@pytest.mark.expect_log("memtab.search_index.opening", "WARNING", r"was no folder \(a link\)")
@pytest.mark.parametrize("first", ["search", "refresh"])
@pytest.mark.parametrize("target", ["empty", "the folder moved"])
def test_a_link_swapped_in_for_an_open_index_folder_is_never_written_through(
    tmp_path: Path, first: str, target: str
) -> None:
    index, files = open_index(tmp_path)
    path = index.path
    moved = tmp_path / "elsewhere" / "index"
    moved.parent.mkdir()
    path.rename(moved)  # another program, or a hostile one where it may write
    outside = moved if target == "the folder moved" else tmp_path / "outside"
    outside.mkdir(exist_ok=True)
    before = {entry.name: entry.stat().st_mtime_ns for entry in os.scandir(outside)}
    path.symlink_to(outside)
    (files / "a.md").write_text("kestrel again\n")  # a change: the next use writes
    if first == "search":
        (moved / "meta.json").touch()  # another commit seen: the next search reloads
        before = {entry.name: entry.stat().st_mtime_ns for entry in os.scandir(outside)}
        index.search("kestrel", ROOTS, limit=5)
    assert refresh_and_search(index, files) == ["b.md"]
    assert {entry.name: entry.stat().st_mtime_ns for entry in os.scandir(outside)} == before
    assert not path.is_symlink() and path.is_dir()
    index.close()


@pytest.mark.expect_log("memtab.search_index.index", "WARNING", CHANGED)
@pytest.mark.expect_log("memtab.search_index.opening", "WARNING", MADE_SAFE)
@pytest.mark.parametrize("where", ["", "meta.json", ".tantivy-meta.lock", ".tantivy-writer.lock"])
def test_a_fifo_where_tantivy_opens_a_file_never_hangs_an_open_index(
    tmp_path: Path, where: str
) -> None:
    index, files = open_index(tmp_path)
    fifo = index.path / where if where else index.path
    if where:
        fifo.unlink(missing_ok=True)
    else:
        index.path.rename(tmp_path / "moved")
    os.mkfifo(fifo)
    answered: list[list[str]] = []
    use = threading.Thread(target=lambda: answered.append(refresh_and_search(index, files)))
    use.start()
    use.join(WITHIN_S)
    hung = use.is_alive()
    if hung:  # let the open go, the test's threads ending with it
        unblock = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
        use.join(WITHIN_S)
        os.close(unblock)
    assert not hung, f"a FIFO at {where or 'the folder'} hung the index"
    assert answered == [["b.md"]]
    assert not fifo.is_fifo()  # removed, never opened: a regular file or folder there now
    index.close()


@pytest.mark.expect_log("memtab.search_index.index", "WARNING", CHANGED)
@pytest.mark.expect_log("memtab.search_index.opening", "WARNING", r"was no folder \(a FIFO\)")
def test_a_servers_next_search_answers_once_its_index_folder_became_a_fifo(
    tmp_path: Path,
) -> None:
    """Round 6: a warm host answered "Internal error … Failed to acquire Lockfile" to
    every session until it was restarted."""
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    (home.global_root / "birds.md").write_text("the kestrel hovers\n")
    service = MemoryService(home, None, writes="off", other_agents=False)
    try:
        assert "birds.md" in service.call("search", {"query": "kestrel"}, "test").text
        path = index_file_for(home.root)
        path.rename(tmp_path / "aside")
        os.mkfifo(path)
        (home.global_root / "fish.md").write_text("the pike waits\n")
        service.catalog.invalidate()  # as a watch reports it
        answer = service.call("search", {"query": "pike"}, "test")
        assert answer.error is None, answer.error
        assert [hit["path"] for hit in json.loads(answer.text)["results"]] == [
            "/memories/global/fish.md"
        ]
        assert path.is_dir()
    finally:
        service.catalog.close()
