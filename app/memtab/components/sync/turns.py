"""The window's sync jobs, one at a time, without Qt: what runs next, what waits, what the
schedule does — `gui/sync/service.py` keeps only its timers, its job client and signals."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Literal

from memtab.components.activity.change_batch import ChangeBatch
from memtab.store.home import PathKind

SyncKind = Literal["look", "changes", "full"]
"""`look`: read where sync stands (no git, no network); `changes`: sync only when this
machine has changes to send (after an edit); `full`: sync every target (Sync now, the
schedule)."""

_RANK: dict[SyncKind, int] = {"look": 0, "changes": 1, "full": 2}
_MEMORY_KINDS = (PathKind.GLOBAL_SCOPE, PathKind.PROJECT_SCOPE, PathKind.WORKSPACE_SCOPE)


class Schedule(enum.Enum):
    """What the schedule's timer does after a job."""

    STOP = "stop"
    """Sync is not set up (or the window closes): no sync is scheduled."""
    FIRST = "first"
    """Sync was just found set up: the first full sync, soon."""
    INTERVAL = "interval"
    """A full sync ended: the next one an interval later."""
    KEEP = "keep"
    """A sync is scheduled already: it stays as it is."""


@dataclass(frozen=True)
class BatchWants:
    """What a watcher batch asks of the window's sync."""

    look: bool = False
    """Sync's set-up or a target's state changed (the CLI): look again now."""
    settle: bool = False
    """A memory file changed: sync once the changes settle, count what waits soon."""


def batch_wants(batch: ChangeBatch, *, configured: bool) -> BatchWants:
    """What `batch` asks of a sync `configured` (set up) or not."""
    return BatchWants(
        look=batch.affects(PathKind.SYNC),
        settle=configured and any(batch.affects(kind) for kind in _MEMORY_KINDS),
    )


def schedule_after(
    kind: SyncKind, *, configured: bool, scheduled: bool, closed: bool = False
) -> Schedule:
    """The schedule after a job of `kind` ended (`scheduled`: a sync is scheduled now)."""
    if closed or not configured:
        return Schedule.STOP
    if kind == "full":
        return Schedule.INTERVAL
    return Schedule.KEEP if scheduled else Schedule.FIRST


class SyncTurns:
    """One sync job at a time; the jobs' ids are the client's."""

    def __init__(self) -> None:
        self._running: tuple[int, SyncKind] | None = None
        self._waiting: SyncKind | None = None
        self.closed = False

    @property
    def busy(self) -> bool:
        """Whether a job runs or waits."""
        return self._running is not None or self._waiting is not None

    @property
    def syncing(self) -> bool:
        """Whether a sync that talks to the remote runs (not a look)."""
        return self._running is not None and self._running[1] != "look"

    @property
    def cancellable(self) -> int | None:
        """The job to stop on Cancel: the sync that runs (a look is not stopped)."""
        return self._running[0] if self._running is not None and self.syncing else None

    def request(self, kind: SyncKind) -> SyncKind | None:
        """A job of `kind` is wanted: the kind to submit now, or None (it waits for the
        one running, or the window closes)."""
        if self.closed:
            return None
        if self._running is not None:
            if self._waiting is None or _RANK[kind] > _RANK[self._waiting]:
                self._waiting = kind
            return None
        return kind

    def submitted(self, job_id: int, kind: SyncKind) -> None:
        """The job `job_id` of `kind` was submitted (what `request` or `ended` gave)."""
        self._running = (job_id, kind)

    def ended(self, job_id: int) -> tuple[SyncKind | None, SyncKind | None]:
        """The job `job_id` ended (finished, failed or was cancelled): its kind (None: not
        the one running) and the kind to submit now (what waited, unless closing)."""
        if self._running is None or self._running[0] != job_id:
            return None, None
        kind = self._running[1]
        self._running = None
        if self.closed:
            return kind, None
        waiting, self._waiting = self._waiting, None
        return kind, waiting
