"""One recorder per home, and whether it runs (docs/formats.md §14.5).

`memtab watch` holds `<home>/memtab/locks/recorder.lock` (an `OwnedLock`: its holder
file says the pid, the host and since when) for as long as it runs. The OS drops the
lock when the recorder exits or is killed, so a crash never leaves a home believing it
is watched. A second `memtab watch` on the same home finds it taken and exits; the
window, finding it taken, leaves recording what other programs changed to the recorder
(`recorder_running`), and records them itself when it is free.
"""

from __future__ import annotations

import logging
from typing import Annotated

from memtab.fs.locking.locks import InterprocessLock, LockUnavailableError, OwnedLock
from memtab.fs.records import Key, Record
from memtab.store.home import Home

logger = logging.getLogger(__name__)

LOCK_NAME = "recorder"
PROBE_GRACE_S = 2.0
"""How long the recorder waits for its lock (another process may be looking at it)."""


class RecorderStatus(Record):
    """Whether a recorder runs for a home: its pid, host and start (ms) when it does;
    `memtab watch --status --json` (a stable contract: fields are only added)."""

    running: bool
    pid: int | None = None
    host: str | None = None
    since_ms: Annotated[int | None, Key("since")] = None


class RecorderLease:
    """The home's recorder lock, held from `acquire()` to `release()`."""

    def __init__(self, home: Home) -> None:
        self._lock = OwnedLock(home.lock_path(LOCK_NAME))

    @property
    def held(self) -> bool:
        return self._lock.held

    def acquire(self, timeout_s: float = PROBE_GRACE_S) -> bool:
        """Take the lease if it is free (waiting out another process's look at it, at
        most `timeout_s`); whether it is held afterwards."""
        if self._lock.held:
            return True
        try:
            self._lock.acquire(timeout_s, role="recorder")
        except LockUnavailableError:
            return False
        return True

    def release(self) -> None:
        self._lock.release()

    def status(self) -> RecorderStatus:
        """Whether a recorder holds the lease (this object's holding counts)."""
        if not self._lock.held:
            probe = InterprocessLock(self._lock.path)  # a look writes no holder file
            try:
                probe.acquire(0)
            except LockUnavailableError:
                pass
            except OSError as error:  # a read-only home: nobody can be recording there
                logger.debug("Cannot look at %s: %s", self._lock.path, error)
                return RecorderStatus(running=False)
            else:
                probe.release()
                return RecorderStatus(running=False)
        holder = self._lock.holder()
        if holder is None:
            return RecorderStatus(running=True)
        return RecorderStatus(
            running=True, pid=holder.pid, host=holder.host, since_ms=holder.since_ms
        )


def recorder_running(home: Home) -> bool:
    """Whether a `memtab watch` records this home's changes now (one try of its lock)."""
    return RecorderLease(home).status().running
