"""One watcher policy: the window's watcher and `memtab watch`'s recorder, handed the same
events, let the same paths through (docs/formats.md §14.5) — temp files, xum's
`<target>.<12 hex>` siblings, hidden and lock files, reads and a folder's own noise never
reach either.

Each side runs its real handler on a scripted observer: the window's `HomeWatcher` (its
batches read on a fake clock), the recorder's observer (what it asks its targets about).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication
from watchdog.events import (
    DirCreatedEvent,
    DirModifiedEvent,
    FileClosedEvent,
    FileClosedNoWriteEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileOpenedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers.api import BaseObserver, ObservedWatch
from watchdog.observers.inotify import InotifyEmitter

from memtab.gui.activity.watch import HomeWatcher
from memtab.store.home import Home
from memtab.watch import recorder as recorder_module
from memtab.watch.recorder import Recorder
from support.gui_clock import FakeGuiClock, drain

XUM_TEMP = ".0123456789ab"  # xum's atomic write: `<target>.<12 hex>`, renamed onto it


class ScriptedObserver(BaseObserver):
    """An observer whose events the test makes: each handler scheduled gets the events
    under the directory it was scheduled on (recursively or not), as watchdog routes them."""

    def __init__(self, **_options: Any) -> None:
        super().__init__(InotifyEmitter)  # never used: nothing is really watched
        self.handlers: list[tuple[FileSystemEventHandler, str, bool]] = []

    def schedule(
        self, event_handler: FileSystemEventHandler, path: Any, **options: Any
    ) -> ObservedWatch:
        recursive = bool(options.get("recursive"))
        self.handlers.append((event_handler, str(path), recursive))
        return ObservedWatch(path, recursive=recursive)

    def happen(self, event: FileSystemEvent) -> None:
        for handler, directory, recursive in self.handlers:
            where = Path(str(event.src_path)).parent
            if where == Path(directory) or (recursive and Path(directory) in where.parents):
                handler.dispatch(event)


class AskedTargets:
    """The recorder's targets, noting every path it asks about (and keeping none)."""

    def __init__(self) -> None:
        self.asked: set[str] = set()

    def concerned(self, path: str) -> str | None:
        self.asked.add(path)
        return None


def window_reports(root: Path, events: list[FileSystemEvent]) -> set[str]:
    clock = FakeGuiClock()
    observer = ScriptedObserver()
    watcher = HomeWatcher(clock=clock, observer_factory=lambda: observer)
    reported: set[str] = set()
    watcher.paths_changed.connect(reported.update)
    watcher.start(root)
    try:
        for event in events:
            observer.happen(event)
            drain()
        clock.advance(2000)  # past the latency cap, short of the health check
    finally:
        watcher.stop()
    return reported


def recorder_asks(
    root: Path, events: list[FileSystemEvent], monkeypatch: pytest.MonkeyPatch
) -> set[str]:
    observer = ScriptedObserver()
    monkeypatch.setattr(recorder_module, "Observer", lambda: observer)
    recorder = Recorder(Home(root))
    targets = AskedTargets()
    recorder._targets = targets  # type: ignore[assignment]
    recorder._start_observer([(str(root), False), (str(root / "memory"), True)])
    try:
        for event in events:
            observer.happen(event)
    finally:
        recorder._stop_observer()
    return targets.asked


Script = Callable[[Path], list[FileSystemEvent]]


def _in(root: Path, name: str) -> str:
    return str(root / "memory" / "global" / name)


# Each script, and the paths (under the home) both sides let through.
SCRIPTS: dict[str, tuple[Script, set[str]]] = {
    "Memtab's atomic save": (
        lambda r: [
            FileCreatedEvent(_in(r, ".a.md.k2x9.tmp")),
            FileModifiedEvent(_in(r, ".a.md.k2x9.tmp")),
            FileClosedEvent(_in(r, ".a.md.k2x9.tmp")),
            FileMovedEvent(_in(r, ".a.md.k2x9.tmp"), _in(r, "a.md")),
        ],
        {"memory/global/a.md"},
    ),
    "xum's atomic write": (
        lambda r: [
            FileCreatedEvent(_in(r, "b.md" + XUM_TEMP)),
            FileClosedEvent(_in(r, "b.md" + XUM_TEMP)),
            FileMovedEvent(_in(r, "b.md" + XUM_TEMP), _in(r, "b.md")),
        ],
        {"memory/global/b.md"},
    ),
    "an editor's swap, backup and probe": (
        lambda r: [
            FileCreatedEvent(_in(r, ".c.md.swp")),
            FileCreatedEvent(_in(r, "4913")),
            FileDeletedEvent(_in(r, "4913")),
            FileMovedEvent(_in(r, "c.md"), _in(r, "c.md~")),
            FileCreatedEvent(_in(r, "c.md")),
            FileClosedEvent(_in(r, "c.md")),
        ],
        {"memory/global/c.md"},
    ),
    "reads and a folder's own noise": (
        lambda r: [
            FileOpenedEvent(_in(r, "d.md")),
            FileClosedNoWriteEvent(_in(r, "d.md")),
            DirModifiedEvent(str(r / "memory" / "global")),
        ],
        set(),
    ),
    "hidden folders, lock and sidecar temps": (
        lambda r: [
            FileCreatedEvent(_in(r, ".git/index")),
            FileCreatedEvent(_in(r, ".consolidate-lock")),
            FileCreatedEvent(str(r / ".memory-meta.json.k2.tmp")),
            FileMovedEvent(str(r / ".memory-meta.json.k2.tmp"), str(r / "memory-meta.json")),
        ],
        {"memory-meta.json"},
    ),
    "a new folder, a deletion, a rename away": (
        lambda r: [
            DirCreatedEvent(str(r / "memory" / "project" / "p1")),
            FileDeletedEvent(_in(r, "e.md")),
            FileMovedEvent(_in(r, "f.md"), _in(r, ".f.md.trash")),
        ],
        {"memory/project/p1", "memory/global/e.md", "memory/global/f.md"},
    ),
}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_the_window_and_the_recorder_let_the_same_paths_through(
    name: str, qapp: QApplication, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "home"
    (root / "memory" / "global").mkdir(parents=True)
    script, expected = SCRIPTS[name]
    events = script(root)
    window = window_reports(root, events)
    assert {str(Path(path).relative_to(root)) for path in window} == expected
    assert recorder_asks(root, events, monkeypatch) == window
