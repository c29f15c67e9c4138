"""Light Markdown highlighting for the editor: frontmatter, headings, bullets and code.

Cheap enough for 100 KiB files: one pass per line with a few prefix checks and two small
regular expressions; multi-line constructs (frontmatter, fenced code) travel in the
block state, so Qt re-highlights only what an edit can affect.
"""

from __future__ import annotations

import re
from enum import IntEnum

from PySide6.QtGui import (
    QColor,
    QFont,
    QPalette,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextDocument,
)

from memtab.gui.style import Accent, blend, is_dark, muted_text


class _State(IntEnum):
    NORMAL = 0
    FRONTMATTER = 1
    FENCE = 2


_HEADING = re.compile(r"^(#{1,6})(\s|$)")
_BULLET = re.compile(r"^(\s*)([-*+]|\d{1,9}[.)])(\s)")
_INLINE_CODE = re.compile(r"`[^`\n]+`")
_FRONTMATTER_KEY = re.compile(r"^([A-Za-z0-9_-]+)\s*:")
_FENCE_MARKERS = ("```", "~~~")


def _format(
    color: QColor, *, bold: bool = False, background: QColor | None = None
) -> QTextCharFormat:
    text_format = QTextCharFormat()
    text_format.setForeground(color)
    if bold:
        text_format.setFontWeight(QFont.Weight.Bold)
    if background is not None:
        text_format.setBackground(background)
    return text_format


class MarkdownHighlighter(QSyntaxHighlighter):
    """Highlights a Markdown document with colours taken from a palette."""

    def __init__(self, document: QTextDocument, palette: QPalette) -> None:
        """Attach to `document`; call `set_palette` when the theme changes."""
        super().__init__(document)
        self._formats: dict[str, QTextCharFormat] = {}
        self._build_formats(palette)

    def set_palette(self, palette: QPalette) -> None:
        """Recompute the colours for a new palette and re-highlight."""
        self._build_formats(palette)
        self.rehighlight()

    def _build_formats(self, palette: QPalette) -> None:
        text = palette.color(QPalette.ColorRole.Text)
        base = palette.color(QPalette.ColorRole.Base)
        dark = is_dark(palette)
        heading = blend(text, Accent.INFO.color, 0.55 if dark else 0.7)
        code_text = blend(text, QColor("#b35c00") if not dark else QColor("#e5a15a"), 0.6)
        self._formats = {
            "delimiter": _format(muted_text(palette), bold=True),
            "frontmatter": _format(muted_text(palette)),
            "frontmatter_key": _format(blend(text, Accent.SUCCESS.color, 0.6), bold=True),
            "heading": _format(heading, bold=True),
            "bullet": _format(blend(text, Accent.WARNING.color, 0.75), bold=True),
            "code": _format(code_text, background=blend(base, text, 0.06)),
            "fence": _format(muted_text(palette), background=blend(base, text, 0.06)),
        }

    def highlightBlock(self, text: str) -> None:
        """Qt calls this for every line that needs (re-)highlighting."""
        previous = self.previousBlockState()
        block_number = self.currentBlock().blockNumber()
        stripped = text.strip()
        if previous == _State.FRONTMATTER:
            if stripped == "---":
                self.setFormat(0, len(text), self._formats["delimiter"])
                self.setCurrentBlockState(_State.NORMAL)
            else:
                self._highlight_frontmatter_line(text)
                self.setCurrentBlockState(_State.FRONTMATTER)
            return
        if block_number == 0 and stripped == "---" and text.startswith("---"):
            self.setFormat(0, len(text), self._formats["delimiter"])
            self.setCurrentBlockState(_State.FRONTMATTER)
            return
        if previous == _State.FENCE:
            self.setFormat(0, len(text), self._formats["fence"])
            ended = stripped.startswith(_FENCE_MARKERS)
            self.setCurrentBlockState(_State.NORMAL if ended else _State.FENCE)
            return
        if stripped.startswith(_FENCE_MARKERS):
            self.setFormat(0, len(text), self._formats["fence"])
            self.setCurrentBlockState(_State.FENCE)
            return
        self.setCurrentBlockState(_State.NORMAL)
        if text.startswith("#") and _HEADING.match(text):
            self.setFormat(0, len(text), self._formats["heading"])
            return
        bullet = _BULLET.match(text)
        if bullet:
            self.setFormat(bullet.start(2), len(bullet.group(2)), self._formats["bullet"])
        if "`" in text:
            for match in _INLINE_CODE.finditer(text):
                self.setFormat(match.start(), match.end() - match.start(), self._formats["code"])

    def _highlight_frontmatter_line(self, text: str) -> None:
        self.setFormat(0, len(text), self._formats["frontmatter"])
        key = _FRONTMATTER_KEY.match(text)
        if key:
            self.setFormat(0, key.end(1), self._formats["frontmatter_key"])
