"""The re-listing every `FULL_RELIST_S` (docs/formats.md §22.3) waits for the calls to pause: on
20,000 files it takes 230–260 ms of CPU from the interpreter the calls share, so an agent searching
at a steady pace saw its slowest searches under it (issue 97). It waits `CALLS_PAUSE_S` after the
last call began, and never more than `FULL_RELIST_S` after it was due."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from memtab.agent_server import catalog as catalog_module
from memtab.agent_server.catalog import CALLS_PAUSE_S, FULL_RELIST_S, MemoryCatalog
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore

pytestmark = pytest.mark.usefixtures("background_at_once")


class Clock:
    """The catalog's clock, moved by the test alone."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def watched(tmp_path: Path) -> Iterator[tuple[MemoryCatalog, Clock]]:
    """A catalog of ten notes, listed once and watching, on a clock the test moves."""
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    for number in range(10):
        (home.global_root / f"n{number}.md").write_text(f"about kestrel {number}\n")
    clock = Clock()
    catalog = MemoryCatalog(MemoryStore(home), clock=clock)
    assert len(_search(catalog)) == 10
    deadline = time.monotonic() + 30
    while catalog._observer is None:
        assert time.monotonic() < deadline, "the catalog never watched"
        time.sleep(0.01)
    assert catalog._watching is not None
    catalog._watching.join(30)
    yield catalog, clock
    catalog.close()


def _search(catalog: MemoryCatalog) -> list[str]:
    return [hit.path for hit in catalog.search("kestrel", scope=None, limit=100)]


def _relisted_at(monkeypatch: pytest.MonkeyPatch, clock: Clock) -> list[float]:
    """When (on `clock`) each listing from now on began."""
    at: list[float] = []
    relist = MemoryCatalog._relist

    def recorded(self: MemoryCatalog, *args: object) -> object:
        at.append(clock.now)
        return relist(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(MemoryCatalog, "_relist", recorded)
    return at


def _until_relisted(at: list[float], step: float, clock: Clock, catalog: MemoryCatalog) -> None:
    """Calls every `step` of the clock until a listing began (each asks no listing itself)."""
    deadline = time.monotonic() + 30
    while not at:
        assert time.monotonic() < deadline, "never listed again"
        clock.now += step
        assert len(_search(catalog)) == 10
        time.sleep(0.005)


def test_a_listing_due_by_age_waits_for_the_calls_to_pause(
    watched: tuple[MemoryCatalog, Clock], monkeypatch: pytest.MonkeyPatch
) -> None:
    catalog, clock = watched
    at = _relisted_at(monkeypatch, clock)
    clock.now = FULL_RELIST_S + 1
    assert len(_search(catalog)) == 10  # due: answered from the listing it has
    for _ in range(20):  # the calls go on without a pause (the clock still)
        time.sleep(0.02)
        assert len(_search(catalog)) == 10
    assert at == []
    clock.now += CALLS_PAUSE_S  # no call began since
    deadline = time.monotonic() + 30
    while not at:
        assert time.monotonic() < deadline, "never listed again"
        time.sleep(0.01)
    assert at == [FULL_RELIST_S + 1 + CALLS_PAUSE_S]


def test_calls_that_never_pause_have_it_listed_at_most_a_period_late(
    watched: tuple[MemoryCatalog, Clock], monkeypatch: pytest.MonkeyPatch
) -> None:
    catalog, clock = watched
    at = _relisted_at(monkeypatch, clock)
    clock.now = due = FULL_RELIST_S + 1
    _until_relisted(at, CALLS_PAUSE_S / 5, clock, catalog)
    assert at[0] >= due + FULL_RELIST_S  # the thread looks twice a second: later by its steps


def test_without_its_wait_it_would_list_under_the_calls(
    watched: tuple[MemoryCatalog, Clock], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: with no pause asked, the call that finds the listing old has it listed at
    once, under the calls that follow."""
    monkeypatch.setattr(catalog_module, "CALLS_PAUSE_S", 0.0)
    catalog, clock = watched
    at = _relisted_at(monkeypatch, clock)
    clock.now = FULL_RELIST_S + 1
    _until_relisted(at, 0.0, clock, catalog)
    assert at == [FULL_RELIST_S + 1]
