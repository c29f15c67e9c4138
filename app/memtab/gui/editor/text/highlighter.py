"""Light Markdown highlighting for the editor: frontmatter, headings, bullets and code; in
Claude Code's instruction files, `@`-imports as links. What each line's spans are is
`components.text` (Qt-free); this gives them the palette's colours.
"""

from __future__ import annotations

from PySide6.QtGui import (
    QColor,
    QFont,
    QPalette,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextDocument,
)

from memtab.components.text import Style, line_spans
from memtab.gui.toolkit.style import Accent, blend, is_dark, muted_text


def _link_format(color: QColor) -> QTextCharFormat:
    text_format = QTextCharFormat()
    text_format.setForeground(color)
    text_format.setFontUnderline(True)
    return text_format


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
        self._formats: dict[Style, QTextCharFormat] = {}
        self._imports = False
        self._build_formats(palette)

    def set_imports(self, on: bool) -> None:
        """Mark `@`-imports as links (Claude Code's instruction files), or not."""
        if on != self._imports:
            self._imports = on
            self.rehighlight()

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
            Style.DELIMITER: _format(muted_text(palette), bold=True),
            Style.FRONTMATTER: _format(muted_text(palette)),
            Style.FRONTMATTER_KEY: _format(blend(text, Accent.SUCCESS.color, 0.6), bold=True),
            Style.HEADING: _format(heading, bold=True),
            Style.BULLET: _format(blend(text, Accent.WARNING.color, 0.75), bold=True),
            Style.CODE: _format(code_text, background=blend(base, text, 0.06)),
            Style.FENCE: _format(muted_text(palette), background=blend(base, text, 0.06)),
            Style.LINK: _link_format(palette.color(QPalette.ColorRole.Link)),
        }

    def highlightBlock(self, text: str) -> None:
        """Qt calls this for every line that needs (re-)highlighting."""
        number = self.currentBlock().blockNumber()
        state, spans = line_spans(text, self.previousBlockState(), number, imports=self._imports)
        self.setCurrentBlockState(state)
        for start, length, style in spans:
            self.setFormat(start, length, self._formats[style])
