"""What Claude Code neutralizes in the memory it loads (docs/formats.md §17.6): invisible
characters, and text shaped like its harness's tags, whatever lookalike spells them."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache

_CANDIDATE = re.compile(
    "[^\t\n\r\x20-\x7e\u00a0-\u00ac\u00ae-\u024f\u0391-\u03a1\u03a3-\u03ce"
    "\u0400-\u04ff\u2010-\u2027\u2030-\u205e\u2190-\u23ff\u2500-\u27bf\u3000-\u303f"
    "\u3041-\u3096\u30a1-\u30fa\u4e00-\u9fff\uac00-\ud7a3]"
)
"""What may be invisible: all but tab, line feed, return and blocks of assigned, visible
characters most text is made of."""
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


@lru_cache(maxsize=8192)  # a text beyond ASCII repeats few characters (Hangul, CJK)
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
    """The texts Claude Code scans for secrets before a write: as is, without its invisible
    characters, and without joiners and variation selectors too."""
    bare = without_invisible(text)
    barer = "".join(char for char in bare if ord(char) not in _JOINERS)
    return tuple(dict.fromkeys((text, bare, barer)))


_HARNESS_TAGS = """
    bash-input bash-stdout bash-stderr bash-exit-code local-command-stdout local-command-stderr
    local-command-caveat command-name command-message command-args task-notification
    agent-message teammate-message cross-session-message remote-review slack-ping
    slack-tag-message tick fetched-web-content untrusted-widget-state coordinator-relay
    artifact-type-instructions cowritten-artifact-html artifact-file-content
    artifact-origin-notes artifact-stored-declaration channel system-reminder function-results
    tool-use-error sandbox-violations persisted-output total-tokens user-prompt-submit-hook
"""
HARNESS_TAGS = tuple(_HARNESS_TAGS.split())
"""The tags of Claude Code's harness whose lookalikes it neutralizes (`-` for `-` or `_`)."""

_OPENER = re.compile("[<\u2039\u02c2\u1438\u2329\u276c\u276e\u27e8\u3008\ufe64\uff1c]")
_NAMES = "|".join(sorted((t.replace("-", "[-_]") for t in HARNESS_TAGS), key=len, reverse=True))
_TAG = re.compile(rf"[ \t/]{{0,4}}(?:(?:{_NAMES})(?=[\s/>]|$)|antml:)")
_WINDOW = 48
# Claude Code's table of Cyrillic and Greek letters that look like Latin ones (`zP`).
_LOOKALIKES = {
    **dict.fromkeys("\u0430\u03b1", "a"),
    **dict.fromkeys("\u0442\u03c4", "t"),
    **dict.fromkeys("\u0585\u043e\u03bf", "o"),
    **dict.fromkeys("\u0578", "n"),
    **dict.fromkeys("\u0435\u03b5", "e"),
    **dict.fromkeys("\u0440\u03c1", "p"),
    "\u0441": "c",
    "\u0443": "y",
    "\u0445": "x",
    **dict.fromkeys("\u0456\u03b9", "i"),
    "\u0455": "s",
    "\u0458": "j",
    "\u04bb": "h",
    "\u0501": "d",
    "\u051b": "q",
    "\u051d": "w",
    **dict.fromkeys("\u0475\u03bd", "v"),
    "\u03c5": "u",
    "\u03ba": "k",
    **dict.fromkeys("\u0410\u0391", "A"),
    **dict.fromkeys("\u0415\u0395", "E"),
    **dict.fromkeys("\u041e\u039f", "O"),
    **dict.fromkeys("\u0420\u03a1", "P"),
    "\u0421": "C",
    **dict.fromkeys("\u0423\u03a5", "Y"),
    **dict.fromkeys("\u0425\u03a7", "X"),
    **dict.fromkeys("\u0406\u0399", "I"),
    "\u0405": "S",
    "\u0408": "J",
    **dict.fromkeys("\u041d\u0397", "H"),
    **dict.fromkeys("\u041c\u039c", "M"),
    **dict.fromkeys("\u0422\u03a4", "T"),
    **dict.fromkeys("\u0412\u0392", "B"),
    **dict.fromkeys("\u041a\u039a", "K"),
    "\u039d": "N",
    "\u0396": "Z",
}


def markup_in(text: str) -> Iterator[tuple[int, str]]:
    """Each place Claude Code would neutralize as markup: the bracket's offset and the text
    there."""
    for opener in _OPENER.finditer(text):
        start = opener.end()
        if text.startswith("\\", start):
            continue  # already neutralized (`<\`)
        folded, origins = _folded(text, start)
        found = _TAG.match(folded)
        if found is not None:
            end = origins[found.end() - 1] + 1 if found.end() else start
            yield opener.start(), text[opener.start() : end]


def _folded(text: str, start: int) -> tuple[str, list[int]]:
    """The next characters from `start` as compared with a tag's name (invisible ones skipped),
    and where each is."""
    chars: list[str] = []
    origins: list[int] = []
    index = start
    while index < len(text) and len(chars) < _WINDOW:
        char = text[index]
        if char > "~" and is_invisible(char):
            index += 1
            continue
        if char > "~":
            folded = unicodedata.normalize("NFKC", _LOOKALIKES.get(char, char))
            char = folded if len(folded) == 1 else char
        chars.append(char.lower())
        origins.append(index)
        index += 1
    return "".join(chars), origins


def name_code_point(char: str) -> str:
    """`U+200B ZERO WIDTH SPACE`: an invisible character named where it was found."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {name}" if name else "")
