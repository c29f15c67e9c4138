"""The window's first show (`first_paint.app.show_when_ready`): its first frame holds the home's
tree, not sections filling in a moment after; a home slow to read shows all the same."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS
from memtab.components.tree import scan_policy
from memtab.components.window.ui_state import UiState
from memtab.gui.activity.watch import HomeWatcher
from memtab.gui.first_paint.app import create_main_window, show_when_ready
from memtab.gui.first_paint.main_window import MainWindow
from memtab.store.home import Home
from support.memory_home import MAIN

home = support.home


class FirstPaint(QObject):
    """Notes whether the tree held the home when its rows were first painted."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.tab = window.memory_tab
        self.tree_ready_at_paint: bool | None = None
        self.tab.tree.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and self.tree_ready_at_paint is None:
            self.tree_ready_at_paint = self.tab.is_tree_ready
        return False


def new_window(qtbot: QtBot, home: Home, tmp_path: Path) -> MainWindow:
    window = create_main_window(
        home,
        MAIN,
        ui_state=UiState(tmp_path / "ui.json"),
        watcher=HomeWatcher(debounce_ms=30, max_latency_ms=300),
        start_writer=False,
        start_check=False,
    )
    qtbot.addWidget(window)
    return window


def test_the_first_frame_holds_the_homes_tree(qtbot: QtBot, home: Home, tmp_path: Path) -> None:
    window = new_window(qtbot, home, tmp_path)
    painted = FirstPaint(window)
    try:
        show_when_ready(window)
        assert not window.isVisible(), "nothing to show yet: the scan is on its way"
        qtbot.waitUntil(lambda: painted.tree_ready_at_paint is not None, timeout=WAIT_MS)
        assert painted.tree_ready_at_paint
        qtbot.waitUntil(lambda: window.memory_tab.is_loaded, timeout=WAIT_MS)
    finally:
        window.close_without_asking()


@pytest.fixture
def slow_disk(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The home's first scan waits on its worker until the event is set."""
    go_on = threading.Event()
    scan = scan_policy.scan

    def waiting_scan(*args: object, **kwargs: object) -> object:
        go_on.wait(WAIT_MS / 1000)
        return scan(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(scan_policy, "scan", waiting_scan)
    yield go_on
    go_on.set()


def test_a_home_slow_to_read_shows_its_window_after_the_wait(
    qtbot: QtBot, home: Home, tmp_path: Path, slow_disk: threading.Event
) -> None:
    window = new_window(qtbot, home, tmp_path)
    try:
        show_when_ready(window, wait_ms=50)
        qtbot.waitUntil(window.isVisible, timeout=WAIT_MS)
        assert not window.memory_tab.is_tree_ready
        slow_disk.set()
        qtbot.waitUntil(lambda: window.memory_tab.is_tree_ready, timeout=WAIT_MS)
    finally:
        slow_disk.set()
        window.close_without_asking()
