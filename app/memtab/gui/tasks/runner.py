"""One worker thread that runs jobs in order: a lane of the window's job service. Every job
ends with exactly one of `job_finished`, `job_failed` or `job_cancelled` on the GUI thread;
worker signals connect only to bound `@Slot` methods (a lambda would run on the worker).
"""

from __future__ import annotations

import functools
import itertools
import logging
import threading

import shiboken6
from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QObject,
    Qt,
    QThread,
    Signal,
    SignalInstance,
    Slot,
)

from memtab.components.jobs import Ended, Job, JobBook, JobContext, JobFunction, Outcome, run_job
from memtab.gui.toolkit.crash_reports import is_defect, report_exception

logger = logging.getLogger(__name__)

# Job ids are unique across every runner of the process, so logs and facades that listen
# to several runners never confuse two jobs.
_job_ids = itertools.count(1)

# Threads whose job ignored cancellation past shutdown's timeout. A QThread destroyed
# while running aborts the process, so they are kept alive here until they end.
_abandoned_threads: list[tuple[QThread, QObject]] = []
# How long a runner destroyed before its shutdown waits for its job to see the cancel.
ORPHAN_STOP_MS = 2000


def _stop_orphaned_thread(
    thread: QThread, worker: QObject, jobs: JobBook[Job], name: str, *_destroyed: object
) -> None:
    """A runner was destroyed: cancel its jobs and stop its thread, as `shutdown` does
    (nothing is reported: there is no one left to tell)."""
    if not shiboken6.isValid(thread) or thread.isFinished():
        return  # shut down before (or the interpreter's exit deleted it first)
    for job in jobs.items():
        job.cancel()
    jobs.clear()
    thread.quit()
    if not thread.wait(ORPHAN_STOP_MS):
        _abandon(thread, worker, name, ORPHAN_STOP_MS)


def _abandon(thread: QThread, worker: QObject, name: str, waited_ms: int) -> None:
    logger.error("The %s worker did not stop within %d ms; leaving it to finish", name, waited_ms)
    _abandoned_threads.append((thread, worker))


class _Worker(QObject):
    """Lives on the runner's QThread and runs each job it is handed, in order."""

    job_started = Signal(int)
    job_progress = Signal(int, int, str)
    job_finished = Signal(int, object)
    job_failed = Signal(int, str)
    job_cancelled = Signal(int)

    @Slot(object)
    def _on_runner_job_submitted(self, job: Job) -> None:
        try:
            if job.claim():  # else withdrawn while queued; the runner already reported it
                self.job_started.emit(job.job_id)
                self._report(job.job_id, run_job(job, _job_failed))
        finally:
            job.reported.set()

    def _report(self, job_id: int, ended: Ended) -> None:
        outcome, value = ended
        if outcome is Outcome.FINISHED:
            self.job_finished.emit(job_id, value)
        elif outcome is Outcome.FAILED:
            self.job_failed.emit(job_id, str(value))
        else:
            self.job_cancelled.emit(job_id)


def _job_failed(job: Job, exc: BaseException) -> None:
    """A job failed: logged with its traceback, and a defect (an exception type Memtab does
    not define) goes to the crash dialog too."""
    logger.error("Background job %d of %s (%r) failed", job.job_id, job.label, job.fn, exc_info=exc)
    if is_defect(exc):
        thread = QThread.currentThread().objectName()
        report_exception(f"a background job ({job.label}, on {thread})", exc)


