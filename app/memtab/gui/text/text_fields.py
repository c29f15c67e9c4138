"""Text fields and their typing: `focused_text_field` is the field Edit → Undo and Redo act
on, and `REDO_KEYS` redo in a field on every desktop (`give_redo_keys` for a line edit).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QLineEdit, QPlainTextEdit


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
