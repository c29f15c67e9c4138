"""TaskRunner: jobs on a worker thread, reported on the GUI thread through the facade."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from memtab.components.jobs import JobContext
from memtab.gui.tasks import runner as runner_module
from memtab.gui.tasks.jobs import JobClient
from memtab.gui.tasks.runner import TaskRunner

# Jobs block on these gates; the generous timeout only bounds a broken test.
GATE_TIMEOUT_S = 10.0


class Recorder:
    """Collects every facade signal, in order, as tuples (of a runner, or of a client)."""

    def __init__(self, runner: TaskRunner | JobClient) -> None:
        self.events: list[tuple[Any, ...]] = []
        runner.job_started.connect(self.on_started)
        runner.job_progress.connect(self.on_progress)
        runner.job_finished.connect(self.on_finished)
        runner.job_failed.connect(self.on_failed)
        runner.job_cancelled.connect(self.on_cancelled)

    def on_started(self, job: int) -> None:
        self.events.append(("started", job))

    def on_progress(self, job: int, step: int, message: str) -> None:
        self.events.append(("progress", job, step, message))

    def on_finished(self, job: int, result: object) -> None:
        self.events.append(("finished", job, result))

    def on_failed(self, job: int, message: str) -> None:
        self.events.append(("failed", job, message))

    def on_cancelled(self, job: int) -> None:
        self.events.append(("cancelled", job))

    def of(self, job: int) -> list[tuple[Any, ...]]:
        return [event for event in self.events if event[1] == job]

    def kinds(self, job: int) -> list[str]:
        return [event[0] for event in self.of(job)]


@pytest.fixture
def runner(qtbot: QtBot) -> Iterator[TaskRunner]:
    task_runner = TaskRunner("test")
    yield task_runner
    task_runner.shutdown(timeout_ms=5000)


@pytest.fixture
def recorder(runner: TaskRunner) -> Recorder:
    return Recorder(runner)


def test_progress_then_finished_in_order_on_the_worker_thread(
    qtbot: QtBot, runner: TaskRunner, recorder: Recorder
) -> None:
    threads: list[int] = []

    def job(ctx: JobContext) -> str:
        threads.append(threading.get_ident())
        for step in (1, 2, 3):
            ctx.report_progress(step, f"step {step}")
        return "done"

    with qtbot.waitSignal(runner.job_finished, timeout=5000):
        job_id = runner.submit(job)

    assert recorder.of(job_id) == [
        ("started", job_id),
        ("progress", job_id, 1, "step 1"),
        ("progress", job_id, 2, "step 2"),
        ("progress", job_id, 3, "step 3"),
        ("finished", job_id, "done"),
    ]
    assert threads and threads[0] != threading.get_ident()
    assert not runner.is_busy()


def test_jobs_run_sequentially_in_submission_order(
    qtbot: QtBot, runner: TaskRunner, recorder: Recorder
) -> None:
    ran: list[int] = []
    ids = [runner.submit(lambda ctx, n=n: ran.append(n) or n) for n in range(5)]

    qtbot.waitUntil(lambda: len([e for e in recorder.events if e[0] == "finished"]) == 5)

    assert ran == [0, 1, 2, 3, 4]
    assert ids == sorted(ids) and len(set(ids)) == 5
    finished = [e for e in recorder.events if e[0] == "finished"]
    assert finished == [("finished", job_id, n) for n, job_id in enumerate(ids)]


@pytest.mark.expect_log("memtab.gui.tasks.runner", "ERROR", r"^Background job \d+ .* failed")
def test_exception_becomes_job_failed_with_a_clear_message_and_the_thread_survives(
    qtbot: QtBot, runner: TaskRunner, recorder: Recorder, caplog: pytest.LogCaptureFixture
) -> None:
    def job(ctx: JobContext) -> None:
        raise ValueError("the journal is not valid JSON")

    with (
        caplog.at_level(logging.ERROR, logger=runner_module.__name__),
        qtbot.waitSignal(runner.job_failed, timeout=5000) as blocker,
    ):
        failing = runner.submit(job)

    assert blocker.args == [failing, "ValueError: the journal is not valid JSON"]
    assert "finished" not in recorder.kinds(failing)
    assert any(record.exc_info for record in caplog.records), "traceback must be logged"

    with qtbot.waitSignal(runner.job_finished, timeout=5000) as blocker:
        runner.submit(lambda ctx: 42)
    assert blocker.args[1] == 42


def test_a_running_job_sees_its_cancel_event_set_at_once(
    qtbot: QtBot, runner: TaskRunner, recorder: Recorder
) -> None:
    contexts: list[JobContext] = []
    woke: list[bool] = []

    def job(ctx: JobContext) -> str:
        contexts.append(ctx)
        woke.append(ctx.cancel_event.wait(GATE_TIMEOUT_S))  # True: woken by the cancel
        return "too late"

    job_id = runner.submit(job)
    qtbot.waitUntil(lambda: bool(contexts), timeout=5000)  # running
    with qtbot.waitSignal(runner.job_cancelled, timeout=5000) as blocker:
        assert runner.cancel(job_id)
        assert contexts[0].is_cancelled(), "set by cancel() itself, not later"

    assert blocker.args == [job_id]
    qtbot.waitUntil(lambda: bool(woke), timeout=5000)
    assert woke == [True]
    assert recorder.kinds(job_id) == ["started", "cancelled"]
    assert not runner.cancel(job_id), "an ended job is no longer cancellable"


def test_raise_if_cancelled_and_errors_after_cancel_end_as_cancelled(
    qtbot: QtBot, runner: TaskRunner, recorder: Recorder
) -> None:
    go = threading.Event()

    def raises_cancelled(ctx: JobContext) -> None:
        go.wait(GATE_TIMEOUT_S)
        ctx.raise_if_cancelled()

    def fails_while_torn_down(ctx: JobContext) -> None:
        go.wait(GATE_TIMEOUT_S)
        raise ConnectionError("client closed")

    for job in (raises_cancelled, fails_while_torn_down):
        go.clear()
        with qtbot.waitSignal(runner.job_started, timeout=5000):
            job_id = runner.submit(job)
        with qtbot.waitSignal(runner.job_cancelled, timeout=5000):
            runner.cancel(job_id)
            go.set()
        assert recorder.kinds(job_id) == ["started", "cancelled"]


def test_queued_job_cancelled_never_runs_and_is_reported_at_once(
    qtbot: QtBot, runner: TaskRunner, recorder: Recorder
) -> None:
    gate = threading.Event()
    ran: list[str] = []

    def blocker_job(ctx: JobContext) -> str:
        gate.wait(GATE_TIMEOUT_S)
        return "first"

    def queued_job(ctx: JobContext) -> str:
        ran.append("queued")
        return "second"

    first = runner.submit(blocker_job)
    queued = runner.submit(queued_job)
    with qtbot.waitSignal(runner.job_cancelled, timeout=1000) as blocker:
        runner.cancel(queued)
    assert blocker.args == [queued]

    with qtbot.waitSignal(runner.job_finished, timeout=5000):
        gate.set()
    # The worker has passed the withdrawn job; another job proves the queue drained.
    with qtbot.waitSignal(runner.job_finished, timeout=5000):
        runner.submit(lambda ctx: None)

    assert ran == []
    assert recorder.kinds(queued) == ["cancelled"]
    assert recorder.kinds(first) == ["started", "finished"]


def test_a_newer_job_with_the_same_key_makes_older_ones_stale(
    qtbot: QtBot, runner: TaskRunner, recorder: Recorder
) -> None:
    gate = threading.Event()

    def old_scan(ctx: JobContext) -> str:
        # Ignores its cancel event on purpose: its result must still be dropped.
        gate.wait(GATE_TIMEOUT_S)
        ctx.report_progress(1, "stale progress")
        return "old listing"

    with qtbot.waitSignal(runner.job_started, timeout=5000):
        running = runner.submit(old_scan, key="scan:global")
    queued = runner.submit(lambda ctx: "middle listing", key="scan:global")
    other_key = runner.submit(lambda ctx: "project listing", key="scan:project")
    newest = runner.submit(lambda ctx: "new listing", key="scan:global")

    assert recorder.kinds(queued) == ["cancelled"]
    assert runner.is_busy("scan:global")
    with qtbot.waitSignal(
        runner.job_finished, timeout=5000, check_params_cb=lambda j, r: j == newest
    ):
        gate.set()

    assert recorder.kinds(running) == ["started", "cancelled"]
    assert recorder.kinds(other_key) == ["started", "finished"]
    assert recorder.of(newest)[-1] == ("finished", newest, "new listing")
    finished_results = [e[2] for e in recorder.events if e[0] == "finished"]
    assert finished_results == ["project listing", "new listing"]
    assert not runner.is_busy()


def test_a_key_stays_busy_across_a_supersede_and_idle_comes_once_at_the_end(
    qtbot: QtBot, runner: TaskRunner
) -> None:
    idles: list[str] = []
    runner.idle.connect(lambda: idles.append("idle"))
    gate = threading.Event()
    with qtbot.waitSignal(runner.job_started, timeout=5000):
        runner.submit(lambda ctx: gate.wait(GATE_TIMEOUT_S))
    queued = runner.submit(lambda ctx: "queued", key="scan")
    busy_when_withdrawn: list[bool] = []

    def on_cancelled(job: int) -> None:
        if job == queued:
            busy_when_withdrawn.append(runner.is_busy("scan"))

    runner.job_cancelled.connect(on_cancelled)
    runner.submit(lambda ctx: "newer", key="scan")  # withdraws `queued` right here
    assert busy_when_withdrawn == [True], "the newer scan is known before the older ends"
    assert idles == []
    with qtbot.waitSignal(runner.idle, timeout=5000):
        gate.set()
    assert idles == ["idle"]
    assert not runner.is_busy()


def test_shutdown_joins_a_running_job_that_honours_cancel(
    qtbot: QtBot, recorder: Recorder, runner: TaskRunner
) -> None:
    exited = threading.Event()

    def job(ctx: JobContext) -> None:
        ctx.cancel_event.wait(GATE_TIMEOUT_S)
        exited.set()

    with qtbot.waitSignal(runner.job_started, timeout=5000):
        running = runner.submit(job)
    queued = runner.submit(lambda ctx: "never")

    assert runner.shutdown(timeout_ms=5000) is True

    assert exited.is_set()
    assert recorder.kinds(running) == ["started", "cancelled"]
    assert recorder.kinds(queued) == ["cancelled"]
    assert runner.shutdown() is True, "a second shutdown is harmless"
    with pytest.raises(RuntimeError, match="shut down"):
        runner.submit(lambda ctx: None)


@pytest.mark.expect_log(
    "memtab.gui.tasks.runner", "ERROR", r"^The test worker did not stop within 100 ms"
)
def test_shutdown_gives_up_on_a_job_that_ignores_cancel(
    qtbot: QtBot, recorder: Recorder, runner: TaskRunner
) -> None:
    gate = threading.Event()

    ended = threading.Event()

    def ignoring_cancel(ctx: JobContext) -> None:
        gate.wait(GATE_TIMEOUT_S)
        ended.set()

    with qtbot.waitSignal(runner.job_started, timeout=5000):
        stubborn = runner.submit(ignoring_cancel)

    assert runner.shutdown(timeout_ms=100) is False
    assert not ended.is_set(), "shutdown gave up on the job instead of waiting for it"
    assert recorder.kinds(stubborn) == ["started", "cancelled"]

    gate.set()  # let the abandoned thread end so the test leaves nothing running
    qtbot.waitUntil(
        lambda: all(thread.isFinished() for thread, _ in runner_module._abandoned_threads),
        timeout=5000,
    )
    assert recorder.kinds(stubborn) == ["started", "cancelled"], "late results stay dropped"


def test_a_runner_destroyed_with_its_owner_stops_its_thread(qtbot: QtBot) -> None:
    """An owner deleted before it shut its runner down (a dialog destroyed unclosed): the
    running job is cancelled, the queued one never runs and the thread ends, instead of a
    QThread destroyed while running aborting the process."""
    from PySide6.QtCore import QObject

    owner = QObject()
    runner = TaskRunner("orphan", parent=owner)
    thread = runner._thread
    saw_cancel = threading.Event()
    ran: list[str] = []

    def waits_for_cancel(ctx: JobContext) -> None:
        if ctx.cancel_event.wait(GATE_TIMEOUT_S):
            saw_cancel.set()

    with qtbot.waitSignal(runner.job_started, timeout=5000):
        runner.submit(waits_for_cancel)
    runner.submit(lambda ctx: ran.append("queued"))
    owner.deleteLater()
    qtbot.waitUntil(lambda: thread.isFinished(), timeout=5000)
    assert saw_cancel.is_set() and ran == []
