"""Text from outside made safe to print or write into Markdown (docs/formats.md §16.1): control
characters and bidirectional overrides written as visible escapes (`printable`), or taken out of
text Memtab writes into memory or sends a model (`without_controls`)."""

from __future__ import annotations

import re

from memtab.fs.lazy_re import LazyPattern

# C0 controls but tab and line feed, DEL, C1, and the bidirectional controls.
_UNSAFE = LazyPattern("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_UNSAFE_OR_NEWLINE = LazyPattern("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# A terminal's escape sequence whole (a colour, a title), so none of it is left as "[31m": CSI
# (its parameters and intermediates are bounded), OSC up to its end (BEL or ST).
_ESCAPE_SEQUENCE = LazyPattern(
    "\x1b\\[[\x30-\x3f]{0,32}[\x20-\x2f]{0,8}[\x40-\x7e]?|\x1b\\][^\x07\x1b\n]{0,512}(?:\x07|\x1b\\\\)?"
)
# What no memory line needs and a reader cannot see: C0 controls but tab and line feed (a
# return only before a line feed), DEL, C1, the bidirectional marks, embeddings, overrides and
# isolates, zero-width spaces and word joiners, the byte order mark, tag characters. (A
# return ending the text is a line end split from its line feed.)
_CONTROL = LazyPattern(
    "\r(?![\n]|\\Z)|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b\u200e\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f]"
)
# A joiner or a variation selector joins what stands beside it (an emoji sequence, a Persian
# word): kept only between visible characters beyond ASCII (no joiner, no selector), where it
# can split no ASCII word ("cu\u200drl").
_JOINER = LazyPattern(
    "(?<![\xa0-\u200b\u200e-\ufdff\ufe10-\U0010ffff])[\u200c\u200d\ufe00-\ufe0f]"
    "|[\u200c\u200d](?![\xa0-\u200b\u200e-\ufdff\ufe10-\U0010ffff])"
)


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: str, *, multiline: bool = False) -> str:
    """`text` with each control character (a line feed unless `multiline`) as a visible escape."""
    return (_UNSAFE if multiline else _UNSAFE_OR_NEWLINE).sub(_escaped, text)


def without_controls(text: str) -> str:
    """`text` without control, bidirectional and invisible characters (ESC, BEL, NUL, RLO, a
    zero-width space…) and terminal escape sequences: the one rule for text written into
    memory (a lesson, an agent's write, an import) or sent to a model. Tabs, line ends and the
    joiners inside an emoji or a Persian word stay."""
    if text.isascii() and text.isprintable():
        return text
    return _JOINER.sub("", _CONTROL.sub("", _ESCAPE_SEQUENCE.sub("", text)))
