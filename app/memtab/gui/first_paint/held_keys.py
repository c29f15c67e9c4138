"""Keys pressed in the window before its actions exist: the window shows its tree before the step
after the first paint builds the menus and shortcuts (`MainWindow`'s features), and a shortcut
pressed in between reaches the window unhandled. It is held here, the actions are built at once,
and then the action of that key where it was pressed is carried out — never lost. A menu's key
(Alt+F) goes to the menu bar, whose titles are there from the first frame but whose menus are
empty until then: it is held the same way, and its menu opened once they are filled."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6 import QtGui
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QMenuBar, QWidget

from memtab.gui.toolkit.clock import call_soon


class KeyedAction(Protocol):
    """What a held key is matched against (`gui.actions.ActionRegistry.live_action`)."""

    def live_action(
        self, pressed: QtGui.QKeySequence, focus: QWidget | None
    ) -> QtGui.QAction | None: ...


class HeldKeys(QObject):
    """The window's unhandled key presses until its actions are built (`hold`), carried out by
    `release` in the order pressed."""

    def __init__(
        self, parent: QObject, build_actions: Callable[[], object], menu_bar: QMenuBar
    ) -> None:
        """`build_actions` builds the actions (asked once, from the event loop, after the first
        key held); the menu keys of `menu_bar` are held too."""
        super().__init__(parent)
        self._build_actions = build_actions
        self._menu_bar = menu_bar
        self._held: list[tuple[QtGui.QKeySequence, QWidget | None]] = []
        self._released = False
        menu_bar.installEventFilter(self)

    @property
    def held(self) -> int:
        """How many keys wait for their actions."""
        return len(self._held)

    def hold(self, event: QtGui.QKeyEvent) -> bool:
        """Hold the key press `event` (unhandled by the widgets) if the actions are not built
        yet; whether it was held. The first key held has them built next."""
        if self._released or event.isAutoRepeat():
            return False
        self._hold(QtGui.QKeySequence(event.keyCombination()))
        return True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A menu's key on the menu bar before its menus are filled: held (Qt would open the
        empty menu, which shows nothing, and the key would be gone)."""
        # isinstance, not event.type(): naming QEvent's enum would build it before the paint
        if isinstance(event, QtGui.QShortcutEvent) and not self._released:
            self._hold(event.key())
            return True
        return False

    def _hold(self, pressed: QtGui.QKeySequence) -> None:
        if not self._held:  # built on the loop's next turn, not inside this key's delivery
            call_soon(self, self._build_actions)
        self._held.append((pressed, QApplication.focusWidget()))

    def release(self, actions: KeyedAction) -> None:
        """The actions are built: from now on nothing is held; carry out each held key's action,
        if one is live for it where it was pressed."""
        self._released = True
        self._menu_bar.removeEventFilter(self)
        held, self._held = self._held, []
        for pressed, focus in held:
            action = actions.live_action(pressed, focus)
            if action is not None:
                action.trigger()
            else:
                self._open_menu(pressed)

    def _open_menu(self, pressed: QtGui.QKeySequence) -> None:
        """Open the menu whose title's mnemonic `pressed` is, as Qt's menu bar does."""
        for title in self._menu_bar.actions():
            if title.isVisible() and QtGui.QKeySequence.mnemonic(title.text()) == pressed:
                self._menu_bar.setActiveAction(title)
                return
