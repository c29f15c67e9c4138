"""The window's sync service: two homes and a local bare repository, driven through
`WindowSync` (the worker, the debounce and the schedule on a fake clock) and its
status-bar line."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.sync.status import SyncLook, sync_line
from memtab.gui.sync.feature import SyncStatusWidget
from memtab.gui.sync.service import (
    DEBOUNCE_MS,
    FIRST_SYNC_MS,
    INTERVAL_MS,
    LOOK_MS,
    WindowSync,
)
from memtab.gui.tasks.jobs import JobService
from memtab.store.home import Home
from support.gui_clock import FakeGuiClock
from support.sync_machines import Machine

NOTES = "/memories/global/notes.md"


@pytest.fixture
def started(qtbot: QtBot, jobs: JobService) -> Iterator[Callable[..., WindowSync]]:
    """Start a window's sync on a home (its first look done); shut down at the end."""
    made: list[WindowSync] = []

    def start(home: Home, clock: FakeGuiClock, first_sync_ms: int = FIRST_SYNC_MS) -> WindowSync:
        sync = WindowSync(home, jobs, clock=clock, first_sync_ms=first_sync_ms)
        made.append(sync)
        sync.start()
        settle(qtbot, sync)
        return sync

    yield start
    for sync in made:
        sync.shutdown()


def settle(qtbot: QtBot, sync: WindowSync) -> None:
    qtbot.waitUntil(lambda: not sync.busy, timeout=60_000)


def test_without_a_target_the_window_only_looks(
    qtbot: QtBot, started: Callable[..., WindowSync], tmp_path: Path
) -> None:
    clock = FakeGuiClock()
    sync = started(Home(tmp_path / "home"), clock)
    assert not sync.configured
    assert clock.next_deadline_ms() is None  # nothing scheduled
    home = Home(tmp_path / "home")
    sync.follow_changes(ChangeBatch.classify([str(home.global_root / "a.md")], home))
    assert clock.next_deadline_ms() is None
    assert not sync_line(sync.look, syncing=False, copies=0, now_ms=0).visible


# slow: two machines syncing through a git remote (git processes, ~0.5 s of CPU)
@pytest.mark.slow
def test_sync_now_sends_and_the_schedule_brings_in(
    qtbot: QtBot, started: Callable[..., WindowSync], alpha: Machine, beta: Machine
) -> None:
    clock = FakeGuiClock()
    sync = started(alpha.home, clock)
    assert sync.configured and sync.look.targets == ("memory",)
    assert clock.next_deadline_ms() == FIRST_SYNC_MS  # the first sync, soon
    assert sync_line(sync.look, syncing=False, copies=0, now_ms=0).text == "Not synced yet"
    alpha.write(NOTES, "# Notes\n\n- from alpha\n")
    sync.sync_now()
    assert sync.syncing
    settle(qtbot, sync)
    assert sync.look.report is not None and sync.look.report.to_json()["pushed"] >= 1
    beta.sync()
    assert beta.text(NOTES) == "# Notes\n\n- from alpha\n"

    beta.write("/memories/global/beta.md", "from beta\n")
    beta.sync()
    clock.advance(INTERVAL_MS)  # the schedule: what beta sent comes in
    settle(qtbot, sync)
    assert alpha.text("/memories/global/beta.md") == "from beta\n"
    line = sync_line(sync.look, syncing=False, copies=0, now_ms=sync.look.last_sync_at or 0)
    assert line.text == "In sync"


# slow: two machines syncing through a git remote (git processes, ~0.5 s of CPU)
@pytest.mark.slow
def test_a_change_is_sent_once_it_settles(
    qtbot: QtBot, started: Callable[..., WindowSync], alpha: Machine, beta: Machine
) -> None:
    clock = FakeGuiClock()
    sync = started(alpha.home, clock, first_sync_ms=INTERVAL_MS)
    alpha.write(NOTES, "edited on alpha\n")
    changed = ChangeBatch.classify([str(alpha.home.global_root / "notes.md")], alpha.home)
    sync.follow_changes(changed)
    clock.advance(DEBOUNCE_MS - 1)
    settle(qtbot, sync)  # (a look counted what waits)
    assert not sync.look.synced  # still settling
    sync.follow_changes(changed)  # another save: the wait starts again
    clock.advance(DEBOUNCE_MS - 1)
    settle(qtbot, sync)
    assert not sync.look.synced
    clock.advance(1)
    assert sync.syncing
    settle(qtbot, sync)
    beta.sync()
    assert beta.text(NOTES) == "edited on alpha\n"

    # What a sync brought in is not sent back: with nothing new here, no sync goes out.
    beta.write(NOTES, "edited on beta\n")
    beta.sync()
    sync.sync_now()
    settle(qtbot, sync)
    assert alpha.text(NOTES) == "edited on beta\n"
    sync.follow_changes(changed)  # the watcher saw the file sync wrote
    clock.advance(DEBOUNCE_MS)
    settle(qtbot, sync)
    assert not sync.look.synced  # looked, found nothing to send, did not sync


