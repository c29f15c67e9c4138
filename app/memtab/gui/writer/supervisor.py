"""The background memory writer in the app: a GUI-thread facade over two job clients.

Wire it to the home watcher and the status bar::

    supervisor = WriterSupervisor(home, context.jobs, parent=window)
    supervisor.attach(context.changes)   # the watcher's classified batches → polls
    status_widget.attach(supervisor)     # status, "view trace", pause/resume
    supervisor.start()                   # follow every transcript from its current end
    ...
    supervisor.shutdown()                # on close

How it works (`memtab.writer.job.service.WriterService` does the work, off the GUI thread,
through `operations.writer`):

- The watcher reports `sessions/<ws>/chat.jsonl` changing → a poll job on the job
  service's *jobs* lane reads the new lines, counts completed assistant turns of eligible workspaces
  (registered, not archived, not a child task) and applies the every-N-turns policy.
- Each run the policy starts is a job on the *runs* lane (one run at a time; a run of
  a workspace is "in flight" from the moment the policy starts it, so no second run of it
  can start meanwhile). The memory file it writes reaches the views through the watcher.
- The watcher reports a writer state file changing → a check job on the jobs lane;
  in `auto` mode a state advanced by another process (mux running its own writer) makes
  the supervisor leave that workspace to it (`external_writer_detected`).
- Paused, polls consume new lines without counting them and no run starts; runs still
  queued are withdrawn (a run already going finishes). The writer turned off in Settings
  withdraws them too, at once (`follow_settings`: the context's settings news); each run
  reads the model and settings when it starts, so a run queued before a save uses it.
- One Memtab process per home supervises the writer (`memtab.writer.job.lock`): a second
  one stands by (`status.standby`) and takes over when the first exits.

Signals (GUI thread): `status_changed(WriterStatus)`, `run_started(str workspace_id)`,
`run_finished(WriterRunResult)` (it wrote, or found nothing new),
`run_failed(str workspace_id, str message, object trace_path_or_None)`,
`external_writer_detected(str workspace_id)`, `monitoring_started()` once transcripts
are followed, and `transcripts_checked(list[str])` after each poll (the workspace ids).
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar

from PySide6.QtCore import QObject, Signal, SignalInstance, Slot

from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.jobs import JobFunction
from memtab.components.window.settings_news import SettingsChange, SettingsSection
from memtab.components.writer.supervision import (
    Supervision,
    WatchJob,
    WatchStep,
    WriterActivity,
    WriterStatus,
)
from memtab.gui.tasks.jobs import JobService, Lane
from memtab.operations.writer import begin, check_states, poll, run
from memtab.store.home import Home
from memtab.writer.config import parse_writer_settings
from memtab.writer.config_values import WriterMode
from memtab.writer.job.lock import WriterLock
from memtab.writer.job.policy import RunTicket
from memtab.writer.job.result import WriterRunResult
from memtab.writer.job.service import PollResult, WriterService

logger = logging.getLogger(__name__)
R = TypeVar("R")


class ChangePublisher(Protocol):
    """What publishes the watcher's batches of the home (`gui.context.ChangeFeed`)."""

    @property
    def published(self) -> SignalInstance:
        """Signal(ChangeBatch): one batch of changed paths, classified."""
        ...


class SettingsPublisher(Protocol):
    """What publishes settings.json's changes (`gui.context.SettingsFeed`)."""

    @property
    def published(self) -> SignalInstance:
        """Signal(SettingsChange): which sections changed, and what they hold now."""
        ...


