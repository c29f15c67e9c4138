"""The consolidation facade built on first use, and its background preload."""

from __future__ import annotations

from pathlib import Path

import shiboken6
from pytestqt.qtbot import QtBot

from memtab.gui.memory_tab.lazy_consolidation import LazyConsolidationTasks
from memtab.store.home import Home


def test_preload_builds_the_facade_off_the_first_click(qtbot: QtBot, tmp_path: Path) -> None:
    tasks = LazyConsolidationTasks(Home(tmp_path / "home"))
    assert not tasks.loaded
    tasks.preload()
    qtbot.waitUntil(lambda: tasks.loaded, timeout=30_000)
    assert tasks.shutdown()


def test_a_preload_that_ends_after_the_window_closed_stays_quiet(tmp_path: Path) -> None:
    tasks = LazyConsolidationTasks(Home(tmp_path / "home"))
    shiboken6.delete(tasks)  # the window closed while the engine was still importing
    tasks._preload_engine()  # what the preload thread runs then: no RuntimeError
