"""A server's catalog keeps out of its searches' way (issue 97): its background walks (the
re-listing, the walk after the watch begins) wait between folders while a call is answered, and
what a listing leaves alive until the next is out of the cycle collector's sight."""

from __future__ import annotations

import gc
import threading
import time
from pathlib import Path

import pytest

from memtab.agent_server import catalog as catalog_module
from memtab.agent_server import catalog_listing as catalog_listing_module
from memtab.agent_server.service import MemoryService
from memtab.store.home import Home
from support.spies import calls_through


def _home(tmp_path: Path) -> Home:
    """Three folders of notes: a walk stats them folder by folder."""
    home = Home(tmp_path / "home")
    for folder in ("alpha", "beta", "gamma"):
        (home.global_root / folder).mkdir(parents=True)
        for number in range(3):
            (home.global_root / folder / f"n{number}.md").write_text(
                f"---\ndescription: note {number}\n---\nabout kestrel\n"
            )
    return home


def _until(done: object, what: str) -> None:
    deadline = time.monotonic() + 30
    while not callable(done) or not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def _listing_thread() -> threading.Thread | None:
    return next((t for t in threading.enumerate() if t.name == "memtab-mcp-listing"), None)


def test_a_background_relisting_waits_for_the_search_being_answered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = MemoryService(_home(tmp_path), None, writes="off", other_agents=False)
    catalog = service.catalog
    try:
        assert "kestrel" in service.call("search", {"query": "kestrel"}, "test").text
        _until(lambda: catalog._observer is not None, "the catalog never watched")
        _until(lambda: not catalog._watching.is_alive(), "the walk after the watch never ended")
        monkeypatch.setattr(catalog_listing_module, "CALLS_FIRST_WAIT_S", 30.0, raising=False)
        stats = calls_through(monkeypatch, catalog_listing_module, "stat_names")
        answering, go_on = threading.Event(), threading.Event()
        real_best_line = catalog_module.best_line

        def held_best_line(text: str, query: str) -> tuple[int, str] | None:
            answering.set()
            go_on.wait(30)
            return real_best_line(text, query)

        monkeypatch.setattr(catalog_module, "best_line", held_best_line)
        answers: list[str] = []

        def search() -> threading.Thread:
            call = lambda: answers.append(service.call("search", {"query": "kestrel"}, "t").text)  # noqa: E731
            thread = threading.Thread(target=call)
            thread.start()
            return thread

        searches = [search()]  # held while answered
        assert answering.wait(30)
        monkeypatch.setattr(catalog_module, "FULL_RELIST_S", 0.0)  # the next call finds it old
        searches.append(search())
        _until(lambda: _listing_thread() is not None, "the old listing started no re-listing")
        time.sleep(0.2)  # the re-listing's time to walk, were it not waiting
        assert stats == [], "the re-listing stat'ed folders while a search was being answered"
        go_on.set()
        listing = _listing_thread()
        for thread in searches:
            thread.join(30)
        if listing is not None:
            listing.join(30)
        assert len(answers) == 2 and all("kestrel" in answer for answer in answers)
        assert len(stats) == 3, "the re-listing did not walk every folder once let go"
    finally:
        catalog.close()


def test_a_servers_listing_is_out_of_the_cycle_collectors_sight(tmp_path: Path) -> None:
    service = MemoryService(_home(tmp_path), None, writes="off", other_agents=False)
    try:
        assert "kestrel" in service.call("search", {"query": "kestrel"}, "test").text
        assert service.call("list", {}, "test").error is None
        listing, rows = service.catalog._files, service.catalog._rows
        assert rows is not None
        tracked = gc.get_objects()
        assert not any(held is listing for held in tracked), "the listing is scanned"
        assert not any(held is rows[1] for held in tracked), "the rows are scanned"
    finally:
        service.catalog.close()
