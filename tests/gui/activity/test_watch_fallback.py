"""HomeWatcher when inotify runs out: per-directory polling, whole-home polling, and quiet.

The kernel's watch limit cannot be lowered in a test (it is per user, machine-wide), so
the limit is simulated where Memtab meets it: the probe of a new directory raises the
OSError(ENOSPC) the kernel gives.
"""

from __future__ import annotations

import ctypes.util
import errno
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot
from watchdog.observers.inotify import InotifyObserver

from memtab.components.activity.inotify_probe import InotifyProbe
from memtab.gui.activity import watch
from memtab.gui.activity.watch import HomeWatcher, WatchBackend
from memtab.watch.observers import WATCH_MAX_DEPTH

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify")

WAIT_MS = 5000


class ShallowInotifyObserver(InotifyObserver):
    """inotify on the root alone: what happens inside a new directory reaches the watcher
    only if it polls that directory."""

    def schedule(self, event_handler: Any, path: str, **options: Any) -> Any:
        options["recursive"] = False
        return super().schedule(event_handler, path, **options)


class ProbeAtWatchLimit:
    """The kernel's answer once `fs.inotify.max_user_watches` is used up."""

    def __init__(self, allowed: set[str]) -> None:
        self.allowed = allowed
        self.checked: list[str] = []

    def check(self, directory: str) -> None:
        self.checked.append(directory)
        if directory not in self.allowed:
            raise OSError(errno.ENOSPC, "inotify watch limit reached")

    def close(self) -> None:
        pass


@pytest.fixture
def home(tmp_path: Path) -> Path:
    root = tmp_path / "home"
    (root / "memory").mkdir(parents=True)
    return root


@pytest.fixture
def watchers(qtbot: QtBot) -> Iterator[list[HomeWatcher]]:
    made: list[HomeWatcher] = []
    yield made
    for watcher in made:
        watcher.stop()


def make(watchers: list[HomeWatcher], **options: Any) -> tuple[HomeWatcher, set[str]]:
    watcher = HomeWatcher(debounce_ms=30, max_latency_ms=200, polling_interval_s=0.05, **options)
    watchers.append(watcher)
    seen: set[str] = set()
    watcher.paths_changed.connect(seen.update)
    return watcher, seen


@pytest.mark.expect_log(
    "memtab.gui.activity.watch",
    "WARNING",
    r"^Cannot watch .*natively \(inotify watch limit reached\); polling it",
)
def test_a_directory_past_the_watch_limit_is_polled_and_the_status_says_so(
    qtbot: QtBot, home: Path, watchers: list[HomeWatcher]
) -> None:
    probe = ProbeAtWatchLimit(allowed={os.path.realpath(home)})
    watcher, seen = make(
        watchers, observer_factory=ShallowInotifyObserver, probe_factory=lambda: probe
    )
    watcher.start(home)
    assert watcher.backend is WatchBackend.NATIVE
    assert watcher.backend_detail == "inotify"

    deep = home / "deep"
    with qtbot.waitSignal(watcher.backend_changed, timeout=WAIT_MS):
        deep.mkdir()
    assert watcher.polled_dirs == [os.path.realpath(deep)]
    assert watcher.backend is WatchBackend.NATIVE
    assert watcher.backend_detail == "inotify + polling 1 folder (inotify watch limit reached)"

    note = deep / "note.md"
    note.write_text("only polling sees this\n")
    qtbot.waitUntil(lambda: str(note) in seen, timeout=WAIT_MS)

    # A directory inside a polled one is covered already; another one gets its own poll.
    (deep / "inner").mkdir()
    other = home / "other"
    other.mkdir()
    qtbot.waitUntil(lambda: len(watcher.polled_dirs) == 2, timeout=WAIT_MS)
    assert watcher.polled_dirs == [os.path.realpath(deep), os.path.realpath(other)]
    assert "polling 2 folders" in watcher.backend_detail


