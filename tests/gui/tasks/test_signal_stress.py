"""10,000 signal emissions, same-thread and cross-thread, carrying objects and bools.

PySide6 6.12.0 on CPython 3.11 drops a reference to `True` on every `Signal.emit` and
aborts after a few hundred emits (hence the `PySide6-Essentials<6.12` pin for Python <
3.12). These tests emit far more than that, so a bad PySide6 fails here rather than in
a user's session; they also check the refcount of `True` directly where it is not
immortal (Python < 3.12).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot
from pytestqt.qtbot import QtBot

from memtab.components.jobs import JobContext
from memtab.gui.tasks.runner import TaskRunner

EMITS = 10_000
WAIT_MS = 30_000  # only bounds a broken run; a healthy one takes well under a second


class Payload:
    """A plain Python object, so the signal has to carry a PyObject."""

    def __init__(self, index: int) -> None:
        self.index = index


class Emitter(QObject):
    carried = Signal(object, bool)
    flag = Signal(bool)
    run_requested = Signal(int)

    @Slot(int)
    def _on_self_run_requested(self, count: int) -> None:
        emit_many(self, count)


def emit_many(emitter: Emitter, count: int) -> None:
    for index in range(count):
        emitter.carried.emit(Payload(index), index % 2 == 0)
        emitter.flag.emit(index % 3 == 0)


class Receiver(QObject):
    """A GUI-thread receiver with bound slots only (the cross-thread rule)."""

    def __init__(self) -> None:
        super().__init__()
        self.carried = 0
        self.index_sum = 0
        self.true_carried = 0
        self.true_flags = 0
        self.flags = 0

    @Slot(object, bool)
    def _on_emitter_carried(self, payload: Payload, value: bool) -> None:
        self.carried += 1
        self.index_sum += payload.index
        self.true_carried += value is True

    @Slot(bool)
    def _on_emitter_flag(self, value: bool) -> None:
        self.flags += 1
        self.true_flags += value is True

    def expect_complete(self, count: int) -> None:
        assert self.carried == count
        assert self.flags == count
        assert self.index_sum == count * (count - 1) // 2
        assert self.true_carried == (count + 1) // 2
        assert self.true_flags == (count + 2) // 3


def true_refcount() -> int:
    return sys.getrefcount(True)


def assert_true_refcount_kept(before: int) -> None:
    # On 3.12+ True is immortal and the count is a constant; on 3.11 a leak of one
    # reference per emit would show as thousands.
    assert true_refcount() > before - 1000, "Signal.emit is leaking references to True"


def connect(emitter: Emitter, receiver: Receiver, kind: Qt.ConnectionType) -> None:
    emitter.carried.connect(receiver._on_emitter_carried, kind)
    emitter.flag.connect(receiver._on_emitter_flag, kind)


def test_same_thread_emits(qtbot: QtBot) -> None:
    emitter, receiver = Emitter(), Receiver()
    connect(emitter, receiver, Qt.ConnectionType.DirectConnection)
    before = true_refcount()

    emit_many(emitter, EMITS)

    receiver.expect_complete(EMITS)
    assert_true_refcount_kept(before)


def test_same_thread_queued_emits(qtbot: QtBot) -> None:
    emitter, receiver = Emitter(), Receiver()
    connect(emitter, receiver, Qt.ConnectionType.QueuedConnection)
    before = true_refcount()

    emit_many(emitter, EMITS)
    qtbot.waitUntil(lambda: receiver.flags == EMITS, timeout=WAIT_MS)

    receiver.expect_complete(EMITS)
    assert_true_refcount_kept(before)


@pytest.fixture
def worker_thread() -> Iterator[QThread]:
    thread = QThread()
    thread.setObjectName("memtab-stress")
    thread.start()
    yield thread
    thread.quit()
    assert thread.wait(5000)


def test_cross_thread_emits(qtbot: QtBot, worker_thread: QThread) -> None:
    emitter, receiver = Emitter(), Receiver()
    emitter.moveToThread(worker_thread)
    emitter.run_requested.connect(
        emitter._on_self_run_requested, Qt.ConnectionType.QueuedConnection
    )
    connect(emitter, receiver, Qt.ConnectionType.AutoConnection)
    before = true_refcount()

    emitter.run_requested.emit(EMITS)
    qtbot.waitUntil(lambda: receiver.flags == EMITS, timeout=WAIT_MS)

    receiver.expect_complete(EMITS)
    assert_true_refcount_kept(before)


class ProgressCounter(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.steps = 0
        self.last_step = -1

    @Slot(int, int, str)
    def _on_runner_job_progress(self, job: int, step: int, message: str) -> None:
        self.steps += 1
        self.last_step = step


def test_task_runner_relays_ten_thousand_progress_reports(qtbot: QtBot) -> None:
    runner = TaskRunner("stress")
    counter = ProgressCounter()
    runner.job_progress.connect(counter._on_runner_job_progress)

    def chatty(ctx: JobContext) -> bool:
        for step in range(EMITS):
            ctx.report_progress(step, "working")
        return True

    try:
        with qtbot.waitSignal(runner.job_finished, timeout=WAIT_MS) as blocker:
            runner.submit(chatty)
        assert blocker.args[1] is True
        assert counter.steps == EMITS
        assert counter.last_step == EMITS - 1
    finally:
        runner.shutdown(timeout_ms=5000)
