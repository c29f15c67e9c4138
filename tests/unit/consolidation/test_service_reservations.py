"""The service owns "one run per workspace": reservations for runs that start later."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from memtab.consolidation.errors import ConsolidationError, RunCancelledError, RunInFlightError
from memtab.consolidation.service import ConsolidationService
from memtab.llm.types import ModelReply
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.journal import Journal
from support.scripted_provider import ScriptedProvider

from .helpers import SIBLING, WS, FakeClock

WAIT_S = 10.0  # bounds a broken test; passing tests never wait this long


def service_with(
    home: Home, clock: FakeClock, *providers: ScriptedProvider
) -> ConsolidationService:
    queue = list(providers)

    def next_provider(store: MemoryStore) -> ScriptedProvider:
        return queue.pop(0)

    return ConsolidationService(home, provider_factory=next_provider, clock=clock)


def test_a_reservation_is_in_flight_until_released(home: Home, clock: FakeClock) -> None:
    service = service_with(home, clock)
    reservation = service.reserve(WS)
    assert service.is_running(WS) and not service.is_running(SIBLING)
    with pytest.raises(RunInFlightError, match="already in flight"):
        service.reserve(WS)
    with pytest.raises(RunInFlightError):
        service.run(WS)  # e.g. the CLI's thread while the GUI has one queued
    reservation.release()
    reservation.release()  # idempotent
    assert not service.is_running(WS)
    service.reserve(WS).release()


def test_run_takes_over_its_reservation_and_gives_it_back(home: Home, clock: FakeClock) -> None:
    service = service_with(home, clock, ScriptedProvider([ModelReply("reserved run")]))
    reservation = service.reserve(WS)
    record = service.run(WS, reservation=reservation)
    assert Journal(home).load().workspaces[WS] == record
    assert not service.is_running(WS)


def test_an_archive_reservation_queues_and_runs_once_the_first_is_released(
    home: Home, clock: FakeClock
) -> None:
    archived = ScriptedProvider([ModelReply("archived")])
    service = service_with(home, clock, archived)
    first = service.reserve(WS)
    second = service.reserve(WS, "archive")
    waiting = threading.Event()
    outcome: dict[str, object] = {}

    def run_archive() -> None:
        def on_step(_step: int, message: str) -> None:
            if message.startswith("waiting for the running consolidation"):
                waiting.set()

        outcome["record"] = service.run(WS, trigger="archive", reservation=second, on_step=on_step)

    thread = threading.Thread(target=run_archive)
    thread.start()
    assert waiting.wait(WAIT_S)
    assert not archived.started.is_set(), "it waits for the reservation ahead of it"
    first.release()
    thread.join(WAIT_S)
    assert archived.calls == 1 and not service.is_running(WS)


def test_a_reservation_serves_only_its_workspace_and_only_once(
    home: Home, clock: FakeClock
) -> None:
    service = service_with(home, clock)
    reservation = service.reserve(WS)
    with pytest.raises(ConsolidationError, match="reservation is for"):
        service.run(SIBLING, reservation=reservation)
    reservation.release()
    with pytest.raises(RunCancelledError, match="withdrawn"):
        service.run(WS, reservation=reservation)
    assert not service.is_running(WS)


def test_reserving_runs_imports_no_part_of_the_engine(home: Home) -> None:
    """The window reserves runs and a child process runs them: what it imports for that
    (the service, the job, the operation) loads none of the engine — the run-time half
    (`running.py`) comes with a run, which the window never makes itself."""
    code = (
        "import sys; from pathlib import Path; "
        "from memtab.consolidation.service import ConsolidationService; "
        "import memtab.consolidation.job, memtab.components.consolidation.jobs; "
        "from memtab.store.home import Home; "
        f"service = ConsolidationService(Home(Path({str(home.root)!r}))); "
        f"service.reserve({WS!r}).release(); service.describe_provider(); "
        "print(sorted(m for m in sys.modules if m.startswith('memtab.consolidation.') "
        "and m.split('.')[2] in ('running', 'engine', 'offline', 'declined', 'guard')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