@pytest.mark.expect_log(
    "memtab.gui.activity.watch",
    "WARNING",
    r"^Falling back to polling for .*inotify watch limit reached",
)
def test_the_limit_reached_while_watching_the_home_polls_everything(
    qtbot: QtBot, home: Path, watchers: list[HomeWatcher]
) -> None:
    watcher, seen = make(watchers, probe_factory=lambda: ProbeAtWatchLimit(allowed=set()))
    watcher.start(home)

    assert watcher.backend is WatchBackend.POLLING
    assert "inotify watch limit reached" in watcher.backend_detail
    note = home / "memory" / "note.md"
    note.write_text("x\n")
    qtbot.waitUntil(lambda: str(note) in seen, timeout=WAIT_MS)


@pytest.mark.expect_log(
    "memtab.gui.activity.watch", "WARNING", r"^The native file watcher stopped; polling"
)
def test_a_native_watcher_whose_thread_died_is_replaced_by_polling(
    qtbot: QtBot, home: Path, watchers: list[HomeWatcher], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(watch, "_HEALTH_CHECK_MS", 50)
    observers: list[InotifyObserver] = []

    def factory() -> InotifyObserver:
        observers.append(InotifyObserver())
        return observers[-1]

    watcher, seen = make(watchers, observer_factory=factory)
    watcher.start(home)
    assert watcher.backend is WatchBackend.NATIVE
    for emitter in observers[0].emitters:  # as if its thread had ended on an error
        emitter.stop()
        emitter.join()

    qtbot.waitUntil(lambda: watcher.backend is WatchBackend.POLLING, timeout=WAIT_MS)
    assert "native watcher stopped" in watcher.backend_detail
    note = home / "memory" / "after.md"
    note.write_text("x\n")
    qtbot.waitUntil(lambda: str(note) in seen, timeout=WAIT_MS)


def test_the_inotify_probe_asks_the_kernel(tmp_path: Path) -> None:
    probe = InotifyProbe.open()
    assert probe is not None
    try:
        probe.check(str(tmp_path))  # a watch is free: no error
        probe.check(str(tmp_path / "gone"))  # vanished: nothing to watch or poll
    finally:
        probe.close()


def test_the_inotify_probe_starts_without_running_a_program(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Looking libc up by name runs `ldconfig -p`: a fork of the whole window."""

    def no_program(name: str) -> str:
        raise AssertionError(f"find_library({name!r}) runs ldconfig")

    monkeypatch.setattr(ctypes.util, "find_library", no_program)
    probe = InotifyProbe.open()
    assert probe is not None
    probe.check(str(tmp_path))
    probe.close()


def test_new_directories_do_not_print_watchdog_warnings(tmp_path: Path) -> None:
    # In a child process: pytest's own warning filters must not hide the terminal noise.
    code = textwrap.dedent(
        f"""
        import os
        from PySide6.QtCore import QCoreApplication, QEventLoop
        from memtab.gui.activity.watch import HomeWatcher
        app = QCoreApplication([])
        watcher = HomeWatcher()
        seen = set()
        watcher.paths_changed.connect(seen.update)
        watcher.start({str(tmp_path)!r})
        for index in range(150):
            os.makedirs(os.path.join({str(tmp_path)!r}, f"a{{index}}", "b", "c"))
        # Events come in order: once a file made last is reported, every directory was
        # walked (a batch that large may be reported as the root).
        done = os.path.join({str(tmp_path)!r}, "done.md")
        open(done, "w").close()
        while done not in seen and {str(tmp_path)!r} not in seen:
            app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
        watcher.stop()
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert "already exists" not in result.stderr
    assert result.stderr == ""


@pytest.mark.slow  # slow: a thousand folders made and removed (~5 s)
@pytest.mark.expect_log(
    "memtab.gui.activity.watch",
    "WARNING",
    rf"^Falling back to polling for .*: a folder is nested more than {WATCH_MAX_DEPTH} levels",
)
def test_a_tree_deeper_than_the_native_watcher_walks_is_polled_and_the_status_says_so(
    qtbot: QtBot, home: Path, watchers: list[HomeWatcher], deep_tree: Callable[..., None]
) -> None:
    deep_tree(home / "memory", "deep")
    watcher, seen = make(watchers)
    watcher.start(home)

    assert watcher.backend is WatchBackend.POLLING
    assert "native watcher failed: a folder is nested more than" in watcher.backend_detail
    note = home / "memory" / "note.md"
    note.write_text("seen by polling a tree of any depth\n")
    qtbot.waitUntil(lambda: str(note) in seen, timeout=WAIT_MS)
