"""The check's marks on the open file's lines: a `LineMargin` on the text's right, a bar
beside each line with a finding, its message under the mouse."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QSize
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QPlainTextEdit, QToolTip

from memtab.gui.toolkit.style import Accent
from memtab.gui.toolkit.text.line_margin import LineMargin, Side

WIDTH = 6


class CheckLineMarks(LineMargin):
    """Bars beside the lines with findings (see the module docstring)."""

    def __init__(self, text_edit: QPlainTextEdit) -> None:
        super().__init__(text_edit, Side.RIGHT)
        self.setObjectName("checkLineMarks")
        self.setAccessibleName("Lines the check found something in")
        self._notes: dict[int, list[str]] = {}

    @property
    def notes(self) -> dict[int, list[str]]:
        """What is marked: the findings' messages by line (0-based)."""
        return dict(self._notes)

    def set_notes(self, notes: Mapping[int, list[str]]) -> None:
        """Mark these lines (0-based) with these messages; none: the strip hides."""
        self._notes = dict(notes)
        self.follow_lines()
        self.set_shown(bool(self._notes))
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(WIDTH, 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        self.fill_background(painter, event.rect())
        color = QColor(Accent.WARNING.value)
        for line, top, height in self.visible_lines():
            if line in self._notes:
                painter.fillRect(1, top, WIDTH - 2, height, color)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        line = self.line_at(round(event.position().y()))
        notes = self._notes.get(line) if line is not None else None
        if notes:
            QToolTip.showText(event.globalPosition().toPoint(), "\n".join(notes), self)
        else:
            QToolTip.hideText()
        super().mouseMoveEvent(event)
