"""What the editor shows with no file open: one muted line, in the window's palette."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from memtab.gui.toolkit.style import muted_text, set_style_sheet


class EmptyState(QWidget):
    """What the panel shows with no file open."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._label = QLabel("Select a memory file to view or edit it.", self)
        self._label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._label.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(self._label)
        layout.addStretch(2)
        self._recolor()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._recolor()
        super().changeEvent(event)

    def _recolor(self) -> None:
        set_style_sheet(self._label, f"color: {muted_text(self.palette()).name()}")
