"""The catalog behind `list` and `search`: the scope roots are watched, so a change made
outside the server is seen however little time has passed (no search waits for a full
listing: it runs in the background); the server's own change is seen at once."""

from __future__ import annotations

import threading
import time
import types
from pathlib import Path

import pytest

from memtab.agent_server import catalog as catalog_module
from memtab.agent_server.catalog import CatalogClosedError, MemoryCatalog
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from support.memory_paths import vpath


def found(catalog: MemoryCatalog, query: str) -> list[str]:
    return [result.path for result in catalog.search(query, scope=None, limit=10)]


def test_a_change_made_outside_is_seen_through_the_watch(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    (home.global_root / "a.md").write_text("alpha\n")
    store = MemoryStore(home)
    catalog = MemoryCatalog(store, clock=lambda: 0.0)  # the listing never ages
    try:
        assert found(catalog, "alpha") == ["/memories/global/a.md"]
        (home.global_root / "b.md").write_text("bravo\n")  # an editor, mux, another agent
        deadline = time.monotonic() + 30
        while found(catalog, "bravo") != ["/memories/global/b.md"]:
            assert time.monotonic() < deadline, "the change made outside was never seen"
            time.sleep(0.05)
        store.create_file(vpath("/memories/global/c.md"), "charlie\n")  # as the server's tools do
        catalog.invalidate()
        assert found(catalog, "charlie") == ["/memories/global/c.md"]
    finally:
        catalog.close()


def test_closing_while_the_scopes_are_read_logs_no_error(tmp_path: Path) -> None:
    """The catalog reads the files it watches (a search's snippets, a re-listing); an
    event of that read still in the watcher's hands when it closes made watchdog log
    "InotifyEmitter.queue_events() called when the thread is inactive" at ERROR (about
    one close in two under load). Reads are no change: the watch does not ask for them."""
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    paths = [home.global_root / f"n{number}.md" for number in range(20)]
    for path in paths:
        path.write_text("alpha\n")
    stop = threading.Event()

    def read_them() -> None:  # as the catalog's own reads, or any program's
        while not stop.is_set():
            for path in paths:
                path.read_bytes()

    reader = threading.Thread(target=read_them)
    reader.start()
    try:
        for _ in range(20):
            catalog = MemoryCatalog(MemoryStore(home), clock=lambda: 0.0)
            assert found(catalog, "alpha")  # lists, then watches the scope
            catalog.close()
    finally:
        stop.set()
        reader.join()


def test_closing_while_a_background_thread_is_being_started_joins_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that ends while its first call starts the watch's thread: `close` met the
    thread made but not yet started and joining it raised "cannot join thread before it is
    started" (the host's exit failed so, once in a fast-tier run). Now it waits for the
    start, then joins it."""
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    (home.global_root / "a.md").write_text("alpha\n")
    starting, go = threading.Event(), threading.Event()

    class HeldStart(threading.Thread):
        def start(self) -> None:
            if self.name == "memtab-mcp-watch":
                starting.set()
                go.wait(5)
            super().start()

    held = types.ModuleType("threading")  # the catalog's threading alone, not watchdog's
    held.__dict__.update(vars(threading), Thread=HeldStart)
    monkeypatch.setattr(catalog_module, "threading", held)
    catalog = MemoryCatalog(MemoryStore(home), clock=lambda: 0.0)
    answers: list[list[str]] = []
    closing_failed: list[BaseException] = []

    def close() -> None:
        try:
            catalog.close()
        except BaseException as error:  # what the old close raised, kept for the assert
            closing_failed.append(error)

    def search() -> None:  # the call may answer or fail as the catalog closes under it
        try:
            answers.append(found(catalog, "alpha"))
        except (ValueError, CatalogClosedError):
            answers.append([])

    searching = threading.Thread(target=search)
    searching.start()
    assert starting.wait(5)
    closer = threading.Thread(target=close)
    closer.start()
    closer.join(timeout=0.2)  # the old close failed here at once; now it waits for the start
    go.set()
    searching.join(5)
    closer.join(5)
    assert closing_failed == []
    assert len(answers) == 1
    assert not [thread for thread in threading.enumerate() if thread.name.startswith("memtab-mcp")]


def test_a_call_after_the_close_is_refused_and_lists_nothing(tmp_path: Path) -> None:
    """A call that reaches the catalog once the server closed it (a search racing the
    host's exit) listed the files again and opened an index nobody closes, or found none
    and failed an assertion. Now it is refused as closed, and nothing is opened."""
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    (home.global_root / "a.md").write_text("alpha\n")
    catalog = MemoryCatalog(MemoryStore(home), clock=lambda: 0.0)
    assert found(catalog, "alpha") == ["/memories/global/a.md"]
    catalog.close()
    with pytest.raises(CatalogClosedError):
        found(catalog, "alpha")
    with pytest.raises(CatalogClosedError):
        catalog.rows()
