"""HomeWatcher's timing on a clock the test moves: the debounce, the latency cap, the
leading edge of a settled change, one drain per queue of events, the health check.

The events are made by the test (`ScriptedObserver`, standing in for the native observer)
and reach the watcher through its real handler and queued signal; time passes only in
`clock.advance`. What a real write, rename or deletion reports is in test_watch.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication
from watchdog.events import (
    FileClosedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers.api import BaseObserver, ObservedWatch
from watchdog.observers.inotify import InotifyEmitter

from memtab.gui.activity import watch
from memtab.gui.activity.watch import HomeWatcher, WatchBackend
from memtab.watch_policy.coalesce import LARGE_BATCH
from support.gui_clock import FakeGuiClock, drain

DEBOUNCE_MS = 150
MAX_LATENCY_MS = 300


class ScriptedObserver(BaseObserver):
    """A native observer whose events the test makes, on its own thread; they reach the
    watcher (through its queued signal) when the test drains."""

    def __init__(self) -> None:
        super().__init__(InotifyEmitter)  # never used: nothing is really watched
        self.handlers: list[FileSystemEventHandler] = []

    def schedule(
        self, event_handler: FileSystemEventHandler, path: Any, **options: Any
    ) -> ObservedWatch:
        self.handlers.append(event_handler)
        return ObservedWatch(path, recursive=bool(options.get("recursive")))

    def happen(self, event: FileSystemEvent) -> None:
        for handler in self.handlers:
            handler.dispatch(event)


class Scene:
    """A started watcher on a scripted observer and a fake clock, and what it reported."""

    def __init__(self, root: Path, **options: Any) -> None:
        self.root = root
        self.clock = FakeGuiClock()
        self.observer = ScriptedObserver()
        options.setdefault("debounce_ms", DEBOUNCE_MS)
        options.setdefault("max_latency_ms", MAX_LATENCY_MS)
        self.watcher = HomeWatcher(
            clock=self.clock, observer_factory=lambda: self.observer, **options
        )
        self.batches: list[tuple[float, list[str]]] = []  # (clock ms, paths)
        self.watcher.paths_changed.connect(
            lambda paths: self.batches.append((self.clock.now_ms, paths))
        )
        self.watcher.start(root)
        self.start_ms = self.clock.now_ms

    def path(self, name: str) -> str:
        return str(self.root / name)

    def writing(self, name: str) -> None:
        """A write still going on (unsettled), delivered now."""
        self.observer.happen(FileModifiedEvent(self.path(name)))
        drain()

    def written(self, name: str) -> None:
        """The close after a write (settled), delivered now."""
        self.observer.happen(FileClosedEvent(self.path(name)))
        drain()

    def saved_atomically(self, name: str) -> None:
        """A temp file renamed onto `name` (settled), delivered now."""
        self.observer.happen(FileMovedEvent(self.path(f".{name}.x1y2.tmp"), self.path(name)))
        drain()

    def at(self) -> list[tuple[float, list[str]]]:
        """The batches, with their time relative to the start."""
        return [(ms - self.start_ms, paths) for ms, paths in self.batches]


@pytest.fixture
def scene(qapp: QApplication, tmp_path: Path) -> Iterator[Scene]:
    made = Scene(tmp_path)
    yield made
    made.watcher.stop()


def test_a_write_still_going_on_is_reported_when_it_has_been_quiet_for_the_debounce(
    scene: Scene,
) -> None:
    scene.writing("growing.md")
    scene.clock.advance(100)
    scene.writing("growing.md")  # more of the same write: the debounce starts again
    scene.clock.advance(DEBOUNCE_MS - 1)
    assert scene.batches == []
    scene.clock.advance(1)
    assert scene.at() == [(100 + DEBOUNCE_MS, [scene.path("growing.md")])]


def test_a_burst_is_coalesced_and_the_latency_cap_flushes_it_while_it_goes_on(
    scene: Scene,
) -> None:
    # 300 writes 3 ms apart: the gaps never let the debounce expire, so only the cap flushes.
    names = [f"burst-{index:03d}.md" for index in range(300)]
    for name in names:
        scene.writing(name)
        scene.clock.advance(3)
    scene.clock.advance(DEBOUNCE_MS)

    assert [at for at, _paths in scene.at()] == [300, 600, 900]
    assert [paths for _at, paths in scene.at()] == [
        sorted(scene.path(name) for name in names[start : start + 100]) for start in (0, 100, 200)
    ]


def test_a_settled_change_is_reported_at_once(scene: Scene) -> None:
    scene.saved_atomically("first.md")  # an agent's atomic save
    assert scene.at() == [(0, [scene.path("first.md")])]
    scene.clock.advance(10)
    scene.written("second.md")  # one other within the debounce: still calm
    assert scene.at()[1:] == [(10, [scene.path("second.md")])]


def test_settled_changes_coming_fast_are_batched_by_the_debounce(scene: Scene) -> None:
    scene.saved_atomically("first.md")
    scene.saved_atomically("second.md")
    storm = [f"storm-{index}.md" for index in range(6)]
    for name in storm:  # more than one other within the debounce: a storm
        scene.saved_atomically(name)
    assert len(scene.batches) == 2
    scene.clock.advance(DEBOUNCE_MS - 1)
    assert len(scene.batches) == 2
    scene.clock.advance(1)
    assert scene.at()[2] == (DEBOUNCE_MS, sorted(scene.path(name) for name in storm))
    # Once it has been quiet for the debounce, a settled change is reported at once again.
    scene.clock.advance(DEBOUNCE_MS + 1)
    scene.written("after.md")
    assert scene.at()[3] == (2 * DEBOUNCE_MS + 1, [scene.path("after.md")])


def test_a_settled_change_joins_a_batch_that_is_waiting(scene: Scene) -> None:
    scene.writing("draft.md")
    scene.clock.advance(DEBOUNCE_MS + 1)  # reported: the arrival is old now
    scene.clock.advance(DEBOUNCE_MS)
    scene.writing("other.md")
    scene.written("notes.md")  # calm, but a batch waits: it joins it
    assert len(scene.batches) == 1
    scene.clock.advance(DEBOUNCE_MS)
    assert scene.batches[1][1] == [scene.path("notes.md"), scene.path("other.md")]


def test_events_that_queue_up_reach_the_gui_thread_in_one_drain(
    scene: Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    original = HomeWatcher._add_pending

    def counting(self: HomeWatcher, paths: list[str], *, settled: bool = False) -> None:
        calls.append(len(paths))
        original(self, paths, settled=settled)

    monkeypatch.setattr(HomeWatcher, "_add_pending", counting)
    names = [f"queued-{index}.md" for index in range(100)]
    for name in names:  # the GUI thread is busy: the events wait in the inbox
        scene.observer.happen(FileMovedEvent(scene.path(f".{name}.tmp"), scene.path(name)))
    drain()
    assert calls == [100]  # one drain, not one queued call per event
    assert scene.batches == []  # several at once are a burst, never a lone settled change
    scene.clock.advance(DEBOUNCE_MS)
    assert scene.batches[0][1] == sorted(scene.path(name) for name in names)


def test_a_storm_larger_than_a_batch_is_reported_as_the_root(scene: Scene) -> None:
    for index in range(LARGE_BATCH + 1):
        scene.observer.happen(FileModifiedEvent(scene.path(f"note-{index}.md")))
    drain()
    scene.clock.advance(DEBOUNCE_MS)
    assert scene.at() == [(DEBOUNCE_MS, [str(scene.root)])]


def test_events_of_a_stopped_observer_are_dropped(scene: Scene) -> None:
    scene.observer.happen(FileModifiedEvent(scene.path("late.md")))
    scene.watcher.stop()
    drain()
    scene.clock.advance(10 * MAX_LATENCY_MS)
    assert scene.batches == []


@pytest.mark.expect_log(
    "memtab.gui.activity.watch", "WARNING", r"^The native file watcher stopped; polling"
)
def test_the_health_check_replaces_a_dead_native_observer_by_polling(
    qapp: QApplication, tmp_path: Path
) -> None:
    scene = Scene(tmp_path, polling_interval_s=60)
    try:
        assert scene.watcher.backend is WatchBackend.NATIVE
        scene.observer.stop()  # as if its thread had ended on an error
        scene.observer.join()
        scene.clock.advance(watch._HEALTH_CHECK_MS - 1)
        assert scene.watcher.backend is WatchBackend.NATIVE
        scene.clock.advance(1)
        assert scene.watcher.backend is WatchBackend.POLLING
        assert "native watcher stopped" in scene.watcher.backend_detail
        # What changed while no one watched is unknown: the root, after the debounce.
        scene.clock.advance(DEBOUNCE_MS)
        assert scene.at()[-1] == (watch._HEALTH_CHECK_MS + DEBOUNCE_MS, [str(tmp_path)])
    finally:
        scene.watcher.stop()


def test_a_missing_root_is_checked_for_at_each_retry(qapp: QApplication, tmp_path: Path) -> None:
    root = tmp_path / "new-home"
    scene = Scene(root, missing_root_retry_ms=1000)
    try:
        assert scene.watcher.backend is WatchBackend.WAITING
        scene.clock.advance(3000)
        assert scene.watcher.backend is WatchBackend.WAITING
        root.mkdir()
        scene.clock.advance(999)
        assert scene.watcher.backend is WatchBackend.WAITING
        scene.clock.advance(1)
        assert scene.watcher.backend is WatchBackend.NATIVE
        scene.clock.advance(DEBOUNCE_MS)
        assert scene.at() == [(4000 + DEBOUNCE_MS, [str(root)])]
    finally:
        scene.watcher.stop()
