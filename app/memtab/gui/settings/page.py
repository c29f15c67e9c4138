"""A settings page that scrolls: as wide as its form needs, as tall as the screen allows.

A dialog laid out from its content grows with every help text and result: Settings was
744 px tall, on a 768-px screen whose panel and title bar left it less — its last lines
were cut. A `ScrollingPage` asks for its content's width but at most `MAX_HEIGHT` px of
height, scrolls vertically beyond (never sideways), and can be as short as a few lines,
so the dialog around it fits any laptop screen.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout, QWidget

logger = logging.getLogger(__name__)

MAX_HEIGHT = 460
"""The height a page asks for at most; more scrolls."""
MIN_HEIGHT = 160


class ScrollingPage(QScrollArea):
    """`widgets` one above the other, scrolling vertically (see the module docstring)."""

    def __init__(self, widgets: Sequence[QWidget], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._content = QWidget(self)
        column = QVBoxLayout(self._content)
        for widget in widgets:
            column.addWidget(widget)
        column.addStretch(1)
        self.setWidget(self._content)

    def _extra_width(self) -> int:
        bar = self.verticalScrollBar().sizeHint().width()
        margins = self.contentsMargins()
        return bar + margins.left() + margins.right()

    def sizeHint(self) -> QSize:
        """The content's width (and room for the scroll bar), its height up to MAX_HEIGHT."""
        content = self._content.sizeHint()
        return QSize(content.width() + self._extra_width(), min(content.height(), MAX_HEIGHT))

    def minimumSizeHint(self) -> QSize:
        """The content's least width (it never scrolls sideways), a few lines of height."""
        content = self._content.minimumSizeHint()
        return QSize(content.width() + self._extra_width(), MIN_HEIGHT)
