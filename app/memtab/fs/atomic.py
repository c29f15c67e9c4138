"""Crash-safe writes and cross-process locks.

Every file Memtab writes goes through `atomic_write_bytes`: the new content is written to a
hidden temp file in the same directory, fsynced, and renamed over the target, so a reader
(or a crash) only ever sees the old content or the new one. mux may be running beside
Memtab, so the JSON sidecars are also updated under a lock file (`interprocess_lock`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt
else:
    import fcntl


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def encode_utf8(text: str) -> bytes:
    """`text` as UTF-8, each lone surrogate written as U+FFFD (as JavaScript encodes it).

    Python strings can hold lone surrogates (JSON `"\\ud800"`, undecodable file names);
    strict encoding would raise, so they are replaced like mux's encoder does.
    """
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _LONE_SURROGATE.sub("\ufffd", text).encode("utf-8")


def temp_name_for(target: Path) -> Path:
    """A hidden, unique temp path beside `target` (watchers and listings skip dotfiles)."""
    return target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")


def _fsync_directory(directory: Path) -> None:
    # Makes the rename itself durable; not possible (or needed) on Windows.
    if sys.platform == "win32":  # pragma: no cover
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_bytes(target: Path, data: bytes, *, mode: int | None = None) -> None:
    """Replace `target` with `data` atomically: temp file + fsync + rename in the same dir.

    Parent directories are created. On any failure the temp file is removed and the old
    content (if any) is untouched. `mode` sets the permissions (e.g. 0o600 for settings).
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    temp = temp_name_for(target)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    fd = os.open(temp, flags, 0o666 if mode is None else mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temp, mode)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _fsync_directory(target.parent)


def atomic_write_text(target: Path, text: str, *, mode: int | None = None) -> None:
    """Replace `target` with UTF-8 `text` atomically (see `atomic_write_bytes`)."""
    atomic_write_bytes(target, encode_utf8(text), mode=mode)


def atomic_write_json(target: Path, value: Any, *, mode: int | None = None) -> None:
    """Write `value` as pretty-printed JSON (2-space indent, trailing newline) atomically."""
    text = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    atomic_write_text(target, text, mode=mode)


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
