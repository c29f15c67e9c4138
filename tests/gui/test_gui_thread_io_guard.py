"""The instrument of tests/gui/window/test_gui_thread_io.py: what it refuses on the GUI
thread, and what it leaves alone (worker threads, files outside the watched roots, stat)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from memtab.fs.atomic import atomic_write_text
from memtab.fs.locking.lease_lock import LeaseLock
from memtab.fs.locking.locks import interprocess_lock
from support.gui_thread_io import GuiThreadIo, GuiThreadIoError

pytestmark = pytest.mark.fsync  # real fsyncs, even in make test-fast


def on_a_worker(call: Callable[[], object]) -> None:
    errors: list[BaseException] = []

    def run() -> None:
        try:
            call()
        except BaseException as error:  # handed back to the test
            errors.append(error)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if errors:
        raise errors[0]


def refused(guard: GuiThreadIo, call: Callable[[], object], what: str) -> None:
    with pytest.raises(GuiThreadIoError, match=what):
        call()
    assert guard.violations and what in guard.violations[-1]
    guard.violations.clear()


def test_fsync_the_lock_and_reads_under_the_root_are_refused_on_the_gui_thread(
    gui_thread_io: GuiThreadIo, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    notes = home / "notes.md"
    notes.write_text("# Notes\n")
    with gui_thread_io.watching(home):
        refused(gui_thread_io, lambda: atomic_write_text(home / "new.md", "x"), "os.fsync")
        refused(gui_thread_io, lambda: notes.read_text(), "reading")
        refused(gui_thread_io, lambda: notes.read_bytes(), "reading")
        refused(gui_thread_io, lambda: open(notes, "rb").close(), "reading")

        def os_read() -> bytes:
            fd = os.open(notes, os.O_RDONLY)
            try:
                return os.read(fd, 100)
            finally:
                os.close(fd)

        refused(gui_thread_io, os_read, "os.read")

        def locked() -> None:
            with interprocess_lock(home / "lock"):
                pass

        refused(gui_thread_io, locked, "the cross-process lock")

        def xums_lock() -> None:
            lock = LeaseLock(home / "locks" / "target-0.lock", "target lock")
            lock.acquire(1)
            lock.release()

        refused(gui_thread_io, xums_lock, "xum's lock file")
        on_a_worker(xums_lock)


def test_worker_threads_stat_and_other_files_are_left_alone(
    gui_thread_io: GuiThreadIo, tmp_path: Path
) -> None:
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    home.mkdir()
    elsewhere.mkdir()
    notes = home / "notes.md"
    notes.write_text("# Notes\n")
    (elsewhere / "ui-state.json").write_text("{}")
    with gui_thread_io.watching(home):
        on_a_worker(lambda: atomic_write_text(home / "new.md", "written"))
        on_a_worker(notes.read_text)
        assert notes.stat().st_size == 8 and notes.exists() and home.is_dir()
        assert (elsewhere / "ui-state.json").read_text() == "{}"
        with gui_thread_io.allowed():
            assert notes.read_text() == "# Notes\n"
    assert (home / "new.md").read_text() == "written"  # not watched any more
    assert not gui_thread_io.violations


def test_a_refusal_some_code_swallowed_still_fails_the_check(
    gui_thread_io: GuiThreadIo, tmp_path: Path
) -> None:
    with gui_thread_io.watching(tmp_path):
        try:
            (tmp_path / "x").write_text("x")
            atomic_write_text(tmp_path / "y", "y")
        except AssertionError:
            pass  # what a careless `except` would do
    with pytest.raises(GuiThreadIoError, match=r"1 blocking disk call\(s\) on the GUI thread"):
        gui_thread_io.check()
