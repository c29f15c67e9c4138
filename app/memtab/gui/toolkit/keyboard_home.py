"""Where the keyboard goes when what held it is gone, one rule for the whole window.

A widget hidden or deleted while it had the keyboard — the text of a tab closed after
*Discard* in "Unsaved changes", a dialog's parent pane switched away — leaves Qt to pick
the next one itself: the first widget of the window's focus chain (the tab bar, where no key
of the Memory tab works) or nothing. `KeyboardHome` puts the keyboard back home instead (the
current tab's open file or its tree: the window says which, `go_home`), once the event that
moved it is over, unless something else took the keyboard meanwhile (a click, a panel's
Escape, the code that hid the widget).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QApplication, QWidget
from shiboken6 import isValid

from memtab.gui.toolkit.clock import call_soon


class KeyboardHome(QObject):
    """The rule of the module docstring, for `window`."""

    def __init__(self, window: QWidget, go_home: Callable[[], None]) -> None:
        """`go_home()` puts the keyboard where it belongs in `window` now."""
        super().__init__(window)
        self._window = window
        self._go_home = go_home
        # The window's last widget with the keyboard (its own: the one Qt gives it back to),
        # and whether it showed as it took it (code may focus a hidden one).
        self._held: QWidget | None = window.focusWidget()
        self._held_shown = self._held is not None and self._held.isVisible()
        self._picked: QWidget | None = None  # where Qt put a lost keyboard, until it goes home
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        app.focusChanged.connect(self._on_application_focus_changed)

    def _ours(self, widget: QWidget | None) -> bool:
        return widget is not None and isValid(widget) and widget.window() is self._window

    @Slot(QWidget, QWidget)
    def _on_application_focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        if not isValid(self._window):
            return  # the window is being deleted: its widgets let go of the keyboard
        if new is None:
            # The holder was deleted, or hidden with nowhere to go, while the window is the
            # active one (not: it lost the keyboard to another program's window).
            if self._window.isActiveWindow():
                call_soon(self, lambda: self._check(None))
            return
        if not self._ours(new):
            return  # a dialog's: the window's holder is still the one to come back to
        held, held_shown = self._held, self._held_shown
        self._held, self._held_shown = new, new.isVisible()
        if self._ours(old):  # Qt moves the keyboard off a widget hidden while it had it
            lost = old is held and held_shown and old is not None and not old.isVisible()
        else:  # the window is active again: Qt gave it back, or picked a widget itself
            gone = held is not None and (not isValid(held) or not held.isVisible())
            lost = new is self._picked or (gone and new is not held)
        self._picked = new if lost else None
        if lost:
            call_soon(self, lambda: self._check(new))

    def _check(self, picked: QWidget | None) -> None:
        """The keyboard goes home if it is still where Qt `picked` (None: nowhere) or on
        a widget that does not show, in the active window with no dialog or menu over it
        (else this waits for the window to be active again)."""
        if not isValid(self._window) or not self._window.isActiveWindow():
            return
        if QApplication.activeModalWidget() is not None or QApplication.activePopupWidget():
            return
        now = QApplication.focusWidget()
        if now is picked or now is None or not now.isVisible():
            self._picked = None
            self._go_home()
