"""What a search costs beyond the index: a fresh server's first search walks the scopes'
stats and reads no file it need not (no description, no row of `list`), yet finds a file
changed while no server ran and not one deleted; a change the watch reports is answered
by re-stating that file alone, a folder moved in by a listing of everything
(docs/formats.md §22.11)."""

from __future__ import annotations

import json
import logging
import os
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from memtab.agent_server import catalog as catalog_module
from memtab.agent_server import catalog_listing as catalog_listing_module
from memtab.agent_server.catalog_listing import WatchedChanges
from memtab.agent_server.service import MemoryService
from memtab.fs import memo
from memtab.search_index import documents as documents_module
from memtab.search_index.index import SearchIndex
from memtab.store import files as store_files
from memtab.store.home import Home
from memtab.store.scopes import file_rows as file_rows_module
from memtab.store.sidecars.registry import add_workspace, load_registry
from support.indexed import indexed_count
from support.spies import calls_through


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
        (home.global_root / f"n{number:03d}.md").write_text(
            f"---\ndescription: note {number}\n---\nabout kestrel\n"
        )
    return home


def _wait_watched(service: MemoryService) -> None:
    """Until the catalog watches (it starts once the first answer is given)."""
    deadline = time.monotonic() + 30
    while service.catalog._observer is None:
        assert time.monotonic() < deadline, "the catalog never watched"
        time.sleep(0.01)
    thread = getattr(service.catalog, "_watching", None)
    if thread is not None:
        thread.join(30)  # its walk after the watch began is done


def _until(service: MemoryService, query: str, expected: list[str]) -> None:
    """Search until the answer is `expected` (the watch's events come on its own thread)."""
    deadline = time.monotonic() + 30
    while _paths(service, query) != expected:
        assert time.monotonic() < deadline, "the change was never answered"
        time.sleep(0.01)


def test_a_fresh_servers_first_search_reads_only_what_changed_while_none_ran(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)  # files written just now
    home = _home(tmp_path, 20)
    first = _service(home)
    assert len(_paths(first, "kestrel")) == 20
    first.catalog.close()
    # While no server runs: an edit saved as a new file over the old (as Memtab, xum and
    # most editors save), one written over in place, a delete.
    replaced = home.global_root / "n004.md.tmp"
    replaced.write_text("---\ndescription: osprey now\n---\nabout osprey\n")
    os.replace(replaced, home.global_root / "n004.md")
    (home.global_root / "n006.md").write_text("---\ndescription: note 6\n---\nabout heron\n")
    (home.global_root / "n005.md").unlink()
    opened: list[str] = []
    rows: list[int] = []
    original_read = documents_module.read_readable_path
    original_rows = file_rows_module.file_rows

    def reading(path: str, **how: Any) -> Any:
        opened.append(path.rsplit("/", 1)[-1])
        return original_read(path, **how)

    def counting_rows(*args: Any) -> Any:
        rows.append(1)
        return original_rows(*args)

    monkeypatch.setattr(documents_module, "read_readable_path", reading)
    monkeypatch.setattr(catalog_module, "file_rows", counting_rows)
    stat_walks = calls_through(monkeypatch, catalog_module, "list_files")
    stat_named = calls_through(monkeypatch, catalog_listing_module, "stat_names")
    second = _service(home)
    try:
        # The first answer: each file by its name and inode (no stat walk), the one
        # written over in place (inode kept) stat'ed as it is one the answer names.
        kestrel = _paths(second, "kestrel")
        assert len(kestrel) == 17 and "/memories/global/n006.md" not in kestrel
        assert sorted(opened) == ["n004.md", "n006.md"]  # read for the index: no other file
        assert stat_walks == []
        assert [name for call in stat_named for name in call[1]] == ["n004.md"]  # replaced
        assert rows == []  # no row of `list` built for a search
        answer = json.loads(second.call("search", {"query": "osprey"}, "test").text)
        [hit] = answer["results"]
        assert (hit["path"], hit["description"]) == ("/memories/global/n004.md", "osprey now")
        assert _paths(second, "heron") == ["/memories/global/n006.md"]
        assert "/memories/global/n005.md" not in _paths(second, "note")
    finally:
        second.catalog.close()


