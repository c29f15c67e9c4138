"""Text from outside made safe to print or to write into Markdown (docs/formats.md §16.1).

A model name a local server lists, a line an agent's transcript holds: any of them may
carry an escape sequence (`ESC ]52;…` writes the clipboard, `ESC [2J` clears the screen),
a carriage return that overwrites what the line said, or a bidirectional override that
shows text in another order than it is stored. `printable` writes each such character as
a visible escape (`\\x1b`, `\\u202e`), so what is shown is what is there, inert.
"""

from __future__ import annotations

import re

from memtab.fs.lazy_re import LazyPattern

# C0 controls but tab and line feed, DEL, C1 controls (0x9B is CSI on 8-bit terminals),
# and the bidirectional embeddings, overrides and isolates.
_UNSAFE = LazyPattern("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_UNSAFE_OR_NEWLINE = LazyPattern("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: str, *, multiline: bool = False) -> str:
    """`text` with every control character (line feeds too unless `multiline`; tabs kept)
    and bidirectional control written as a visible escape."""
    pattern = _UNSAFE if multiline else _UNSAFE_OR_NEWLINE
    return pattern.sub(_escaped, text)
