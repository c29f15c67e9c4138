"""The search index on disk: a new process finds what the last one indexed and reads only
what changed; a refresh under a budget leaves the rest out, never stale; a damaged file or
one damaged while open is rebuilt; a kill mid-update loses only its commit; two
processes (two servers, the window) refresh the same file at once, each its own roots."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from memtab.search_index import documents as documents_module
from memtab.search_index.documents import IndexedFile
from memtab.search_index.index import CHUNK_FILES, SearchIndex
from support.indexed import indexed_count
from support.processes import python_child

ROOTS = ("r",)


def listed(folder: Path, root: str = "r") -> list[IndexedFile]:
    """The files of `folder` as a listing gives them, stamped by their stat."""
    files = []
    for path in sorted(folder.iterdir()):
        info = os.lstat(path)
        stamp = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
        files.append(IndexedFile(root, path.name, path.name, str(path), stamp))
    return files


def found(index: SearchIndex, query: str, roots: tuple[str, ...] = ROOTS) -> list[str]:
    return sorted(hit.id for hit in index.search(query, roots, limit=1000))


def test_a_new_process_reads_only_what_changed_since_the_last_one(tmp_path: Path) -> None:
    folder = tmp_path / "files"
    folder.mkdir()
    for name in ("keep.md", "edit.md", "gone.md", "move.md"):
        (folder / name).write_text(f"{name.split('.')[0]} alpha\n")
    first = SearchIndex(tmp_path / "index")
    assert first.refresh(listed(folder), ROOTS).read == 4
    first.close()
    # While no Memtab runs: an edit keeping the size, a delete, a rename, a new file.
    (folder / "edit.md").write_text("edit bravo\n")
    os.utime(folder / "edit.md", ns=(1, 1))
    (folder / "gone.md").unlink()
    (folder / "move.md").rename(folder / "moved.md")
    (folder / "new.md").write_text("new alpha\n")
    second = SearchIndex(tmp_path / "index")
    assert second.refresh(listed(folder), ROOTS).read == 3  # edit, moved, new
    assert found(second, "alpha") == ["keep.md", "moved.md", "new.md"]
    assert found(second, "bravo") == ["edit.md"]
    assert found(second, "gone") == []
    assert second.refresh(listed(folder), ROOTS).read == 0
    second.close()


def test_a_file_without_a_stamp_is_read_again_every_time(tmp_path: Path) -> None:
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "racy.md").write_text("one\n")
    index = SearchIndex(tmp_path / "index")
    unstamped = [IndexedFile("r", "racy.md", "", str(folder / "racy.md"), None)]
    index.refresh(unstamped, ROOTS)
    (folder / "racy.md").write_text("two\n")  # the same size, maybe the same mtime
    assert index.refresh(unstamped, ROOTS).read == 1
    assert (found(index, "one"), found(index, "two")) == ([], ["racy.md"])
    index.close()


def test_a_refresh_past_its_budget_leaves_files_out_never_answers_their_old_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "files"
    folder.mkdir()
    count = CHUNK_FILES * 2 + 5
    for number in range(count):
        (folder / f"n{number:04d}.md").write_text("old words\n")
    now = [0.0]
    index = SearchIndex(tmp_path / "index", clock=lambda: now[0])
    index.refresh(listed(folder), ROOTS)
    for number in range(count):
        (folder / f"n{number:04d}.md").write_text("new words here\n")
    original = documents_module.readable_text

    def slow_reading(file: IndexedFile) -> tuple[str, bytes, bytes | None]:
        now[0] += 0.01  # each read takes 10 ms of the fake clock
        return original(file)

    monkeypatch.setattr(documents_module, "readable_text", slow_reading)
    refreshed = index.refresh(listed(folder), ROOTS, budget_s=1.0)
    monkeypatch.undo()
    assert refreshed.read == CHUNK_FILES  # a whole chunk, then the budget was spent
    assert refreshed.pending == count - CHUNK_FILES
    assert found(index, "old") == []
    assert len(found(index, "new")) == CHUNK_FILES
    assert index.refresh(listed(folder), ROOTS).read == count - CHUNK_FILES
    assert len(found(index, "new")) == count
    index.close()


@pytest.mark.expect_log(
    "memtab.search_index.opening", "WARNING", r"^Search index .* is damaged .*: rebuilt$"
)
def test_a_damaged_index_is_rebuilt(tmp_path: Path) -> None:
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "a.md").write_text("alpha\n")
    path = tmp_path / "index"
    SearchIndex(path).close()
    (path / "meta.json").write_bytes(b"this is no index at all, just bytes " * 200)
    index = SearchIndex(path)
    index.refresh(listed(folder), ROOTS)
    assert found(index, "alpha") == ["a.md"]
    index.close()


@pytest.mark.expect_log(
    "memtab.search_index.index", "WARNING", r"^Search index .* is damaged .*: rebuilt$"
)
def test_an_index_damaged_while_open_is_rebuilt_and_the_search_answers(tmp_path: Path) -> None:
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "a.md").write_text("alpha\n")
    index = SearchIndex(tmp_path / "index")
    index.refresh(listed(folder), ROOTS)
    for segment in (tmp_path / "index").iterdir():
        if segment.suffix in (".idx", ".term", ".store"):
            segment.unlink()  # another program took them
    (tmp_path / "index" / "meta.json").touch()  # the next read reloads
    generation = index.generation
    assert found(index, "alpha") == []  # started again: the caller indexes every file anew
    assert index.generation != generation
    index.refresh(listed(folder), ROOTS)
    assert found(index, "alpha") == ["a.md"]
    index.close()


_KILLED_MID_UPDATE = """
import os, sys
from pathlib import Path
from memtab.search_index import documents as d, index as m
folder, path = Path(sys.argv[1]), Path(sys.argv[2])
files = []
for name in sorted(os.listdir(folder)):
    info = os.lstat(folder / name)
    stamp = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
    files.append(d.IndexedFile("r", name, name, str(folder / name), stamp))