def test_a_first_answer_searched_again_stats_each_file_it_names_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)  # files written just now
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    for name, text in (("c.md", "heron heron heron"), ("b.md", "heron heron"), ("d.md", "heron")):
        (home.global_root / name).write_text(text + "\n")
    first = _service(home)
    assert len(_paths(first, "heron")) == 3
    first.catalog.close()
    # While no server ran: the best answer deleted (the answer read ahead does not stand),
    # the next one written over in place (its inode kept: presumed as the index holds it).
    (home.global_root / "c.md").unlink()
    (home.global_root / "b.md").write_text("wren wren\n")
    second = _service(home)
    try:
        answer = second.call("search", {"query": "heron", "limit": 1}, "test")
        assert [hit["path"] for hit in json.loads(answer.text)["results"]] == [
            "/memories/global/d.md"
        ]
    finally:
        second.catalog.close()


@pytest.mark.usefixtures("background_at_once")
def test_a_call_while_the_watchs_walk_stats_what_a_first_search_presumed_waits_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)  # files written just now
    home = _home(tmp_path, 5)
    first = _service(home)
    assert len(_paths(first, "kestrel")) == 5
    first.catalog.close()
    # Written over in place while no server ran (inode kept), a file no answer names yet.
    (home.global_root / "n003.md").write_text("---\ndescription: note 3\n---\nabout heron\n")
    walking, go_on = threading.Event(), threading.Event()
    original = catalog_module.list_files

    def slow_walk(*args: Any) -> Any:
        if threading.current_thread().name == "memtab-mcp-watch":
            walking.set()
            go_on.wait(30)
        return original(*args)

    monkeypatch.setattr(catalog_module, "list_files", slow_walk)
    second = _service(home)
    try:
        assert _paths(second, "osprey") == []  # the first answer: no file stat'ed
        assert walking.wait(30)  # watching, its walk under way
        threading.Timer(0.2, go_on.set).start()
        assert _paths(second, "heron") == ["/memories/global/n003.md"]
    finally:
        go_on.set()
        second.catalog.close()


@pytest.mark.usefixtures("background_at_once")
def test_lists_rows_after_a_first_search_are_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)  # files written just now
    home = _home(tmp_path, 6)
    first = _service(home)
    assert len(_paths(first, "kestrel")) == 6
    first.catalog.close()
    second = _service(home)
    try:
        assert _paths(second, "osprey") == []  # presumed every file as the index holds it
        _wait_watched(second)
        described = {row.path: row.description for row in second.catalog.rows()}
        assert len(described) == 6 and described["/memories/global/n005.md"] == "note 5"
    finally:
        second.catalog.close()


@pytest.mark.usefixtures("background_at_once")
def test_a_change_the_watch_reports_is_answered_by_re_stating_that_file_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = _home(tmp_path, 30)
    service = _service(home)
    walks = calls_through(monkeypatch, store_files, "walk_scope")
    try:
        assert len(_paths(service, "kestrel")) == 30
        _wait_watched(service)
        walks.clear()
        (home.global_root / "n001.md").write_text("now about osprey\n")
        (home.global_root / "n002.md").unlink()
        (home.global_root / "n100.md").write_text("a new one about osprey\n")
        _until(service, "osprey", ["/memories/global/n001.md", "/memories/global/n100.md"])
        assert len(_paths(service, "kestrel")) == 28
        assert len(walks) == 0  # no scope listed again: the three files re-stat'ed
        # A folder moved in brings no event for what it holds: everything is listed again.
        outside = tmp_path / "elsewhere"
        outside.mkdir()
        (outside / "inside.md").write_text("hidden heron\n")
        outside.rename(home.global_root / "moved")
        _until(service, "heron", ["/memories/global/moved/inside.md"])
        assert len(walks) == 1
    finally:
        service.catalog.close()


def test_events_the_kernel_lost_have_everything_listed_again() -> None:
    changes = WatchedChanges()
    assert changes.take() == (set(), False)
    # watchdog tells a queue overflow only in its log.
    name = "watchdog.observers.inotify_c"
    logging.getLogger(name).filter(
        logging.LogRecord(
            name, logging.WARNING, __file__, 1,
            "Inotify queue overflowed; filesystem events were lost", None, None,
        )
    )  # fmt: skip
    assert changes.reported.is_set()
    assert changes.take() == (set(), True)


