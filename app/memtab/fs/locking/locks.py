"""Cross-process locks: the one lock module of Memtab, on the OS's file locks (`flock`, on Windows
`filelock`'s LockFileEx), which the OS drops when a holder dies. xum's own lock files are
`lease_lock`'s (docs/formats.md §21.1)."""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

from memtab.fs.atomic import atomic_write_json
from memtab.fs.clock import now_ms
from memtab.fs.jsonfile import JsonError, read_json
from memtab.fs.records import Healed, Key, Record
from memtab.fs.slotted import Slotted


def host_name() -> str:
    """The kernel's node name (what `gethostname` reads on Linux and macOS); elsewhere
    `socket.gethostname()`."""
    if hasattr(os, "uname"):
        return os.uname().nodename
    import socket  # lazy: only where os.uname is missing (see the module docstring)

    return socket.gethostname()


if sys.platform != "win32":
    import fcntl

logger = logging.getLogger(__name__)
LOCK_TRACE = "memtab.lock_trace"
"""The logger of every acquire and release: chatty, below `-vv` (`memtab.logs`)."""
_trace = logging.getLogger(LOCK_TRACE)

DEFAULT_TIMEOUT_S = 30.0
# flock cannot block with a timeout; the locks guard edits of about a millisecond.
_POLL_INTERVAL_S = 0.002
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class LockUnavailableError(TimeoutError):
    """The lock could not be had in time (another holder), or this thread already holds it."""


class _ThreadGuard(Slotted):
    """The in-process half of a lock: threads wait here (no polling), with a timeout."""

    __slots__ = ("lock", "owner")

    def __init__(self, lock: threading.Lock) -> None:
        self.lock = lock
        self.owner: int | None = None


_guards: dict[str, _ThreadGuard] = {}
_guards_lock = threading.Lock()


def _forget_guards_after_fork() -> None:
    # A forked child inherits the guards of threads that do not exist in it.
    global _guards_lock
    _guards.clear()
    _guards_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_guards_after_fork)


class InterprocessLock:
    """An exclusive lock on `path` across threads and processes; not re-entrant; released on any
    thread."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        key = os.path.abspath(self.path)
        with _guards_lock:
            self._guard = _guards.setdefault(key, _ThreadGuard(threading.Lock()))
        self._file_lock: Any = None  # what `_take_file_lock` returned while held

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
        if not self._guard.lock.acquire(timeout_s > 0, timeout_s if timeout_s > 0 else -1):
            raise self._timed_out(timeout_s)
        self._guard.owner = threading.get_ident()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            file_lock = _take_file_lock(self.path, deadline)
            if file_lock is None:
                raise self._timed_out(timeout_s)
        except BaseException:
            self._guard.owner = None
            self._guard.lock.release()
            raise
        self._file_lock = file_lock
        _trace.debug("acquired %s", self.path)

    def release(self) -> None:
        """Let the lock go (no-op when not held)."""
        file_lock, self._file_lock = self._file_lock, None
        if file_lock is None:
            return
        try:
            _let_go(file_lock)
            _trace.debug("released %s", self.path)
        finally:
            self._guard.owner = None
            self._guard.lock.release()

    def _timed_out(self, timeout_s: float) -> LockUnavailableError:
        if timeout_s <= 0:
            return LockUnavailableError(f"The lock {self.path} is held by another process")
        return LockUnavailableError(
            f"Timed out after {timeout_s:g} s waiting for the lock {self.path}"
        )


def _take_file_lock(path: Path, deadline: float) -> Any:
    """The OS's lock on `path`, tried until `deadline`; None when another process held it."""
    if sys.platform == "win32":
        import filelock  # lazy: only Windows' locks need it

        lock = filelock.FileLock(str(path), thread_local=False)
        try:
            lock.acquire(
                timeout=max(deadline - time.monotonic(), 0.0), poll_interval=_POLL_INTERVAL_S
            )
        except filelock.Timeout:
            return None
        return lock
    while True:
        descriptor = _try_flock(path)
        if descriptor is not None:
            return descriptor
        if time.monotonic() >= deadline:
            return None
        time.sleep(_POLL_INTERVAL_S)


def _try_flock(path: Path) -> int | None:
    """One flock try on `path` (made if absent): the holding descriptor, or None."""
    descriptor = _open_lock_file(path)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        os.close(descriptor)
        if error.errno in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES):
            return None
        if error.errno == errno.ENOSYS:
            raise OSError(
                error.errno, f"The file system of {path.parent} does not support file locks"
            ) from None
        raise
    if os.fstat(descriptor).st_nlink == 0:
        # Deleted between the open and the lock: the next try opens the file the path names.
        os.close(descriptor)
        return None
    return descriptor


def _open_lock_file(path: Path) -> int:
    """The lock file at `path`, opened (made 0644), never through a link: a link there is removed,
    logged, and the file made anew."""
    flags = os.O_RDWR | os.O_CREAT | _NOFOLLOW  # not inherited by children (os.open's rule)
    try:
        return os.open(path, flags, 0o644)
    except OSError as error:
        if error.errno not in (errno.ELOOP, errno.EMLINK) or not os.path.islink(path):
            raise
    os.unlink(path)
    logger.warning("The lock file %s was a link: removed, never followed", path)
    return os.open(path, flags, 0o644)


def _let_go(file_lock: Any) -> None:
    if sys.platform == "win32":
        file_lock.release()
        return
    try:
        fcntl.flock(file_lock, fcntl.LOCK_UN)
    finally:
        os.close(file_lock)


@contextlib.contextmanager
def interprocess_lock(lock_path: Path, *, timeout_s: float = DEFAULT_TIMEOUT_S) -> Iterator[None]:
    """An exclusive lock on `lock_path` for the block; LockUnavailableError past `timeout_s`."""
    lock = InterprocessLock(lock_path)
    lock.acquire(timeout_s)
    try:
        yield
    finally:
        lock.release()


def _whole_number(value: Any) -> int:
    """A number or numeric text as an int (ValueError: none, or infinite)."""
    try:
        return int(value)
    except OverflowError:
        raise ValueError("not a finite number") from None


class LockHolder(Record, keep_unknown=True):
    """Who holds an `OwnedLock`: `<name>.holder.json` (docs/formats.md §14.1)."""

    pid: Annotated[int, Healed(_whole_number)]
    host: Annotated[str, Healed(str)]
    since_ms: Annotated[int, Key("since"), Healed(_whole_number)] = 0

    @property
    def details(self) -> dict[str, Any]:
        return self.unknown

    def describe(self) -> str:
        """`pid 123 on laptop`, for messages."""
        return f"pid {self.pid} on {self.host}"


class OwnedLock(InterprocessLock):
    """A lock for a long task with a `<name>.holder.json` naming its holder, read only when the lock
    is found taken."""

    @property
    def holder_path(self) -> Path:
        return self.path.with_name(self.path.stem + ".holder.json")

    def acquire(self, timeout_s: float = DEFAULT_TIMEOUT_S, **details: Any) -> None:
        """Take the lock (see `InterprocessLock.acquire`) and record who holds it."""
        super().acquire(timeout_s)
        holder = LockHolder(pid=os.getpid(), host=host_name(), since_ms=now_ms())
        info = {**holder.to_json(), **details}
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
        return LockHolder.read(data)


def lock_holder(path: Path) -> str | None:
    """Who holds the OS lock on `path`, in words (Linux's /proc/locks); None where not said."""
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
