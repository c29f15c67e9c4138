"""An index that cannot be used leaves every searcher working (docs/formats.md §22.11): a
FIFO, a folder or a link to /dev/null at the index's name, a read-only cache, a full
disk. MCP `list` and `search`, `memtab search` and the window's search answer from the
files (the index rebuilt where it can be, else read into memory, the answer's note saying
why), the log says so once — no "Internal error … OperationalError" reaches an agent."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import urllib.parse
from collections.abc import Callable
from pathlib import Path

import pytest

from memtab.agent_server.service import MemoryService
from memtab.cli.main import main
from memtab.components.search.indexed import IndexedTexts
from memtab.components.search.search import SearchQuery, find_matches
from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.nodes import file_key
from memtab.components.tree.scan import ScanRequest
from memtab.search_index.index import SearchIndex, index_file_for
from memtab.store.home import Home
from memtab.store.paths import parse_file_path

WARNED = r"cannot be used|was a link|was a FIFO"


def make_home(tmp_path: Path) -> Home:
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    (home.global_root / "birds.md").write_text("the kestrel hovers\n")
    # Words enough to need pages the index has not got yet (a full disk is found).
    words = " ".join(f"word{number}" for number in range(3000))
    (home.global_root / "fish.md").write_text(f"the pike waits\n{words}\n")
    return home


def fifo(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    os.mkfifo(path)


def folder(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path.mkdir()
    (path / "kept.txt").write_text("the user's")


def dev_null(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path.symlink_to("/dev/null")


def connecting(
    path: Path, monkeypatch: pytest.MonkeyPatch, change: Callable[[str], sqlite3.Connection]
) -> None:
    """SQLite's connections to the index at `path` made by `change(its path)`."""
    real = sqlite3.connect

    def connect(database: object, *args: object, **options: object) -> sqlite3.Connection:
        named = str(database)
        if named.startswith("file:"):
            named = urllib.parse.unquote(named[5:].partition("?")[0])
        if named == str(path):
            return change(named)
        return real(database, *args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(sqlite3, "connect", connect)


def read_only(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An index there, in a cache SQLite may only read (as a read-only file system: the
    tests run as root, which no mode stops)."""
    SearchIndex(path).close()
    real = sqlite3.connect

    def opened(named: str) -> sqlite3.Connection:
        uri = f"file:{urllib.parse.quote(named)}?mode=ro"
        return real(uri, uri=True, isolation_level=None, check_same_thread=False)

    connecting(path, monkeypatch, opened)


def full_disk(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A disk with no room for one more page (SQLite says SQLITE_FULL, as at ENOSPC)."""
    SearchIndex(path).close()
    real = sqlite3.connect

    def opened(named: str) -> sqlite3.Connection:
        connection = real(named, isolation_level=None, check_same_thread=False)
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        connection.execute(f"PRAGMA max_page_count = {pages}")
        return connection

    connecting(path, monkeypatch, opened)


BREAKAGES: dict[str, tuple[Callable[[Path, pytest.MonkeyPatch], None], bool]] = {
    # What is at the index's name, and whether the index is rebuilt on disk.
    "fifo": (fifo, True),
    "folder": (folder, False),
    "dev-null": (dev_null, True),
    "read-only": (read_only, False),
    "full-disk": (full_disk, False),
}


@pytest.fixture(params=list(BREAKAGES))
def broken(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Home, bool]:
    """A home whose index cannot be used as the case says, and whether it is rebuilt."""
    home = make_home(tmp_path)
    path = index_file_for(home.root)
    path.parent.mkdir(parents=True, exist_ok=True)
    breakage, rebuilt = BREAKAGES[request.param]
    breakage(path, monkeypatch)
    return home, rebuilt


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.expect_log("memtab.search_index", "WARNING", WARNED)
def test_list_and_search_answer_from_the_files_and_say_why_once(
    broken: tuple[Home, bool], caplog: pytest.LogCaptureFixture
) -> None:
    home, rebuilt = broken
    service = MemoryService(home, None, writes="off", other_agents=False)
    try:
        for _ in range(3):
            answer = service.call("search", {"query": "kestrel"}, "test")
            assert answer.error is None, answer.error
            found = json.loads(answer.text)
            assert [hit["path"] for hit in found["results"]] == ["/memories/global/birds.md"]
            assert found["results"][0]["snippet"] == "the kestrel hovers"
            listed = service.call("list", {}, "test")
            assert listed.error is None, listed.error
            assert "/memories/global/fish.md" in listed.text
        saying = [note for note in found.get("notes", []) if "without the index" in note]
        assert bool(saying) is not rebuilt, found
    finally:
        service.catalog.close()
    assert len(warnings(caplog)) == 1, warnings(caplog)
    assert "Traceback" not in caplog.text


@pytest.mark.expect_log("memtab.search_index", "WARNING", WARNED)
def test_memtab_search_answers(
    broken: tuple[Home, bool], capsys: pytest.CaptureFixture[str]
) -> None:
    home, rebuilt = broken
    assert main(["search", "--home", str(home.root), "kestrel", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [hit["path"] for hit in found["results"]] == ["/memories/global/birds.md"]
    assert any("without the index" in note for note in found["notes"]) is not rebuilt


@pytest.mark.expect_log("memtab.search_index", "WARNING", WARNED)
def test_the_window_search_answers(broken: tuple[Home, bool]) -> None:
    home, rebuilt = broken
    scan = scan_home(ScanRequest(home, None))
    texts = IndexedTexts()
    try:
        for query in ("kestrel", "pike", "kestrel"):
            found = find_matches(scan, SearchQuery.parse(query), texts)
            name = "birds.md" if query == "kestrel" else "fish.md"
            assert set(found) == {file_key(parse_file_path(f"/memories/global/{name}"))}
        assert (texts.problem is None) is rebuilt
    finally:
        texts.close()


def test_a_folder_at_the_index_path_is_left_as_it_is(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)  # the warning is the other tests'
    home = make_home(tmp_path)
    path = index_file_for(home.root)
    path.parent.mkdir(parents=True)
    folder(path, pytest.MonkeyPatch())
    index = SearchIndex(path)
    assert index.problem is not None and "search index" in index.problem
    index.close()
    assert (path / "kept.txt").read_text() == "the user's"
