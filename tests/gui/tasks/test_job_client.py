"""A client of the job service: "the latest job wins" — of its jobs of a key, only the
newest reports under the key (`latest_finished`, `latest_failed`), and `cancel_latest`
withdraws it. The client keeps this; its lane only runs, supersedes and reports."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from gui.tasks.test_task_runner import GATE_TIMEOUT_S, Recorder
from memtab.components.jobs import JobContext
from memtab.gui.tasks.jobs import JobClient, JobService, Lane
from memtab.gui.tasks.runner import TaskRunner


@pytest.fixture
def client(jobs: JobService) -> JobClient:
    return jobs.client("test", Lane.JOBS)


@pytest.fixture
def recorder(client: JobClient) -> Recorder:
    return Recorder(client)


class Latest:
    """The client's "latest job wins" and idle signals, in order."""

    def __init__(self, client: JobClient) -> None:
        self.events: list[tuple[Any, ...]] = []
        client.latest_finished.connect(self.on_finished)
        client.latest_failed.connect(self.on_failed)
        client.idle.connect(self.on_idle)

    def on_finished(self, key: str, result: object) -> None:
        self.events.append(("finished", key, result))

    def on_failed(self, key: str, message: str) -> None:
        self.events.append(("failed", key, message))

    def on_idle(self) -> None:
        self.events.append(("idle",))


def test_submit_latest_reports_only_the_newest_result_of_its_key(
    qtbot: QtBot, client: JobClient, recorder: Recorder
) -> None:
    latest = Latest(client)
    gate = threading.Event()

    def old_search(ctx: JobContext) -> str:
        gate.wait(GATE_TIMEOUT_S)  # ignores its cancel event: still dropped
        return "old"

    with qtbot.waitSignal(client.job_started, timeout=5000):
        old = client.submit_latest("search", old_search)
    client.submit(lambda ctx: "warm", key="warm")  # another key, not a latest job
    middle = client.submit_latest("search", lambda ctx: "middle")
    newest = client.submit_latest("search", lambda ctx: "new")
    assert recorder.kinds(middle) == ["cancelled"]
    with qtbot.waitSignal(client.idle, timeout=5000):
        gate.set()
    assert recorder.kinds(old) == ["started", "cancelled"]
    assert recorder.kinds(newest) == ["started", "finished"]
    assert latest.events == [("finished", "search", "new"), ("idle",)]


@pytest.mark.expect_log("memtab.gui.tasks.runner", "ERROR", r"^Background job \d+ .* failed")
def test_submit_latest_failures_and_cancel_latest(
    qtbot: QtBot, client: JobClient, recorder: Recorder
) -> None:
    latest = Latest(client)

    def broken(ctx: JobContext) -> str:
        raise ValueError("no such file")

    with qtbot.waitSignal(client.idle, timeout=5000):
        client.submit_latest("diff", broken)
    assert latest.events == [("failed", "diff", "ValueError: no such file"), ("idle",)]

    gate = threading.Event()

    def slow(ctx: JobContext) -> str:
        gate.wait(GATE_TIMEOUT_S)
        return "too late"

    with qtbot.waitSignal(client.job_started, timeout=5000):
        job = client.submit_latest("diff", slow)
    client.cancel_latest("diff")
    client.cancel_latest("diff")  # nothing left to cancel: a no-op
    with qtbot.waitSignal(client.idle, timeout=5000):
        gate.set()
    assert recorder.kinds(job) == ["started", "cancelled"]
    assert latest.events[2:] == [("idle",)]


def test_the_latest_job_wins_in_the_client_alone() -> None:
    """One place for it: a lane's runner runs, supersedes and reports; it keeps no newest
    job of a key of its own (the client did, and the runner did again, the same way)."""
    kept = ("submit_latest", "cancel_latest", "latest_finished", "latest_failed")
    assert [name for name in kept if hasattr(TaskRunner, name)] == []
    assert all(hasattr(JobClient, name) for name in kept)
