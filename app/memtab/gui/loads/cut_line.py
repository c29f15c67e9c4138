"""Where Claude Code stops reading the open `MEMORY.md`, drawn over the text (never over a
character): a dashed line, the lines below tinted, a label where there is room; it follows
the text as the user types (`sources.claude.index`)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt, QTimer, Slot
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPaintEvent, QPen, QTextBlock
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from memtab.gui.toolkit.style import Accent
from memtab.sources.claude.index import IndexCut, index_cut

LABEL = "Claude Code does not read below this line"
LABEL_MARGIN = 8
"""Between the label and the viewport's edge, and between the label and any text."""
LABEL_SCALE = 0.85
RECUT_DELAY_MS = 150
"""Typing settles this long before the cut is found again (a 25 KB file: a millisecond)."""


class CutLine(QWidget):
    """The cut over `text_edit`'s viewport (see the module doc); mouse events pass through."""

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
        self._past = past
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

    def _cut_top(self) -> float | None:
        """Where the cut is drawn: the top of the first line Claude Code does not read, in
        the viewport's coordinates (None: no cut, or not in view)."""
        cut = self.cut
        if cut is None or cut.cut_at_line is None:
            return None
        block = self.text_edit.document().findBlockByNumber(cut.cut_at_line - 1)
        if not block.isValid():
            return None
        top = (
            self.text_edit.blockBoundingGeometry(block)
            .translated(self.text_edit.contentOffset())
            .top()
        )
        return top if top <= self.height() else None

    def label_rect(self) -> QRectF | None:
        """Where the label is drawn, or None: right-aligned beside the line above the cut,
        else the line below — never over text (without room, only the line is drawn)."""
        top = self._cut_top()
        if top is None or self.cut is None or self.cut.cut_at_line is None:
            return None
        metrics = QFontMetricsF(self._label_font())
        width = metrics.horizontalAdvance(LABEL)
        height = metrics.height()
        left = self.width() - LABEL_MARGIN - width
        if left < LABEL_MARGIN:
            return None
        document = self.text_edit.document()
        around = [document.findBlockByNumber(self.cut.cut_at_line + step) for step in (-2, -1, 0)]
        for rect in (
            QRectF(left, top - height - 2, width, height),  # beside the last line read
            QRectF(left, top + 2, width, height),  # beside the first line not read
        ):
            if rect.top() >= 0 and not any(
                block.isValid() and self._text_covers(block, rect) for block in around
            ):
                return rect
        return None

    def _label_font(self) -> QFont:
        """The label's: the text's, a little smaller (it fits in a line's height)."""
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * LABEL_SCALE)
        return font

    def _text_covers(self, block: QTextBlock, rect: QRectF) -> bool:
        """Whether any row of `block`'s text reaches into `rect` (a gap of the label's
        margin kept)."""
        geometry = self.text_edit.blockBoundingGeometry(block).translated(
            self.text_edit.contentOffset()
        )
        layout = block.layout()
        for index in range(layout.lineCount()):
            row = layout.lineAt(index)
            row_rect = QRectF(
                geometry.left() + row.x(),
                geometry.top() + row.y(),
                row.naturalTextWidth() + LABEL_MARGIN,
                row.height(),
            )
            if row.naturalTextWidth() > 0 and row_rect.intersects(rect):
                return True
        return False

    def paintEvent(self, event: QPaintEvent) -> None:
        top = self._cut_top()
        if top is None:
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
        label = self.label_rect()
        if label is not None:
            painter.setFont(self._label_font())
            painter.drawText(
                label, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, LABEL
            )