m.COMMIT_FILES = m.CHUNK_FILES  # a commit a chunk: the kill falls inside the second
original, reads = d.readable_text, [0]
def reading(file):
    reads[0] += 1
    if reads[0] == m.CHUNK_FILES + 10:  # inside the second commit
        print("held", flush=True)
        sys.stdin.read()
    return original(file)
d.readable_text = reading
m.SearchIndex(path).refresh(files, ("r",))
"""


@pytest.mark.slow  # slow: a child process importing the index (~0.5 s of CPU)
def test_a_kill_mid_update_loses_only_its_commit(tmp_path: Path) -> None:
    folder = tmp_path / "files"
    folder.mkdir()
    count = CHUNK_FILES * 2
    for number in range(count):
        (folder / f"n{number:04d}.md").write_text(f"word{number} common\n")
    path = tmp_path / "index"
    with python_child(_KILLED_MID_UPDATE, str(folder), str(path)) as child:
        child.kill()
        child.wait()
    index = SearchIndex(path)
    assert indexed_count(index) == CHUNK_FILES  # the first commit, whole
    assert index.refresh(listed(folder), ROOTS).read == count - CHUNK_FILES
    assert len(found(index, "common")) == count
    assert found(index, f"word{count - 1}") == [f"n{count - 1:04d}.md"]
    index.close()


def test_two_processes_refresh_one_file_at_once_each_keeping_its_own_roots(
    tmp_path: Path,
) -> None:
    shared, mine, theirs = tmp_path / "global", tmp_path / "mine", tmp_path / "theirs"
    for folder, word in ((shared, "shared"), (mine, "mine"), (theirs, "theirs")):
        folder.mkdir()
        for number in range(CHUNK_FILES + 50):
            (folder / f"{word}{number}.md").write_text(f"{word} {number}\n")
    path = tmp_path / "index"
    one, two = SearchIndex(path), SearchIndex(path)
    one_roots, two_roots = ("global", "mine"), ("global", "theirs")
    one_files = listed(shared, "global") + listed(mine, "mine")
    two_files = listed(shared, "global") + listed(theirs, "theirs")
    failures: list[BaseException] = []

    def refresh(index: SearchIndex, files: list[IndexedFile], roots: tuple[str, ...]) -> None:
        try:
            index.refresh(files, roots)
        except BaseException as error:  # reported below
            failures.append(error)

    threads = [
        threading.Thread(target=refresh, args=(one, one_files, one_roots)),
        threading.Thread(target=refresh, args=(two, two_files, two_roots)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert indexed_count(one) == 3 * (CHUNK_FILES + 50)  # the shared root's rows once
    assert len(found(one, "shared", one_roots)) == CHUNK_FILES + 50
    assert found(one, "theirs", one_roots) == []
    assert len(found(two, "theirs", two_roots)) == CHUNK_FILES + 50
    assert one.refresh(one_files, one_roots).read == 0
    assert two.refresh(two_files, two_roots).read == 0  # neither took the other's out
    one.close()
    two.close()
