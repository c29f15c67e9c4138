"""The service: one run per workspace, archive queues, the lock, debounce, and the journal."""

from __future__ import annotations

import contextlib
import json
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from memtab.consolidation.errors import (
    ConsolidationError,
    DebouncedError,
    LockHeldError,
    RunCancelledError,
    RunFailedError,
    RunInFlightError,
)
from memtab.consolidation.guard import DRY_RUN_NOTE
from memtab.consolidation.running import ConsolidationLock
from memtab.consolidation.service import ConsolidationService
from memtab.demo import DARK_MODE_ID
from memtab.llm.loop import StepCallback
from memtab.llm.settings import ProviderSettings
from memtab.llm.types import ModelReply, ProviderError
from memtab.store.home import Home, HomeError
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.journal import Journal
from support.demo_homes import copied_demo_home
from support.processes import python_child
from support.scripted_provider import ScriptedProvider

from .helpers import (
    HOUR,
    NOW,
    PROJECT,
    SIBLING,
    WS,
    FakeClock,
    put,
    snapshot,
    when_a_lock_is_refused,
)

OFFLINE = ProviderSettings("offline", "offline", "")
WAIT_S = 10.0  # bounds a broken test; passing tests never wait this long


def offline_service(home: Home, clock: FakeClock) -> ConsolidationService:
    return ConsolidationService(home, settings=OFFLINE, clock=clock)


class Providers:
    """A provider factory handing out scripted providers in order."""

    def __init__(self, *providers: ScriptedProvider) -> None:
        self.queue = list(providers)
        self.lock = threading.Lock()

    def __call__(self, store: MemoryStore) -> ScriptedProvider:
        with self.lock:
            return self.queue.pop(0)


@pytest.fixture
def threads() -> Iterator[list[threading.Thread]]:
    started: list[threading.Thread] = []
    yield started
    for thread in started:
        thread.join(WAIT_S)


def on_wait(waiting: threading.Event, messages: list[str] | None = None) -> StepCallback:
    """A run's `on_step` that sets `waiting` when the run says it waits for its turn."""

    def on_step(_step: int, message: str) -> None:
        if messages is not None:
            messages.append(message)
        if message.startswith("waiting for"):
            waiting.set()

    return on_step


def in_thread(
    threads: list[threading.Thread], fn: object, *args: object, **kwargs: object
) -> dict[str, object]:
    """Run fn in a thread; the dict gets its "result" or "error"."""
    outcome: dict[str, object] = {}

    def target() -> None:
        try:
            outcome["result"] = fn(*args, **kwargs)  # type: ignore[operator]
        except Exception as error:
            outcome["error"] = error

    thread = threading.Thread(target=target)
    threads.append(thread)
    thread.start()
    return outcome


def test_a_second_trigger_is_refused_while_archive_queues(
    home: Home, clock: FakeClock, threads: list[threading.Thread]
) -> None:
    gate = threading.Event()
    first = ScriptedProvider([ModelReply("first")], gate=gate)
    queued = ScriptedProvider([ModelReply("archived")])
    service = ConsolidationService(home, provider_factory=Providers(first, queued), clock=clock)

    running = in_thread(threads, service.run, WS)
    assert first.started.wait(WAIT_S)
    assert service.is_running(WS)
    with pytest.raises(RunInFlightError, match="already in flight"):
        service.run(WS)
    waiting = threading.Event()
    archive = in_thread(threads, service.run, WS, trigger="archive", on_step=on_wait(waiting))
    assert waiting.wait(WAIT_S)
    assert not queued.started.is_set()  # waits behind the running run
    gate.set()
    for thread in threads:
        thread.join(WAIT_S)
    assert "error" not in running and "error" not in archive
    assert queued.calls == 1
    assert Journal(home).load().workspaces[WS].trigger == "archive"
    assert not service.is_running(WS)


