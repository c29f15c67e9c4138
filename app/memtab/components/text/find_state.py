"""What a find bar holds of its text, no Qt (`gui.toolkit.text.find_bar` shows it): the matches
(`components.editor.find`), found again when `stale`, in document positions (UTF-16), and which
to select, the count ("3 of 12") and the highlights."""

from __future__ import annotations

import enum

from memtab.components.editor.find import (
    MAX_MATCHES,
    FindOptions,
    Span,
    find_all,
    is_match,
    next_match,
    replace_all,
)
from memtab.components.editor.text_buffer import DocumentPositions

MAX_HIGHLIGHTS = 2_000  # extra selections are painted one by one: enough to see them all


def count_words(query: str, count: int, current: int | None) -> str:
    """What the bar says of `count` matches of `query`, the selection being match
    `current` (0-based; None: no match is selected)."""
    plus = "+" if count >= MAX_MATCHES else ""
    if not query:
        return ""
    if not count:
        return "No matches"
    if current is not None:
        return f"{current + 1:,} of {count:,}{plus}"
    return f"{count:,}{plus} matches" if count > 1 else "1 match"


def replaced_words(count: int) -> str:
    """What the bar says after Replace all replaced `count` matches."""
    return f"Replaced {count:,}" if count else "No matches"


class FindState:
    """The matches of a query in a text, in the text's and the document's positions."""

    def __init__(self) -> None:
        self.text = ""
        self._positions = DocumentPositions("")
        self.matches: list[Span] = []
        self.stale = True
        """The text changed since the matches were found (find them again before use)."""

    def refresh(self, text: str, query: str, options: FindOptions) -> None:
        """Find `query` in `text` (the buffer as it is now)."""
        self.text = text
        self._positions = DocumentPositions(text)
        self.matches = find_all(text, query, options)
        self.stale = False

    def _span(self, start: int, end: int) -> Span:
        return self._positions.to_text(start), self._positions.to_text(end)

    def _document_span(self, span: Span) -> Span:
        return self._positions.to_document(span[0]), self._positions.to_document(span[1])

    def target(
        self, start: int, end: int, *, backwards: bool, from_start: bool = False
    ) -> Span | None:
        """The match to select from the selection `start`–`end`: the next from its end
        (`from_start`: from its start), or the one before its start (`backwards`), wrapping
        around; None: no match."""
        span = self._span(start, end)
        position = span[0] if backwards or from_start else span[1]
        index = next_match(self.matches, position, backwards=backwards)
        return self._document_span(self.matches[index]) if index is not None else None

    def index_of(self, start: int, end: int) -> int | None:
        """Which match the selection `start`–`end` (document positions) is, if one."""
        if start == end:
            return None
        try:
            return self.matches.index(self._span(start, end))
        except ValueError:
            return None

    def is_match_at(self, start: int, end: int, query: str, options: FindOptions) -> bool:
        """Whether the selection `start`–`end` is a match of `query` (what Replace replaces)."""
        return start != end and is_match(self.text, self._span(start, end), query, options)

    def replace_all(self, query: str, replacement: str, options: FindOptions) -> tuple[str, int]:
        """The text with every match of `query` replaced, and how many were."""
        return replace_all(self.text, query, replacement, options)

    def highlights(self) -> list[Span]:
        """Where to paint the matches (document positions; the first MAX_HIGHLIGHTS)."""
        return [self._document_span(span) for span in self.matches[:MAX_HIGHLIGHTS]]


class FindKey(enum.Enum):
    """What a key pressed in the find bar's fields, or in its text, does."""

    CLOSE = "close"
    NEXT = "next"
    PREVIOUS = "previous"
    REPLACE = "replace"
    PASS = "pass"
    """Not the bar's: the field or the text takes it as ever."""


def find_key(
    *, escape: bool, enter: bool, shift: bool, in_text: bool, in_replace: bool, shown: bool
) -> FindKey:
    """Esc closes the bar (in the text too, while it shows); Enter in the fields goes to the
    next match (Shift: the previous one; in the replace field: replaces)."""
    if escape:
        return FindKey.CLOSE if shown or not in_text else FindKey.PASS
    if in_text or not enter:
        return FindKey.PASS
    if in_replace:
        return FindKey.REPLACE
    return FindKey.PREVIOUS if shift else FindKey.NEXT
