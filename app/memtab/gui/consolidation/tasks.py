"""Consolidation runs in the window, on the job service's runs lane: each a
`ConsolidationRequest` handed whole to `consolidation/job.py`, in a child process (the default
service) or here (an injected one). Every accepted `start` ends with exactly one of
`run_finished`, `run_failed`, `run_cancelled` or (a run to review first) `plan_ready`; the
service's reservation refuses a second run. The service loads on first use (`preload()` when a
click is likely): a window nobody consolidates from never imports it.
"""

from __future__ import annotations

import functools
import importlib
import logging
import threading
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QObject, Signal, Slot

from memtab.consolidation.errors import ConsolidationError
from memtab.gui.tasks.jobs import JobService, Lane
from memtab.store.home import Home

if TYPE_CHECKING:  # lazy: the service (~1.5 MiB, ~25 ms) loads when Consolidate now is near
    from memtab.consolidation.job import RunOutcome
    from memtab.consolidation.records import ConsolidationPlan, ConsolidationRequest
    from memtab.consolidation.service import ConsolidationService, RunReservation

logger = logging.getLogger(__name__)

# Pure Python only: the preload thread imports them, and makes no Qt object.
_ENGINE_MODULES = ("memtab.consolidation.service", "memtab.consolidation.job")

ServiceFactory = Callable[[Home], "ConsolidationService"]


class ConsolidationTasks(QObject):
    """Starts and cancels consolidation runs off the GUI thread; signals on the GUI thread."""

    run_started = Signal(str)
    progress = Signal(int, str)
    run_finished = Signal(object)
    run_logged = Signal(str)
    run_failed = Signal(str)
    run_cancelled = Signal(str)
    plan_ready = Signal(object)
    # Emitted by the preload thread; queued to the GUI thread, which builds the service.
    _engine_imported = Signal()

    def __init__(
        self,
        home: Home,
        jobs: JobService,
        service_factory: ServiceFactory | None = None,
        parent: QObject | None = None,
    ) -> None:
        """Runs consolidate `home` on `jobs`' runs lane with the service `service_factory`
        builds: the default one is rebuilt the same in a child process, so its runs leave this
        process (and its interpreter lock) alone; an injected one runs in this process."""
        super().__init__(parent)
        self._home = home
        self._service_factory = service_factory
        self._service: ConsolidationService | None = None
        self._jobs = jobs.client("consolidation", Lane.RUNS, parent=self)
        self._reservations: dict[int, RunReservation] = {}
        self._preloading = False
        self._closed = False
        self._jobs.job_started.connect(self._on_jobs_job_started)
        self._jobs.job_progress.connect(self._on_jobs_job_progress)
        self._jobs.job_finished.connect(self._on_jobs_job_finished)
        self._jobs.job_failed.connect(self._on_jobs_job_failed)
        self._jobs.job_cancelled.connect(self._on_jobs_job_cancelled)
        self._engine_imported.connect(self._on_engine_imported)

    @property
    def loaded(self) -> bool:
        return self._service is not None

    @property
    def service(self) -> ConsolidationService:
        """The service runs are reserved on, built on first use."""
        if self._service is None:
            self._service = (self._service_factory or _job().ConsolidationService)(self._home)
        return self._service

    @property
    def is_running(self) -> bool:
        """Whether a run this facade started is queued or running."""
        return bool(self._reservations)

    @Slot()
    def preload(self) -> None:
        """Import the service on a background thread (no Qt objects are made there), once."""
        if self._service is None and not self._preloading:
            self._preloading = True
            threading.Thread(
                target=self._preload_engine, name="memtab-preload", daemon=True
            ).start()

    def _preload_engine(self) -> None:
        if not _import_engine():
            return
        try:
            self._engine_imported.emit()
        except RuntimeError:  # the window closed (and deleted this) while importing
            logger.debug("The consolidation engine was preloaded after the window closed")

    @Slot()
    def _on_engine_imported(self) -> None:
        # Build the service now, so the first click does not pay for it.
        if not self._closed:
            _ = self.service

    def start(self, request: ConsolidationRequest) -> bool:
        """Queue the run, plan or apply `request` asks for; False (and `run_failed`) if the
        service refuses it."""
        if self._closed:
            return False
        try:
            reservation = self.service.reserve(request.workspace_id, request.trigger)
        except ConsolidationError as refusal:
            self.run_failed.emit(str(refusal))
            return False
        if self._service_factory is None:
            job = functools.partial(_job().run_isolated, request, self._home.root)
        else:
            run = _job().run_for_outcome
            job = functools.partial(run, request, self.service, reservation=reservation)
        self._reservations[self._jobs.submit(job)] = reservation
        return True

    def review(self, plan: ConsolidationPlan) -> None:
        """Review a plan made elsewhere (the check's fixes) as a run's: `plan_ready`, so the
        footer opens the same review, and Apply starts it like any plan."""
        if not self._closed:
            self.plan_ready.emit(plan)

    def cancel(self) -> None:
        """Cancel every queued and running run (each reports `run_cancelled`)."""
        self._jobs.cancel_all()

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel every run (call on app close), waiting at most `timeout_ms` for the
        running one to stop; True if none runs any more."""
        self._closed = True
        return self._jobs.shutdown(timeout_ms)

    @Slot(int)
    def _on_jobs_job_started(self, job: int) -> None:
        if (reservation := self._reservations.get(job)) is not None:
            self.run_started.emit(reservation.workspace_id)

    @Slot(int, int, str)
    def _on_jobs_job_progress(self, job: int, step: int, message: str) -> None:
        if job in self._reservations:
            self.progress.emit(step, message)

    @Slot(int, object)
    def _on_jobs_job_finished(self, job: int, outcome: object) -> None:
        if self._end(job) is None:
            return
        ended = cast("RunOutcome", outcome)  # what `consolidation/job.py`'s jobs return
        if ended.plan is not None:
            self.plan_ready.emit(ended.plan)
        elif ended.record is not None:
            if ended.run_id is not None:
                self.run_logged.emit(ended.run_id)
            self.run_finished.emit(ended.record)
        else:
            self.run_failed.emit(ended.error or "the consolidation run failed")

    @Slot(int, str)
    def _on_jobs_job_failed(self, job: int, message: str) -> None:
        if self._end(job) is not None:
            logger.error("consolidation job failed unexpectedly: %s", message)
            self.run_failed.emit(message)

    @Slot(int)
    def _on_jobs_job_cancelled(self, job: int) -> None:
        workspace_id = self._end(job)
        if workspace_id is not None:
            self.run_cancelled.emit(workspace_id)

    def _end(self, job: int) -> str | None:
        """The job ended: give its place back to the service; returns its workspace."""
        reservation = self._reservations.pop(job, None)
        if reservation is None:
            return None
        reservation.release()
        return reservation.workspace_id


def _job() -> ModuleType:
    """`consolidation/job.py` (and the service it runs), imported on first use."""
    # lazy: as the module's TYPE_CHECKING block
    from memtab.consolidation import job

    return job


def _import_engine() -> bool:
    for name in _ENGINE_MODULES:
        try:
            importlib.import_module(name)
        except Exception:  # the click will report it properly
            logger.warning("Preloading %s failed", name, exc_info=True)
            return False
    return True
