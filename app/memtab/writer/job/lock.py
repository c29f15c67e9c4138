"""One Memtab process runs the background writer of a home at a time. Two Memtab windows on one home
would both count every turn and both run; worse, each would take the other's state writes for mux's
and step back (see `service`), leaving nobody writing."""

from __future__ import annotations

import logging

from memtab.fs.locking.locks import LockUnavailableError, OwnedLock
from memtab.store.home import Home

logger = logging.getLogger(__name__)

LOCK_NAME = "memory-writer"


class WriterLock:
    """The home's writer lock, held from `acquire()` to `release()` (any thread)."""

    def __init__(self, home: Home) -> None:
        self._lock = OwnedLock(home.lock_path(LOCK_NAME))

    @property
    def path(self) -> str:
        return str(self._lock.path)

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._lock.held

    def acquire(self) -> bool:
        """Take the lock if it is free (never waits); True when held afterwards."""
        if self._lock.held:
            return True
        try:
            self._lock.acquire(0)
        except LockUnavailableError:
            return False
        except OSError as error:
            logger.warning("Cannot take the memory writer lock %s: %s", self._lock.path, error)
            return False
        return True

    def release(self) -> None:
        """Let the lock go (no-op when not held)."""
        self._lock.release()
