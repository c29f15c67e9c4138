"""Dialogs open whole on the screen they open on (`dialog_layout.fit_to_screen`), at the size
the user last gave them, and lay side-by-side panes one above the other when narrow
(`stack_when_narrow`). Every dialog of the app on a small screen: tests/gui/memory_tab/
test_room.py."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMainWindow,
    QSplitter,
    QVBoxLayout,
    QWidget,
)
from pytestqt.qtbot import QtBot

from memtab.components.window.ui_state import UiState
from memtab.gui.toolkit import dialog_layout
from memtab.gui.toolkit.dialog_layout import fit_to_screen, opening_screen, stack_when_narrow
from memtab.gui.toolkit.screen_room import room_on

HALF_LAPTOP = QRect(0, 28, 683, 740)


class Window(QMainWindow):
    """A main window that keeps a UI state, as Memtab's does."""

    def __init__(self, state: UiState | None) -> None:
        super().__init__()
        self.ui_state = state


@pytest.fixture
def state(tmp_path: Path) -> UiState:
    return UiState(tmp_path / "ui-state.json")


@pytest.fixture
def window(qtbot: QtBot, state: UiState) -> Iterator[Window]:
    widget = Window(state)
    qtbot.addWidget(widget)
    # As wide as its screen: the screen, not the window, bounds the dialogs (unless a test
    # narrows it).
    widget.resize(widget.screen().availableGeometry().width(), 300)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget


def a_dialog(parent: QWidget | None, preferred: QSize, remember: str | None = None) -> QDialog:
    dialog = QDialog(parent)
    layout = QVBoxLayout(dialog)
    label = QLabel("A sentence long enough to wrap when the dialog is narrow. " * 4, dialog)
    label.setWordWrap(True)
    layout.addWidget(label, 1)
    layout.addWidget(QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog))
    fit_to_screen(dialog, preferred, remember=remember)
    return dialog


def shown(qtbot: QtBot, dialog: QDialog) -> QDialog:
    dialog.show()
    qtbot.waitExposed(dialog)
    QApplication.processEvents()
    return dialog


def test_a_dialog_bigger_than_the_screen_opens_whole_over_its_parent(
    qtbot: QtBot, window: Window
) -> None:
    screen = window.screen().availableGeometry()
    dialog = shown(qtbot, a_dialog(window, QSize(5000, 4000)))
    room = room_on(screen)
    assert dialog.size() == room  # as big as it wants, short of the screen's room
    assert screen.contains(dialog.frameGeometry())
    assert opening_screen(dialog) is window.screen()
    dialog.hide()
    small = shown(qtbot, a_dialog(window, QSize(300, 200)))
    assert small.size() == QSize(300, 200)
    assert abs(small.geometry().center().x() - window.geometry().center().x()) <= 1


def test_on_a_small_screen_it_shrinks_and_its_minimums_do_too(
    qtbot: QtBot, window: Window, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dialog_layout, "available_geometry", lambda _window: QRect(HALF_LAPTOP))
    room = room_on(HALF_LAPTOP)
    dialog = a_dialog(window, QSize(980, 580))
    dialog.setMinimumWidth(900)  # a constant set before it knew the screen
    shown(qtbot, dialog)
    assert dialog.width() == room.width() and dialog.minimumWidth() == room.width()
    assert dialog.height() == 580
    # The wrapped label's lines at this width are all shown: height for width.
    layout = dialog.layout()
    assert layout is not None
    assert dialog.height() >= layout.totalHeightForWidth(dialog.width())
    # A size the dialog takes for its content is asked for at Show (a 0 side).
    hinted = shown(qtbot, a_dialog(window, QSize(520, 0)))
    assert hinted.width() == 520 and hinted.height() >= hinted.minimumSizeHint().height()