# slow: two machines syncing through a git remote (git processes, ~0.5 s of CPU)
@pytest.mark.slow
def test_the_corner_counts_the_files_that_wait_each_way(
    qtbot: QtBot, started: Callable[..., WindowSync], alpha: Machine, beta: Machine
) -> None:
    alpha.publish(NOTES, "one\n", beta)
    clock = FakeGuiClock()
    sync = started(alpha.home, clock, first_sync_ms=INTERVAL_MS)
    widget = SyncStatusWidget()
    qtbot.addWidget(widget)
    sync.changed.connect(widget.show_look)
    alpha.write(NOTES, "one\ntwo\n")
    alpha.write("/memories/global/todo.md", "- a\n")
    sync.follow_changes(
        ChangeBatch.classify([str(alpha.home.global_root / "notes.md")], alpha.home)
    )
    clock.advance(LOOK_MS)  # counted long before the change is sent
    settle(qtbot, sync)
    assert not sync.look.synced
    assert widget.text() == "↑2"
    assert "↑2: 2 files changed here wait to be sent (notes.md, todo.md)" in widget.toolTip()

    beta.write("/memories/global/beta.md", "from beta\n")
    beta.sync()
    alpha.service.status(fetch=True)  # fetched, not merged (`memtab sync status --fetch`)
    sync.look_again()
    settle(qtbot, sync)
    assert widget.text() == "↑2 ↓1"
    assert "↓1: 1 file changed on another machine waits to be brought in (beta.md)" in (
        widget.toolTip()
    )
    sync.sync_now()
    settle(qtbot, sync)
    assert widget.text() == "In sync"


# slow: two machines syncing through a git remote (git processes, ~0.5 s of CPU)
@pytest.mark.slow
def test_a_same_line_edit_shows_as_a_conflict(
    qtbot: QtBot, started: Callable[..., WindowSync], alpha: Machine, beta: Machine
) -> None:
    alpha.publish(NOTES, "one\ntwo\n", beta)
    beta.write(NOTES, "one\nTWO from beta\n")
    beta.sync()
    alpha.write(NOTES, "one\nTWO from alpha\n")
    clock = FakeGuiClock()
    sync = started(alpha.home, clock)
    sync.sync_now()
    settle(qtbot, sync)
    assert [conflict.path for conflict in sync.look.conflicts] == [NOTES]
    widget = SyncStatusWidget()
    qtbot.addWidget(widget)
    widget.show_look(sync.look)
    assert not widget.isHidden() and widget.text() == "1 conflict"
    with qtbot.waitSignal(widget.conflicts_requested):
        widget.click()
    assert alpha.text(NOTES) == "one\nTWO from alpha\n"  # mine stays live until decided


# slow: two machines syncing through a git remote (git processes, ~0.5 s of CPU)
@pytest.mark.slow
def test_an_unreachable_remote_is_offline_and_retried(
    qtbot: QtBot, started: Callable[..., WindowSync], alpha: Machine, beta: Machine, remote: Path
) -> None:
    alpha.publish(NOTES, "one\n", beta)
    clock = FakeGuiClock()
    sync = started(alpha.home, clock)
    away = remote.with_name("away.git")
    remote.rename(away)  # the NAS is off
    alpha.write(NOTES, "written offline\n")
    sync.sync_now()
    settle(qtbot, sync)
    report = sync.look.report
    assert report is not None and report.offline and not report.needs_user
    line = sync_line(sync.look, syncing=False, copies=0, now_ms=0)
    assert line.text == "Offline · ↑1"  # committed here, waiting to be sent
    assert alpha.text(NOTES) == "written offline\n"  # nothing changed here

    away.rename(remote)
    clock.advance(INTERVAL_MS)  # retried on schedule
    settle(qtbot, sync)
    assert sync.look.report is not None and not sync.look.report.offline
    beta.sync()
    assert beta.text(NOTES) == "written offline\n"


def test_a_sync_asked_while_one_runs_runs_after_it(
    qtbot: QtBot, started: Callable[..., WindowSync], alpha: Machine
) -> None:
    clock = FakeGuiClock()
    sync = started(alpha.home, clock)
    looks: list[SyncLook] = []
    sync.changed.connect(looks.append)
    sync.sync_now()
    sync.sync_now()
    sync.sync_now()
    settle(qtbot, sync)
    assert len(looks) == 2  # the one running, then one more for the requests meanwhile


def test_the_git_repository_is_not_watched(alpha: Machine) -> None:
    from memtab.watch_policy.paths import is_ignored

    repository = alpha.home.sync_dir / "memory" / "repo.git"
    assert repository.is_dir()
    for path in repository.rglob("*"):
        assert is_ignored(str(path.relative_to(alpha.home.root)))
    shutil.rmtree(repository)  # (the sync repository is the target's own)