class WriterSupervisor(QObject):
    """Runs the memory writer in the background (see the module docstring)."""

    status_changed = Signal(object)
    run_started = Signal(str)
    run_finished = Signal(object)
    run_failed = Signal(str, str, object)
    external_writer_detected = Signal(str)
    monitoring_started = Signal()
    transcripts_checked = Signal(object)

    def __init__(
        self,
        home: Home,
        jobs: JobService,
        parent: QObject | None = None,
        *,
        service: WriterService | None = None,
    ) -> None:
        """Nothing is watched or run until `start()`; polls run on `jobs`' jobs lane, runs
        on its runs lane."""
        super().__init__(parent)
        self._home = home
        self._service = service or WriterService(home)
        self._watch_client = jobs.client("writer-watch", Lane.JOBS, parent=self)
        self._run_client = jobs.client("writer-runs", Lane.RUNS, parent=self)
        self._turns: Supervision[RunTicket] = Supervision()
        self._pause = threading.Event()  # `paused`, for the polls on their lane
        self._writer_lock = WriterLock(home)

        self._watch_client.job_finished.connect(self._on_watch_client_job_finished)
        self._watch_client.job_failed.connect(self._on_watch_client_job_failed)
        self._watch_client.job_cancelled.connect(self._on_watch_client_job_cancelled)
        self._run_client.job_started.connect(self._on_run_client_job_started)
        self._run_client.job_finished.connect(self._on_run_client_job_finished)
        self._run_client.job_failed.connect(self._on_run_client_job_failed)
        self._run_client.job_cancelled.connect(self._on_run_client_job_cancelled)

    # --- public API ---------------------------------------------------------------------

    @property
    def status(self) -> WriterStatus:
        """The current status (also sent with every `status_changed`)."""
        return self._turns.status

    @property
    def paused(self) -> bool:
        """Whether runs are paused."""
        return self._turns.paused

    @property
    def service(self) -> WriterService:
        """The Qt-free service the worker jobs call."""
        return self._service

    def attach(self, changes: ChangePublisher) -> None:
        """Follow the batches of a watcher of this supervisor's home (`context.changes`)."""
        changes.published.connect(self._on_changes_published)

    def start(self) -> None:
        """Follow every transcript from its current end; later changes count. If another
        Memtab process runs the writer of this home, stand by until it is gone."""
        step = self._turns.start()
        if step is not None:
            self._submit_watch(step)

    def _began(self, took_lock: bool) -> None:
        active, poll_again = self._changed(lambda: self._turns.began(took_lock))
        if active:
            self.monitoring_started.emit()
        if poll_again is not None:
            self._submit_watch(poll_again)

    @Slot(bool)
    def set_paused(self, paused: bool) -> None:
        """Pause (no new runs; queued ones are withdrawn) or resume."""
        before = self._turns.status
        withdrawn = self._turns.set_paused(paused)
        if withdrawn is None:
            return
        if paused:
            self._pause.set()
        else:
            self._pause.clear()
        for job in withdrawn:
            self._run_client.cancel(job)
        self._changed(lambda: None, before)

    def follow_settings(self, settings: SettingsPublisher) -> None:
        """Apply the writer's settings as they are saved (`context.settings`): the writer
        turned off withdraws the runs still queued at once (a run going finishes, as when
        paused); every run started after a save reads the model and settings saved."""
        settings.published.connect(self._on_settings_published)

    @Slot(object)
    def _on_settings_published(self, change: SettingsChange) -> None:
        writer = change.section("writer") if change.touches(SettingsSection.WRITER) else None
        if writer is not None and parse_writer_settings(writer).mode is WriterMode.OFF:
            self._withdraw_queued()

    def _withdraw_queued(self) -> None:
        for job in self._turns.queued():
            self._run_client.cancel(job)

    def shutdown(self, timeout_ms: int = 5000) -> None:
        """Stop following and running (a run in progress is cancelled within about a
        second; its end is waited for, at most `timeout_ms`, before the lock is let go)."""
        if self._turns.closed:
            return
        self._turns.closed = True
        self._watch_client.shutdown(timeout_ms)
        self._run_client.shutdown(timeout_ms)
        self._writer_lock.release()

    # --- watcher ------------------------------------------------------------------------

    @Slot(object)
    def _on_changes_published(self, batch: ChangeBatch) -> None:
        for step in self._turns.batch_steps(batch):
            self._submit_watch(step)

    def _submit_watch(self, step: WatchStep) -> None:
        job: JobFunction
        if step.kind is WatchJob.BEGIN:
            job = functools.partial(begin, self._writer_lock, self._service)
        elif step.kind is WatchJob.CHECK:
            job = functools.partial(check_states, self._service, step.keys or [])
        else:
            job = functools.partial(poll, self._service, step.keys, self._pause.is_set)
        self._turns.watch_submitted(self._watch_client.submit(job), step.kind)

    @Slot(int, object)
    def _on_watch_client_job_finished(self, job: int, result: object) -> None:
        kind = self._turns.watch_ended(job)
        if kind is WatchJob.BEGIN:
            self._began(result is True)
        elif kind is WatchJob.POLL and isinstance(result, PollResult):
            self._start_runs(result)
            self.transcripts_checked.emit(result.polled)
        elif kind is WatchJob.CHECK and isinstance(result, list):
            for workspace_id in result:
                self.external_writer_detected.emit(workspace_id)

    @Slot(int, str)
    def _on_watch_client_job_failed(self, job: int, message: str) -> None:
        kind = self._turns.watch_ended(job, finished=False)  # a BEGIN: the next change retries
        logger.warning("Memory writer: %s job failed: %s", kind.name if kind else "?", message)

    @Slot(int)
    def _on_watch_client_job_cancelled(self, job: int) -> None:
        self._turns.watch_ended(job, finished=False)

    def _start_runs(self, result: PollResult) -> None:
        runs, abandoned = self._turns.polled(result.names, result.tickets)
        for ticket in abandoned:
            self._service.abandon(ticket)
        for ticket in runs:
            job = self._run_client.submit(functools.partial(run, self._service, ticket))
            self._turns.run_submitted(job, ticket)

    # --- runs ---------------------------------------------------------------------------

    @Slot(int)
    def _on_run_client_job_started(self, job: int) -> None:
        ticket = self._changed(lambda: self._turns.run_started(job))
        if ticket is not None:
            self.run_started.emit(ticket.workspace_id)

    @Slot(int, object)
    def _on_run_client_job_finished(self, job: int, result: object) -> None:
        ticket, _ = self._turns.run_ended(job)
        if ticket is None or not isinstance(result, WriterRunResult):
            return
        if result.ok:
            self._settle(WriterActivity.IDLE, ticket, result.summary(), None)
            self.run_finished.emit(result)
        else:
            message = result.error or "the memory writer failed"
            self._settle(WriterActivity.FAILED, ticket, message, result.trace_path)
            self.run_failed.emit(ticket.workspace_id, message, result.trace_path)

    @Slot(int, str)
    def _on_run_client_job_failed(self, job: int, message: str) -> None:
        ticket, _ = self._turns.run_ended(job)
        if ticket is None:
            return
        self._settle(WriterActivity.FAILED, ticket, message, None)
        self.run_failed.emit(ticket.workspace_id, message, None)

    @Slot(int)
    def _on_run_client_job_cancelled(self, job: int) -> None:
        ticket, started = self._turns.run_ended(job)
        if ticket is None:
            return
        if not started:
            self._service.abandon(ticket)  # never ran: the next turn runs instead
        if started and not self._turns.closed:
            self._settle(WriterActivity.IDLE, ticket, "cancelled", None)

    def _settle(
        self, activity: WriterActivity, ticket: RunTicket, message: str, trace: Path | None
    ) -> None:
        self._changed(lambda: self._turns.settle(activity, ticket, message, trace))

    def _changed(self, turn: Callable[[], R], before: WriterStatus | None = None) -> R:
        """Take a turn of the supervision; its status changed (since `before`): say so."""
        before = self._turns.status if before is None else before
        result = turn()
        if self._turns.status != before:
            self.status_changed.emit(self._turns.status)
        return result
