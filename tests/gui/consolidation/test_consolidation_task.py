"""The consolidation facade: signals on the GUI thread, refusals, failures and a fast cancel."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from memtab.consolidation.records import ConsolidationRequest
from memtab.consolidation.service import ConsolidationService
from memtab.gui.consolidation.tasks import ConsolidationTasks
from memtab.gui.tasks.jobs import JobService
from memtab.llm.http import HttpOptions
from memtab.llm.settings import ProviderSettings
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.journal import ConsolidationRecord, Journal
from memtab.store.sidecars.registry import add_workspace
from support.fake_model_server import FakeModelServer
from support.memory_paths import vpath

WS = "a1a1a1a1a1"
OTHER_WS = "b2b2b2b2b2"
KEY = "sk-ant-test-SECRET-0123456789abcdefghij"
FAST_HTTP = HttpOptions(
    timeout_s=15.0, connect_timeout_s=2.0, max_retries=2, backoff_base_s=0.001, backoff_max_s=0.01
)
SIGNAL_TIMEOUT_MS = 10_000  # bounds a broken test; passing tests never wait this long


class Signals:
    """Every facade signal, in order."""

    def __init__(self, tasks: ConsolidationTasks) -> None:
        self.tasks = tasks
        self.events: list[tuple[str, Any]] = []
        self.running_at_start = False
        tasks.run_started.connect(self.on_started)
        tasks.progress.connect(self.on_progress)
        tasks.run_finished.connect(self.on_finished)
        tasks.run_failed.connect(self.on_failed)
        tasks.run_cancelled.connect(self.on_cancelled)

    def on_started(self, workspace_id: str) -> None:
        self.running_at_start = self.tasks.service.is_running(workspace_id)
        self.events.append(("started", workspace_id))

    def on_progress(self, step: int, message: str) -> None:
        self.events.append(("progress", (step, message)))

    def on_finished(self, record: object) -> None:
        self.events.append(("finished", record))

    def on_failed(self, message: str) -> None:
        self.events.append(("failed", message))

    def on_cancelled(self, workspace_id: str) -> None:
        self.events.append(("cancelled", workspace_id))

    def kinds(self) -> list[str]:
        return [kind for kind, _ in self.events if kind != "progress"]


@pytest.fixture
def home(tmp_path: Path) -> Home:
    home = Home(tmp_path / "home")
    add_workspace(home, "/home/dev/src/app", "main", workspace_id=WS)
    return home


@pytest.fixture
def tasks(
    qtbot: QtBot, home: Home, fake_model_server: FakeModelServer, jobs: JobService
) -> Iterator[ConsolidationTasks]:
    settings = ProviderSettings(
        "anthropic", "claude-test", fake_model_server.anthropic_base_url, api_key=KEY
    )

    def service(home: Home) -> ConsolidationService:
        return ConsolidationService(home, settings=settings, http_options=FAST_HTTP)

    facade = ConsolidationTasks(home, jobs, service)  # in this process
    yield facade
    facade.shutdown()


@pytest.fixture
def signals(tasks: ConsolidationTasks) -> Signals:
    return Signals(tasks)


def test_started_progress_finished(
    qtbot: QtBot,
    home: Home,
    tasks: ConsolidationTasks,
    signals: Signals,
    fake_model_server: FakeModelServer,
) -> None:
    store = MemoryStore.open(home, WS)
    store.create_file(vpath("/memories/workspace/notes.md"), "- a note\n")
    fake_model_server.add_anthropic_reply(
        tool_calls=[("memory", {"command": "view", "path": "/memories/workspace/notes.md"})]
    )
    fake_model_server.add_anthropic_reply("no changes needed")

    with qtbot.waitSignal(tasks.run_finished, timeout=SIGNAL_TIMEOUT_MS):
        assert tasks.start(ConsolidationRequest(WS))
        assert tasks.is_running

    assert signals.kinds() == ["started", "finished"]
    assert signals.events[0] == ("started", WS)
    assert signals.running_at_start
    steps = [payload for kind, payload in signals.events if kind == "progress"]
    assert steps[0] == (1, "step 1: waiting for anthropic claude-test")
    assert (2, "finished") in steps
    record = signals.events[-1][1]
    assert isinstance(record, ConsolidationRecord) and record.summary == "no changes needed"
    assert Journal(home).load().workspaces[WS] == record
    assert not tasks.is_running and not tasks.service.is_running(WS)


@pytest.mark.expect_log("memtab.consolidation.engine.runner", "WARNING", r"run failed: .*HTTP 500")
@pytest.mark.expect_log("memtab.llm.loop", "WARNING", r"stopped at step 1: .*HTTP 500")
@pytest.mark.expect_log("memtab.llm.http", "WARNING", r"HTTP 500.*retrying")
def test_a_failed_run_reports_its_message(
    qtbot: QtBot, tasks: ConsolidationTasks, signals: Signals, fake_model_server: FakeModelServer
) -> None:
    for _ in range(3):
        fake_model_server.add_error(500)
    with qtbot.waitSignal(tasks.run_failed, timeout=SIGNAL_TIMEOUT_MS) as failed:
        tasks.start(ConsolidationRequest(WS))
    assert "HTTP 500" in failed.args[0]
    assert signals.kinds() == ["started", "failed"]


def test_a_second_start_is_refused_while_archive_queues(
    qtbot: QtBot, tasks: ConsolidationTasks, signals: Signals, fake_model_server: FakeModelServer
) -> None:
    fake_model_server.add_anthropic_reply("first", delay=0.3)
    fake_model_server.add_anthropic_reply("archived")
    assert tasks.start(ConsolidationRequest(WS))
    with qtbot.waitSignal(tasks.run_failed, timeout=SIGNAL_TIMEOUT_MS) as refused:
        assert not tasks.start(ConsolidationRequest(WS))
    assert "already in flight" in refused.args[0]
    assert tasks.start(ConsolidationRequest(WS, "archive"))
    qtbot.waitUntil(lambda: signals.kinds().count("finished") == 2, timeout=SIGNAL_TIMEOUT_MS)
    triggers = [p.trigger for kind, p in signals.events if kind == "finished"]
    assert triggers == ["manual", "archive"]


def test_cancel_stops_a_run_waiting_for_the_model(
    qtbot: QtBot,
    home: Home,
    tasks: ConsolidationTasks,
    signals: Signals,
    fake_model_server: FakeModelServer,
) -> None:
    fake_model_server.add_anthropic_reply("too late", delay=10.0)
    with qtbot.waitSignal(tasks.progress, timeout=SIGNAL_TIMEOUT_MS):
        tasks.start(ConsolidationRequest(WS))
    qtbot.waitUntil(lambda: len(fake_model_server.requests) == 1, timeout=SIGNAL_TIMEOUT_MS)
    with qtbot.waitSignal(tasks.run_cancelled, timeout=SIGNAL_TIMEOUT_MS) as cancelled:
        tasks.cancel()
    assert fake_model_server.replies_sent == 0, "the reply (due in 10 s) was not waited for"
    assert cancelled.args == [WS]
    assert signals.kinds() == ["started", "cancelled"]
    assert not home.journal_path.exists()
    assert not tasks.is_running


def test_the_service_decides_whether_a_run_may_start(
    qtbot: QtBot, tasks: ConsolidationTasks, signals: Signals, fake_model_server: FakeModelServer
) -> None:
    elsewhere = tasks.service.reserve(WS)  # e.g. a run started by other code in this process
    with qtbot.waitSignal(tasks.run_failed, timeout=SIGNAL_TIMEOUT_MS) as refused:
        assert not tasks.start(ConsolidationRequest(WS))
    assert "already in flight" in refused.args[0]
    assert tasks.service.is_running(WS) and not tasks.is_running
    elsewhere.release()
    assert not tasks.service.is_running(WS)


def test_a_run_cancelled_while_queued_gives_its_place_back(
    qtbot: QtBot, home: Home, tasks: ConsolidationTasks, fake_model_server: FakeModelServer
) -> None:
    add_workspace(home, "/home/dev/src/app", "second", workspace_id=OTHER_WS)
    fake_model_server.add_anthropic_reply("too late", delay=10.0)
    with qtbot.waitSignal(tasks.progress, timeout=SIGNAL_TIMEOUT_MS):
        assert tasks.start(ConsolidationRequest(OTHER_WS))
    assert tasks.start(ConsolidationRequest(WS))  # queued behind the other workspace's run
    assert tasks.service.is_running(WS) and tasks.service.is_running(OTHER_WS)
    with qtbot.waitSignal(tasks.run_cancelled, timeout=SIGNAL_TIMEOUT_MS):
        tasks.cancel()
    qtbot.waitUntil(lambda: not tasks.is_running, timeout=SIGNAL_TIMEOUT_MS)
    assert not tasks.service.is_running(WS), "the queued run never started: place given back"
    assert not tasks.service.is_running(OTHER_WS)
