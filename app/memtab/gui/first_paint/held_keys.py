"""Keys pressed in the window before its actions exist: the window shows its tree before the step
after the first paint builds the menus and shortcuts (`MainWindow`'s features), and a shortcut
pressed in between reaches the window unhandled. It is held here, the actions are built at once,
and then the action of that key where it was pressed is carried out — never lost."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6 import QtGui
from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication, QWidget

from memtab.gui.toolkit.clock import call_soon


class KeyedAction(Protocol):
    """What a held key is matched against (`gui.actions.ActionRegistry.live_action`)."""

    def live_action(
        self, pressed: QtGui.QKeySequence, focus: QWidget | None
    ) -> QtGui.QAction | None: ...


class HeldKeys(QObject):
    """The window's unhandled key presses until its actions are built (`hold`), carried out by
    `release` in the order pressed."""

    def __init__(self, parent: QObject, build_actions: Callable[[], object]) -> None:
        """`build_actions` builds the actions (asked once, from the event loop, after the first
        key held)."""
        super().__init__(parent)
        self._build_actions = build_actions
        self._held: list[tuple[QtGui.QKeySequence, QWidget | None]] = []
        self._released = False

    @property
    def held(self) -> int:
        """How many keys wait for their actions."""
        return len(self._held)

    def hold(self, event: QtGui.QKeyEvent) -> bool:
        """Hold the key press `event` (unhandled by the widgets) if the actions are not built
        yet; whether it was held. The first key held has them built next."""
        if self._released or event.isAutoRepeat():
            return False
        if not self._held:  # built on the loop's next turn, not inside this key's delivery
            call_soon(self, self._build_actions)
        focus = QApplication.focusWidget()
        self._held.append((QtGui.QKeySequence(event.keyCombination()), focus))
        return True

    def release(self, actions: KeyedAction) -> None:
        """The actions are built: from now on nothing is held; carry out each held key's action,
        if one is live for it where it was pressed."""
        self._released = True
        held, self._held = self._held, []
        for pressed, focus in held:
            action = actions.live_action(pressed, focus)
            if action is not None:
                action.trigger()
