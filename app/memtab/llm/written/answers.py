"""Reading the JSON a model was asked to answer with, from the text it wrote.

A model asked for "only a JSON object" often wraps it in a code fence or a sentence:
`json_values_in` gives what the text holds as JSON — the whole text, the text in its code
fence, then the text from its first `{` to its last `}` — each value parsed, in that
order, for the caller to read with its record (`Rec.read`) and keep the first it reads.
"""

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
