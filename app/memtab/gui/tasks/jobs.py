"""The window's one job service (ARCHITECTURE "Threads and the watcher"): lanes `files`,
`scans`, `jobs` and `runs`, each one worker thread, and a client per feature
(`context.jobs.client("history")`) whose jobs are cancelled when its parent widget goes.
"""

from __future__ import annotations

import enum
import functools
import itertools
import logging
import time

import shiboken6
from PySide6.QtCore import QObject, Signal, SignalInstance, Slot

from memtab.components.jobs import JobBook, JobFunction, JobRoutes
from memtab.gui.tasks.runner import TaskRunner

logger = logging.getLogger(__name__)

SHUTDOWN_MS = 5000
"""How long closing the window waits for each lane's job to see its cancel."""


class Lane(enum.Enum):
    """A worker thread of the job service (see the module docstring)."""

    FILES = "files"
    SCANS = "scans"
    JOBS = "jobs"
    RUNS = "runs"


_client_numbers = itertools.count(1)


class JobClient(QObject):
    """One feature's handle on the job service (built by `JobService.client`). Its signals,
    on the GUI thread for its own jobs only: job_started, job_progress, job_finished,
    job_failed, job_cancelled; latest_finished/latest_failed for `submit_latest`; idle()."""

    job_started = Signal(int)
    job_progress = Signal(int, int, str)
    job_finished = Signal(int, object)
    job_failed = Signal(int, str)
    job_cancelled = Signal(int)
    latest_finished = Signal(str, object)
    latest_failed = Signal(str, str)
    idle = Signal()

    def __init__(self, service: JobService, name: str, lane: Lane, parent: QObject | None) -> None:
        super().__init__(parent)
        self._service = service
        self.name = name
        self.lane = lane
        self._prefix = f"{name}#{next(_client_numbers)}:"
        self._jobs = JobBook[None]()  # its keys as the feature gave them
        self._closed = False
        # Destroyed with its owner before `shutdown`: its jobs go too, their results unread.
        self.destroyed.connect(functools.partial(_forget_client, service, self._jobs))

    def submit(self, fn: JobFunction, *, key: str | None = None) -> int:
        """Queue `fn` on the lane; return its job id. With a `key`, this client's older
        jobs of that key are cancelled first (see `TaskRunner.submit`)."""
        if self._closed:
            raise RuntimeError(f"the {self.name} jobs have been shut down")
        runner = self._service.runner(self.lane)
        lane_key = self._prefix + key if key is not None else None
        job_id = runner.submit(fn, key=lane_key, label=self.name)
        self._jobs.add(job_id, key, None)
        self._service.adopt(job_id, self)
        return job_id

    def submit_latest(self, key: str, fn: JobFunction) -> int:
        """Queue `fn` as the newest job of `key` ("the latest job wins"); return its id.
        If it is still the newest of its key when it ends, it also reports
        `latest_finished(key, result)` or `latest_failed(key, message)`."""
        job_id = self.submit(fn, key=key)
        self._jobs.make_latest(key, job_id)
        return job_id

    def cancel_latest(self, key: str) -> None:
        """Cancel the newest job of `key` (submitted with `submit_latest`), if any."""
        job_id = self._jobs.take_latest(key)
        if job_id is not None:
            self.cancel(job_id)

    def cancel(self, job_id: int) -> bool:
        """Cancel one of this client's jobs; False if it is not one or has ended."""
        if job_id not in self._jobs:
            return False
        runner = self._service.started_runner(self.lane)
        return runner is not None and runner.cancel(job_id)

    def cancel_all(self) -> None:
        for job_id in list(self._jobs):
            self.cancel(job_id)

    def is_busy(self, key: str | None = None) -> bool:
        """Whether a job of this client (with `key`, if given) is queued or running."""
        return self._jobs.busy(key)

    def lane_busy(self) -> bool:
        """Whether anything — this client's or another's — is queued or running on the lane."""
        runner = self._service.started_runner(self.lane)
        return runner is not None and runner.is_busy()

    def wait_briefly(self, job_id: int, timeout_ms: float) -> bool:
        """Wait (blocking, at most `timeout_ms`) for one of this client's jobs to end, and
        deliver its outcome before returning; True if it ended (`TaskRunner.wait_briefly`)."""
        runner = self._service.started_runner(self.lane)
        if runner is None or job_id not in self._jobs:
            return True
        runner.wait_briefly(job_id, timeout_ms)
        return job_id not in self._jobs

    def drain(self, timeout_ms: int) -> bool:
        """Wait (blocking, at most `timeout_ms`) until every job queued on the lane now has
        run, and deliver their outcomes; True if they all ran (writes that must not be
        dropped, before closing)."""
        runner = self._service.started_runner(self.lane)
        return runner is None or runner.drain(timeout_ms)

    def shutdown(self, timeout_ms: int = 0) -> bool:
        """Cancel this client's jobs and take no more (the feature closes); each reports
        `job_cancelled` now. Waits at most `timeout_ms` for a job still running to see
        its cancel; True if none runs any more. Safe to call more than once."""
        self._closed = True
        self.cancel_all()
        runner = self._service.started_runner(self.lane)
        deadline = time.monotonic() + max(timeout_ms, 0) / 1000
        for job_id in list(self._jobs):
            left_ms = (deadline - time.monotonic()) * 1000
            if runner is not None and left_ms > 0:
                runner.wait_briefly(job_id, left_ms)
        still = list(self._jobs)
        self._jobs.clear_latest()
        for job_id in still:
            self._service.disown(job_id)
            self._jobs.end(job_id)
            self.job_cancelled.emit(job_id)
        return not still

    # -- from the service (GUI thread) --------------------------------------------------

    def _finished(self, job_id: int, result: object) -> None:
        self._deliver(job_id, self.job_finished, self.latest_finished, result)

    def _failed(self, job_id: int, message: str) -> None:
        self._deliver(job_id, self.job_failed, self.latest_failed, message)

    def _cancelled(self, job_id: int) -> None:
        if self._jobs.end(job_id) is not None:
            self.job_cancelled.emit(job_id)
            self._idle_if_done()

    def _deliver(
        self, job_id: int, ended: SignalInstance, latest_ended: SignalInstance, value: object
    ) -> None:
        closed = self._jobs.end(job_id)
        if closed is None:
            return
        ended.emit(job_id, value)
        if closed.latest:
            latest_ended.emit(closed.key, value)
        self._idle_if_done()

    def _idle_if_done(self) -> None:
        if not self._jobs and not self._closed:
            self.idle.emit()


