"""One Memtab process runs the background writer of a home at a time.

Two Memtab windows on one home would both count every turn and both run; worse, each
would take the other's state writes for mux's and step back (see `service`), leaving
nobody writing. The app therefore holds an exclusive lock file
(`<home>/memtab/locks/memory-writer.lock`) while it supervises the writer; a second
process finds it taken and stands by. The OS drops the lock when its holder exits, so a
crash never blocks the writer.

Acquire and release on the same thread (the lock also holds a thread lock).
"""

from __future__ import annotations

import contextlib
import logging

from memtab.fs.locks import interprocess_lock
from memtab.store.home import Home

logger = logging.getLogger(__name__)

LEASE_NAME = "memory-writer"


class WriterLease:
    """The home's writer lock, held from `acquire()` to `release()`."""

    def __init__(self, home: Home) -> None:
        self.path = home.lock_path(LEASE_NAME)
        self._stack: contextlib.ExitStack | None = None

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._stack is not None

    def acquire(self) -> bool:
        """Take the lock if it is free (never waits); True when held afterwards."""
        if self._stack is not None:
            return True
        stack = contextlib.ExitStack()
        try:
            stack.enter_context(interprocess_lock(self.path, timeout_s=0))
        except TimeoutError:
            return False
        except OSError as error:
            logger.warning("Cannot take the memory writer lock %s: %s", self.path, error)
            return False
        self._stack = stack
        return True

    def release(self) -> None:
        """Let the lock go (no-op when not held)."""
        stack, self._stack = self._stack, None
        if stack is not None:
            stack.close()
