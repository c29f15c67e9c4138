"""A memory file's content lines, compared as the consolidator compares them.

One rule for "is this line still somewhere in memory": the offline consolidator's units
(`consolidation.offline.units`), the ops in words (`history.describe`: which file a
delete was merged into) and the check that keeps a reviewed plan from losing a line
(`consolidation.review.plan`) all compare lines this way. A line compares modulo whitespace
runs and its bullet marker (`* x`, `1. x` and `- x` are one line). Blank lines, headings
(they title content; a merged note's content goes under its keeper's title) and the
frontmatter (the file's own metadata: its description, name, type) are not content.
"""

from __future__ import annotations

import re

from memtab.store.text.frontmatter import find_frontmatter

BULLET = re.compile(r"^(?:[-*+]|\d+[.)])\s+")
"""A list item's marker and the space after it."""
_HEADING = re.compile(r"^ {0,3}#{1,6}(?:\s|$)")


def normalize_line(line: str) -> str:
    """A line as compared: whitespace runs collapsed, any bullet marker written `- `."""
    text = " ".join(line.split())
    first = text[:1]
    # What `BULLET.sub("- ", text)` makes of it, without a regex for the usual markers:
    # the only whitespace left is single spaces.
    if first in ("-", "*", "+"):
        return "- " + text[2:] if text[1:2] == " " else text
    if first.isdecimal():
        return BULLET.sub("- ", text, count=1)
    return text


def content_lines(text: str) -> set[str]:
    """The content lines of a file's text, as compared (see the module doc)."""
    span = find_frontmatter(text)
    body = text[span.end :] if span is not None else text
    return {
        normalize_line(line)
        for line in body.splitlines()
        if line.strip() and not _HEADING.match(line)
    }
