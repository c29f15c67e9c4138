"""What Claude Code takes out of the memory it loads: invisible characters
(docs/formats.md §17.6).

Claude Code 2.1.331 strips from auto memory (`MEMORY.md`, a recalled topic file, the
descriptions it indexes) every character its `Ayn` names invisible — format (`Cf`),
private-use (`Co`), unassigned (`Cn`) and surrogate (`Cs`) code points, the
default-ignorable ones, and the C0 and C1 controls — but tab, line feed, carriage return,
the zero-width (non-)joiner and the variation selectors 15 and 16 (emoji need them). It
refuses a memory file whose path holds one, and scans a text for secrets with and without
them (`iSr`: a key split by a zero-width space is still a key).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

_CANDIDATE = re.compile(r"[^\t\n\r\x20-\x7e]")
"""What may be invisible (everything but printable ASCII and tab, line feed, return)."""
_KEPT = frozenset({0x09, 0x0A, 0x0D, 0x200C, 0x200D, 0xFE0E, 0xFE0F})
_JOINERS = frozenset({0x200C, 0x200D, 0xFE0E, 0xFE0F})
_INVISIBLE_CATEGORIES = frozenset({"Cf", "Co", "Cn", "Cs"})
# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt) beyond `Cf` and `Cn`.
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def is_invisible(char: str) -> bool:
    """Whether Claude Code takes `char` out of memory it loads."""
    point = ord(char)
    if point in _KEPT:
        return False
    if point < 0x20 or 0x7F <= point <= 0x9F:
        return True
    if unicodedata.category(char) in _INVISIBLE_CATEGORIES:
        return True
    return any(low <= point <= high for low, high in _DEFAULT_IGNORABLE)


def invisible_in(text: str) -> Iterator[tuple[int, str]]:
    """Each invisible character of `text` and its offset."""
    for match in _CANDIDATE.finditer(text):
        if is_invisible(match.group()):
            yield match.start(), match.group()


def without_invisible(text: str) -> str:
    """`text` as Claude Code loads it: its invisible characters taken out."""
    return _CANDIDATE.sub(lambda match: "" if is_invisible(match.group()) else match.group(), text)


def secret_scan_texts(text: str) -> tuple[str, ...]:
    """The texts Claude Code scans for secrets before a write: the text, without its
    invisible characters, and without the joiners and variation selectors too."""
    bare = without_invisible(text)
    barer = "".join(char for char in bare if ord(char) not in _JOINERS)
    return tuple(dict.fromkeys((text, bare, barer)))


def name_code_point(char: str) -> str:
    """`U+200B ZERO WIDTH SPACE`: an invisible character named where it was found."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {name}" if name else "")
