"""What the editor's Markdown highlighting colours in a line, no Qt (`gui.editor.text.highlighter`
paints it): each line told by the one classifier (`memtab.markdown.classify_line`), multi-line
constructs carried in Qt's per-line int block state so an edit re-highlights only what it can
affect."""

from __future__ import annotations

import enum
import re

from memtab.markdown import FRONTMATTER_OPEN, Fence, LineKind, State, classify_line
from memtab.sources.claude.instructions import import_spans

_INLINE_CODE = re.compile(r"`[^`\n]+`")
_FRONTMATTER_KEY = re.compile(r"^([A-Za-z0-9_-]+)\s*:")
# The classifier's state as Qt's block state (an int; -1 is Qt's "none yet"): 0 prose,
# 1 in the frontmatter, then an open fence's character and length.
NORMAL = 0
_IN_FRONTMATTER = 1


class Style(enum.StrEnum):
    """What a span of a line is coloured as."""

    DELIMITER = "delimiter"
    FRONTMATTER = "frontmatter"
    FRONTMATTER_KEY = "frontmatter_key"
    HEADING = "heading"
    BULLET = "bullet"
    CODE = "code"
    FENCE = "fence"
    LINK = "link"


Span = tuple[int, int, Style]
"""Where a style starts in the line, how many characters it covers, and the style."""


def block_state(state: State) -> int:
    """The classifier's state as a block state."""
    if state is None:
        return NORMAL
    if isinstance(state, Fence):
        return 2 + state.length * 2 + (state.char == "~")
    return _IN_FRONTMATTER


def classifier_state(block: int) -> State:
    """A block state back as the classifier's state (an open fence's info is not kept;
    Qt's -1, "none yet", is prose)."""
    if block < 2:
        return FRONTMATTER_OPEN if block == _IN_FRONTMATTER else None
    length, tilde = divmod(block - 2, 2)
    return Fence("~" if tilde else "`", length, "")


def line_spans(text: str, previous: int, number: int, *, imports: bool) -> tuple[int, list[Span]]:
    """The block state after line `number` (0-based) whose text is `text`, the line before
    having left `previous`, and the spans to colour in it, in order (a later one wins
    where they overlap); `imports`: `@`-imports are links."""
    line, state = classify_line(text, classifier_state(previous), number)
    after = block_state(state)
    kind = line.kind
    whole = len(text)
    if kind is LineKind.FRONTMATTER:
        if number == 0 or state is None:  # its fences
            return after, [(0, whole, Style.DELIMITER)]
        spans: list[Span] = [(0, whole, Style.FRONTMATTER)]
        key = _FRONTMATTER_KEY.match(text)
        if key:
            spans.append((0, key.end(1), Style.FRONTMATTER_KEY))
        return after, spans
    if kind is LineKind.FENCE or kind is LineKind.CODE:
        return after, [(0, whole, Style.FENCE)]
    if kind is LineKind.HEADING:
        return after, [(0, whole, Style.HEADING)]
    spans = []
    if kind is LineKind.LIST_ITEM:
        spans.append((line.indent, len(line.marker), Style.BULLET))
    if "`" in text:
        for match in _INLINE_CODE.finditer(text):
            spans.append((match.start(), match.end() - match.start(), Style.CODE))
    if imports and "@" in text:
        for start, end, _written in import_spans(text):
            spans.append((start, end - start, Style.LINK))
    return after, spans
