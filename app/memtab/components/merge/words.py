"""Which words of a side's changed lines changed, for the three-way view, no Qt: a long line's
words compared with the line it replaced (difflib); lines only added, or longer than
`MAX_WORDS` (difflib is quadratic at worst), get no spans."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

Span = tuple[int, int]
"""Characters `start`..`end` (end excluded) of a line."""
LineSpans = dict[int, tuple[Span, ...]]
"""Spans by 0-based line number."""

MAX_WORDS = 2000
_WORD = re.compile(r"\w+|[^\w\s]")


def changed_words(
    reference: Sequence[str],
    lines: Sequence[str],
    opcodes: Sequence[tuple[str, int, int, int, int]],
) -> LineSpans:
    """The spans of `lines` whose words `reference` does not have, by the line diff
    `opcodes` (difflib's, `reference` → `lines`)."""
    spans: LineSpans = {}
    for tag, i1, i2, j1, j2 in opcodes:
        if tag != "replace":
            continue
        # A replaced run's lines face the lines they replaced, one for one while they
        # last; the rest are new (or gone) whole.
        for k in range(min(i2 - i1, j2 - j1)):
            found = _line_words(reference[i1 + k], lines[j1 + k])
            if found:
                spans[j1 + k] = found
    return spans


def _line_words(old: str, new: str) -> tuple[Span, ...]:
    old_words = _WORD.findall(old)
    placed = list(_WORD.finditer(new))
    if len(old_words) > MAX_WORDS or len(placed) > MAX_WORDS:
        return ()
    new_words = [match.group() for match in placed]
    # The words before and after the change are the same: only the middle is compared
    # (one word changed in a long line compares one word).
    head = 0
    while head < min(len(old_words), len(new_words)) and old_words[head] == new_words[head]:
        head += 1
    tail = 0
    room = min(len(old_words), len(new_words)) - head
    while tail < room and old_words[-1 - tail] == new_words[-1 - tail]:
        tail += 1
    old_middle = old_words[head : len(old_words) - tail]
    new_middle = new_words[head : len(new_words) - tail]
    matcher = difflib.SequenceMatcher(None, old_middle, new_middle, autojunk=False)
    found: list[Span] = []
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            for match in placed[head + j1 : head + j2]:
                _add(found, new, match.start(), match.end())
    return tuple(found)


def _add(found: list[Span], line: str, start: int, end: int) -> None:
    """Add a span, joined to the last one when only spaces part them (one mark a phrase)."""
    if found and not line[found[-1][1] : start].strip():
        found[-1] = (found[-1][0], end)
    else:
        found.append((start, end))
