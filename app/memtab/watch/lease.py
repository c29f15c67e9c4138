"""One recorder per home (`memtab/locks/recorder.lock`, an `OwnedLock`), and whether it runs: the
window leaves recording to it while it does (docs/formats.md §14.5)."""

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
    """Whether a recorder runs for a home (pid, host, start): `memtab watch --status --json`
    (stable)."""

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
        """Take the lease if free (waiting out another's look at most `timeout_s`); whether held."""
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
