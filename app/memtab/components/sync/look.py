"""What the window's sync does on its lane: plain functions, no Qt."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memtab.components.jobs import JobContext
from memtab.components.sync.turns import SyncKind
from memtab.store.home import Home
from memtab.sync.repository.layout import load_config
from memtab.sync.state import load_state

if TYPE_CHECKING:  # lazy: sync's engine (~1.5 MiB, ~90 ms), on its worker
    from memtab.sync.service import SyncConflict, SyncReport, SyncService, SyncStatus


@dataclass(frozen=True)
class SyncLook:
    """Where sync stands after a job."""

    targets: tuple[str, ...] = ()
    """The home's sync targets (none: sync is not set up)."""
    conflicts: tuple[SyncConflict, ...] = ()
    report: SyncReport | None = None
    """What the last sync did (None: none yet in this window)."""
    synced: bool = False
    """Whether this job synced (False: it only looked, or had nothing to send; `report`
    is then the one before, kept by `WindowSync`)."""
    error: str | None = None
    """Why the job could not sync at all (git missing, a broken set-up)."""
    last_sync_at: int | None = None
    offline_since: int | None = None
    to_send: tuple[str, ...] = ()
    """The memory files (virtual paths) changed here that no sync has sent yet."""
    to_receive: tuple[str, ...] = ()
    """The memory files another machine changed that are not here yet (as of the last
    fetch, and the merges that wait to be written)."""

    @property
    def configured(self) -> bool:
        return bool(self.targets)


def service_for(home: Home, git_program: str | None = None) -> SyncService:
    """The engine's service for `home` (imported now, on the lane)."""
    # lazy: sync's engine (~1.5 MiB, ~90 ms), on its worker
    from memtab.sync.service import SyncService

    return SyncService(home, git_program=git_program)


def run_sync(
    home: Home,
    kind: SyncKind,
    *,
    git_program: str | None = None,
    progress: Callable[[str], None] | None = None,
    cancel: Callable[[], bool] | None = None,
) -> SyncLook:
    """Look at, or sync, the home's targets (see `SyncKind`)."""
    config = load_config(home)
    names = tuple(target.name for target in config.targets)
    if not names:
        return SyncLook()
    # lazy: sync's engine (~1.5 MiB, ~90 ms), on its worker
    from memtab.sync.service import SyncError

    service = service_for(home, git_program)
    report = None
    error = None
    status = None
    try:
        if kind == "changes":
            status = service.status(cancel=cancel)
        if kind == "full" or (status is not None and _has_changes(status)):
            report = service.sync(progress=progress, cancel=cancel)
            status = None  # what it sent and brought in changed where things stand
        if status is None:
            status = service.status(cancel=cancel)
    except SyncError as failure:
        error = str(failure)
    return _look(service, names, report, error, status)


def look_or_sync(home: Home, kind: SyncKind, git_program: str | None, ctx: JobContext) -> SyncLook:
    """`run_sync` as the window's job: progress lines reported, stopped when cancelled."""
    return run_sync(
        home,
        kind,
        git_program=git_program,
        progress=functools.partial(ctx.report_progress, 0),
        cancel=ctx.is_cancelled,
    )


def _has_changes(status: SyncStatus) -> bool:
    """Whether this machine has changes no sync sent yet (no network)."""
    return any(target.local_changes or target.ahead for target in status.targets)


def _look(
    service: SyncService,
    names: tuple[str, ...],
    report: SyncReport | None,
    error: str | None,
    status: SyncStatus | None,
) -> SyncLook:
    states = [load_state(service.paths.state(name)) for name in names]
    synced = [state.last_sync_at for state in states if state.last_sync_at is not None]
    offline = [state.offline_since for state in states if state.offline_since is not None]
    targets = status.targets if status is not None else ()
    return SyncLook(
        names,
        tuple(service.conflicts()),
        report,
        report is not None,
        error,
        last_sync_at=min(synced) if len(synced) == len(states) else None,
        offline_since=min(offline) if offline else None,
        to_send=tuple(sorted({path for target in targets for path in target.to_send})),
        to_receive=tuple(sorted({path for target in targets for path in target.to_receive})),
    )
