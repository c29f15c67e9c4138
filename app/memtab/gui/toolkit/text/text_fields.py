"""Text fields' keys: `focused_text_field` (what Edit → Undo acts on), `REDO_KEYS`, and
`keep_window_keys_from_fields`, which leaves `WINDOW_KEYS` and Alt+letters to the window
(Qt's X11 Ctrl+D deleted a character instead of Pin)."""

from __future__ import annotations

import sys

from PySide6.QtCore import QEvent, QObject, Qt, Slot
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)


def focused_text_field() -> QPlainTextEdit | QLineEdit | None:
    """The editable text field that has the keyboard focus (Edit → Undo acts on its
    typing), or None."""
    widget = QApplication.focusWidget()
    if isinstance(widget, (QPlainTextEdit, QLineEdit)) and not widget.isReadOnly():
        return widget
    return None


REDO_KEYS = (QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y"))
"""Redo in a text field, both on every desktop (Qt's own Redo is one of them, by desktop)."""


def is_redo_key(event: QKeyEvent) -> bool:
    """Whether `event` is one of `REDO_KEYS`."""
    pressed = QKeySequence(event.keyCombination())
    return any(pressed.matches(key) == QKeySequence.SequenceMatch.ExactMatch for key in REDO_KEYS)


class _LineRedoKeys(QObject):
    """`give_redo_keys`' event filter."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not (isinstance(event, QKeyEvent) and is_redo_key(event)):
            return False
        if not isinstance(watched, QLineEdit):
            return False
        if event.type() == QEvent.Type.ShortcutOverride:
            event.accept()  # the field's key, not a window shortcut's
            return True
        if event.type() == QEvent.Type.KeyPress:
            if not watched.isReadOnly():
                watched.redo()
            return True
        return False


def give_redo_keys(field: QLineEdit) -> None:
    """Make both `REDO_KEYS` redo in `field` (a QLineEdit takes only its desktop's one)."""
    field.installEventFilter(_LineRedoKeys(field))


def field_can(field: QPlainTextEdit | QLineEdit, *, redo: bool) -> bool:
    """Whether the field has typing to undo (or redo)."""
    if isinstance(field, QLineEdit):
        return field.isRedoAvailable() if redo else field.isUndoAvailable()
    document = field.document()
    return document.isRedoAvailable() if redo else document.isUndoAvailable()


WINDOW_KEYS = (QKeySequence("Ctrl+D"),)
"""Keys the window's actions own wherever the focus is, though a text field binds them on
some desktops (X11: Ctrl+D is Delete). The action's shortcut fires; without one, nothing."""

TEXT_FIELDS = (QLineEdit, QPlainTextEdit, QTextEdit, QAbstractSpinBox, QComboBox)
"""What takes the keyboard as a text field (a spin box and a combo box pass keys to the
line edit inside them)."""


_ALT_ONLY = Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ShiftModifier
_TYPES_WITH_OPTION = sys.platform == "darwin"  # Option (Qt's Alt) types é, ø… on a Mac


def is_alt_letter(event: QKeyEvent) -> bool:
    """Whether `event` is Alt+letter (Shift or not; not Ctrl+Alt, Windows' AltGr): a menu's,
    a button's or a panel's key, never a letter to type."""
    modifiers = event.modifiers()
    return (
        not _TYPES_WITH_OPTION
        and bool(modifiers & Qt.KeyboardModifier.AltModifier)
        and not modifiers & ~_ALT_ONLY
        and event.text().isprintable()
        and bool(event.text())
    )


def is_window_key(event: QKeyEvent) -> bool:
    """Whether `event` is one of `WINDOW_KEYS`, or an Alt+letter."""
    if is_alt_letter(event):
        return True
    pressed = QKeySequence(event.keyCombination())
    return any(key.matches(pressed) == QKeySequence.SequenceMatch.ExactMatch for key in WINDOW_KEYS)


class WindowKeysInFields(QObject):
    """`keep_window_keys_from_fields`' rule: one filter, on each text field the focus
    reaches (see the module docstring)."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        app.focusChanged.connect(self._on_application_focus_changed)
        self._on_application_focus_changed(None, app.focusWidget())

    @Slot(QWidget, QWidget)
    def _on_application_focus_changed(self, _old: QWidget | None, now: QWidget | None) -> None:
        if isinstance(now, TEXT_FIELDS):
            now.installEventFilter(self)  # again: Qt keeps one, and puts it first

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not (isinstance(event, QKeyEvent) and is_window_key(event)):
            return False
        if event.type() == QEvent.Type.ShortcutOverride:
            event.ignore()  # not the field's: the window's shortcut may take it
            return True
        if event.type() == QEvent.Type.KeyPress:  # no shortcut took it: it deletes nothing
            event.ignore()
            return True
        return False


def keep_window_keys_from_fields() -> None:
    """Make `WINDOW_KEYS` the window's in every text field of the application (once for
    the process; every window asks after its first paint)."""
    app = QApplication.instance()
    if not isinstance(app, QApplication) or app.findChild(WindowKeysInFields) is not None:
        return
    WindowKeysInFields(app)
