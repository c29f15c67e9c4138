"""Where Claude Code stops reading the open `MEMORY.md`, drawn over the text: a dashed line
under the last line it reads, the lines below it tinted, and "Claude Code does not read
below this line" beside it (`sources.claude.index`). It follows the text as the user types,
so a line pushed past the cut shows before it is saved; `cut_moved(int)` tells how many
lines are past it whenever that changes.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from memtab.gui.toolkit.style import Accent
from memtab.sources.claude.index import IndexCut, index_cut

LABEL = "Claude Code does not read below this line"
RECUT_DELAY_MS = 150
"""Typing settles this long before the cut is found again (a 25 KB file: a millisecond)."""


class CutLine(QWidget):
    """The cut over `text_edit`'s viewport (see the module doc); mouse events pass through.

    Signals:
        cut_moved(int): how many lines are past the cut now (0: none), when it changes.
    """

    cut_moved = Signal(int)

    def __init__(self, text_edit: QPlainTextEdit) -> None:
        # Over the viewport, not in it: a viewport scrolls its children with the text.
        super().__init__(text_edit)
        self.setObjectName("claudeCutLine")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.text_edit = text_edit
        self.cut: IndexCut | None = None
        self._past = 0
        self.shown = False
        self._recut = QTimer(self)
        self._recut.setSingleShot(True)
        self._recut.setInterval(RECUT_DELAY_MS)
        self._recut.timeout.connect(self.recut)
        text_edit.document().contentsChanged.connect(self._on_document_contents_changed)
        text_edit.updateRequest.connect(self._on_text_update_request)
        text_edit.viewport().installEventFilter(self)
        self.setGeometry(text_edit.viewport().geometry())
        self.hide()

    @property
    def past_cut(self) -> int:
        """Lines past the cut (0 when Claude Code reads the whole text)."""
        return self._past

    def follow(self, shown: bool) -> None:
        """Draw the cut of this text (or stop)."""
        self.shown = shown
        self.setVisible(shown)
        if shown:
            self.setGeometry(self.text_edit.viewport().geometry())
            self.raise_()
            self.recut()

    @Slot()
    def recut(self) -> None:
        if not self.shown:
            return
        self.cut = index_cut(self.text_edit.toPlainText())
        past = 0 if self.cut.cut_at_line is None else self.cut.lines - self.cut.cut_at_line + 1
        if past != self._past:
            self._past = past
            self.cut_moved.emit(past)
        self.update()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Move):
            self.setGeometry(self.text_edit.viewport().geometry())
        return False

    @Slot()
    def _on_document_contents_changed(self) -> None:
        if self.shown:
            self._recut.start()

    @Slot()
    def _on_text_update_request(self, *_args: object) -> None:
        if self.shown:
            self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        cut = self.cut
        if cut is None or cut.cut_at_line is None:
            return
        block = self.text_edit.document().findBlockByNumber(cut.cut_at_line - 1)
        if not block.isValid():
            return
        top = (
            self.text_edit.blockBoundingGeometry(block)
            .translated(self.text_edit.contentOffset())
            .top()
        )
        if top > self.height():
            return
        color = QColor(Accent.WARNING.value)
        painter = QPainter(self)
        tint = QColor(color)
        tint.setAlpha(28)
        painter.fillRect(0, max(0, round(top)), self.width(), self.height(), tint)
        pen = QPen(color)
        pen.setStyle(Qt.PenStyle.DashLine)
        pen.setWidth(2)
        painter.setPen(pen)
        painter.drawLine(QPointF(0, top), QPointF(self.width(), top))
        width = painter.fontMetrics().horizontalAdvance(LABEL)
        painter.drawText(QPointF(self.width() - width - 8, top - 4), LABEL)
