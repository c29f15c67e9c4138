"""xum's lock files in the home (docs/formats.md §21.1): who holds each (pid, alive?),
since when (its mtime, renewed while held), stale or not, and the temp files and
moved-aside locks a killed process left (removed at the next start or writing command).
A lock held by a dead process is a warning: the next change taking it reclaims it, but
until then nothing has told anyone why a change may wait."""

from __future__ import annotations

import os

from memtab.diagnostics.report import Findings
from memtab.fs.locking.lease_lock import lock_state
from memtab.fs.records import Record
from memtab.store.home import Home
from memtab.store.xum_locks import lock_files, lock_leftovers, lock_subjects


class XumLockFacts(Record, write_only=True):
    """One of `locks.xum.locks`: a lock file, what it guards, who holds it since when."""

    path: str
    guards: str | None
    reclaim_guard: bool
    pid: int | None
    alive: bool | None
    since: int
    stale: bool


class LeftoverFacts(Record, write_only=True):
    """One of `locks.xum.leftovers`: a temp file or moved-aside lock, and its mtime."""

    path: str
    since: int


class XumLocksFacts(Record, write_only=True):
    """`locks.xum`: xum's lock files in the home, and what killed processes left."""

    locks: tuple[XumLockFacts, ...]
    leftovers: tuple[LeftoverFacts, ...]


def check_xum_locks(home: Home, found: Findings) -> XumLocksFacts:
    """The `locks.xum` section of the doctor's report; warnings go to `found`."""
    subjects = lock_subjects(home)
    locks: list[XumLockFacts] = []
    for path in lock_files(home):
        state = lock_state(path)
        if state is None:
            continue  # released while we looked
        guards = subjects.get(path.name.removesuffix(".reclaim"))
        locks.append(
            XumLockFacts(
                path=str(path),
                guards=guards,
                reclaim_guard=path.name.endswith(".reclaim"),
                pid=state.pid,
                alive=state.alive,
                since=int(state.since * 1000),
                stale=state.stale,
            )
        )
        if state.alive is False:
            found.warning(
                f"xum's lock {path}{f' ({guards})' if guards else ''} is held by process "
                f"{state.pid}, which is gone: the next change of that memory takes it over"
            )
    leftovers: list[LeftoverFacts] = []
    for path in lock_leftovers(home):
        try:
            since = int(os.stat(path).st_mtime * 1000)
        except OSError:
            continue
        leftovers.append(LeftoverFacts(path=str(path), since=since))
    return XumLocksFacts(locks=tuple(locks), leftovers=tuple(leftovers))
