"""Cross-process locks.

mux, a second Memtab and Memtab's own worker threads may change the same files at once;
every read-modify-write holds one of these locks around the read, the change and the write.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt
else:
    import fcntl


# In-process locks complement the file locks: flock is per open file description, so two
# threads of one process must also be kept apart by a threading lock.
_thread_locks: dict[str, threading.RLock] = {}
_thread_locks_guard = threading.Lock()
_held_locks = threading.local()


def thread_lock_for(key: str) -> threading.RLock:
    """The process-wide re-entrant lock for `key` (e.g. a scope root's real path)."""
    with _thread_locks_guard:
        lock = _thread_locks.get(key)
        if lock is None:
            lock = _thread_locks[key] = threading.RLock()
        return lock


@contextlib.contextmanager
def interprocess_lock(lock_path: Path, *, timeout_s: float = 30.0) -> Iterator[None]:
    """Hold an exclusive lock on `lock_path` across threads and processes.

    Waits up to `timeout_s`, then raises TimeoutError naming the lock file. The lock is
    released when the holder exits or dies (the OS drops it with the file descriptor).
    """
    key = str(lock_path)
    held: set[str] = _held_locks.__dict__.setdefault("paths", set())
    if key in held:  # re-entered by the same thread: it already holds the file lock
        yield
        return
    with thread_lock_for(key):
        lock_path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            _acquire(fd, lock_path, timeout_s)
            held.add(key)
            try:
                yield
            finally:
                held.discard(key)
                _release(fd)
        finally:
            os.close(fd)


def _acquire(fd: int, lock_path: Path, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    delay = 0.005
    while True:
        try:
            if sys.platform == "win32":  # pragma: no cover
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            else:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except OSError:
            if time.monotonic() >= deadline:
                raise TimeoutError(
                    f"Timed out after {timeout_s:.0f} s waiting for the lock {lock_path}"
                ) from None
            time.sleep(delay)
            delay = min(delay * 2, 0.1)


def _release(fd: int) -> None:
    if sys.platform == "win32":  # pragma: no cover
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
