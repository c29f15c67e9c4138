"""Text from outside made safe to print or write into Markdown (docs/formats.md §16.1): control
characters and bidirectional overrides written as visible escapes."""

from __future__ import annotations

import re

from memtab.fs.lazy_re import LazyPattern

# C0 controls but tab and line feed, DEL, C1, and the bidirectional controls.
_UNSAFE = LazyPattern("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_UNSAFE_OR_NEWLINE = LazyPattern("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: str, *, multiline: bool = False) -> str:
    """`text` with each control character (a line feed unless `multiline`) as a visible escape."""
    return (_UNSAFE if multiline else _UNSAFE_OR_NEWLINE).sub(_escaped, text)
