"""How a file's text maps to the editor's buffer and back, without losing bytes, and its
`description:` read for the field and rewritten from it."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from memtab.store.history.capture import common_prefix_length
from memtab.store.text.frontmatter import find_frontmatter, full_description, yaml_scalar

BOM = "\ufeff"
PARAGRAPH_SEPARATOR = "\u2029"


@dataclass(frozen=True)
class TextCodec:
    """The line ending and BOM of a file, to restore them when saving the buffer."""

    crlf: bool = False
    bom: bool = False

    @classmethod
    def detect(cls, text: str) -> TextCodec:
        """The codec of a file's text: CRLF when every line break is `\\r\\n`."""
        body = text.removeprefix(BOM)
        crlf_count = body.count("\r\n")
        return cls(crlf=crlf_count > 0 and crlf_count == body.count("\n"), bom=text != body)

    def to_buffer(self, text: str) -> str:
        """The text as the editor shows it: `\\n` line breaks, no BOM."""
        body = text.removeprefix(BOM) if self.bom else text
        return body.replace("\r\n", "\n") if self.crlf else body

    def from_buffer(self, buffer: str) -> str:
        """The text to save for what the editor holds."""
        text = buffer.replace("\r\n", "\n").replace("\r", "\n")
        if self.crlf:
            text = text.replace("\n", "\r\n")
        return BOM + text if self.bom else text

    def round_trips(self, text: str) -> bool:
        """Whether the editor can hold `text` and save it back byte for byte."""
        buffer = self.to_buffer(text)
        if "\r" in buffer or PARAGRAPH_SEPARATOR in buffer or BOM in buffer:
            return False
        return self.from_buffer(buffer) == text


def buffer_from_raw(raw: str) -> str:
    """The buffer text from `QTextDocument.toRawText()` (block breaks are U+2029 there)."""
    return raw.replace(PARAGRAPH_SEPARATOR, "\n")


def utf16_offset(text: str, index: int) -> int:
    """The QTextDocument position of Python index `index` (Qt counts UTF-16 code units)."""
    prefix = text[:index]
    return index + sum(1 for char in prefix if ord(char) > 0xFFFF)


class DocumentPositions:
    """Python string indices of a text ↔ positions in the QTextDocument holding it: Qt counts
    UTF-16 code units, so a character beyond U+FFFF (most emoji) takes two. Built once per text;
    each lookup is a binary search."""

    def __init__(self, text: str) -> None:
        wide = len(text.encode("utf-16-le")) != 2 * len(text)  # C speed: usually False
        self._astral = [i for i, char in enumerate(text) if ord(char) > 0xFFFF] if wide else []

    def to_document(self, index: int) -> int:
        """The document position of string index `index`."""
        return index + bisect.bisect_left(self._astral, index)

    def to_text(self, position: int) -> int:
        """The string index at document position `position` (inside a surrogate pair:
        the character's own index)."""
        low, high = 0, len(self._astral)
        while low < high:  # how many wide characters start before `position`
            middle = (low + high) // 2
            if self._astral[middle] + middle < position:
                low = middle + 1
            else:
                high = middle
        index = position - low
        if low and self._astral[low - 1] + low - 1 == position - 1:
            index = self._astral[low - 1]  # the second half of a surrogate pair
        return index


def changed_span(old: str, new: str) -> tuple[int, int, int]:
    """(start, old_end, new_end): the smallest middle part of `old` that `new` replaces."""
    start = common_prefix_length(old, new)
    suffix = common_prefix_length(old[start:][::-1], new[start:][::-1])
    return start, len(old) - suffix, len(new) - suffix


def with_final_newline(text: str) -> str:
    """`text` ending in a line break (an empty text stays empty): a line an agent appends to a
    saved file (`echo … >> notes.md`) starts on its own line, not on the user's last one."""
    return text if not text or text.endswith("\n") else text + "\n"


_DESCRIPTION_KEY = re.compile(r"^description[ \t]*:")
_CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f]")


def _description_lines(block_lines: list[str]) -> list[tuple[int, int]]:
    """[start, stop) of each `description:` entry in the frontmatter lines, with any
    indented continuation lines (folded or multi-line values)."""
    entries = []
    index = 0
    while index < len(block_lines):
        if _DESCRIPTION_KEY.match(block_lines[index]):
            stop = index + 1
            while stop < len(block_lines) and block_lines[stop][:1] in (" ", "\t"):
                stop += 1
            entries.append((index, stop))
            index = stop
        else:
            index += 1
    return entries


def read_description(text: str) -> str:
    """The description for the editor's field, as every reader sees it (uncut)."""
    return full_description(text)


def description_line(description: str) -> str:
    """`description: <value>` as one YAML line, quoted only when the value needs it."""
    return f"description: {yaml_scalar(_CONTROL_CHARS.sub('', description))}"


def with_description(text: str, description: str) -> str:
    """`text` with its frontmatter `description:` set (a repeated entry becomes one); added at
    the top without frontmatter; empty removes the entry, and an emptied frontmatter, so typing
    then clearing gives back the text."""
    span = find_frontmatter(text)
    cleared = description.strip() == ""
    if span is None:
        return text if cleared else f"---\n{description_line(description)}\n---\n{text}"
    newline = span.newline
    block_lines = text[span.body_start : span.body_end].splitlines()
    found = _description_lines(block_lines)
    replacement = [] if cleared else [description_line(description)]
    if not found:
        if cleared:
            return text
        block_lines = replacement + block_lines
    else:
        for start, stop in reversed(found[1:]):
            del block_lines[start:stop]
        start, stop = found[0]
        block_lines = block_lines[:start] + replacement + block_lines[stop:]
    if not block_lines:
        return text[span.end :]
    block = newline.join(block_lines) + newline
    return text[: span.body_start] + block + text[span.body_end :]


def body_without_frontmatter(text: str) -> str:
    """The Markdown after the frontmatter (all of `text` when there is none)."""
    span = find_frontmatter(text)
    return text if span is None else text[span.end :]


def frontmatter_lines(text: str) -> int | None:
    """How many lines the frontmatter at the top of `text` takes, fences included (None: none),
    so a file opens with the cursor in its body; `text` may be the file's head if it holds the
    closing fence."""
    span = find_frontmatter(text)
    if span is None:
        return None
    return text.count("\n", 0, span.end) + (0 if text[: span.end].endswith("\n") else 1)
