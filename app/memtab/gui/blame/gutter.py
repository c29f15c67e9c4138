"""The blame gutter: who introduced each line, painted beside a text widget's lines.

`BlameGutter(text_edit)` attaches itself to any `QPlainTextEdit` (the editor's, or a tab's
of its own) as a `LineMargin` on the left, and paints, for each visible line, a bar in
the colour of who wrote it and — on the first line of a run of lines from the same
change — who in a few letters and how long ago. Hovering a line
shows its card as a tooltip; a click asks for the card with its links (`card_requested`).
It knows nothing of files or blame's engine: `set_entries` gives it what to paint
(`components.blame.GutterEntry`, one per line), `set_status` a word for when there
is nothing to paint yet ("Reading history…").
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QHelpEvent, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QPlainTextEdit, QToolTip

from memtab.components.blame import GutterEntry
from memtab.components.rich_text import escape_html
from memtab.gui.toolkit.style import Accent, muted_text
from memtab.gui.toolkit.text.line_margin import LineMargin, Side

LABEL_CHARS = 11
"""The gutter is as wide as this many characters of the label (`writer 12w`)."""
BAR_WIDTH = 3
PADDING = 6

ACTOR_ACCENTS: dict[str, Accent] = {
    "user": Accent.SUCCESS,
    "writer": Accent.INFO,
    "consolidator": Accent.INFO,
    "agent-tool": Accent.INFO,
    "mux": Accent.WARNING,
    "external": Accent.WARNING,
    "unsaved": Accent.ERROR,
}
"""The bar's colour by actor (the others: the muted text colour)."""


class BlameGutter(LineMargin):
    """A blame gutter on `text_edit`'s left (see the module docstring).

    Signals:
        card_requested(int, QPoint): a click on line `n` (0-based), at this global point.
    """

    card_requested = Signal(int, QPoint)

    def __init__(self, text_edit: QPlainTextEdit) -> None:
        super().__init__(text_edit, Side.LEFT)
        self.setObjectName("blameGutter")
        self.setAccessibleName("Blame: who wrote each line")
        self._entries: list[GutterEntry] = []
        self._status = ""

    # -- what is shown -----------------------------------------------------------------------

    @property
    def entries(self) -> list[GutterEntry]:
        """One entry per line of the text, as last set."""
        return list(self._entries)

    @property
    def status(self) -> str:
        """The word shown when there are no entries ("" when none)."""
        return self._status

    def set_entries(self, entries: Sequence[GutterEntry]) -> None:
        """Paint `entries` (one per line of the text)."""
        self._entries = list(entries)
        self.follow_lines()
        self._status = ""
        self.setToolTip("")  # the lines' cards now, not "Reading history…"
        self.update()

    def set_status(self, text: str) -> None:
        """Paint no entries, only `text` at the top ("Reading history…", "No history")."""
        self._entries = []
        self._status = text
        self.setToolTip(text)
        self.update()

    def entry_at(self, line: int) -> GutterEntry | None:
        """The entry of line `line` (0-based), or None."""
        return self._entries[line] if 0 <= line < len(self._entries) else None

    def sizeHint(self) -> QSize:
        width = self.fontMetrics().horizontalAdvance("m" * LABEL_CHARS)
        return QSize(BAR_WIDTH + 2 * PADDING + width, 0)

    # -- painting ----------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        self.fill_background(painter, event.rect())
        muted = muted_text(self.palette())
        painter.setPen(muted)
        metrics = self.fontMetrics()
        if not self._entries:
            if self._status:
                text = metrics.elidedText(
                    self._status, Qt.TextElideMode.ElideRight, self.width() - 2 * PADDING
                )
                painter.drawText(PADDING, metrics.ascent() + PADDING, text)
            return
        for line, top, height in self.visible_lines():
            entry = self.entry_at(line)
            if entry is None:
                continue
            accent = ACTOR_ACCENTS.get(entry.actor)
            bar = QColor(accent.value) if accent is not None else muted
            painter.fillRect(QRect(0, top, BAR_WIDTH, height), bar)
            previous = self.entry_at(line - 1)
            if previous is not None and previous.owner == entry.owner:
                continue  # the same change as the line above: its bar says so
            label = metrics.elidedText(
                entry.label, Qt.TextElideMode.ElideRight, self.width() - BAR_WIDTH - 2 * PADDING
            )
            painter.drawText(BAR_WIDTH + PADDING, top + metrics.ascent() + 1, label)

    # -- the card ----------------------------------------------------------------------------

    def event(self, event: QEvent) -> bool:
        """A hover that rests (Qt's tooltip event): the card of the line under it."""
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            line = self.line_at(event.pos().y())
            entry = self.entry_at(line) if line is not None else None
            if entry is not None:
                QToolTip.showText(event.globalPos(), card_html(entry), self)
                return True
        return super().event(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        line = self.line_at(round(event.position().y()))
        entry = self.entry_at(line) if line is not None else None
        if entry is None:
            QToolTip.hideText()
        else:
            QToolTip.showText(event.globalPosition().toPoint(), card_html(entry), self)
        super().mouseMoveEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        line = self.line_at(round(event.position().y()))
        if (
            event.button() == Qt.MouseButton.LeftButton
            and line is not None
            and self.entry_at(line) is not None
        ):
            QToolTip.hideText()
            self.card_requested.emit(line, event.globalPosition().toPoint())
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        event.accept()  # the press opened the card: the release ends it here


def card_html(entry: GutterEntry) -> str:
    """A line's card as rich text (the hover tooltip)."""
    lines = [f"<b>{escape_html(entry.title)}</b>"]
    lines += [escape_html(detail) for detail in entry.details]
    if entry.links:
        lines.append("<i>Click for its links</i>")
    return "<br>".join(lines)