@pytest.mark.usefixtures("background_at_once")
def test_a_removed_workspaces_rows_go_from_the_index(tmp_path: Path) -> None:
    home = _home(tmp_path, 3)
    add_workspace(home, "/src/app", "app", workspace_id="w1")
    root = home.workspace_root("w1")
    root.mkdir(parents=True)
    (root / "ws.md").write_text("about kestrel in the workspace\n")
    workspace = load_registry(home).require_workspace("w1")
    first = MemoryService(home, workspace, writes="off", other_agents=False)
    assert "/memories/workspace/ws.md" in _paths(first, "kestrel")
    first.catalog.close()
    shutil.rmtree(home.workspace_dir("w1"))  # the workspace removed
    second = _service(home)
    try:
        assert len(_paths(second, "kestrel")) == 3
        _wait_watched(second)  # the rows of roots gone are taken out after the answer
        index = SearchIndex.of_home(home.root)
        assert index.search("kestrel", [os.fspath(root)], limit=10) == []
        assert indexed_count(index) == 3
        index.close()
    finally:
        second.catalog.close()


def test_with_nothing_changed_the_first_search_is_the_one_read_while_listing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)  # files written just now
    home = _home(tmp_path, 5)
    add_workspace(home, "/src/app", "app", workspace_id="w1")
    root = home.workspace_root("w1")
    root.mkdir(parents=True)
    (root / "ws.md").write_text("---\ndescription: the workspace's\n---\nabout kestrel\n")
    workspace = load_registry(home).require_workspace("w1")
    first = MemoryService(home, workspace, writes="off", other_agents=False)
    assert len(_paths(first, "kestrel")) == 6
    first.catalog.close()

    def searched_after_listing(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("searched again after the listing")

    monkeypatch.setattr(SearchIndex, "search", searched_after_listing)
    for scope, expected in ((None, 6), ("workspace", 1), ("global", 5)):
        second = MemoryService(home, workspace, writes="off", other_agents=False)
        try:
            arguments = {"query": "kestrel", "limit": 100, **({"scope": scope} if scope else {})}
            answer = json.loads(second.call("search", arguments, "test").text)
            assert len(answer["results"]) == expected, scope
            if scope == "workspace":
                [hit] = answer["results"]
                assert (hit["path"], hit["scope"], hit["description"]) == (
                    "/memories/workspace/ws.md",
                    "workspace",
                    "the workspace's",
                )
        finally:
            second.catalog.close()


def test_the_first_search_reads_the_index_on_the_calls_own_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A thread reading the index beside the walk hands the interpreter back and forth
    # with it at every stat: the two took longer together than one after the other.
    monkeypatch.setattr(memo, "RACY_MARGIN_NS", 0)  # files written just now
    home = _home(tmp_path, 5)
    first = _service(home)
    assert len(_paths(first, "kestrel")) == 5
    first.catalog.close()
    readers: list[str] = []
    original = SearchIndex.search_ahead

    def search_ahead(index: SearchIndex, *args: Any, **kwargs: Any) -> Any:
        readers.append(threading.current_thread().name)
        return original(index, *args, **kwargs)

    monkeypatch.setattr(SearchIndex, "search_ahead", search_ahead)
    second = _service(home)
    try:
        assert len(_paths(second, "kestrel")) == 5
    finally:
        second.catalog.close()
    assert readers == [threading.current_thread().name]


def test_the_background_work_leaves_the_first_answer_its_way_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The watch's walk and the indexing would share the interpreter with the answer's
    # serialization and write: they wait `ANSWER_OUT_S`, and a close does not.
    monkeypatch.setattr(catalog_module, "ANSWER_OUT_S", 600.0)
    watch_asked = threading.Event()
    monkeypatch.setattr(catalog_module.MemoryCatalog, "_watch", lambda _: watch_asked.set())
    home = _home(tmp_path, 5)
    walks = calls_through(monkeypatch, store_files, "walk_scope")
    service = _service(home)
    try:
        assert len(_paths(service, "kestrel")) == 5
        watching = service.catalog._watching
        assert watching is not None
        assert not watch_asked.wait(0.2)  # at once on the old code
        assert len(walks) == 1  # the answer's walk alone
    finally:
        closed_from = time.monotonic()
        service.catalog.close()
    assert time.monotonic() - closed_from < 60
    assert not watching.is_alive()
