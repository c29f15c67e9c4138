"""Small widgets more than one tab uses."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

_MIN_WIDTH = 40


class ElidedLabel(QLabel):
    """A one-line label that elides its text in the middle to fit (paths keep both ends);
    the tooltip holds it all."""

    def __init__(
        self, text: str = "", parent: QWidget | None = None, *, min_width: int = _MIN_WIDTH
    ) -> None:
        """A selectable label; it never asks for more width than it gets, nor for less
        than `min_width` (0: it may be squeezed away, eliding to a stub)."""
        super().__init__(parent)
        self._full_text = ""
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(min_width)
        self.set_full_text(text)

    @property
    def full_text(self) -> str:
        """The text before eliding."""
        return self._full_text

    def set_full_text(self, text: str) -> None:
        """Show `text`, elided to the current width."""
        self._full_text = text
        self.setToolTip(text)
        self._elide()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        width = max(self.width() - 2, _MIN_WIDTH // 2)
        self.setText(
            self.fontMetrics().elidedText(self._full_text, Qt.TextElideMode.ElideMiddle, width)
        )
