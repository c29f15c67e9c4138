"""Find and replace in the open file's text, and Go to line (Ctrl+G) — no Qt."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
from typing import NamedTuple

MAX_MATCHES = 10_000
"""Matches found at most (the bar then says "10,000+"); enough for any memory file."""


@dataclass(frozen=True)
class FindOptions:
    """How a query matches."""

    case_sensitive: bool = False
    whole_words: bool = False


Span = tuple[int, int]  # A match: start and end index in the text.


def _pattern(query: str, options: FindOptions) -> re.Pattern[str]:
    body = re.escape(query)
    if options.whole_words:
        body = rf"(?<!\w){body}(?!\w)"
    return re.compile(body, 0 if options.case_sensitive else re.IGNORECASE)


def find_all(text: str, query: str, options: FindOptions = FindOptions()) -> list[Span]:
    """Every non-overlapping match of `query` in `text`, in order (at most MAX_MATCHES)."""
    if not query:
        return []
    return [match.span() for match in islice(_pattern(query, options).finditer(text), MAX_MATCHES)]


def next_match(matches: list[Span], position: int, *, backwards: bool = False) -> int | None:
    """The index in `matches` of the first match starting at or after `position` (or, `backwards`,
    the last one starting before it), wrapping around the end of the text; None when there are none.
    With a match selected, pass its end to go on, its start to go back."""
    if not matches:
        return None
    index = bisect.bisect_left([start for start, _ in matches], position)
    if backwards:
        return index - 1 if index > 0 else len(matches) - 1
    return index if index < len(matches) else 0


def replace_all(
    text: str, query: str, replacement: str, options: FindOptions = FindOptions()
) -> tuple[str, int]:
    """`text` with every match of `query` replaced literally; and how many were."""
    if not query:
        return text, 0
    return _pattern(query, options).subn(lambda _match: replacement, text)


def is_match(text: str, span: Span, query: str, options: FindOptions = FindOptions()) -> bool:
    """Whether `text[span]` is a match of `query` (the selection Replace would replace)."""
    if not query:
        return False
    found = _pattern(query, options).match(text, span[0])
    return found is not None and found.span() == span


# Possessive runs: the blanks before an optional `:` are read once, not split every way.
_TARGET = re.compile(r"^\s*+:?\s*+(\d++)\s*+(?:[:,]\s*+(\d++)\s*+)?$")


class LineTarget(NamedTuple):
    """Where to go: a line and a column, both 1-based, the line within the text."""

    line: int
    column: int = 1


def parse_target(typed: str, lines: int) -> LineTarget | None:
    """What `typed` asks for in a text of `lines` lines; None when it is no line number."""
    match = _TARGET.match(typed)
    if match is None:
        return None
    line = min(max(int(match.group(1)), 1), max(lines, 1))
    column = max(int(match.group(2) or 1), 1)
    return LineTarget(line, column)


def go_to_hint(current: int, lines: int) -> str:
    """What the dialog says under its field: where the cursor is and what it takes."""
    return (
        f"The cursor is on line {current} of {lines}. Type a line number (1–{lines}), "
        "or line:column."
    )


MIN_DIGITS = 2  # The line numbers are this many digits wide at least.


def number_digits(lines: int) -> int:
    """How many digits the line numbers of a text of `lines` lines take: the last one's,
    `MIN_DIGITS` at least."""
    return max(MIN_DIGITS, len(str(lines)))


def cursor_place(
    line: int, column: int, lines: int, line_length: Callable[[int], int]
) -> tuple[int, int]:
    """Where going to `line` and `column` (1-based) puts the cursor in a text of `lines` lines: (the
    line's index, the offset in it), both 0-based — a line past either end is the first or the last
    one, a column past the line's end (`line_length(index)`, without its line break) its end."""
    index = min(max(line, 1), max(lines, 1)) - 1
    return index, min(max(column, 1) - 1, line_length(index))
