"""A settings page that scrolls: as wide as its form needs, as tall as the screen allows.

A dialog laid out from its content grows with every help text and result: Settings was
744 px tall, on a 768-px screen whose panel and title bar left it less — its last lines
were cut. A `ScrollingPage` asks for its content's width and as much height as its screen
leaves it (the room a window has there, less `DIALOG_ROWS` for the dialog's tabs, notes and
buttons; at least `MIN_HEIGHT`), scrolls vertically beyond (never sideways), and can be as
short as a few lines, so the dialog around it fits any laptop screen. A fixed 460 px made
Other agents scroll at 1366×768 while a third of the screen stayed free. Content that
grows while the page shows (an install's outcome) grows its dialog as far as the screen
allows, then scrolls.

The content is sized here, not by QScrollArea's `widgetResizable`: wrapped texts (the key
note, a test's result) are as tall as their width makes them (height-for-width), which
a resizable scroll area does not ask — it gave them the height they would need at their
narrowest, leaving gaps in the form.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout, QWidget

from memtab.gui.toolkit import dialog_layout
from memtab.gui.toolkit.screen_room import room_on

logger = logging.getLogger(__name__)

DIALOG_ROWS = 150
"""px: what a settings dialog holds besides its page — the tabs, the notes under them, the
file it is stored in and the buttons (measured 100 at 1366×768, the notes 2 lines more)."""
MIN_HEIGHT = 160


class ScrollingPage(QScrollArea):
    """`widgets` one above the other, scrolling vertically (see the module docstring)."""

    def __init__(self, widgets: Sequence[QWidget], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._content = QWidget(self)
        self._column = QVBoxLayout(self._content)
        for widget in widgets:
            self._column.addWidget(widget)
        self._column.addStretch(1)
        self.setWidget(self._content)
        self._content.installEventFilter(self)

    def _extra_width(self) -> int:
        bar = self.verticalScrollBar().sizeHint().width()
        margins = self.contentsMargins()
        return bar + margins.left() + margins.right()

    def _content_height(self, width: int) -> int:
        column = self._column
        if column.hasHeightForWidth():
            return column.heightForWidth(width)
        return column.sizeHint().height()

    def max_height(self) -> int:
        """The most height the page asks for: what its screen leaves a dialog's page."""
        room = room_on(dialog_layout.available_geometry(self)).height()
        return max(room - DIALOG_ROWS, MIN_HEIGHT)

    def sizeHint(self) -> QSize:
        """The content's width (and room for the scroll bar), its height up to what the
        screen leaves it (`max_height`)."""
        width = self._content.sizeHint().width()
        height = self._content_height(width)
        return QSize(width + self._extra_width(), min(height, self.max_height()))

    def minimumSizeHint(self) -> QSize:
        """The content's least width (it never scrolls sideways), a few lines of height."""
        content = self._content.minimumSizeHint()
        return QSize(content.width() + self._extra_width(), MIN_HEIGHT)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_content()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The content's layout changed (a text, a row shown): fit it again, the window
        grown to show it where the screen has room."""
        if watched is self._content and event.type() == QEvent.Type.LayoutRequest:
            self._fit_content()
            self._grow_window()
        return False

    def _grow_window(self) -> None:
        """The shown page's content outgrew it (an install's outcome, a longer line): its
        window grows by that much, as far as its screen allows; it never shrinks."""
        window = self.window()
        if window is self or not self.isVisible():
            return
        needed = self._content_height(self.viewport().width()) - self.viewport().height()
        if needed <= 0:
            return
        room = room_on(dialog_layout.available_geometry(window)).height()
        height = min(window.height() + needed, room)
        if height > window.height():
            window.resize(window.width(), height)

    def _fit_content(self) -> None:
        """As wide as the viewport, as tall as that width makes the content (at least the
        viewport's height, so its stretch takes the rest)."""
        width = self.viewport().width()
        height = max(self._content_height(width), self.viewport().height())
        if self._content.size() != QSize(width, height):
            self._content.resize(width, height)
