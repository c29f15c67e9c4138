"""How much of a screen a window may take: its available geometry less the window frame.
QtCore only: the window imports it before its first paint."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize

# The window frame around a window's client area (title bar, borders) and a little air:
# what a window's size leaves of its screen's available geometry.
FRAME_ALLOWANCE = QSize(32, 56)


def room_on(available: QRect) -> QSize:
    """The largest client area a window can have on a screen with `available` geometry:
    its frame has to fit too."""
    return QSize(
        max(available.width() - FRAME_ALLOWANCE.width(), 1),
        max(available.height() - FRAME_ALLOWANCE.height(), 1),
    )
