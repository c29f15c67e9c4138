"""How Claude Code recalls its auto memory's topic files (docs/formats.md §17.6): by name and
frontmatter description, so a topic without one cannot be recalled well."""

from __future__ import annotations

import re

from memtab.sources.claude.index import INDEX_NAME
from memtab.sources.claude.memory_dir import not_personal
from memtab.sources.model import Layout
from memtab.store.text.frontmatter import frontmatter_block, frontmatter_strings

RECALL_PICKS = 5
RECALL_CANDIDATES = 200
RECALL_READ_LINES = 200
RECALL_READ_BYTES = 4096
FRONTMATTER_LINES = 30

NO_DESCRIPTION = (
    "No description: Claude Code picks the topic files it reads for a prompt by file name "
    "and description, so it cannot recall this one well"
)
NO_DESCRIPTION_LABEL = "no description"
HOW_TOPICS_ARE_RECALLED = (
    f"Topic files are not read at the start: for each prompt Claude Code picks up to "
    f"{RECALL_PICKS} of the newest {RECALL_CANDIDATES} by file name and description, and "
    f"reads each up to {RECALL_READ_LINES} lines or {RECALL_READ_BYTES:,} bytes"
)


def is_recalled_topic(segments: tuple[str, ...]) -> bool:
    """Whether a file at `segments` in the user's own auto memory is one Claude Code may recall."""
    return (
        bool(segments)
        and segments[-1].endswith(".md")
        and segments[-1] != INDEX_NAME
        and not not_personal(segments)
        and not any(segment.startswith(".") for segment in segments)
    )


_LINE_ENTRY = re.compile(r"^([^\s#][^:\n]*?):[ \t]+(.*)$", re.MULTILINE)


def topic_frontmatter(head: str) -> dict[str, str]:
    """The string values of the frontmatter in the first 30 lines of `head` as Claude Code reads
    them: YAML where it parses, else leniently line by line."""
    text = "\n".join(head.split("\n", FRONTMATTER_LINES)[:FRONTMATTER_LINES]) + "\n"
    values = frontmatter_strings(text)
    block = frontmatter_block(text)
    if values or not block:
        return values
    lenient: dict[str, str] = {}
    for key, raw in _LINE_ENTRY.findall(block):
        value = raw.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        lenient.setdefault(key.strip(), value)
    return lenient


def has_description(head: str) -> bool:
    """Whether `head`'s frontmatter has a non-empty `description`, as Claude Code reads it."""
    return topic_frontmatter(head).get("description", "").strip() != ""


def recall_warning(layout: Layout, segments: tuple[str, ...], head: str) -> str | None:
    """`NO_DESCRIPTION` for a topic file of the user's own auto memory without a description;
    else None."""
    if layout is Layout.CLAUDE_MEMORY and segments[:1] == ("memory",):
        segments = segments[1:]
    elif layout is not Layout.CLAUDE_AUTO_MEMORY:
        return None
    if not is_recalled_topic(segments) or has_description(head):
        return None
    return NO_DESCRIPTION
