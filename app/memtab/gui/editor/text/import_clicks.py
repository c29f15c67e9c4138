"""Ctrl+click on an `@`-import in the editor's text follows it, as a click on a link of the
preview does (`components.loads`): only in Claude Code's instruction files, and
only with Ctrl held, so a plain click still places the cursor."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QPlainTextEdit

from memtab.components.loads import IMPORT_HREF, import_at


class ImportClicks(QObject):
    """Follows Ctrl+clicks on the `@`-imports of `text_edit` while `on`.

    Signals:
        link_clicked(str): the import clicked, as a preview link names it (`@path`).
    """

    link_clicked = Signal(str)

    def __init__(self, text_edit: QPlainTextEdit) -> None:
        super().__init__(text_edit)
        self.on = False
        self._text_edit = text_edit
        text_edit.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            self.on
            and event.type() == QEvent.Type.MouseButtonRelease
            and isinstance(event, QMouseEvent)
            and event.button() == Qt.MouseButton.LeftButton
            and event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            cursor = self._text_edit.cursorForPosition(event.position().toPoint())
            written = import_at(cursor.block().text(), cursor.positionInBlock())
            if written is not None:
                self.link_clicked.emit(f"{IMPORT_HREF}{written}")
                return True
        return False
