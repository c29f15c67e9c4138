"""Where the main window opens and how big: fitted to the screen on first start, as the
user left it afterwards; splitters likewise.

The preferred size (1280×820) is taller than a 1366×768 laptop's screen, so the first
window is the preferred size shrunk to the screen's available geometry (panels and docks
excluded) less room for the window frame, centred on it — and maximized on a laptop's
screen (at most `LAPTOP_WIDTH` wide), where every pixel counts and a window a little
smaller than the screen only wastes its edges. Later starts restore the saved
geometry (`QWidget.restoreGeometry` moves and shrinks a window saved on a screen that is
gone); splitters get their saved sizes. What is saved is `components.window.ui_state`'s business.
"""

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
