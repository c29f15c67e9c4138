"""What the server's own writes and `list` cost: a file written through a tool is found by
the next search with only the paths written re-stat'ed (a folder made or removed lists
everything), and `list` after a change builds its rows from the one walk (docs/formats.md
§22.11)."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

import pytest

from memtab.agent_server import catalog as catalog_module
from memtab.agent_server.catalog import MemoryCatalog
from memtab.agent_server.service import MemoryService
from memtab.store import files as store_files
from memtab.store.home import Home
from support.spies import calls_through


def _home(tmp_path: Path, count: int) -> Home:
    home = Home(tmp_path / "home")
    (home.global_root / "area").mkdir(parents=True)
    for number in range(count):
        (home.global_root / "area" / f"n{number:03d}.md").write_text(
            f"---\ndescription: note {number}\n---\nabout kestrel\n"
        )
    return home


class _Listings:
    """Counts the catalog's stat walks of the scopes (`catalog_listing.list_files`; a
    create's own count of the scope's files is the memory tool's, not the catalog's)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        original = catalog_module.list_files

        def counted(*args: Any) -> Any:
            self.count += 1
            return original(*args)

        monkeypatch.setattr(catalog_module, "list_files", counted)


def _call(service: MemoryService, name: str, arguments: dict[str, Any]) -> str:
    answer = service.call(name, arguments, "test")
    assert answer.error is None, answer.error
    return answer.text


def _paths(service: MemoryService, query: str) -> list[str]:
    answer = json.loads(_call(service, "search", {"query": query, "limit": 100}))
    return sorted(hit["path"] for hit in answer["results"])


def _watched(home: Home) -> MemoryService:
    """A server that writes, once its catalog watches (after its first answer)."""
    service = MemoryService(home, None, writes="direct", other_agents=False)
    _paths(service, "kestrel")
    deadline = time.monotonic() + 30
    while service.catalog._observer is None:
        assert time.monotonic() < deadline, "the catalog never watched"
        time.sleep(0.01)
    thread = service.catalog._watching
    assert thread is not None
    thread.join(30)  # its walk after the watch began is done
    return service


@pytest.mark.usefixtures("background_at_once")
def test_the_servers_own_writes_are_found_by_re_stating_the_paths_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = _home(tmp_path, 20)
    service = _watched(home)
    walks = _Listings(monkeypatch)
    try:
        area = "/memories/global/area"
        _call(service, "create", {"path": f"{area}/new.md", "file_text": "about osprey\n"})
        assert _paths(service, "osprey") == [f"{area}/new.md"]
        _call(service, "str_replace", {"path": f"{area}/n001.md", "old_str": "kestrel",
                                       "new_str": "osprey"})  # fmt: skip
        assert _paths(service, "osprey") == [f"{area}/n001.md", f"{area}/new.md"]
        _call(service, "rename", {"old_path": f"{area}/n001.md", "new_path": f"{area}/r.md"})
        assert _paths(service, "osprey") == [f"{area}/new.md", f"{area}/r.md"]
        _call(service, "delete", {"path": f"{area}/new.md"})
        assert _paths(service, "osprey") == [f"{area}/r.md"]
        assert len(_paths(service, "kestrel")) == 19
        assert walks.count == 0  # no scope listed again: only the paths written re-stat'ed
        # A folder the write made, or one it removed: what it holds needs a listing.
        _call(service, "create", {"path": "/memories/global/fresh/f.md", "file_text": "heron\n"})
        assert _paths(service, "heron") == ["/memories/global/fresh/f.md"]
        assert walks.count == 1
        _call(service, "delete", {"path": area})
        assert _paths(service, "kestrel") == []
        assert walks.count == 2
    finally:
        service.catalog.close()


def test_list_after_a_change_walks_the_scopes_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = _home(tmp_path, 5)
    store = MemoryService(home, None, writes="off", other_agents=False).catalog.store
    catalog = MemoryCatalog(store, background=False)  # unwatched: every call lists
    walks = calls_through(monkeypatch, store_files, "walk_scope")
    try:
        assert len(catalog.rows()) == 5
        (home.global_root / "area" / "n002.md").write_text("---\ndescription: changed\n---\n")
        (home.global_root / "area" / "n003.md").unlink()
        walks.clear()
        described = {row.path: row.description for row in catalog.rows()}
        assert len(walks) == 1  # the stat walk's files described: no listing of its own
        assert described == {
            "/memories/global/area/n000.md": "note 0",
            "/memories/global/area/n001.md": "note 1",
            "/memories/global/area/n002.md": "changed",
            "/memories/global/area/n004.md": "note 4",
        }
        assert list(described) == sorted(described)  # in the listing's order
    finally:
        catalog.close()


def test_a_watching_server_keeps_watchdogs_error_for_a_normal_close_out_of_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An event the emitter reads while its observer stops makes watchdog log an ERROR; the
    server's watch drops it as the window's and the recorder's do (a user's log, a test's
    failure under load)."""
    inotify_logger = logging.getLogger("watchdog.observers.inotify")
    monkeypatch.setattr(inotify_logger, "filters", [])  # as in a process that watched nothing
    service = _watched(_home(tmp_path, 1))
    try:
        record = inotify_logger.makeRecord(
            inotify_logger.name, logging.ERROR, __file__, 0,
            "InotifyEmitter.queue_events() called when the thread is inactive", (), None,
        )  # fmt: skip
        assert not inotify_logger.filter(record)
    finally:
        service.catalog.close()
