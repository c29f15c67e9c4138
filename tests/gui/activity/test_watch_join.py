"""The window's watcher beside a machine joining a sync: the scope it brings in whole (its
files staged in Memtab's own folder, renamed into place in one step: docs/formats.md §18.3)
is reported file by file where it arrives, and the staging folder never."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from memtab.components.activity.change_batch import ChangeBatch
from memtab.fs.atomic import FILESYSTEM_FLUSH_WORKS, Directory
from memtab.gui.activity.watch import HomeWatcher
from memtab.store.home import PathKind
from memtab.sync.repository.layout import STAGING_NAME
from support.spies import calls_through
from support.sync_machines import Machine

pytestmark = pytest.mark.skipif(
    not (sys.platform.startswith("linux") and FILESYSTEM_FLUSH_WORKS),
    reason="a scope is staged whole on Linux",
)

G = "/memories/global"
WAIT_MS = 10_000


@pytest.mark.parametrize("polling", [False, True], ids=["native", "polling"])
def test_a_scope_a_join_brings_in_whole_is_reported_file_by_file(
    qtbot: QtBot,
    alpha: Machine,
    beta: Machine,
    monkeypatch: pytest.MonkeyPatch,
    polling: bool,
) -> None:
    shared = alpha.share_notes(12, folder="topic")
    watcher = HomeWatcher(
        debounce_ms=30, max_latency_ms=200, use_polling=polling, polling_interval_s=0.05
    )
    seen: set[str] = set()
    watcher.paths_changed.connect(seen.update)
    watcher.start(beta.home.root)
    moved = calls_through(monkeypatch, Directory, "move_whole")
    try:
        beta.sync()
        arrived = {
            str(beta.home.global_root.joinpath(*path.removeprefix(f"{G}/").split("/")))
            for path in shared
        }
        qtbot.waitUntil(lambda: arrived <= seen, timeout=WAIT_MS)
    finally:
        watcher.stop()
    monkeypatch.undo()
    assert [target.display(new) for _, name, target, new in moved if name == STAGING_NAME] == [
        str(beta.home.global_root)
    ]
    assert not [path for path in seen if ".new-scope" in Path(path).parts]
    assert ChangeBatch.classify(sorted(seen), beta.home).affects(PathKind.GLOBAL_SCOPE)
