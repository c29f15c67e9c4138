"""The GUI thread never takes a cross-process lock, never fsyncs, never reads a file whole.

`GuiThreadIo` instruments what would block the window on disk while a test drives it:

- `os.fsync`, `os.fdatasync` and Memtab's `syncfs` (`memtab.fs.atomic._syncfs`);
- the cross-process lock (`memtab.fs.locking.locks.InterprocessLock.acquire`, and flock itself
  for anything that would take one directly) and xum's lock files
  (`memtab.fs.locking.lease_lock.LeaseLock.acquire`, which may wait seconds for xum);
- reading a file's content under a watched root (the memory home, other agents'
  directories): `open()` / `io.open` (so `Path.read_text`, `Path.read_bytes`) for
  reading, and `os.read` of a regular file (the store's confined reads).

Each is refused on the GUI thread (the main thread, where Qt runs the window): the call
raises `GuiThreadIoError` and is recorded, with where it came from, so a call some code
swallowed still fails the test at its end. Worker threads are never checked. What stays
allowed on the GUI thread, on purpose: `stat`/`lstat`/`exists`/`is_dir` and directory
listings' metadata (small calls that decide what the UI shows; `ALLOWED` names them), and
reading files outside the watched roots (Qt's own, the config dir's ui-state).

    def test_saving(gui_thread_io, ...):
        with gui_thread_io.watching(home.root):
            editor.save()           # fails if the save ran on the GUI thread
"""

from __future__ import annotations

import builtins
import fcntl
import io
import os
import stat
import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ALLOWED = (
    "os.stat / os.lstat / Path.exists / Path.is_file / Path.is_dir (UI decisions)",
    "reads outside the watched roots (Qt's files, the config dir's ui-state.json)",
)
"""What the GUI thread may still do; the module docstring says why."""


class GuiThreadIoError(AssertionError):
    """A call that blocks on disk was made on the GUI thread."""


def on_gui_thread() -> bool:
    """Whether the caller runs on the main thread (the one Qt's event loop runs on)."""
    return threading.get_ident() == threading.main_thread().ident


class GuiThreadIo:
    """Instruments fsync, the lock and file reads (see the module docstring)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self._monkeypatch = monkeypatch
        self._roots: list[str] = []
        self._installed = False
        self._active = 0
        self.violations: list[str] = []

    @contextmanager
    def watching(self, *roots: Path | str) -> Iterator[GuiThreadIo]:
        """Refuse blocking disk calls on the GUI thread inside the block; file reads
        are refused under `roots` (the home, other agents' directories)."""
        self._install()
        added = [os.path.realpath(root) for root in roots]
        self._roots.extend(added)
        self._active += 1
        try:
            yield self
        finally:
            self._active -= 1
            for root in added:
                self._roots.remove(root)

    @contextmanager
    def allowed(self) -> Iterator[None]:
        """A block the test itself runs on the GUI thread (its own setup or checks)."""
        active, self._active = self._active, 0
        try:
            yield
        finally:
            self._active = active

    def check(self) -> None:
        """Fail if any blocking call was made on the GUI thread (also at the test's end)."""
        if self.violations:
            found, self.violations = self.violations, []
            raise GuiThreadIoError(
                f"{len(found)} blocking disk call(s) on the GUI thread:\n\n" + "\n\n".join(found)
            )

    # --- the instruments ----------------------------------------------------------------------

    def _refuse(self, what: str) -> None:
        stack = "".join(traceback.format_stack(limit=14)[:-2])
        self.violations.append(f"{what}\n{stack}")
        raise GuiThreadIoError(f"{what} on the GUI thread")

    def _checking(self) -> bool:
        return self._active > 0 and on_gui_thread()

    def _watched(self, path: str) -> bool:
        real = os.path.realpath(path)
        return any(real == root or real.startswith(root + os.sep) for root in self._roots)

    def _install(self) -> None:
        if self._installed:
            return
        self._installed = True
        patch = self._monkeypatch
        from memtab.fs import atomic
        from memtab.fs.locking import lease_lock, locks

        for name in ("fsync", "fdatasync"):
            if hasattr(os, name):
                patch.setattr(os, name, self._wrap(getattr(os, name), f"os.{name}"))
        patch.setattr(atomic, "_syncfs", self._wrap(atomic._syncfs, "syncfs"))
        lock_acquire = locks.InterprocessLock.acquire
        patch.setattr(
            locks.InterprocessLock, "acquire", self._wrap(lock_acquire, "the cross-process lock")
        )
        patch.setattr(
            lease_lock.LeaseLock,
            "acquire",
            self._wrap(lease_lock.LeaseLock.acquire, "xum's lock file"),
        )
        patch.setattr(fcntl, "flock", self._wrap(fcntl.flock, "flock"))
        real_open = io.open

        def checked_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
            if (
                self._checking()
                and isinstance(file, (str, bytes, os.PathLike))
                and ("r" in mode or "+" in mode)
                and self._watched(os.fsdecode(file))
                and not os.path.isdir(file)
            ):
                self._refuse(f"reading {os.fsdecode(file)}")
            return real_open(file, mode, *args, **kwargs)

        patch.setattr(io, "open", checked_open)
        patch.setattr(builtins, "open", checked_open)
        real_read = os.read

        def checked_read(fd: int, length: int) -> bytes:
            if self._checking():
                self._check_fd(fd)
            return real_read(fd, length)

        patch.setattr(os, "read", checked_read)

    def _check_fd(self, fd: int) -> None:
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return  # a pipe, a socket: not a file's content
            path = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            return
        if self._watched(path):
            self._refuse(f"os.read of {path}")

    def _wrap(self, function: Callable[..., Any], what: str) -> Callable[..., Any]:
        def checked(*args: Any, **kwargs: Any) -> Any:
            if self._checking():
                self._refuse(what)
            return function(*args, **kwargs)

        return checked


@pytest.fixture
def gui_thread_io(monkeypatch: pytest.MonkeyPatch) -> Iterator[GuiThreadIo]:
    """A `GuiThreadIo`; the test fails at its end if a refused call was recorded."""
    guard = GuiThreadIo(monkeypatch)
    yield guard
    guard.check()
