"""A docked panel's Alt+letters, answered only while the keyboard is in the panel: two open
panels sharing a letter (Trust's and Check's Alt+O) pressed neither. A text set after the
panel was built goes through `set_text` (Qt gives the letter back to the window)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractButton, QWidget

from memtab.components.window.mnemonics import mnemonic

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
