"""The `description:` of a Markdown buffer: read it for the field, rewrite it from the field."""

from __future__ import annotations

import re

from memtab.store.text.frontmatter import find_frontmatter, full_description, yaml_scalar

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
    """`text` with its frontmatter `description:` set to `description`.

    Only the description entry changes (a repeated one, which no reader accepts, is
    replaced by one entry). Without frontmatter, one is added at the top; an empty
    description removes the entry, and the frontmatter too if nothing else is left in it
    (so typing and then clearing the field gives back the original text).
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
    """How many lines the frontmatter at the top of `text` takes, its fences included
    (None: it has none) — by the one reader's rule, so the cursor of a file just opened
    lands in its body, where a key typed cannot break the YAML that holds its description.
    `text` may be the head of the file only, as long as it holds the closing fence."""
    span = find_frontmatter(text)
    if span is None:
        return None
    return text.count("\n", 0, span.end) + (0 if text[: span.end].endswith("\n") else 1)
