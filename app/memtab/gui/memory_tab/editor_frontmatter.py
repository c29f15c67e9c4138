"""The `description:` of a Markdown buffer: read it for the field, rewrite it from the field.

Plain Python (no Qt), so the editor's description field is a thin adapter over it.
Reading finds the frontmatter the way the store does (`memtab.store.files.frontmatter_block`)
and returns the full, untruncated value (the tree shows the store's cleaned, cut version).
Writing touches only the `description:` entry — every other line of the frontmatter stays
byte for byte — and creates the frontmatter when there is none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml

from memtab.store.files import DESCRIPTION_PREFIX_BYTES, frontmatter_block

_OPENING = re.compile(r"\A---[ \t]*\r?\n")
_CLOSING_LINE = re.compile(r"^---[ \t]*\r?$")
_DESCRIPTION_KEY = re.compile(r"^description[ \t]*:")
_WHITESPACE_RUN = re.compile(r"\s+")
_CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True)
class FrontmatterSpan:
    """Where the frontmatter of a text is: the lines between the `---` delimiters."""

    body_start: int  # offset of the first line after the opening `---`
    body_end: int  # offset of the closing `---` line
    end: int  # offset just after the closing `---` line (and its newline)
    newline: str


def find_frontmatter(text: str) -> FrontmatterSpan | None:
    """The span of the frontmatter at the very top of `text`, or None when there is none."""
    opening = _OPENING.match(text)
    if opening is None:
        return None
    newline = "\r\n" if opening.group(0).endswith("\r\n") else "\n"
    position = opening.end()
    while position <= len(text):
        line_end = text.find("\n", position)
        line = text[position:] if line_end < 0 else text[position : line_end + 1]
        if _CLOSING_LINE.match(line.rstrip("\n")):
            end = len(text) if line_end < 0 else line_end + 1
            return FrontmatterSpan(opening.end(), position, end, newline)
        if line_end < 0:
            return None
        position = line_end + 1
    return None


def _description_lines(block_lines: list[str]) -> tuple[int, int] | None:
    """[start, stop) of the `description:` entry in the frontmatter lines, with any
    indented continuation lines (folded or multi-line values)."""
    for index, line in enumerate(block_lines):
        if _DESCRIPTION_KEY.match(line):
            stop = index + 1
            while stop < len(block_lines) and block_lines[stop][:1] in (" ", "\t"):
                stop += 1
            return index, stop
    return None


def read_description(text: str) -> str:
    """The description for the editor's field: the frontmatter's `description:` as one line.

    Any scalar counts (YAML's base schema keeps `yes` and `42` as text); runs of
    whitespace become one space. "" when there is no frontmatter, no description, or the
    frontmatter is not valid YAML.
    """
    block = frontmatter_block(text[: DESCRIPTION_PREFIX_BYTES * 4])
    if not block or "description" not in block:
        return ""
    try:
        data: Any = yaml.load(block, Loader=yaml.BaseLoader)  # strings only, no tags run
    except (yaml.YAMLError, RecursionError):
        return ""
    value = data.get("description") if isinstance(data, dict) else None
    if not isinstance(value, str):
        return ""
    return _WHITESPACE_RUN.sub(" ", value).strip()


def description_line(description: str) -> str:
    """`description: <value>` as one YAML line, quoted only when the value needs it."""
    value = _CONTROL_CHARS.sub("", description)
    dumped = yaml.safe_dump(
        {"description": value}, allow_unicode=True, width=1_000_000, default_flow_style=False
    )
    return dumped.rstrip("\n")


def with_description(text: str, description: str) -> str:
    """`text` with its frontmatter `description:` set to `description`.

    Only the description entry changes. Without frontmatter, one is added at the top;
    an empty description removes the entry, and the frontmatter too if nothing else is
    left in it (so typing and then clearing the field gives back the original text).
    """
    span = find_frontmatter(text)
    cleared = description.strip() == ""
    if span is None:
        if cleared:
            return text
        return f"---\n{description_line(description)}\n---\n{text}"
    newline = span.newline
    block_lines = text[span.body_start : span.body_end].splitlines()
    found = _description_lines(block_lines)
    replacement = [] if cleared else [description_line(description)]
    if found is None:
        if cleared:
            return text
        block_lines = replacement + block_lines
    else:
        start, stop = found
        block_lines = block_lines[:start] + replacement + block_lines[stop:]
    if not block_lines:
        return text[span.end :]
    block = newline.join(block_lines) + newline
    return text[: span.body_start] + block + text[span.body_end :]


def body_without_frontmatter(text: str) -> str:
    """The Markdown after the frontmatter (all of `text` when there is none)."""
    span = find_frontmatter(text)
    return text if span is None else text[span.end :]
