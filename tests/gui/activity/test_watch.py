"""HomeWatcher: the watchdog → Qt bridge, against a real directory tree."""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot
from watchdog.observers import Observer

from memtab.gui.activity.watch import HomeWatcher, WatchBackend
from memtab.watch_policy.coalesce import LARGE_BATCH
from support.gui_clock import drain
from support.logfail import ExpectLog

WAIT_MS = 5000  # generous: a loaded 2-core CI machine must not flake
DEBOUNCE_MS = 50
POLL_INTERVAL_S = 0.05
BACKENDS = ["native", "polling"]


class Batches:
    """Every `paths_changed` emission."""

    def __init__(self, watcher: HomeWatcher) -> None:
        self.batches: list[list[str]] = []
        watcher.paths_changed.connect(self.batches.append)

    @property
    def union(self) -> set[str]:
        return {path for batch in self.batches for path in batch}


WatcherFactory = Callable[..., tuple[HomeWatcher, Batches]]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    root = tmp_path / "home"
    (root / "memory" / "global").mkdir(parents=True)
    return root


@pytest.fixture
def make_watcher(qtbot: QtBot) -> Iterator[WatcherFactory]:
    watchers: list[HomeWatcher] = []

    def make(root: Path, backend: str = "native", **options: Any) -> tuple[HomeWatcher, Batches]:
        options.setdefault("polling_interval_s", POLL_INTERVAL_S)
        options.setdefault("debounce_ms", DEBOUNCE_MS)
        options.setdefault("max_latency_ms", 300)
        watcher = HomeWatcher(use_polling=backend == "polling", **options)
        watchers.append(watcher)
        batches = Batches(watcher)
        watcher.start(root)
        return watcher, batches

    yield make
    for watcher in watchers:
        watcher.stop()


def wait_for_path(qtbot: QtBot, batches: Batches, path: Path) -> None:
    qtbot.waitUntil(lambda: str(path) in batches.union, timeout=WAIT_MS)


@pytest.mark.parametrize("backend", BACKENDS)
def test_writing_a_new_and_an_existing_file_reports_each(
    qtbot: QtBot, home: Path, make_watcher: WatcherFactory, backend: str
) -> None:
    existing = home / "memory" / "global" / "existing.md"
    existing.write_text("old\n")
    watcher, _batches = make_watcher(home, backend)
    assert watcher.backend is WatchBackend(backend)

    fresh = home / "memory" / "global" / "fresh.md"
    with qtbot.waitSignal(
        watcher.paths_changed, timeout=WAIT_MS, check_params_cb=lambda p: str(fresh) in p
    ):
        fresh.write_text("# fresh\n")
    with qtbot.waitSignal(
        watcher.paths_changed, timeout=WAIT_MS, check_params_cb=lambda p: str(existing) in p
    ) as blocker:
        existing.write_text("new\n")

    paths = blocker.args[0]
    assert paths == sorted(set(paths)), "a batch is sorted and holds each path once"


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_atomic_replace_reports_the_target_and_not_the_temp(
    qtbot: QtBot, home: Path, make_watcher: WatcherFactory, backend: str
) -> None:
    target = home / "memory" / "global" / "notes.md"
    target.write_text("v1\n")
    _watcher, batches = make_watcher(home, backend)

    temp = target.with_name(".notes.md.k3j2x9.tmp")
    temp.write_text("v2\n")
    os.replace(temp, target)

    wait_for_path(qtbot, batches, target)
    assert str(temp) not in batches.union


def test_reading_a_file_reports_nothing(
    qtbot: QtBot, home: Path, make_watcher: WatcherFactory
) -> None:
    note = home / "memory" / "global" / "read-me.md"
    note.write_text("content\n")
    _watcher, batches = make_watcher(home)

    for _ in range(3):
        with note.open(encoding="utf-8") as handle:
            handle.read()
    os.listdir(note.parent)
    # Events arrive in order: once a later write is reported, the reads would have been.
    marker = note.with_name("written-after.md")
    marker.write_text("x\n")
    wait_for_path(qtbot, batches, marker)
    assert batches.union == {str(marker)}


@pytest.mark.parametrize("backend", BACKENDS)
def test_temp_and_hidden_files_report_nothing_but_real_files_still_do(
    qtbot: QtBot, home: Path, make_watcher: WatcherFactory, backend: str
) -> None:
    scope = home / "memory" / "global"
    _watcher, batches = make_watcher(home, backend)

    for name in ("x.tmp", ".x.md.swp", ".x.md.swx", "4913", "notes.md~", ".hidden.md"):
        (scope / name).write_text("temp\n")
    (scope / "4913").unlink()
    (scope / ".obsidian").mkdir()
    (scope / ".obsidian" / "workspace.json").write_text("{}")
    # Written last, so reported last: nothing before it was reported either.
    real = scope / "real.md"
    real.write_text("real\n")
    wait_for_path(qtbot, batches, real)
    assert batches.union == {str(real)}


