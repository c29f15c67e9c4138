"""A memory file's content lines, compared as the consolidator compares them.

One rule for "is this line still somewhere in memory": the offline consolidator's units
(`consolidation.offline.units`), the ops in words (`history.describe`: which file a
delete was merged into) and the check that keeps a reviewed plan from losing a line
(`consolidation.review.plan`) all compare lines this way. A line compares modulo whitespace
runs and its bullet marker (`* x`, `1. x` and `- x` are one line). Blank lines, headings
(they title content; a merged note's content goes under its keeper's title) and the
frontmatter (the file's own metadata: its description, name, type) are not content, as
the one line classifier (`memtab.markdown`) tells them: a `# comment` in a code block is.
"""

from __future__ import annotations

import re

from memtab.markdown import LineKind, classify, text_lines

BULLET = re.compile(r"^(?:[-*+]|\d+[.)])\s+")
"""A list item's marker and the space after it."""
_NOT_CONTENT = frozenset({LineKind.BLANK, LineKind.FRONTMATTER, LineKind.HEADING})


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
    lines = text_lines(text)
    return {
        normalize_line(line)
        for line, found in zip(lines, classify(lines), strict=True)
        if found.kind not in _NOT_CONTENT and line.strip()
    }
