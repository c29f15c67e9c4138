"""One asynchronous channel for every read and write of memory files the window makes.

The GUI thread never takes a cross-process lock, never fsyncs and never reads a file
whole. What reads or writes memory files hands a plain-Python job to `FileChannel` and
goes on in a callback on the GUI thread: the tree's file operations, restores, Copy to…
and pins (as `gui/files/op_tasks.FileOpTasks`).

Two workers (`TaskRunner`s, each started on first use):

- The **files** lane runs the writes, and the reads that must see them in order, one job
  at a time in the order they were asked for: two saves of one file apply in the order
  they were made, and a read asked after a save reads what it wrote. `write(job, …)` is
  never superseded or dropped: closing the window lets the writes already asked for run
  (`shutdown`, bounded by `DRAIN_MS`; what they report then is not delivered).
  `read(key, job, …)` is "the latest job wins" per key: arrowing through the tree reads
  only the file the user stops on. A read the user waits for (opening a file) may ask to
  be waited for a moment (`wait_ms`) when nothing is ahead of it on the lane: a small
  file is read in well under a millisecond, and its text then shows in the frame the
  click paints, as if read in place; a slower read arrives as ever.
- The **listings** lane runs what only shows history — versions, diffs, runs, the trash:
  `listing(key, job, …)`, the latest job of a key wins. Listings never wait behind a
  save, nor a save behind a long listing; what they show follows writes through the
  watcher, like any change on disk.

`done(result)` and `failed(message)` run on the GUI thread (called from this object's
slots, never on a worker); a job superseded or cancelled calls neither. `failed` is for
what a job did not expect (its exception, logged by the runner); outcomes a user is told
about — a conflict, a refusal — are results. `cancel(job)` withdraws a job (a dialog
that closes drops its listing).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from PySide6.QtCore import QObject, Signal, Slot

from memtab.gui.tasks.runner import TaskContext, TaskRunner

logger = logging.getLogger(__name__)

T = TypeVar("T")

DRAIN_MS = 15_000
"""How long closing waits for the writes already asked for: a save waits at most 10 s for
the scope's lock (`store.scopes.scope_store`), then writes in milliseconds."""

Done = Callable[[Any], None]
Failed = Callable[[str], None]


@dataclass(frozen=True)
class _Callbacks:
    done: Done | None
    failed: Failed | None


class FileChannel(QObject):
    """Reads and writes of memory files, off the GUI thread (see the module docstring).

    Signals:
        idle(): nothing is queued or running on either lane (tests wait for it).
    """

    idle = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        """No thread yet: each lane's worker starts with its first job."""
        super().__init__(parent)
        self._files: TaskRunner | None = None
        self._listings: TaskRunner | None = None
        self._callbacks: dict[int, _Callbacks] = {}
        self._reads: set[int] = set()  # reads of the files lane, dropped on close
        self._closed = False

    @property
    def busy(self) -> bool:
        """Whether a job is queued or running on either lane."""
        return any(runner.is_busy() for runner in self._runners())

    @property
    def writing(self) -> bool:
        """Whether the files lane has a job queued or running (a write may be among them)."""
        return self._files is not None and self._files.is_busy()

    def write(
        self,
        job: Callable[[TaskContext], T],
        done: Callable[[T], None] | None = None,
        failed: Failed | None = None,
    ) -> int:
        """Queue a write on the files lane, after everything asked before it; never
        superseded. Returns its job id."""
        return self._submit(self._lane_files(), None, job, done, failed)

    def read(
        self,
        key: str,
        job: Callable[[TaskContext], T],
        done: Callable[[T], None] | None = None,
        failed: Failed | None = None,
        *,
        wait_ms: float = 0,
    ) -> int:
        """Queue a read on the files lane (it sees every write asked before it); a newer
        read of `key` supersedes it. Returns its job id. With `wait_ms`, when the lane has
        nothing else to do, wait that long at most for the read: if it ends meanwhile,
        `done` (or `failed`) runs before this returns."""
        lane = self._lane_files()
        ahead = lane.is_busy()
        job_id = self._submit(lane, key, job, done, failed)
        self._reads.add(job_id)
        if wait_ms > 0 and not ahead:
            lane.wait_briefly(job_id, wait_ms)
        return job_id

    def listing(
        self,
        key: str,
        job: Callable[[TaskContext], T],
        done: Callable[[T], None] | None = None,
        failed: Failed | None = None,
    ) -> int:
        """Queue a read that only shows history on the listings lane; a newer listing of
        `key` supersedes it. Returns its job id."""
        return self._submit(self._lane_listings(), key, job, done, failed)

    def cancel(self, job_id: int) -> None:
        """Withdraw a job: neither of its callbacks runs (a write already running still
        completes on disk)."""
        self._callbacks.pop(job_id, None)
        for runner in self._runners():
            if runner.cancel(job_id):
                return

    def shutdown(self, timeout_ms: int = DRAIN_MS) -> bool:
        """On close: drop the listings, the reads not started and every callback (what
        they would update is closing), let the writes already asked for run (at most
        `timeout_ms`), then stop both workers. True if every write ran."""
        if self._closed:
            return True
        self._closed = True
        self._callbacks.clear()
        drained = True
        if self._listings is not None:
            self._listings.shutdown()
        if self._files is not None:
            for read in list(self._reads):
                self._files.cancel(read)
            drained = self._files.drain(timeout_ms)
            if not drained:
                logger.error("Writes were still running %d ms after the window closed", timeout_ms)
            self._files.shutdown()
        return drained

    # --- lanes -----------------------------------------------------------------------------

    def _runners(self) -> list[TaskRunner]:
        return [runner for runner in (self._files, self._listings) if runner is not None]

    def _lane_files(self) -> TaskRunner:
        if self._files is None:
            self._files = self._runner("files")
        return self._files

    def _lane_listings(self) -> TaskRunner:
        if self._listings is None:
            self._listings = self._runner("listings")
        return self._listings

    def _runner(self, name: str) -> TaskRunner:
        if self._closed:
            raise RuntimeError("the file channel has been shut down")
        runner = TaskRunner(name, parent=self)
        runner.job_finished.connect(self._on_runner_job_finished)
        runner.job_failed.connect(self._on_runner_job_failed)
        runner.job_cancelled.connect(self._on_runner_job_cancelled)
        runner.idle.connect(self._on_runner_idle)
        return runner

    def _submit(
        self,
        runner: TaskRunner,
        key: str | None,
        job: Callable[[TaskContext], Any],
        done: Callable[[Any], None] | None,
        failed: Failed | None,
    ) -> int:
        job_id = runner.submit(job, key=key)
        self._callbacks[job_id] = _Callbacks(done, failed)
        return job_id

    # --- slots -----------------------------------------------------------------------------

    def _take(self, job_id: int) -> _Callbacks | None:
        self._reads.discard(job_id)
        return self._callbacks.pop(job_id, None)

    @Slot(int, object)
    def _on_runner_job_finished(self, job_id: int, result: object) -> None:
        callbacks = self._take(job_id)
        if callbacks is not None and callbacks.done is not None:
            callbacks.done(result)

    @Slot(int, str)
    def _on_runner_job_failed(self, job_id: int, message: str) -> None:
        callbacks = self._take(job_id)
        if callbacks is not None and callbacks.failed is not None:
            callbacks.failed(message)

    @Slot(int)
    def _on_runner_job_cancelled(self, job_id: int) -> None:
        self._take(job_id)

    @Slot()
    def _on_runner_idle(self) -> None:
        if not self.busy:
            self.idle.emit()