class TaskRunner(QObject):
    """Runs jobs one at a time on its own worker thread; created, used and shut down on the
    GUI thread, where job_started(id), job_progress(id, step, message), one of
    job_finished(id, result) / job_failed(id, message) / job_cancelled(id), and idle() arrive."""

    job_started = Signal(int)
    job_progress = Signal(int, int, str)
    job_finished = Signal(int, object)
    job_failed = Signal(int, str)
    job_cancelled = Signal(int)
    idle = Signal()
    _job_submitted = Signal(object)

    def __init__(self, name: str = "tasks", parent: QObject | None = None) -> None:
        """Start the worker thread (named `memtab-<name>`, as shown in debuggers)."""
        super().__init__(parent)
        self.name = name
        self._jobs = JobBook[Job]()
        self._closed = False

        self._thread = QThread()
        self._thread.setObjectName(f"memtab-{name}")
        self._worker = _Worker()
        self._worker.moveToThread(self._thread)
        # Qt deletes the worker on its own thread once that thread's loop has ended.
        self._thread.finished.connect(self._worker.deleteLater)

        queued = Qt.ConnectionType.QueuedConnection
        self._job_submitted.connect(self._worker._on_runner_job_submitted, queued)
        self._worker.job_started.connect(self._on_worker_job_started, queued)
        self._worker.job_progress.connect(self._on_worker_job_progress, queued)
        self._worker.job_finished.connect(self._on_worker_job_finished, queued)
        self._worker.job_failed.connect(self._on_worker_job_failed, queued)
        self._worker.job_cancelled.connect(self._on_worker_job_cancelled, queued)

        app = QCoreApplication.instance()
        if app is not None:
            # A safety net: the owner should call shutdown() itself on close.
            app.aboutToQuit.connect(self.shutdown)
        # Another: deleted with its owner before shutdown() (a dialog destroyed unclosed),
        # the runner still stops its thread — one destroyed while running aborts.
        self.destroyed.connect(
            functools.partial(_stop_orphaned_thread, self._thread, self._worker, self._jobs, name)
        )
        self._thread.start()

    @property
    def thread_finished(self) -> bool:
        """Whether the worker thread has ended (after `shutdown`)."""
        return self._thread.isFinished()

    def submit(self, fn: JobFunction, *, key: str | None = None, label: str = "") -> int:
        """Queue `fn` to run on the worker thread; return its job id. A `key` cancels every
        older job with it first; `label` names the job in the log and the crash dialog."""
        if self._closed:
            raise RuntimeError(f"the {self.name} task runner has been shut down")
        job_id = next(_job_ids)
        context = JobContext(job_id, threading.Event(), self._worker.job_progress.emit)
        job = Job(fn, key, context, label or self.name)
        older = self._jobs.with_key(key)
        # Known before the older ones are cancelled, so the runner never looks idle between.
        self._jobs.add(job_id, key, job)
        for superseded in older:
            self._cancel(superseded)
        self._job_submitted.emit(job)
        return job_id

    def cancel(self, job_id: int) -> bool:
        """Cancel a job; False if it is unknown or has already ended."""
        job = self._jobs.get(job_id)
        if job is None:
            return False
        self._cancel(job)
        return True

    def cancel_all(self) -> None:
        for job in self._jobs.items():
            self._cancel(job)

    def is_busy(self, key: str | None = None) -> bool:
        """Whether any job (with `key`, if given) is queued or running."""
        return self._jobs.busy(key)

    def drain(self, timeout_ms: int) -> bool:
        """Wait (blocking, at most `timeout_ms`) until every job queued now has run, and
        deliver their results; True if they all ran. For a close that must not drop
        queued writes: call it before `shutdown`, which cancels what is left."""
        if self._closed or not self._jobs:
            return True
        reached = threading.Event()
        self.submit(lambda _context: reached.set())
        ran = reached.wait(max(timeout_ms, 0) / 1000)
        # Deliver what the worker reported meanwhile (queued to this object).
        QCoreApplication.sendPostedEvents(self, QEvent.Type.MetaCall)
        return ran

    def wait_briefly(self, job_id: int, timeout_ms: float) -> bool:
        """Wait (at most `timeout_ms`) for a job usually done in a moment, and deliver its
        outcome before returning, so the window shows it in the same frame; True if it ended."""
        job = self._jobs.get(job_id)
        if job is None:
            return True
        if not job.reported.wait(max(timeout_ms, 0) / 1000):
            return False
        QCoreApplication.sendPostedEvents(self, QEvent.Type.MetaCall)
        return job_id not in self._jobs

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel everything, stop the worker thread and wait for it (at most `timeout_ms`);
        True if it ended (else a job ignoring its cancel finishes unreported). Every known job
        gets its final signal first; no more jobs are taken. Safe to call twice."""
        if self._closed:
            return self._thread.isFinished()
        self._closed = True
        self.cancel_all()
        self._thread.quit()
        ended = self._thread.wait(timeout_ms)
        if ended:
            # Deliver what the worker reported before it stopped (queued to this object).
            QCoreApplication.sendPostedEvents(self, QEvent.Type.MetaCall)
        else:
            _abandon(self._thread, self._worker, self.name, timeout_ms)
        for job_id in self._jobs:
            self._jobs.end(job_id)
            self.job_cancelled.emit(job_id)
        return ended

    def _cancel(self, job: Job) -> None:
        if job.cancel():
            # It never ran and never will: report it now rather than when the worker
            # reaches it, possibly much later behind a long job.
            self._jobs.end(job.job_id)
            self.job_cancelled.emit(job.job_id)
            self._emit_idle_if_done()

    def _emit_idle_if_done(self) -> None:
        if not self._jobs and not self._closed:
            self.idle.emit()

    # -- worker → GUI thread -----------------------------------------------------------

    @Slot(int)
    def _on_worker_job_started(self, job_id: int) -> None:
        if job_id in self._jobs:
            self.job_started.emit(job_id)

    @Slot(int, int, str)
    def _on_worker_job_progress(self, job_id: int, step: int, message: str) -> None:
        job = self._jobs.get(job_id)
        if job is not None and not job.context.is_cancelled():
            self.job_progress.emit(job_id, step, message)

    @Slot(int, object)
    def _on_worker_job_finished(self, job_id: int, result: object) -> None:
        self._deliver(job_id, self.job_finished, result)

    @Slot(int, str)
    def _on_worker_job_failed(self, job_id: int, message: str) -> None:
        self._deliver(job_id, self.job_failed, message)

    def _deliver(self, job_id: int, ended: SignalInstance, value: object) -> None:
        """A job's outcome from the worker: reported, unless it was cancelled meanwhile."""
        job = self._jobs.get(job_id)
        if job is None or self._jobs.end(job_id) is None:
            return
        if job.context.is_cancelled():
            self.job_cancelled.emit(job_id)
        else:
            ended.emit(job_id, value)
        self._emit_idle_if_done()

    @Slot(int)
    def _on_worker_job_cancelled(self, job_id: int) -> None:
        if self._jobs.end(job_id) is not None:
            self.job_cancelled.emit(job_id)
            self._emit_idle_if_done()
