"""The background writer's supervision without Qt: when it begins, which watch jobs a batch
asks for, which runs are queued or going, and the status each turn leaves —
`gui/writer/supervisor.py` keeps only its two job clients and signals."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.writer.status_line import WriterActivity, WriterStatus
from memtab.store.home import PathKind, PathPlace

STANDBY = "Another Memtab process runs the memory writer of this home"


class WatchJob(enum.Enum):
    """The writer's jobs on the jobs lane."""

    BEGIN = enum.auto()
    POLL = enum.auto()
    CHECK = enum.auto()


@dataclass(frozen=True)
class WatchStep:
    """A watch job to submit: `BEGIN`; `POLL` of `keys` (None: every transcript); `CHECK`
    of the writer states `keys`."""

    kind: WatchJob
    keys: list[str] | None = None


class Ticket(Protocol):
    """What supervision reads of a run's ticket (`writer.job.policy.RunTicket`)."""

    @property
    def workspace_id(self) -> str: ...


T = TypeVar("T", bound=Ticket)


class Supervision(Generic[T]):
    """The writer's supervision in one window; the jobs' ids are
    the clients'."""

    def __init__(self) -> None:
        self._watch_jobs: dict[int, WatchJob] = {}
        self._tickets: dict[int, T] = {}
        self._running: set[int] = set()
        self._names: dict[str, str] = {}
        self.status = WriterStatus()
        self._started = False
        self._active = False  # holds the lock and follows transcripts
        self._beginning = False  # a BEGIN job is queued or running
        self._changed_while_beginning = False
        self.closed = False

    # -- beginning ---------------------------------------------------------------------------

    def start(self) -> WatchStep | None:
        """The window starts the writer: the BEGIN to submit (None: started already, or
        closed)."""
        if self._started or self.closed:
            return None
        self._started = True
        return self._begin()

    def _begin(self) -> WatchStep | None:
        if self._beginning:
            return None
        self._beginning = True
        self._changed_while_beginning = False
        return WatchStep(WatchJob.BEGIN)

    def began(self, took_lock: bool) -> tuple[bool, WatchStep | None]:
        """The BEGIN job ended: whether the writer follows transcripts now (monitoring
        starts), and a poll of everything when a change came while the lock was taken."""
        self._beginning = False
        if not took_lock:
            self.status = replace(self.status, standby=True, message=STANDBY)
            return False, None
        self._active = True
        if self.status.standby:
            self.status = replace(self.status, standby=False, message="")
        if self._changed_while_beginning:
            # A change reported while the lock was being taken may postdate the ends the
            # prime read: look at every transcript once more.
            return True, WatchStep(WatchJob.POLL)
        return True, None

    def batch_steps(self, batch: ChangeBatch) -> list[WatchStep]:
        """The watch jobs a watcher batch asks for, in order."""
        if not self._started or self.closed:
            return []
        if not self._active:
            if self._beginning:
                self._changed_while_beginning = True
                return []
            step = self._begin()  # this batch is history to a newcomer: it starts at the end
            return [step] if step is not None else []
        steps = []
        states = sorted(batch.keys(PathKind.WRITER_STATE))
        if states:
            steps.append(WatchStep(WatchJob.CHECK, states))
        everything = batch.everything or PathPlace(PathKind.WORKSPACE_DIR) in batch.places
        transcripts = sorted(
            batch.keys(PathKind.CHAT_TRANSCRIPT) | batch.keys(PathKind.WORKSPACE_DIR)
        )
        if everything or transcripts:
            steps.append(WatchStep(WatchJob.POLL, None if everything else transcripts))
        return steps

    def watch_submitted(self, job: int, kind: WatchJob) -> None:
        self._watch_jobs[job] = kind

    def watch_ended(self, job: int, *, finished: bool = True) -> WatchJob | None:
        """The watch job `job` ended (not `finished`: it failed or was cancelled, and a
        BEGIN that did not finish is tried again with the next change): its kind."""
        kind = self._watch_jobs.pop(job, None)
        if kind is WatchJob.BEGIN and not finished:
            self._beginning = False
        return kind

    # -- runs --------------------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        return self.status.paused

    def set_paused(self, paused: bool) -> list[int] | None:
        """Pause or resume: the queued runs to withdraw (None: it was so already)."""
        if paused == self.status.paused:
            return None
        self.status = replace(self.status, paused=paused)
        return self.queued() if paused else []

    def queued(self) -> list[int]:
        """The runs queued and not going yet (withdrawn when paused or turned off)."""
        return [job for job in self._tickets if job not in self._running]

    def polled(self, names: dict[str, str], tickets: Iterable[T]) -> tuple[list[T], list[T]]:
        """A poll's tickets (and the workspaces' names): those to run and those abandoned
        (paused or closing)."""
        self._names.update(names)
        if self.closed or self.paused:
            return [], list(tickets)
        return list(tickets), []

    def run_submitted(self, job: int, ticket: T) -> None:
        self._tickets[job] = ticket

    def run_started(self, job: int) -> T | None:
        """The run `job` starts: its ticket (None: not a run of ours); the status says so."""
        ticket = self._tickets.get(job)
        if ticket is None:
            return None
        self._running.add(job)
        self.status = replace(
            self.status,
            activity=WriterActivity.RUNNING,
            workspace_id=ticket.workspace_id,
            workspace_name=self._name(ticket),
            trace_path=None,
        )
        return ticket

    def run_ended(self, job: int) -> tuple[T | None, bool]:
        """The run `job` ended: its ticket (None: not a run of ours) and whether it had
        started."""
        started = job in self._running
        self._running.discard(job)
        return self._tickets.pop(job, None), started

    def settle(
        self, activity: WriterActivity, ticket: T, message: str, trace: Path | None = None
    ) -> None:
        """The status a run's end leaves."""
        self.status = replace(
            self.status,
            activity=activity,
            workspace_id=ticket.workspace_id,
            workspace_name=self._name(ticket),
            message=message,
            trace_path=trace,
        )

    def _name(self, ticket: T) -> str:
        return self._names.get(ticket.workspace_id) or ticket.workspace_id
