"""Where the main window opens and how big: on first start its preferred size shrunk to the
screen (maximized on a laptop's), afterwards as the user left it; splitters likewise."""

from __future__ import annotations

import logging

from PySide6.QtCore import QByteArray, QRect, QSize, Qt
from PySide6.QtWidgets import QSplitter, QWidget

from memtab.components.window.ui_state import UiState
from memtab.gui.toolkit.screen_room import FRAME_ALLOWANCE, room_on

logger = logging.getLogger(__name__)

PREFERRED_SIZE = QSize(1280, 820)
LAPTOP_WIDTH = 1366
"""The widest available geometry the first window opens maximized on."""


def fitted_geometry(available: QRect, preferred: QSize = PREFERRED_SIZE) -> QRect:
    """The first window's client geometry on a screen with `available` geometry: the
    preferred size where it fits, shrunk to fit (frame included) where not, centred."""
    size = preferred.boundedTo(room_on(available))
    rect = QRect(available.topLeft(), size)
    rect.moveCenter(available.center())
    # The title bar sits above the client area: keep it on the screen.
    top = available.top() + FRAME_ALLOWANCE.height() - FRAME_ALLOWANCE.width() // 2
    if rect.top() < top:
        rect.moveTop(top)
    return rect


def place_window(window: QWidget, saved: bytes | None) -> None:
    """Restore `saved` geometry, or fit the window to its screen (first start)."""
    if saved is not None and window.restoreGeometry(QByteArray(saved)):
        return
    available = window.screen().availableGeometry()
    window.setGeometry(fitted_geometry(available))  # what un-maximizing gives back
    if opens_maximized(available):
        window.setWindowState(window.windowState() | Qt.WindowState.WindowMaximized)


def opens_maximized(available: QRect) -> bool:
    """Whether the first window opens maximized on a screen with `available` geometry."""
    return available.width() <= LAPTOP_WIDTH


def restore_splitter(state: UiState | None, name: str, splitter: QSplitter) -> bool:
    """Give `splitter` its saved sizes (when there are as many as it has parts)."""
    sizes = state.splitter_sizes(name) if state is not None else None
    if sizes is None or len(sizes) != splitter.count() or not any(sizes):
        return False
    splitter.setSizes(sizes)
    return True


def remember_splitter(state: UiState | None, name: str, splitter: QSplitter) -> None:
    """Note `splitter`'s sizes in `state` (saved with the rest on close)."""
    if state is not None:
        state.set_splitter_sizes(name, splitter.sizes())
