"""Light Markdown highlighting for the editor: frontmatter, headings, bullets and code; in
Claude Code's instruction files, `@`-imports as links (`components.loads.imports`).

Each line is told by the one classifier (`memtab.markdown.classify_line`), as the check,
the consolidator and the writer tell it. Cheap enough for 100 KiB files: one pass per line
with a few prefix checks; multi-line constructs (frontmatter, fenced code) travel in the
block state, so Qt re-highlights only what an edit can affect.
"""

from __future__ import annotations

import re

from PySide6.QtGui import (
    QColor,
    QFont,
    QPalette,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextDocument,
)

from memtab.gui.toolkit.style import Accent, blend, is_dark, muted_text
from memtab.markdown import FRONTMATTER_OPEN, Fence, LineKind, State, classify_line
from memtab.sources.claude.instructions import import_spans

_INLINE_CODE = re.compile(r"`[^`\n]+`")
_FRONTMATTER_KEY = re.compile(r"^([A-Za-z0-9_-]+)\s*:")
# The classifier's state as Qt's block state (an int; -1 is Qt's "none yet"): 0 prose,
# 1 in the frontmatter, then an open fence's character and length.
_NORMAL = 0
_IN_FRONTMATTER = 1


def block_state(state: State) -> int:
    """The classifier's state as a block state."""
    if state is None:
        return _NORMAL
    if isinstance(state, Fence):
        return 2 + state.length * 2 + (state.char == "~")
    return _IN_FRONTMATTER


def classifier_state(block: int) -> State:
    """A block state back as the classifier's state (an open fence's info is not kept)."""
    if block < 2:
        return FRONTMATTER_OPEN if block == _IN_FRONTMATTER else None
    length, tilde = divmod(block - 2, 2)
    return Fence("~" if tilde else "`", length, "")


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
        self._formats: dict[str, QTextCharFormat] = {}
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
            "delimiter": _format(muted_text(palette), bold=True),
            "frontmatter": _format(muted_text(palette)),
            "frontmatter_key": _format(blend(text, Accent.SUCCESS.color, 0.6), bold=True),
            "heading": _format(heading, bold=True),
            "bullet": _format(blend(text, Accent.WARNING.color, 0.75), bold=True),
            "code": _format(code_text, background=blend(base, text, 0.06)),
            "fence": _format(muted_text(palette), background=blend(base, text, 0.06)),
            "link": _link_format(palette.color(QPalette.ColorRole.Link)),
        }

    def highlightBlock(self, text: str) -> None:
        """Qt calls this for every line that needs (re-)highlighting."""
        number = self.currentBlock().blockNumber()
        previous = self.previousBlockState()
        before = None if previous <= _NORMAL else classifier_state(previous)
        line, state = classify_line(text, before, number)
        self.setCurrentBlockState(_NORMAL if state is None else block_state(state))
        kind = line.kind
        if kind is LineKind.FRONTMATTER:
            if number == 0 or state is None:  # its fences
                self.setFormat(0, len(text), self._formats["delimiter"])
            else:
                self._highlight_frontmatter_line(text)
            return
        if kind is LineKind.FENCE or kind is LineKind.CODE:
            self.setFormat(0, len(text), self._formats["fence"])
            return
        if kind is LineKind.HEADING:
            self.setFormat(0, len(text), self._formats["heading"])
            return
        if kind is LineKind.LIST_ITEM:
            self.setFormat(line.indent, len(line.marker), self._formats["bullet"])
        if "`" in text:
            for match in _INLINE_CODE.finditer(text):
                self.setFormat(match.start(), match.end() - match.start(), self._formats["code"])
        if self._imports and "@" in text:
            for start, end, _written in import_spans(text):
                self.setFormat(start, end - start, self._formats["link"])

    def _highlight_frontmatter_line(self, text: str) -> None:
        self.setFormat(0, len(text), self._formats["frontmatter"])
        key = _FRONTMATTER_KEY.match(text)
        if key:
            self.setFormat(0, key.end(1), self._formats["frontmatter_key"])