def test_runs_of_different_workspaces_take_turns(
    home: Home, clock: FakeClock, threads: list[threading.Thread]
) -> None:
    gate = threading.Event()
    first = ScriptedProvider([ModelReply("one")], gate=gate)
    second = ScriptedProvider([ModelReply("two")])
    service = ConsolidationService(home, provider_factory=Providers(first, second), clock=clock)
    waits: list[str] = []
    waiting = threading.Event()
    in_thread(threads, service.run, WS)
    assert first.started.wait(WAIT_S)
    other = in_thread(threads, service.run, SIBLING, on_step=on_wait(waiting, waits))
    assert waiting.wait(WAIT_S)
    assert not second.started.is_set()
    gate.set()
    for thread in threads:
        thread.join(WAIT_S)
    assert "error" not in other
    assert waits[0] == f"waiting for the consolidation of {WS}"


def lock_holder(home: Home) -> contextlib.AbstractContextManager[subprocess.Popen[str]]:
    """Another process holding the home's consolidation lock until its stdin closes."""
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from memtab.store.home import Home\n"
        "from memtab.consolidation.running import ConsolidationLock\n"
        "with ConsolidationLock(Home(Path(sys.argv[1]))).hold('elsewhere'):\n"
        "    print('held', flush=True)\n"
        "    sys.stdin.readline()\n"
    )
    return python_child(script, str(home.root))


def test_a_second_process_is_refused_while_another_holds_the_lock(
    home: Home, clock: FakeClock
) -> None:
    service = offline_service(home, clock)
    with lock_holder(home) as holder:
        with pytest.raises(LockHeldError) as refused:
            service.run(WS)
        assert f"pid {holder.pid}" in str(refused.value)
        assert "workspace elsewhere" in str(refused.value)
        assert not home.journal_path.exists()
    assert service.run(WS).summary == "no changes needed"


def test_an_archive_run_waits_for_another_process_run(
    home: Home, clock: FakeClock, threads: list[threading.Thread], monkeypatch: pytest.MonkeyPatch
) -> None:
    provider = ScriptedProvider([ModelReply("promoted before archiving")])
    service = ConsolidationService(home, provider_factory=Providers(provider), clock=clock)
    refused = threading.Event()
    when_a_lock_is_refused(monkeypatch, refused.set)
    with lock_holder(home):
        archive = in_thread(threads, service.run, WS, trigger="archive")
        assert refused.wait(WAIT_S)
        assert not provider.started.is_set()  # waiting for the other process
    for thread in threads:
        thread.join(WAIT_S)
    assert "error" not in archive
    assert Journal(home).load().workspaces[WS].trigger == "archive"


def test_manual_and_archive_bypass_the_debounce_automatic_triggers_do_not(
    home: Home, clock: FakeClock
) -> None:
    service = offline_service(home, clock)
    service.run(WS)  # manual: journaled at NOW
    clock.now += 2 * HOUR
    for trigger in ("launch", "compaction"):
        with pytest.raises(DebouncedError) as debounced:
            service.run(WS, trigger=trigger)
        assert debounced.value.next_allowed_at == NOW + 6 * HOUR
        assert "consolidated 2 h ago (manual)" in str(debounced.value)
        assert "the next may start in 4 h" in str(debounced.value)
    assert service.run(WS, trigger="manual").trigger == "manual"
    assert service.run(WS, trigger="archive").trigger == "archive"
    clock.now += 6 * HOUR
    assert service.run(WS, trigger="launch").trigger == "launch"


