"""Reading the JSON a model was asked to answer with, from the text it wrote."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from memtab.fs.jsonfile import JsonError, parse_json

FENCE = "```"


def json_values_in(text: str) -> Iterator[Any]:
    """Each JSON value `text` holds, in the order a reader should try them."""
    stripped = text.strip()
    tries = [unfenced(stripped)]
    start, end = stripped.find("{"), stripped.rfind("}")
    if 0 <= start < end:
        tries.append(stripped[start : end + 1])
    for attempt in tries:
        try:
            yield parse_json(attempt)
        except JsonError:
            continue


def unfenced(text: str) -> str:
    """`text` without the Markdown code fence around it, if it has one."""
    if not (text.startswith(FENCE) and text.endswith(FENCE) and len(text) > 2 * len(FENCE)):
        return text
    first_line_end = text.find("\n")
    if first_line_end < 0:
        return text[len(FENCE) : -len(FENCE)]
    return text[first_line_end + 1 : -len(FENCE)]
