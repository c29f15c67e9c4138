"""Go to line (Ctrl+G): what the field's text asks for, and what it says — no Qt."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

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


MIN_DIGITS = 2
"""The line numbers are this many digits wide at least."""


def number_digits(lines: int) -> int:
    """How many digits the line numbers of a text of `lines` lines take: the last one's,
    `MIN_DIGITS` at least."""
    return max(MIN_DIGITS, len(str(lines)))


def cursor_place(
    line: int, column: int, lines: int, line_length: Callable[[int], int]
) -> tuple[int, int]:
    """Where going to `line` and `column` (1-based) puts the cursor in a text of `lines`
    lines: (the line's index, the offset in it), both 0-based — a line past either end is
    the first or the last one, a column past the line's end (`line_length(index)`, without
    its line break) its end."""
    index = min(max(line, 1), max(lines, 1)) - 1
    return index, min(max(column, 1) - 1, line_length(index))
