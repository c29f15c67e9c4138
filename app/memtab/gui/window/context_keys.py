"""Shift+F10 and the Menu key open the context menu of what has the keyboard.

A keyboard has two keys for "the menu of this": Shift+F10 (which Qt binds to nothing on
X11) and the Menu key (which Qt turns into a menu at the pointer, wherever it is). Both
open the menu of the widget with the keyboard, by the thing the keyboard is on: a tree's
or a list's current row, a text's cursor, else the widget's middle — the tree's row menu
(Pin, History, Rename…), the editor's text menu, as a right click there would. One filter
for the application, on each widget the focus reaches (`open_context_menus_by_key`, after
the first paint).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, Slot
from PySide6.QtGui import QContextMenuEvent, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QApplication,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

NO_MODIFIER = Qt.KeyboardModifier.NoModifier


def is_context_menu_key(event: QKeyEvent) -> bool:
    """Whether `event` is Shift+F10 or the Menu key (alone)."""
    modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    return (event.key() == Qt.Key.Key_F10 and modifiers == Qt.KeyboardModifier.ShiftModifier) or (
        event.key() == Qt.Key.Key_Menu and modifiers == NO_MODIFIER
    )


def menu_place(widget: QWidget) -> tuple[QWidget, QPoint]:
    """Where the context menu of `widget` opens, by the keyboard: the widget the event goes
    to (a scroll area's viewport) and the point in it."""
    if isinstance(widget, QAbstractItemView):
        view = widget.viewport()
        row = widget.visualRect(widget.currentIndex())
        if row.isValid() and view.rect().intersects(row):
            x = min(row.left() + row.height(), view.width() // 2)
            return view, QPoint(x, row.center().y())
        return view, view.rect().center()
    if isinstance(widget, (QPlainTextEdit, QTextEdit)):
        return widget.viewport(), widget.cursorRect().bottomLeft()
    if isinstance(widget, QAbstractScrollArea):
        return widget.viewport(), widget.viewport().rect().center()
    return widget, widget.rect().center()


class ContextMenuKeys(QObject):
    """`open_context_menus_by_key`' filter, on each widget the focus reaches."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        app.focusChanged.connect(self._on_application_focus_changed)
        self._on_application_focus_changed(None, app.focusWidget())

    @Slot(QWidget, QWidget)
    def _on_application_focus_changed(self, _old: QWidget | None, now: QWidget | None) -> None:
        if now is not None:
            now.installEventFilter(self)  # again: Qt keeps one, and puts it first

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() not in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride):
            return False
        if not (isinstance(event, QKeyEvent) and is_context_menu_key(event)):
            return False
        if event.type() == QEvent.Type.ShortcutOverride:
            event.accept()  # the key is the widget's: no shortcut of the window takes it
            return True
        if isinstance(watched, QWidget) and watched.hasFocus():
            target, point = menu_place(watched)
            QApplication.sendEvent(
                target,
                QContextMenuEvent(
                    QContextMenuEvent.Reason.Keyboard, point, target.mapToGlobal(point)
                ),
            )
            return True
        return False


def open_context_menus_by_key() -> None:
    """Make Shift+F10 and the Menu key open the context menu of what has the keyboard,
    in every window of the application (once for the process)."""
    app = QApplication.instance()
    if not isinstance(app, QApplication) or app.findChild(ContextMenuKeys) is not None:
        return
    ContextMenuKeys(app)
