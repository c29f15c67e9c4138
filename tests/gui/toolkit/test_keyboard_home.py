"""`toolkit.keyboard_home`: a widget hidden or deleted while it had the keyboard leaves it at
home (what the window says), not where Qt's focus chain put it; the keyboard moved on purpose
stays where it went. Where the keys go on a real display: tests/gui/keyboard/test_focus_keys.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QApplication, QLineEdit, QTabBar, QWidget
from pytestqt.qtbot import QtBot

from memtab.gui.toolkit.keyboard_home import KeyboardHome
from memtab.gui.toolkit.widgets import vbox


class Window(QWidget):
    """A tab bar first in the focus chain (where Qt puts a keyboard the window gets back with
    no widget to give it to), the home, a field that goes away, and the field after it."""

    def __init__(self) -> None:
        super().__init__()
        self.bar = QTabBar(self)
        self.bar.addTab("Memory")
        self.home = QLineEdit(self)
        self.going = QLineEdit(self)
        self.after = QLineEdit(self)
        vbox(self.bar, self.home, self.going, self.after, on=self)
        self.homes = 0
        self.keeper = KeyboardHome(self, self.go_home)

    def go_home(self) -> None:
        self.homes += 1
        self.home.setFocus()


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[Window]:
    window = Window()
    qtbot.addWidget(window)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.going.setFocus()
    qtbot.waitUntil(window.going.hasFocus)
    window.homes = 0
    yield window


def test_a_widget_hidden_with_the_keyboard_gives_it_home(qtbot: QtBot, window: Window) -> None:
    window.going.hide()
    assert QApplication.focusWidget() is window.after  # Qt's pick: the next in the chain
    qtbot.waitUntil(window.home.hasFocus)
    assert window.homes == 1


def test_a_widget_deleted_with_the_keyboard_gives_it_home(qtbot: QtBot, window: Window) -> None:
    window.going.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    qtbot.waitUntil(window.home.hasFocus)


def test_the_keyboard_moved_on_purpose_stays(qtbot: QtBot, window: Window) -> None:
    window.going.hide()
    window.bar.setFocus()  # the code that hid it chose where the keyboard goes
    qtbot.wait(30)
    assert window.bar.hasFocus() and window.homes == 0


def test_moving_between_widgets_is_not_a_lost_keyboard(qtbot: QtBot, window: Window) -> None:
    window.after.setFocus()
    window.bar.setFocus()
    qtbot.wait(30)
    assert window.bar.hasFocus() and window.homes == 0


def test_the_keyboard_moved_off_a_widget_that_never_showed_stays(
    qtbot: QtBot, window: Window
) -> None:
    window.going.hide()
    window.after.setFocus()
    qtbot.waitUntil(window.home.hasFocus)
    window.homes = 0
    window.going.setFocus()  # a panel's way back to a widget its pane hides, say
    window.after.setFocus()  # then its own stop, which shows
    qtbot.wait(30)
    assert window.after.hasFocus() and window.homes == 0
