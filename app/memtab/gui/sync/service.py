"""The window's sync: git sync in the background (docs/formats.md §18), on change, on a
schedule and on Sync now; one sync at a time on the job service's runs lane, each job
ending with a look (`SyncLook`) at what waits to be sent and brought in.
"""

from __future__ import annotations

import dataclasses
import functools

from PySide6.QtCore import QObject, Signal, Slot

from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.sync.status import (
    Schedule,
    SyncKind,
    SyncLook,
    SyncTurns,
    batch_wants,
    look_or_sync,
    schedule_after,
)
from memtab.gui.tasks.jobs import JobClient, JobService, Lane
from memtab.gui.toolkit.clock import QT_CLOCK, GuiClock
from memtab.store.home import Home

DEBOUNCE_MS = 20_000  # edits settled this long are sent (a burst of saves is one sync)
INTERVAL_MS = 5 * 60_000  # how often every target is synced (what the others sent comes in)
FIRST_SYNC_MS = 3_000  # the first full sync after `start()`, once the window has settled
LOOK_MS = 1_500  # after a memory file changed, when the status bar's "↑1" is counted


class WindowSync(QObject):
    """Sync of one window's home in the background (see the module docstring)."""

    changed = Signal(object)
    busy_changed = Signal(bool)
    progress = Signal(str)
    finished = Signal(object)

    def __init__(
        self,
        home: Home,
        jobs: JobService,
        *,
        clock: GuiClock = QT_CLOCK,
        debounce_ms: int = DEBOUNCE_MS,
        interval_ms: int = INTERVAL_MS,
        first_sync_ms: int = FIRST_SYNC_MS,
        git_program: str | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.home = home
        self.git_program = git_program
        """The git program to run (None: `git` on PATH)."""
        self._debounce_ms = debounce_ms
        self._interval_ms = interval_ms
        self._first_sync_ms = first_sync_ms
        self._jobs_service = jobs
        self._client: JobClient | None = None  # made with the first job
        timer = functools.partial(clock.timer, self, single_shot=True)
        self._debounce = timer(functools.partial(self._request, "changes"))
        self._schedule = timer(functools.partial(self._request, "full"))
        self._look_soon = timer(functools.partial(self._request, "look"))
        self._turns = SyncTurns()
        self._started = False
        self.look = SyncLook()
        """Where sync stood after the last job (not set up until the first look)."""
        self.looked = False
        """Whether a job has said where sync stands (`look` is more than a guess)."""

    @property
    def configured(self) -> bool:
        """Whether the home has a sync target (as of the last job)."""
        return self.look.configured

    @property
    def busy(self) -> bool:
        """Whether a sync (or a look) is running or waiting."""
        return self._turns.busy

    @property
    def syncing(self) -> bool:
        """Whether a sync that talks to the remote is running."""
        return self._turns.syncing

    def start(self) -> None:
        """Look at where sync stands; sync soon when it is set up."""
        if self._started:
            return
        self._started = True
        self._request("look")

    def sync_now(self) -> None:
        """Sync every target now (File → Sync now)."""
        self._request("full")

    def cancel(self) -> bool:
        """Stop the sync that runs (its git is stopped; what it committed stays, and a
        merge being written is finished first); True if one ran. `finished(None)` once it
        has stopped."""
        job_id = self._turns.cancellable
        return False if self._client is None or job_id is None else self._client.cancel(job_id)

    def look_again(self) -> None:
        """Read where sync stands (after a conflict was resolved)."""
        self._request("look")

    @Slot(object)
    def follow_changes(self, batch: ChangeBatch) -> None:
        """A watcher batch: a memory file changed → sync once the changes settle; sync's
        set-up or a target's state changed (the CLI) → look again."""
        if not self._started or self._turns.closed:
            return
        wants = batch_wants(batch, configured=self.configured)
        if wants.look:
            self._request("look")
        if wants.settle:
            self._debounce.start(self._debounce_ms)
            self._look_soon.start(LOOK_MS)  # what waits to be sent, counted before then

    def shutdown(self) -> None:
        """Stop: a running sync is cancelled (git is stopped; what it did is kept)."""
        self._turns.closed = True
        self._debounce.stop()
        self._schedule.stop()
        self._look_soon.stop()
        if self._client is not None:
            self._client.shutdown()

    def _request(self, kind: SyncKind) -> None:
        now = self._turns.request(kind)
        if now is not None:
            self._submit(now)

    def _submit(self, kind: SyncKind) -> None:
        job = functools.partial(look_or_sync, self.home, kind, self.git_program)
        self._turns.submitted(self._jobs().submit(job), kind)
        if self.syncing:
            self.busy_changed.emit(True)

    def _jobs(self) -> JobClient:
        if self._client is None:
            self._client = self._jobs_service.client("sync", Lane.RUNS, parent=self)
            self._client.job_finished.connect(self._on_client_job_finished)
            self._client.job_failed.connect(self._on_client_job_failed)
            self._client.job_cancelled.connect(self._on_client_job_cancelled)
            self._client.job_progress.connect(self._on_client_job_progress)
        return self._client

    def _ended(self, job_id: int) -> SyncKind | None:
        kind, waiting = self._turns.ended(job_id)
        if kind is not None and kind != "look":
            self.busy_changed.emit(False)
        if waiting is not None:
            self._submit(waiting)
        return kind

    def _plan_next(self, kind: SyncKind) -> None:
        schedule = schedule_after(
            kind,
            configured=self.configured,
            scheduled=self._schedule.isActive(),
            closed=self._turns.closed,
        )
        if schedule is Schedule.STOP:
            self._schedule.stop()
        elif schedule is Schedule.INTERVAL:
            self._schedule.start(self._interval_ms)
        elif schedule is Schedule.FIRST:
            self._schedule.start(self._first_sync_ms)

    @Slot(int, object)
    def _on_client_job_finished(self, job_id: int, result: object) -> None:
        kind = self._ended(job_id)
        if kind is None or not isinstance(result, SyncLook):
            return
        if not result.synced and result.configured:  # what the last sync did still stands
            result = dataclasses.replace(result, report=self.look.report)
        self._looked(kind, result)

    @Slot(int, str)
    def _on_client_job_failed(self, job_id: int, message: str) -> None:
        kind = self._ended(job_id)
        if kind is not None:
            self._looked(kind, dataclasses.replace(self.look, synced=False, error=message))

    def _looked(self, kind: SyncKind, look: SyncLook) -> None:
        self.look = look
        self.looked = True
        self._plan_next(kind)
        self.changed.emit(look)
        if kind != "look":
            self.finished.emit(look)

    @Slot(int)
    def _on_client_job_cancelled(self, job_id: int) -> None:
        kind = self._ended(job_id)
        if kind is not None and kind != "look" and not self._turns.closed:
            self.finished.emit(None)
            self._request("look")  # where the stopped sync left things

    @Slot(int, int, str)
    def _on_client_job_progress(self, job_id: int, step: int, message: str) -> None:
        self.progress.emit(message)
