"""Cross-process locks: the one lock module of Memtab, built on `filelock`.

mux, a second Memtab and Memtab's own worker threads may change the same files at once;
every read-modify-write holds one of these locks around the read, the change and the write.

- `interprocess_lock(path, timeout_s=…)`: a `with` block holding an exclusive lock on a
  lock file, across threads and processes. It is not re-entrant: a thread asking again
  for a lock it already holds is refused at once (two owners never both "acquire").
- `InterprocessLock`: the same lock held across calls (acquire / release).
- `OwnedLock`: a lock held for a long task (a consolidation run, the background writer),
  beside a small JSON file saying who holds it, for the message shown to whoever waits.

The OS drops a file lock when its holder exits or is killed, so a crash never leaves a
lock behind: there is no expiry to wait out and nothing to take over.

xum takes none of these: around the files it shares with Memtab it holds lock files of its
own, which Memtab takes too, in xum's protocol — the one other kind of lock, in
`memtab.fs.lease_lock` (docs/formats.md §21.1).

`filelock` (with inspect, decimal, platform and urllib.parse, ~10 ms) and `socket` are
imported by the first lock taken, not with this module: the window's first paint reads
sidecars but takes no lock.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memtab.fs.atomic import atomic_write_json
from memtab.fs.clock import now_ms
from memtab.fs.jsonfile import JsonError, read_json

if TYPE_CHECKING:  # lazy: filelock (~16 ms) loads with the first lock taken (below)
    import filelock

logger = logging.getLogger(__name__)

DEFAULT_TIMEOUT_S = 30.0
# How often a waiter retries a lock another process holds (flock cannot block with a
# timeout). Short, because the locks guard edits that take about a millisecond.
_POLL_INTERVAL_S = 0.002


class LockUnavailableError(TimeoutError):
    """The lock could not be had in time (another holder), or this thread already holds it."""


@dataclass
class _ThreadGuard:
    """The in-process half of a lock: threads wait here (no polling), with a timeout."""

    lock: threading.Lock
    owner: int | None = None


_guards: dict[str, _ThreadGuard] = {}
_guards_lock = threading.Lock()


def _guard_for(key: str) -> _ThreadGuard:
    with _guards_lock:
        guard = _guards.get(key)
        if guard is None:
            guard = _guards[key] = _ThreadGuard(threading.Lock())
        return guard


def _forget_guards_after_fork() -> None:
    # A forked child inherits the guards of threads that do not exist in it.
    global _guards_lock
    _guards.clear()
    _guards_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_guards_after_fork)


class InterprocessLock:
    """An exclusive lock on `path` across threads and processes; not re-entrant.

    Threads of one process queue on a threading lock, processes on the file lock
    (`filelock`: flock on Unix, LockFileEx on Windows). Release may happen on any thread.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._guard = _guard_for(os.path.abspath(self.path))
        self._file_lock: filelock.BaseFileLock | None = None

    @property
    def held(self) -> bool:
        return self._file_lock is not None

    def acquire(self, timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
        """Take the lock, waiting up to `timeout_s` (0: one try); LockUnavailableError if not."""
        if self._file_lock is not None or self._guard.owner == threading.get_ident():
            raise LockUnavailableError(
                f"The lock {self.path} is already held by this thread (locks are not re-entrant)"
            )
        deadline = time.monotonic() + max(timeout_s, 0.0)
        got_thread_lock = (
            self._guard.lock.acquire(timeout=timeout_s)
            if timeout_s > 0
            else self._guard.lock.acquire(blocking=False)
        )
        if not got_thread_lock:
            raise self._timed_out(timeout_s)
        self._guard.owner = threading.get_ident()
        try:
            import filelock  # lazy: ~16 ms the window's first paint, which takes no lock, saves

            self.path.parent.mkdir(parents=True, exist_ok=True)
            file_lock = filelock.FileLock(str(self.path), thread_local=False)
            try:
                file_lock.acquire(
                    timeout=max(deadline - time.monotonic(), 0.0),
                    poll_interval=_POLL_INTERVAL_S,
                )
            except filelock.Timeout:
                raise self._timed_out(timeout_s) from None
        except BaseException:
            self._guard.owner = None
            self._guard.lock.release()
            raise
        self._file_lock = file_lock

    def release(self) -> None:
        """Let the lock go (no-op when not held)."""
        file_lock, self._file_lock = self._file_lock, None
        if file_lock is None:
            return
        try:
            file_lock.release()
        finally:
            self._guard.owner = None
            self._guard.lock.release()

    def _timed_out(self, timeout_s: float) -> LockUnavailableError:
        if timeout_s <= 0:
            return LockUnavailableError(f"The lock {self.path} is held by another process")
        return LockUnavailableError(
            f"Timed out after {timeout_s:g} s waiting for the lock {self.path}"
        )


@contextlib.contextmanager
def interprocess_lock(lock_path: Path, *, timeout_s: float = DEFAULT_TIMEOUT_S) -> Iterator[None]:
    """Hold an exclusive lock on `lock_path` for the block (see `InterprocessLock`).

    Waits up to `timeout_s`, then raises LockUnavailableError (a TimeoutError) naming the
    lock file. The lock is released when the block ends, or by the OS if the process dies.
    """
    lock = InterprocessLock(lock_path)
    lock.acquire(timeout_s)
    try:
        yield
    finally:
        lock.release()


@dataclass(frozen=True)
class LockHolder:
    """Who holds an `OwnedLock`, as its holder wrote it down."""

    pid: int
    host: str
    since_ms: int
    details: dict[str, Any]

    def describe(self) -> str:
        """`pid 123 on laptop`, for messages."""
        return f"pid {self.pid} on {self.host}"


class OwnedLock(InterprocessLock):
    """A lock held for a long task, with a `<name>.holder.json` file naming its holder.

    The holder file is written right after the lock is taken and removed before it is
    let go; a crashed holder leaves it behind, but the OS releases the lock, and the next
    holder overwrites it. Only read it when the lock is found taken.
    """

    @property
    def holder_path(self) -> Path:
        return self.path.with_name(self.path.stem + ".holder.json")

    def acquire(self, timeout_s: float = DEFAULT_TIMEOUT_S, **details: Any) -> None:
        """Take the lock (see `InterprocessLock.acquire`) and record who holds it."""
        import socket  # lazy: ~5 ms the first paint saves (a lock file records the host)

        super().acquire(timeout_s)
        info = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "since": now_ms(),
            **details,
        }
        try:
            atomic_write_json(self.holder_path, info)
        except OSError as error:  # only the message to a waiter depends on it
            logger.warning("Cannot record the holder of %s: %s", self.path, error)

    def release(self) -> None:
        if self.held:
            with contextlib.suppress(OSError):
                self.holder_path.unlink()
        super().release()

    def holder(self) -> LockHolder | None:
        """Who holds the lock, by the holder file (None when unknown)."""
        try:
            data = read_json(self.holder_path)
        except (OSError, JsonError):
            return None
        if not isinstance(data, dict):
            return None
        try:
            pid, host, since = int(data["pid"]), str(data["host"]), int(data.get("since", 0))
        except (KeyError, TypeError, ValueError):
            return None
        details = {k: v for k, v in data.items() if k not in ("pid", "host", "since")}
        return LockHolder(pid, host, since, details)


def lock_holder(path: Path) -> str | None:
    """Who holds the OS lock on file `path`, in words (`pid 123: memtab tool view …`), as
    far as the system tells (Linux lists every lock in /proc/locks); None when it does not
    say (another system, a holder in another namespace) or nobody holds it. For the
    message of a lock that has no holder file (`OwnedLock` has one)."""
    try:
        info = os.stat(path)
        with open("/proc/locks", encoding="ascii", errors="replace") as locks:
            lines = locks.read().splitlines()
    except OSError:
        return None
    where = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    for line in lines:
        fields = line.split()
        if "->" in fields or len(fields) < 6 or fields[5] != where:
            continue  # "->" marks a process waiting for the lock, not holding it
        pid = fields[4]
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                words = handle.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
        except OSError:
            words = ""
        command = " ".join(words.split()[:6])
        return f"pid {pid}: {command}" if command else f"pid {pid}"
    return None
