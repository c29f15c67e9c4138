"""Consolidation runs in the window, on the job service's runs lane
(`components.consolidation.jobs`). Every accepted `start` ends with exactly one of
`run_finished`, `run_failed`, `run_cancelled` or (a run to review first) `plan_ready`; the
service's reservation refuses a second run.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence

from PySide6.QtCore import QObject, Signal, Slot

from memtab.components.consolidation.jobs import RunRequest, consolidate
from memtab.consolidation.errors import ConsolidationError
from memtab.consolidation.job import PlanChoice, RunOutcome
from memtab.consolidation.records import ConsolidationPlan
from memtab.consolidation.service import ConsolidationService, RunReservation
from memtab.gui.tasks.jobs import JobService, Lane
from memtab.store.home import Home
from memtab.store.sidecars.journal import RunScope, Trigger

logger = logging.getLogger(__name__)


def default_service(home: Home) -> ConsolidationService:
    """The service of a window's runs when none is given: the one a child process builds
    the same on the same home (`consolidation/job.py`), so the runs may leave this process."""
    return ConsolidationService(home)


class ConsolidationTasks(QObject):
    """Starts and cancels consolidation runs off the GUI thread; signals on the GUI thread."""

    run_started = Signal(str)
    progress = Signal(int, str)
    run_finished = Signal(object)
    run_logged = Signal(str)
    run_failed = Signal(str)
    run_cancelled = Signal(str)
    plan_ready = Signal(object)

    def __init__(
        self,
        service: ConsolidationService,
        jobs: JobService,
        parent: QObject | None = None,
        *,
        isolated: bool = False,
    ) -> None:
        """Runs use `service`, on `jobs`' runs lane; `isolated` runs each in a child process
        on the service's home (a fresh default service there), which keeps the GUI thread
        smooth."""
        super().__init__(parent)
        self.service = service
        self._isolated = isolated
        self._jobs = jobs.client("consolidation", Lane.RUNS, parent=self)
        self._reservations: dict[int, RunReservation] = {}
        self._jobs.job_started.connect(self._on_jobs_job_started)
        self._jobs.job_progress.connect(self._on_jobs_job_progress)
        self._jobs.job_finished.connect(self._on_jobs_job_finished)
        self._jobs.job_failed.connect(self._on_jobs_job_failed)
        self._jobs.job_cancelled.connect(self._on_jobs_job_cancelled)

    @property
    def is_running(self) -> bool:
        """Whether a run this facade started is queued or running."""
        return bool(self._reservations)

    def start(
        self,
        workspace_id: str,
        trigger: Trigger = "manual",
        *,
        review: bool | None = False,
        scope: RunScope | None = None,
    ) -> bool:
        """Queue a run (`review`: a plan instead; None: as the setting says; `scope`: of
        that scope alone); False (and `run_failed`) if the service refuses it."""
        return self._submit(workspace_id, RunRequest(trigger, review, scope=scope))

    def apply(self, plan: ConsolidationPlan, accepted: Sequence[int]) -> bool:
        """Queue the application of the accepted ops of a reviewed plan (a run of its
        own: `run_started` … `run_finished`); False (and `run_failed`) if refused."""
        choice = PlanChoice(plan, tuple(accepted))
        return self._submit(plan.workspace_id, RunRequest(plan.trigger, choice=choice))

    def _submit(self, workspace_id: str, request: RunRequest) -> bool:
        try:
            reservation = self.service.reserve(workspace_id, request.trigger)
        except ConsolidationError as refusal:
            self.run_failed.emit(str(refusal))
            return False
        job = self._jobs.submit(
            functools.partial(consolidate, self.service, reservation, request, self._isolated)
        )
        self._reservations[job] = reservation
        return True

    def cancel(self) -> None:
        """Cancel every queued and running run (each reports `run_cancelled`)."""
        self._jobs.cancel_all()

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel every run (call on app close), waiting at most `timeout_ms` for the
        running one to stop; True if none runs any more."""
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
        assert isinstance(outcome, RunOutcome)
        if outcome.plan is not None:
            self.plan_ready.emit(outcome.plan)
        elif outcome.record is not None:
            if outcome.run_id is not None:
                self.run_logged.emit(outcome.run_id)
            self.run_finished.emit(outcome.record)
        else:
            self.run_failed.emit(outcome.error or "the consolidation run failed")

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
