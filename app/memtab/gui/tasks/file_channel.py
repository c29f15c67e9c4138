"""One asynchronous channel for every read and write of memory files the window makes: the
GUI thread never locks, fsyncs or reads a file whole. Writes run in order and are never
dropped (closing drains them); a read of a key is "the latest wins"; `listing`s run on the
scans lane. `done`/`failed` run on the GUI thread; `failed` is an unexpected exception.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from PySide6.QtCore import QObject, Signal, Slot

from memtab.components.jobs import JobContext
from memtab.gui.tasks.jobs import JobClient, JobService, Lane

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
    """Reads and writes of memory files, off the GUI thread; `idle()`: nothing queued or
    running on either lane."""

    idle = Signal()

    def __init__(self, jobs: JobService, parent: QObject | None = None) -> None:
        """Reads and writes on `jobs`' files lane, listings on its scans lane (no thread
        starts before the first job)."""
        super().__init__(parent)
        self._files = self._client(jobs, "files", Lane.FILES)
        self._listings = self._client(jobs, "listings", Lane.SCANS)
        self._callbacks: dict[int, _Callbacks] = {}
        self._reads: set[int] = set()  # reads of the files lane, dropped on close
        self._closed = False

    @property
    def busy(self) -> bool:
        """Whether a job is queued or running on either lane."""
        return self._files.is_busy() or self._listings.is_busy()

    @property
    def writing(self) -> bool:
        """Whether the files lane has a job queued or running (a write may be among them)."""
        return self._files.is_busy()

    def write(
        self,
        job: Callable[[JobContext], T],
        done: Callable[[T], None] | None = None,
        failed: Failed | None = None,
    ) -> int:
        """Queue a write on the files lane, after everything asked before it; never
        superseded. Returns its job id."""
        return self._submit(self._files, None, job, done, failed)

    def read(
        self,
        key: str,
        job: Callable[[JobContext], T],
        done: Callable[[T], None] | None = None,
        failed: Failed | None = None,
        *,
        wait_ms: float = 0,
    ) -> int:
        """Queue a read on the files lane (it sees every write asked before); a newer read of
        `key` supersedes it. `wait_ms`: with the lane idle, wait that long for it to end and
        run `done` (or `failed`) before returning. Returns its job id."""
        ahead = self._files.lane_busy()
        job_id = self._submit(self._files, key, job, done, failed)
        self._reads.add(job_id)
        if wait_ms > 0 and not ahead:
            self._files.wait_briefly(job_id, wait_ms)
        return job_id

    def listing(
        self,
        key: str,
        job: Callable[[JobContext], T],
        done: Callable[[T], None] | None = None,
        failed: Failed | None = None,
    ) -> int:
        """Queue a read that only shows history on the scans lane; a newer listing of
        `key` supersedes it. Returns its job id."""
        return self._submit(self._listings, key, job, done, failed)

    def cancel(self, job_id: int) -> None:
        """Withdraw a job: neither of its callbacks runs (a write already running still
        completes on disk)."""
        self._callbacks.pop(job_id, None)
        if not self._files.cancel(job_id):
            self._listings.cancel(job_id)

    def shutdown(self, timeout_ms: int = DRAIN_MS) -> bool:
        """On close: drop the listings, the reads not started and every callback (what
        they would update is closing), let the writes already asked for run (at most
        `timeout_ms`); the job service stops the lanes after. True if every write ran."""
        if self._closed:
            return True
        self._closed = True
        self._callbacks.clear()
        self._listings.shutdown()
        for read in list(self._reads):
            self._files.cancel(read)
        drained = self._files.drain(timeout_ms)
        if not drained:
            logger.error("Writes were still running %d ms after the window closed", timeout_ms)
        self._files.shutdown()
        return drained

    def _client(self, jobs: JobService, name: str, lane: Lane) -> JobClient:
        client = jobs.client(name, lane, parent=self)
        client.job_finished.connect(self._on_client_job_finished)
        client.job_failed.connect(self._on_client_job_failed)
        client.job_cancelled.connect(self._take)
        client.idle.connect(self._on_client_idle)
        return client

    def _submit(
        self,
        client: JobClient,
        key: str | None,
        job: Callable[[JobContext], Any],
        done: Callable[[Any], None] | None,
        failed: Failed | None,
    ) -> int:
        if self._closed:
            raise RuntimeError("the file channel has been shut down")
        job_id = client.submit(job, key=key)
        self._callbacks[job_id] = _Callbacks(done, failed)
        return job_id

    def _take(self, job_id: int) -> _Callbacks | None:
        self._reads.discard(job_id)
        return self._callbacks.pop(job_id, None)

    @Slot(int, object)
    def _on_client_job_finished(self, job_id: int, result: object) -> None:
        callbacks = self._take(job_id)
        if callbacks is not None and callbacks.done is not None:
            callbacks.done(result)

    @Slot(int, str)
    def _on_client_job_failed(self, job_id: int, message: str) -> None:
        callbacks = self._take(job_id)
        if callbacks is not None and callbacks.failed is not None:
            callbacks.failed(message)

    @Slot()
    def _on_client_idle(self) -> None:
        if not self.busy:
            self.idle.emit()