def _forget_client(service: JobService, jobs: JobBook[None], *_destroyed: object) -> None:
    """A client was destroyed: cancel its jobs (nothing is reported: no one is left)."""
    if shiboken6.isValid(service):  # else the window's lanes went first, and its jobs
        service.forget(list(jobs))
    jobs.clear()


class JobService(QObject):
    """The window's lanes and the clients on them; `idle()`: no job queued or running."""

    idle = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        """No thread yet: each lane's starts with its first job."""
        super().__init__(parent)
        self._runners: dict[Lane, TaskRunner] = {}
        self._routes = JobRoutes[JobClient](time.monotonic)  # job id → its client
        self._closed = False

    def client(self, name: str, lane: Lane = Lane.JOBS, parent: QObject | None = None) -> JobClient:
        """A handle for one feature (`name`, in logs and crash reports) on `lane`, owned
        by `parent` (its jobs end with it)."""
        return JobClient(self, name, lane, parent)

    @property
    def busy(self) -> bool:
        """Whether a job is queued or running on any lane."""
        return any(runner.is_busy() for runner in self._runners.values())

    def runner(self, lane: Lane) -> TaskRunner:
        """The lane's runner, its thread started on first use (for clients)."""
        runner = self._runners.get(lane)
        if runner is None:
            if self._closed:
                raise RuntimeError("the window's job service has been shut down")
            runner = TaskRunner(lane.value, parent=self)
            runner.job_started.connect(self._on_runner_job_started)
            runner.job_progress.connect(self._on_runner_job_progress)
            runner.job_finished.connect(self._on_runner_job_finished)
            runner.job_failed.connect(self._on_runner_job_failed)
            runner.job_cancelled.connect(self._on_runner_job_cancelled)
            runner.idle.connect(self._on_runner_idle)
            self._runners[lane] = runner
        return runner

    def started_runner(self, lane: Lane) -> TaskRunner | None:
        """The lane's runner if its thread has started."""
        return self._runners.get(lane)

    def adopt(self, job_id: int, client: JobClient) -> None:
        """Route the job's signals to `client` (called by the client as it submits)."""
        self._routes.adopt(job_id, client)

    def disown(self, job_id: int) -> None:
        """Drop whatever the job still reports (its client has let it go)."""
        self._routes.disown(job_id)

    def forget(self, job_ids: list[int]) -> None:
        """Cancel jobs whose client is gone, and drop what they report."""
        for job_id in job_ids:
            self.disown(job_id)
            for runner in self._runners.values():
                if runner.cancel(job_id):
                    break

    def shutdown(self, timeout_ms: int = SHUTDOWN_MS) -> bool:
        """Cancel every job and stop every lane's thread, waiting for each at most
        `timeout_ms` (on window close, after the file channel let its writes run). True
        if every thread ended. Safe to call more than once."""
        if self._closed:
            return all(runner.thread_finished for runner in self._runners.values())
        self._closed = True
        for runner in self._runners.values():
            runner.cancel_all()  # all lanes told at once, then each waited for
        ended = [runner.shutdown(timeout_ms) for runner in self._runners.values()]
        self._routes.clear()
        return all(ended)

    # -- lanes → clients (GUI thread) ------------------------------------------------------

    @Slot(int)
    def _on_runner_job_started(self, job_id: int) -> None:
        started = self._routes.started(job_id)
        if started is not None:
            client, waited_ms = started
            logger.debug(
                "%s job %d waited %.0f ms on %s", client.name, job_id, waited_ms, client.lane.value
            )
            client.job_started.emit(job_id)

    @Slot(int, int, str)
    def _on_runner_job_progress(self, job_id: int, step: int, message: str) -> None:
        client = self._routes.owner(job_id)
        if client is not None:
            client.job_progress.emit(job_id, step, message)

    @Slot(int, object)
    def _on_runner_job_finished(self, job_id: int, result: object) -> None:
        client = self._ended(job_id)
        if client is not None:
            client._finished(job_id, result)

    @Slot(int, str)
    def _on_runner_job_failed(self, job_id: int, message: str) -> None:
        client = self._ended(job_id)
        if client is not None:
            client._failed(job_id, message)

    @Slot(int)
    def _on_runner_job_cancelled(self, job_id: int) -> None:
        ended = self._routes.ended(job_id)
        if ended is not None:
            ended[0]._cancelled(job_id)

    def _ended(self, job_id: int) -> JobClient | None:
        """The client a job that ended reports to (None: let go), its run time logged."""
        ended = self._routes.ended(job_id)
        if ended is None:
            return None
        client, ran_ms = ended
        logger.debug("%s job %d ran %.0f ms on %s", client.name, job_id, ran_ms, client.lane.value)
        return client

    @Slot()
    def _on_runner_idle(self) -> None:
        if not self.busy:
            self.idle.emit()
