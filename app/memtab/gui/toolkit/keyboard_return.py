"""Where the keyboard came from: a panel a key opens takes it (else ↓, Enter go on into the
text left), and Escape in the panel gives it back, `KeyboardReturn(dock).take()` /
`.give_back()`."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QAbstractButton, QApplication, QDockWidget, QWidget
from shiboken6 import isValid

from memtab.components.window.mnemonics import mnemonic
from memtab.gui.toolkit.widgets import holds_keyboard, tab_stops

__all__ = ["holds_keyboard"]  # passed on: its users' way in

_ALT = Qt.KeyboardModifier.AltModifier


def letter_of(event: QKeyEvent) -> str | None:
    """The letter (or digit) an Alt+key press is, lower case; None for any other key."""
    if event.modifiers() != _ALT:
        return None
    key = event.key()
    if not 0 < key < 128 or not chr(key).isalnum():
        return None
    return chr(key).lower()


def release_letter(button: QAbstractButton) -> None:
    """Take `button`'s `&` letter off the window: the letter stays drawn, Qt's shortcut
    for it goes."""
    button.setShortcut(QKeySequence())


class PanelLetters(QObject):
    """The Alt+letters of one panel's buttons (see the module docstring)."""

    def __init__(self, panel: QWidget) -> None:
        """Answer the letters of `panel`'s buttons (those it has now: build it first)."""
        super().__init__(panel)
        self._panel = panel
        for button in panel.findChildren(QAbstractButton):
            release_letter(button)
        panel.installEventFilter(self)

    def set_text(self, button: QAbstractButton, text: str) -> None:
        """Give `button` of the panel `text`, its letter the panel's alone."""
        button.setText(text)
        release_letter(button)

    def button_for(self, event: QKeyEvent) -> QAbstractButton | None:
        """The panel's button an Alt+letter press presses now, if any."""
        letter = letter_of(event)
        if letter is None:
            return None
        for button in self._panel.findChildren(QAbstractButton):
            if button.isVisible() and button.isEnabled() and mnemonic(button.text()) == letter:
                return button
        return None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A key pressed inside the panel comes here unless the widget with the focus took
        it: its letter is claimed from the window's shortcuts, then presses its button."""
        if watched is self._panel and isinstance(event, QKeyEvent):
            kind = event.type()
            if kind == QEvent.Type.ShortcutOverride and self.button_for(event) is not None:
                event.accept()
                return True
            if kind == QEvent.Type.KeyPress and (button := self.button_for(event)) is not None:
                button.click()
                return True
        return super().eventFilter(watched, event)


BACK_KEY = "Escape"


def keyboard_stop(panel: QWidget) -> QWidget | None:
    """Where the keyboard goes in `panel`: its focus proxy (a dock's: its widget's; it
    may not show yet), else its first Tab stop that shows and is enabled."""
    inner = panel.widget() if isinstance(panel, QDockWidget) else None
    for holder in (panel, inner):
        proxy = holder.focusProxy() if holder is not None else None
        if proxy is not None:
            return proxy
    return next((w for w in tab_stops(panel) if w.isVisible() and w.isEnabled()), None)


class KeyboardReturn(QObject):
    """A panel's way back for the keyboard; `returning(QWidget)`: the keyboard is about to go
    back to that widget."""

    returning = Signal(QWidget)

    def __init__(self, panel: QWidget) -> None:
        super().__init__(panel)
        self._panel = panel
        self._origin: QWidget | None = None
        self._awaited: QObject | None = None  # a stop not shown yet (`take`)
        # Only while there is somewhere to go back to: else Escape is the panel's own.
        self._back = QShortcut(QKeySequence(BACK_KEY), panel)
        self._back.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self._back.setEnabled(False)
        self._back.activated.connect(self.give_back)

    @property
    def origin(self) -> QWidget | None:
        """Where the keyboard goes back to (None: nowhere known, or gone)."""
        origin = self._origin
        return origin if origin is not None and isValid(origin) else None

    def take(self, stop: QWidget | None = None, *, came_from: QWidget | None = None) -> bool:
        """Put the keyboard in the panel (in `stop`, else its own), remembering where it was
        unless inside the panel; False when the panel has no stop. A stop not shown yet gets
        it as it shows. `came_from`: where it was before showing the panel moved it."""
        target = stop or keyboard_stop(self._panel)
        if target is None:
            return False
        focused = came_from or QApplication.focusWidget()
        if focused is not None and not holds_keyboard(self._panel):
            self._origin = focused
            self._back.setEnabled(True)
        if target.isVisible():
            target.setFocus(Qt.FocusReason.ShortcutFocusReason)
        else:
            self._awaited = target
            target.installEventFilter(self)
        return True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The stop awaited shows: the keyboard goes there if it is still where it was."""
        if watched is self._awaited and event.type() == QEvent.Type.Show:
            watched.removeEventFilter(self)
            self._awaited = None
            focused = QApplication.focusWidget()
            if isinstance(watched, QWidget) and (focused is None or focused is self.origin):
                watched.setFocus(Qt.FocusReason.ShortcutFocusReason)
        return False

    def give_back(self) -> bool:
        """Put the keyboard back where it came from, if that still shows (True: it went)."""
        origin = self.origin
        self._origin = None
        self._back.setEnabled(False)
        if origin is None:
            return False
        self.returning.emit(origin)
        if not origin.isVisible():
            return False
        origin.window().activateWindow()
        origin.setFocus(Qt.FocusReason.ShortcutFocusReason)
        return True

    def give_back_if_held(self) -> None:
        """The panel is about to hide: the keyboard, if in it, goes back."""
        if holds_keyboard(self._panel):
            self.give_back()
