"""Keys pressed before the window's actions exist (`gui.first_paint.held_keys`): the tree is on
screen before the step after the first paint builds the shortcuts; a shortcut pressed then is
carried out once they are built, never lost."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMenu
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS
from memtab.components.tree import scan_policy
from memtab.components.window.ui_state import UiState
from memtab.gui.activity.watch import HomeWatcher
from memtab.gui.first_paint.app import create_main_window
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.window.keys import SEARCH_BOX
from memtab.store.home import Home
from support.memory_home import MAIN

home = support.home


@pytest.fixture
def held_scan(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The home's first scan waits on its worker until the event is set (the window shows no
    scan, so it builds no actions of its own accord meanwhile)."""
    go_on = threading.Event()
    scan = scan_policy.scan

    def waiting_scan(*args: object, **kwargs: object) -> object:
        go_on.wait(WAIT_MS / 1000)
        return scan(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(scan_policy, "scan", waiting_scan)
    yield go_on
    go_on.set()


def shown_window(qtbot: QtBot, home: Home, tmp_path: Path) -> MainWindow:
    window = create_main_window(
        home,
        MAIN,
        ui_state=UiState(tmp_path / "ui.json"),
        watcher=HomeWatcher(debounce_ms=30, max_latency_ms=300),
        start_writer=False,
        start_check=False,
    )
    qtbot.addWidget(window)
    support.activate(qtbot, window)
    return window


def search_focused(window: MainWindow) -> bool:
    box = window.built_part(SEARCH_BOX)
    return box is not None and box.edit.hasFocus()


def test_a_shortcut_pressed_before_the_actions_exist_is_carried_out_once_they_do(
    qtbot: QtBot, home: Home, tmp_path: Path, held_scan: threading.Event
) -> None:
    window = shown_window(qtbot, home, tmp_path)
    tab = window.memory_tab
    try:
        assert window.features is None and tab.controller is None, "no action built yet"
        ctrl_shift = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        qtbot.keyClick(tab.tree, Qt.Key.Key_F, ctrl_shift)
        # Ctrl+Shift+F: the actions are built at once, and the search field has the keyboard.
        qtbot.waitUntil(lambda: search_focused(window), timeout=WAIT_MS)
        search = window.part(SEARCH_BOX).edit
        assert window.held_keys.held == 0
        held_scan.set()
        qtbot.waitUntil(lambda: tab.is_loaded, timeout=WAIT_MS)
        assert search.hasFocus(), "the first scan shown leaves the keyboard where the key put it"
    finally:
        held_scan.set()
        window.close_without_asking()


def open_menu_title() -> str | None:
    popup = QApplication.activePopupWidget()
    return popup.title() if isinstance(popup, QMenu) and popup.isVisible() else None


def test_a_menu_key_pressed_before_the_menus_are_filled_opens_its_menu_once_they_are(
    qtbot: QtBot, home: Home, tmp_path: Path, held_scan: threading.Event
) -> None:
    """Alt+F goes to the menu bar, not the window: Qt opened the File menu while it was empty
    (nothing shown) and the key was gone."""
    window = shown_window(qtbot, home, tmp_path)
    try:
        assert window.features is None, "no menu filled yet"
        qtbot.keyClick(window.memory_tab.tree, Qt.Key.Key_F, Qt.KeyboardModifier.AltModifier)
        qtbot.waitUntil(lambda: open_menu_title() == "&File", timeout=WAIT_MS)
        assert window.held_keys.held == 0
    finally:
        held_scan.set()
        popup = QApplication.activePopupWidget()
        if popup is not None:
            popup.close()
        window.close_without_asking()


def test_keys_after_the_actions_are_built_are_qts_own(
    qtbot: QtBot, home: Home, tmp_path: Path, held_scan: threading.Event
) -> None:
    held_scan.set()
    window = shown_window(qtbot, home, tmp_path)
    tab = window.memory_tab
    try:
        qtbot.waitUntil(lambda: tab.is_loaded, timeout=WAIT_MS)
        qtbot.keyClick(tab.tree, Qt.Key.Key_Q, Qt.KeyboardModifier.AltModifier)  # no action's key
        assert window.held_keys.held == 0
    finally:
        window.close_without_asking()