@pytest.mark.parametrize("backend", BACKENDS)
def test_deleting_a_directory_reports_it(
    qtbot: QtBot, home: Path, make_watcher: WatcherFactory, backend: str
) -> None:
    doomed = home / "memory" / "project" / "mux-0123456789ab" / "topics"
    doomed.mkdir(parents=True)
    for name in ("a.md", "b.md"):
        (doomed / name).write_text(name)
    _watcher, batches = make_watcher(home, backend)

    shutil.rmtree(doomed)

    wait_for_path(qtbot, batches, doomed)


def test_moving_a_file_away_reports_the_source_and_the_destination(
    qtbot: QtBot, home: Path, make_watcher: WatcherFactory
) -> None:
    source = home / "memory" / "global" / "old-name.md"
    source.write_text("x")
    _watcher, batches = make_watcher(home)

    destination = source.with_name("new-name.md")
    source.rename(destination)

    qtbot.waitUntil(lambda: {str(source), str(destination)} <= batches.union, timeout=WAIT_MS)


class ObserverAtWatchLimit(Observer):  # type: ignore[misc,valid-type]
    """A native observer whose watch registration fails as at the inotify limit."""

    def schedule(self, *args: Any, **kwargs: Any) -> Any:
        raise OSError(errno.ENOSPC, "inotify watch limit reached")


def observer_that_cannot_start() -> Any:
    raise OSError(errno.EMFILE, "inotify instance limit reached")


@pytest.mark.parametrize(
    ("factory", "reason"),
    [
        (ObserverAtWatchLimit, "inotify watch limit reached"),
        (observer_that_cannot_start, "inotify instance limit reached"),
    ],
)
def test_a_failing_native_observer_falls_back_to_polling(
    qtbot: QtBot,
    home: Path,
    make_watcher: WatcherFactory,
    factory: Callable[[], Any],
    reason: str,
    expect_log: ExpectLog,
) -> None:
    expect_log("memtab.gui.activity.watch", "WARNING", rf"^Falling back to polling for .*{reason}")
    watcher, batches = make_watcher(home, observer_factory=factory)

    assert watcher.backend is WatchBackend.POLLING
    assert reason in watcher.backend_detail
    note = home / "memory" / "global" / "after-fallback.md"
    note.write_text("still watched\n")
    wait_for_path(qtbot, batches, note)


def test_a_missing_root_is_waited_for_not_created(
    qtbot: QtBot, tmp_path: Path, make_watcher: WatcherFactory
) -> None:
    root = tmp_path / "new-home"
    watcher, batches = make_watcher(root, missing_root_retry_ms=50)

    assert watcher.backend is WatchBackend.WAITING
    assert not root.exists()

    with qtbot.waitSignal(watcher.backend_changed, timeout=WAIT_MS) as blocker:
        (root / "memory" / "global").mkdir(parents=True)
    assert blocker.args == [WatchBackend.NATIVE.value]
    wait_for_path(qtbot, batches, root)  # "everything may have changed"

    note = root / "memory" / "global" / "first.md"
    note.write_text("first\n")
    wait_for_path(qtbot, batches, note)

    with qtbot.waitSignal(
        watcher.paths_changed, timeout=WAIT_MS, check_params_cb=lambda p: str(root) in p
    ):
        shutil.rmtree(root)
    qtbot.waitUntil(lambda: watcher.backend is WatchBackend.WAITING, timeout=WAIT_MS)


def test_paths_are_reported_under_a_symlinked_root_as_given(
    qtbot: QtBot, home: Path, tmp_path: Path, make_watcher: WatcherFactory
) -> None:
    link = tmp_path / ".mux"
    link.symlink_to(home, target_is_directory=True)
    _watcher, batches = make_watcher(link)

    (home / "memory" / "global" / "via-link.md").write_text("x")

    wait_for_path(qtbot, batches, link / "memory" / "global" / "via-link.md")


def test_stop_silences_the_watcher(home: Path, make_watcher: WatcherFactory) -> None:
    watcher, batches = make_watcher(home)
    assert watcher._watching is not None
    observer = watcher._watching.observer
    assert observer is not None
    threads = [observer, *observer.emitters]
    watcher.stop()

    assert watcher.backend is WatchBackend.STOPPED
    assert watcher.root is None
    assert not any(thread.is_alive() for thread in threads), "stop joins the observer"
    (home / "memory" / "global" / "unwatched.md").write_text("x")
    drain()  # no thread is left to post it; anything posted before stop is dropped
    assert batches.batches == []


def test_a_storm_of_changes_is_reported_as_the_root_alone(
    qtbot: QtBot, home: Path, make_watcher: WatcherFactory
) -> None:
    _watcher, batches = make_watcher(home, debounce_ms=300, max_latency_ms=2000)
    scope = home / "memory" / "global"
    for index in range(LARGE_BATCH + 100):
        (scope / f"note-{index}.md").write_text("x")
    qtbot.waitUntil(lambda: str(home) in batches.union, timeout=WAIT_MS)
    storm = next(batch for batch in batches.batches if str(home) in batch)
    assert storm == [str(home)]
    assert not any(len(batch) > LARGE_BATCH for batch in batches.batches)
