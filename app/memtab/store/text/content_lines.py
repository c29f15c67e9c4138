"""A memory file's content lines compared as the consolidator compares them (modulo whitespace runs
and the bullet marker), blanks, headings and frontmatter left out: the one rule for "is this line
still somewhere in memory"."""

from __future__ import annotations

import re

from memtab.markdown import LineKind, classify, text_lines

BULLET = re.compile(r"^(?:[-*+]|\d+[.)])\s+")  # a list item's marker and the space after it
_NOT_CONTENT = frozenset({LineKind.BLANK, LineKind.FRONTMATTER, LineKind.HEADING})


def normalize_line(line: str) -> str:
    """A line as compared: whitespace runs collapsed, any bullet marker written `- `."""
    text = " ".join(line.split())
    first = text[:1]
    if first in ("-", "*", "+"):  # `BULLET.sub("- ", text)` without a regex for the usual markers
        return "- " + text[2:] if text[1:2] == " " else text
    if first.isdecimal():
        return BULLET.sub("- ", text, count=1)
    return text


def content_lines(text: str) -> set[str]:
    """The content lines of a file's text, as compared (see the module doc)."""
    lines = text_lines(text)
    return {
        normalize_line(line)
        for line, found in zip(lines, classify(lines), strict=True)
        if found.kind not in _NOT_CONTENT and line.strip()
    }
