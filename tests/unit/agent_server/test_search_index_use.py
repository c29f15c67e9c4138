"""`search` over the home's index on disk: a server started anew reads only the files
changed since the last one indexed them, and recalls the others' descriptions from the
cache the last one saved; a change made outside is answered by the next
search once the watch has seen it, a deleted file no more; with nothing indexed yet, the
first answer comes within its budget and says indexing goes on; an index rebuilt or moved
away under a warm server answers from every file, never an empty index's "no results"
(docs/formats.md §22.11)."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from memtab.agent_server import catalog as catalog_module
from memtab.agent_server.service import MemoryService
from memtab.fs import memo, readable
from memtab.search_index import documents as documents_module
from memtab.search_index import index as index_module
from memtab.store.home import Home


def _service(home: Home) -> MemoryService:
    return MemoryService(home, None, writes="off", other_agents=False)


def _paths(service: MemoryService, query: str) -> list[str]:
    answer = service.call("search", {"query": query, "limit": 100}, "test")
    assert answer.error is None, answer.error
    return sorted(hit["path"] for hit in json.loads(answer.text)["results"])


def _home(tmp_path: Path, count: int) -> Home:
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    for number in range(count):
        (home.global_root / f"n{number:03d}.md").write_text(f"note {number} about kestrel\n")
    return home


def test_a_new_server_reads_only_the_files_changed_since_the_last_one_listed_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)  # files written just now
    home = _home(tmp_path, 30)
    first = _service(home)
    assert len(_paths(first, "kestrel")) == 30
    first.catalog.close()
    written = home.global_root / "n007.md.tmp"  # saved as a new file over the old
    written.write_text("note 7 about osprey now\n")
    os.replace(written, home.global_root / "n007.md")
    reads: list[str] = []
    described: list[str] = []
    original, original_open = documents_module.read_readable_path, readable.open_readable_path

    # Only this home's files: a thread an earlier test in this process left reading its
    # own home goes through the same functions.
    def counting(path: str, **how: Any) -> Any:
        if path.startswith(str(home.root)):
            reads.append(path.rsplit("/", 1)[-1])
        return original(path, **how)

    def opening(path: str) -> Any:
        if path.startswith(str(home.root)):
            described.append(path.rsplit("/", 1)[-1])
        return original_open(path)

    monkeypatch.setattr(documents_module, "read_readable_path", counting)
    monkeypatch.setattr("memtab.store.files.open_readable_path", opening)
    second = _service(home)
    try:
        assert _paths(second, "osprey") == ["/memories/global/n007.md"]
        assert len(_paths(second, "kestrel")) == 29
        assert reads == ["n007.md"]  # its text and description, for the index, in one read
        assert described == []  # no file opened for its description alone
    finally:
        second.catalog.close()


@pytest.mark.usefixtures("background_at_once")
def test_a_change_made_outside_is_answered_by_the_next_search_once_watched(
    tmp_path: Path,
) -> None:
    home = _home(tmp_path, 3)
    service = _service(home)
    try:
        assert len(_paths(service, "kestrel")) == 3
        (home.global_root / "n001.md").write_text("now about osprey\n")
        (home.global_root / "n002.md").unlink()
        deadline = time.monotonic() + 30
        while not service.catalog._changed.is_set():  # the watch has seen it
            assert time.monotonic() < deadline, "the watch never saw the change"
            time.sleep(0.01)
        assert _paths(service, "kestrel") == ["/memories/global/n000.md"]
        assert _paths(service, "osprey") == ["/memories/global/n001.md"]
    finally:
        service.catalog.close()


@pytest.mark.usefixtures("background_at_once")
# The budget spent, or the walk having taken the second the answer is due within.
@pytest.mark.parametrize("spent", ["INDEXING_BUDGET_S", "ANSWER_WITHIN_S"])
def test_with_nothing_indexed_the_first_answer_says_indexing_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spent: str
) -> None:
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)  # files written just now
    monkeypatch.setattr(catalog_module, spent, 0.0)  # one commit
    monkeypatch.setattr(index_module, "CHUNK_FILES", 1)
    home = _home(tmp_path, 3)
    go_on = threading.Event()
    original = documents_module.read_readable_path

    def held(path: str, **how: Any) -> Any:
        if threading.current_thread().name == "memtab-mcp-indexing":
            assert go_on.wait(30), "never let go on"
        return original(path, **how)

    monkeypatch.setattr(documents_module, "read_readable_path", held)
    service = _service(home)
    try:
        answer = json.loads(service.call("search", {"query": "kestrel"}, "test").text)
        assert [hit["path"] for hit in answer["results"]] == ["/memories/global/n000.md"]
        assert answer["notes"] == [
            "Still indexing: 2 files not searched yet (the first search of this home); "
            "search again in a moment for all of them"
        ]
        go_on.set()
        deadline = time.monotonic() + 30
        while "notes" in (
            final := json.loads(service.call("search", {"query": "kestrel"}, "test").text)
        ):
            assert time.monotonic() < deadline, "the indexing never finished"
            time.sleep(0.01)
        assert len(final["results"]) == 3
    finally:
        go_on.set()
        service.catalog.close()


@pytest.mark.usefixtures("background_at_once")
@pytest.mark.expect_log("memtab.search_index.index", "WARNING", r"^Search index .* changed under")
def test_an_index_rebuilt_while_a_warm_server_searches_it_answers_from_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)  # files written just now
    home = _home(tmp_path, 3)
    service = _service(home)
    try:
        assert len(_paths(service, "kestrel")) == 3
        watching, index = service.catalog._watching, service.catalog._index
        assert watching is not None and index is not None
        watching.join(30)  # watched: the next search lists nothing again
        assert service.catalog._observer is not None
        # Moved away, and a `memtab search` rebuilding it between its new folder and its
        # first commit: the server's next read finds no index there and starts it again,
        # empty — the answer must not be that empty index's.
        index.path.rename(tmp_path / "moved-away")
        index.path.mkdir(mode=0o700)
        assert len(_paths(service, "kestrel")) == 3
    finally:
        service.catalog.close()


@pytest.mark.usefixtures("background_at_once")
@pytest.mark.expect_log("memtab.search_index.index", "WARNING", r"^Search index .* changed under")
@pytest.mark.parametrize("left", ["nothing", "a link"])
def test_an_index_moved_away_from_a_warm_server_is_rebuilt_and_answers_from_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, expect_log: Any, left: str
) -> None:
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)  # files written just now
    home = _home(tmp_path, 3)
    service = _service(home)
    try:
        assert len(_paths(service, "kestrel")) == 3
        watching, index = service.catalog._watching, service.catalog._index
        assert watching is not None and index is not None
        watching.join(30)
        index.path.rename(tmp_path / "moved-away")
        if left == "a link":  # another user's, to a folder of hers not made yet
            index.path.symlink_to(tmp_path / "grab")
            expect_log("memtab.search_index.opening", "WARNING", r"^Search index .* was no folder")
        assert len(_paths(service, "kestrel")) == 3  # no error of tantivy's
        assert index.path.is_dir() and not index.path.is_symlink()
        assert not (tmp_path / "grab").exists()
    finally:
        service.catalog.close()