def test_a_task_trees_runs_are_its_notebooks(home: Home, clock: FakeClock) -> None:
    """A sub-agent's workspace scope is its task tree's notebook (formats §2.5): a run for
    it is journaled under the notebook's owner, and the owner's run debounces it."""
    config = json.loads(home.config_path.read_text())
    config["projects"][0][1]["workspaces"].append(
        {"id": "d4d4d4d4d4", "name": "task", "path": "/w/task", "parentWorkspaceId": WS}
    )
    home.config_path.write_text(json.dumps(config))
    service = offline_service(home, clock)
    service.run(WS)
    with pytest.raises(DebouncedError):
        service.run("d4d4d4d4d4", trigger="launch")
    clock.now += 6 * HOUR
    record = service.run("d4d4d4d4d4", trigger="launch")
    assert Journal(home).load().workspaces[WS] == record
    assert "d4d4d4d4d4" not in Journal(home).load().workspaces


def test_a_successful_no_op_run_is_journaled_for_workspace_and_project(
    home: Home, clock: FakeClock
) -> None:
    record = offline_service(home, clock).run(WS)
    assert record.ops == () and record.summary == "no changes needed"
    assert record.input_tokens is None  # the offline consolidator uses no tokens
    journal = Journal(home).load()
    assert journal.workspaces[WS] == record and journal.projects[PROJECT] == record
    assert journal.workspaces[WS].last_run_at == NOW


@pytest.mark.expect_log(
    "memtab.consolidation.engine.runner",
    "WARNING",
    r"run failed: anthropic x: server error \(HTTP 529\)",
)
@pytest.mark.expect_log(
    "memtab.llm.loop", "WARNING", r"stopped at step 1: anthropic x: server error \(HTTP 529\)"
)
def test_a_failed_run_writes_nothing(home: Home, clock: FakeClock) -> None:
    failing = ScriptedProvider(fail=ProviderError("server", "anthropic x: server error (HTTP 529)"))
    service = ConsolidationService(home, provider_factory=Providers(failing), clock=clock)
    with pytest.raises(RunFailedError, match="HTTP 529"):
        service.run(WS)
    assert not home.journal_path.exists()
    assert not service.is_running(WS)
    with ConsolidationLock(home).hold("next"):  # released, not left held by the failure
        pass


def test_a_cancelled_run_writes_nothing(home: Home, clock: FakeClock) -> None:
    cancel = threading.Event()
    cancel.set()
    service = ConsolidationService(
        home, provider_factory=Providers(ScriptedProvider()), clock=clock
    )
    with pytest.raises(RunCancelledError):
        service.run(WS, cancel=cancel)
    assert not home.journal_path.exists()


def test_a_missing_key_is_a_config_failure(home: Home) -> None:
    service = ConsolidationService(home, settings=ProviderSettings("anthropic", "claude-x", ""))
    with pytest.raises(RunFailedError) as failure:
        service.run(WS)
    assert failure.value.kind == "config" and "no API key" in str(failure.value)


def test_dry_run_leaves_the_home_untouched(
    home: Home, clock: FakeClock, store: MemoryStore
) -> None:
    put(store, "/memories/project/testing.md", "# Testing\n\n- make test runs it all\n")
    put(store, "/memories/project/testing-copy.md", "# Testing\n\n- make test runs it all\n")
    put(store, "/memories/workspace/empty.md", "\n")
    before = snapshot(home)
    record = offline_service(home, clock).run(WS, dry_run=True)
    assert snapshot(home) == before
    assert record.ops and all(not op.applied and op.note == DRY_RUN_NOTE for op in record.ops)
    assert record.summary.startswith("Dry run, nothing applied: ")


def test_unknown_workspace_and_trigger(home: Home) -> None:
    service = ConsolidationService(home, settings=OFFLINE)
    with pytest.raises(HomeError, match="Unknown workspace"):
        service.run("nope")
    with pytest.raises(ConsolidationError, match="unknown trigger"):
        service.run(WS, trigger="nightly")


def test_archived_workspaces_may_be_consolidated_by_hand(tmp_path: Path) -> None:
    home = copied_demo_home(tmp_path / "demo")
    record = ConsolidationService(home, settings=OFFLINE).run(DARK_MODE_ID)
    assert Journal(home).load().workspaces[DARK_MODE_ID] == record
