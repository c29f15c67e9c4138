"""`toolkit.clock.call_soon`: a call on the GUI thread a moment later that goes with its owner."""

from __future__ import annotations

import gc
import weakref

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from memtab.gui.memory_tab.overlay import TreeOverlay
from memtab.gui.toolkit.clock import call_soon


class Owner(QObject):
    def __init__(self, calls: list[None]) -> None:
        super().__init__()
        self.calls = calls

    def called(self) -> None:
        self.calls.append(None)


def delete_now(owner: QObject) -> None:
    owner.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def test_the_call_comes_once_and_leaves_no_timer(qtbot: QtBot) -> None:
    calls: list[None] = []
    owner = Owner(calls)
    call_soon(owner, owner.called, 5)
    assert calls == []
    qtbot.waitUntil(lambda: len(calls) == 1)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert owner.findChildren(QTimer) == []
    qtbot.wait(20)
    assert len(calls) == 1


def test_an_owner_deleted_first_is_never_called_and_is_freed(qtbot: QtBot) -> None:
    calls: list[None] = []
    owner = Owner(calls)
    call_soon(owner, owner.called)
    alive = weakref.ref(owner)
    delete_now(owner)
    del owner
    gc.collect()
    assert alive() is None  # QTimer.singleShot(0, owner, owner.called) kept it for good
    qtbot.wait(10)
    assert calls == []


def test_an_overlay_deleted_with_its_placing_pending_is_freed(qtbot: QtBot) -> None:
    pane = QWidget()
    tree = QWidget(pane)
    overlay = TreeOverlay(tree, pane)  # type: ignore[arg-type]  # a tree that reserves nothing
    overlay.add(QWidget())  # asks to be placed once this turn's events are handled
    alive = weakref.ref(overlay)
    delete_now(pane)
    del pane, tree, overlay
    gc.collect()
    assert alive() is None
