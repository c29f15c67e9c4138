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
from dataclasses import dataclass

from memtab.fs.locks import InterprocessLock, LockUnavailableError, OwnedLock
from memtab.store.home import Home

logger = logging.getLogger(__name__)

LOCK_NAME = "recorder"
PROBE_GRACE_S = 2.0
"""How long the recorder waits for its lock (another process may be looking at it)."""


@dataclass(frozen=True)
class RecorderStatus:
    """Whether a recorder runs for a home: its pid, host and start (ms) when it does."""

    running: bool
    pid: int | None = None
    host: str | None = None
    since_ms: int | None = None

    def to_json(self) -> dict[str, object]:
        """`memtab watch --status --json` (a stable contract: fields are only added)."""
        return {"running": self.running, "pid": self.pid, "host": self.host, "since": self.since_ms}


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
                return RecorderStatus(False)
            else:
                probe.release()
                return RecorderStatus(False)
        holder = self._lock.holder()
        if holder is None:
            return RecorderStatus(True)
        return RecorderStatus(True, holder.pid, holder.host, holder.since_ms)


def recorder_running(home: Home) -> bool:
    """Whether a `memtab watch` records this home's changes now (one try of its lock)."""
    return RecorderLease(home).status().running