def test_the_size_the_user_gives_it_is_remembered_in_the_windows_state(
    qtbot: QtBot, window: Window, state: UiState
) -> None:
    dialog = shown(qtbot, a_dialog(window, QSize(600, 400), remember="runs"))
    dialog.hide()
    assert state.dialog_size("runs") is None  # left as it opened: nothing to remember
    dialog.show()
    dialog.resize(520, 360)  # the user drags its corner
    dialog.hide()
    assert state.dialog_size("runs") == (520, 360)
    assert state.save()
    again = UiState.load(state.path)
    assert json.loads(state.path.read_text(encoding="utf-8"))["dialogs"] == {"runs": [520, 360]}
    window.ui_state = again
    reopened = shown(qtbot, a_dialog(window, QSize(600, 400), remember="runs"))
    assert reopened.size() == QSize(520, 360)


def test_a_remembered_size_never_outgrows_a_smaller_screen(
    qtbot: QtBot, window: Window, state: UiState, monkeypatch: pytest.MonkeyPatch
) -> None:
    state.set_dialog_size("trash", 1200, 700)
    monkeypatch.setattr(dialog_layout, "available_geometry", lambda _window: QRect(HALF_LAPTOP))
    dialog = shown(qtbot, a_dialog(window, QSize(820, 520), remember="trash"))
    assert dialog.size() == room_on(HALF_LAPTOP).boundedTo(QSize(1200, 700))
    dialog.hide()
    assert state.dialog_size("trash") == (1200, 700)  # shrunk by the screen, not the user


def test_a_dialog_opens_no_wider_than_the_window_it_opens_over(
    qtbot: QtBot, window: Window, state: UiState, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A window beside a terminal (683 px of a 1366-px screen) opens its dialogs over
    itself; a very narrow one still leaves them NARROWEST_WINDOW_CAP; a size the user gave
    a dialog is theirs (the screen alone bounds it)."""
    laptop = QRect(0, 28, 1366, 740)
    monkeypatch.setattr(dialog_layout, "available_geometry", lambda _window: QRect(laptop))
    window.resize(683, 700)
    assert shown(qtbot, a_dialog(window, QSize(1000, 500))).width() == 683
    window.resize(300, 700)
    narrow = shown(qtbot, a_dialog(window, QSize(1000, 500)))
    assert narrow.width() == dialog_layout.NARROWEST_WINDOW_CAP
    state.set_dialog_size("runs", 900, 500)
    assert shown(qtbot, a_dialog(window, QSize(1000, 500), remember="runs")).width() == 900
    assert shown(qtbot, a_dialog(None, QSize(1000, 500))).width() == 1000  # no window


@pytest.mark.parametrize(
    "stored",
    [None, "x", [1], [0, 5], [True, 5], [5.5, 5], {"w": 1}],
)
def test_a_dialog_size_that_is_not_two_positive_ints_is_ignored(
    tmp_path: Path, stored: object
) -> None:
    state = UiState(tmp_path / "ui-state.json", {"dialogs": {"runs": stored}})
    assert state.dialog_size("runs") is None
    assert UiState(tmp_path / "x.json", {"dialogs": "nonsense"}).dialog_size("runs") is None


def test_side_by_side_panes_stack_when_narrow_and_the_handle_still_drags(
    qtbot: QtBot, window: Window
) -> None:
    splitter = QSplitter(Qt.Orientation.Horizontal)
    qtbot.addWidget(splitter)
    splitter.addWidget(QLabel("list"))
    splitter.addWidget(QLabel("details"))
    stack_when_narrow(splitter, 700)
    splitter.resize(900, 400)
    splitter.show()
    qtbot.waitExposed(splitter)
    assert splitter.orientation() is Qt.Orientation.Horizontal
    splitter.resize(650, 500)
    QApplication.processEvents()
    assert splitter.orientation() is Qt.Orientation.Vertical
    assert not splitter.childrenCollapsible()
    splitter.setSizes([100, 400])
    assert splitter.sizes()[0] < splitter.sizes()[1]
    splitter.resize(800, 500)
    QApplication.processEvents()
    assert splitter.orientation() is Qt.Orientation.Horizontal
