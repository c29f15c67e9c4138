"""FileChannel: writes in order, reads that see them, the latest read wins, listings apart,
callbacks on the GUI thread, and a close that lets the writes asked for run."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from memtab.components.jobs import JobContext
from memtab.gui.tasks.file_channel import FileChannel
from memtab.gui.tasks.jobs import JobService

GATE_TIMEOUT_S = 10.0


@pytest.fixture
def channel(qtbot: QtBot, jobs: JobService) -> Iterator[FileChannel]:
    files = FileChannel(jobs)
    yield files
    files.shutdown(timeout_ms=5000)


def gate_job(gate: threading.Event, value: str) -> object:
    def job(_context: JobContext) -> str:
        assert gate.wait(GATE_TIMEOUT_S)
        return value

    return job


def test_writes_apply_in_order_off_the_gui_thread_and_report_on_it(
    qtbot: QtBot, channel: FileChannel
) -> None:
    disk: list[str] = []
    worker_threads: set[int] = set()
    reported: list[tuple[str, bool]] = []

    def save(text: str) -> object:
        def job(_context: JobContext) -> str:
            worker_threads.add(threading.get_ident())
            disk.append(text)
            return text

        return job

    def done(text: str) -> None:
        reported.append((text, threading.get_ident() == threading.main_thread().ident))

    for text in ("first", "second", "third"):
        channel.write(save(text), done)
    qtbot.waitUntil(lambda: len(reported) == 3)
    assert disk == ["first", "second", "third"]
    assert reported == [("first", True), ("second", True), ("third", True)]
    assert threading.main_thread().ident not in worker_threads


def test_a_read_asked_after_a_write_reads_what_it_wrote(qtbot: QtBot, channel: FileChannel) -> None:
    gate = threading.Event()
    disk = {"notes.md": "old"}
    seen: list[str] = []

    def slow_save(_context: JobContext) -> None:
        assert gate.wait(GATE_TIMEOUT_S)
        disk["notes.md"] = "new"

    channel.write(slow_save)
    channel.read("open", lambda _context: disk["notes.md"], seen.append)
    gate.set()
    qtbot.waitUntil(lambda: seen == ["new"])


def test_the_latest_read_of_a_key_wins_and_other_keys_are_kept(
    qtbot: QtBot, channel: FileChannel
) -> None:
    gate = threading.Event()
    seen: list[str] = []
    channel.write(gate_job(gate, "saved"))  # holds the lane while the reads queue up
    for name in ("a.md", "b.md", "c.md"):
        channel.read("open", lambda _context, name=name: name, seen.append)
    channel.read("diff", lambda _context: "diff", seen.append)
    gate.set()
    with qtbot.waitSignal(channel.idle):
        pass
    assert seen == ["c.md", "diff"]


def test_writes_are_never_superseded(qtbot: QtBot, channel: FileChannel) -> None:
    gate = threading.Event()
    seen: list[str] = []
    channel.write(gate_job(gate, "one"), seen.append)
    channel.write(gate_job(gate, "two"), seen.append)
    gate.set()
    qtbot.waitUntil(lambda: seen == ["one", "two"])


def test_listings_never_wait_behind_a_write(qtbot: QtBot, channel: FileChannel) -> None:
    gate = threading.Event()
    seen: list[str] = []
    channel.write(gate_job(gate, "saved"), seen.append)
    channel.listing("runs", lambda _context: "runs", seen.append)
    qtbot.waitUntil(lambda: seen == ["runs"])
    assert channel.writing
    gate.set()
    qtbot.waitUntil(lambda: seen == ["runs", "saved"])


def test_a_cancelled_job_calls_nothing(qtbot: QtBot, channel: FileChannel) -> None:
    gate = threading.Event()
    seen: list[str] = []
    channel.write(gate_job(gate, "saved"), seen.append)
    dropped = channel.listing("trash", gate_job(gate, "trash"), seen.append)
    queued = channel.read("open", lambda _context: "opened", seen.append)
    channel.cancel(dropped)
    channel.cancel(queued)
    gate.set()
    with qtbot.waitSignal(channel.idle):
        pass
    assert seen == ["saved"]


@pytest.mark.expect_log("memtab.gui.tasks.runner", "ERROR", r"Background job \d+ .* failed")
def test_a_job_that_raises_reports_failed_with_its_message(
    qtbot: QtBot, channel: FileChannel
) -> None:
    failures: list[str] = []
    seen: list[object] = []

    def broken(_context: JobContext) -> None:
        raise OSError("No space left on device")

    channel.write(broken, seen.append, failures.append)
    qtbot.waitUntil(lambda: bool(failures))
    assert failures == ["OSError: No space left on device"]
    assert seen == []


def test_closing_runs_the_writes_asked_for_and_drops_reads_and_callbacks(
    qtbot: QtBot, jobs: JobService
) -> None:
    channel = FileChannel(jobs)
    gate = threading.Event()
    disk: list[str] = []
    reported: list[str] = []

    def save(text: str) -> object:
        def job(_context: JobContext) -> str:
            assert gate.wait(GATE_TIMEOUT_S)
            disk.append(text)
            return text

        return job

    channel.write(save("first"), reported.append)
    channel.read("open", lambda _context: disk.append("read") or "read", reported.append)
    channel.write(save("second"), reported.append)
    threading.Timer(0.05, gate.set).start()
    assert channel.shutdown(timeout_ms=5000)
    assert disk == ["first", "second"]  # the read, not started, is dropped
    assert reported == []  # what they would update is closing
    assert channel.busy is False
    with pytest.raises(RuntimeError, match="shut down"):
        channel.write(save("late"))


@pytest.mark.expect_log("memtab.gui.tasks.file_channel", "ERROR", r"still running 50 ms after")
def test_closing_waits_for_writes_only_so_long(qtbot: QtBot, jobs: JobService) -> None:
    channel = FileChannel(jobs)
    gate = threading.Event()
    channel.write(gate_job(gate, "stuck"))
    # Should shutdown wait past its timeout, the job ends then and shutdown says it ended.
    release = threading.Timer(0.3, gate.set)
    release.start()
    assert not channel.shutdown(timeout_ms=50)
    release.cancel()
    gate.set()  # the job ends


def test_a_read_waited_for_with_nothing_ahead_is_delivered_before_read_returns(
    qtbot: QtBot, channel: FileChannel
) -> None:
    # Opening a file: a small read is shown in the frame of the click, as if read in place.
    shown: list[str] = []
    channel.read("open", lambda _context: "text", shown.append, wait_ms=GATE_TIMEOUT_S * 1000)
    assert shown == ["text"]
    assert not channel.busy


def test_a_read_waited_for_is_not_waited_for_behind_a_write_nor_past_its_wait(
    qtbot: QtBot, channel: FileChannel
) -> None:
    gate = threading.Event()
    shown: list[str] = []
    channel.write(gate_job(gate, "saved"))  # a save waiting for the scope's lock, say
    channel.read("open", lambda _context: "text", shown.append, wait_ms=GATE_TIMEOUT_S * 1000)
    assert shown == []  # returned at once: the read is behind the write
    gate.set()
    qtbot.waitUntil(lambda: shown == ["text"])

    slow = threading.Event()
    channel.read("open", gate_job(slow, "slow"), shown.append, wait_ms=1)
    assert shown == ["text"]  # the wait ended; the read goes on
    slow.set()
    qtbot.waitUntil(lambda: shown == ["text", "slow"])
    qtbot.waitUntil(lambda: not channel.busy)
