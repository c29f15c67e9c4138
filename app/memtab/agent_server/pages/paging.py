"""Every answer of `memtab mcp` within one budget, measured as the client receives it (the frame's
JSON-escaped UTF-8), paged with an opaque cursor that says where the next page starts and what it
pages (docs/formats.md §22.10)."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from memtab.fs.jsonfile import JsonError, parse_strict_json
from memtab.fs.records import OmitNone, Record
from memtab.store.errors import ToolArgumentError

DEFAULT_ANSWER_BUDGET = 24_000
"""Bytes of an answer's text in its frame: half of Codex's cut and Claude Code's file spill."""
MIN_ANSWER_BUDGET = 16_000
"""The least `--answer-budget` takes: a page must hold `list`'s longest row and a line's number."""
MAX_ANSWER_BUDGET = 1_000_000
CLAUDE_CODE_WHOLE_CHARS = 50_000
"""Claude Code shows a result whole up to this many characters, unless the tool declares more."""
VIEW_DECLARES = ("view",)
"""The tools worth showing whole past Claude Code's default: a file read in one piece."""
CURSOR_PREFIX = "c1."
CURSOR_SHA_DIGITS = 16
"""Of the text's sha256, what a cursor keeps: enough to tell a change."""
_ESCAPED_NEWLINE = 2  # "\n" in a frame


def framed_size(text: str) -> int:
    """The bytes `text` takes in a JSON-RPC frame, JSON-escaped UTF-8 (additive)."""
    return len(json.dumps(text, ensure_ascii=False).encode("utf-8", "surrogatepass")) - 2


def max_result_size_chars(tool: str, budget: int) -> int | None:
    """What `tool` declares as `anthropic/maxResultSizeChars` with `budget`: only `view`, when its
    pages may pass the default (else None)."""
    if tool in VIEW_DECLARES and budget > CLAUDE_CODE_WHOLE_CHARS:
        return budget
    return None


def cut_to_fit(text: str, room: int, *, mark: str = "…") -> str:
    """`text` whole when it fits `room` framed bytes, else its longest fitting beginning with
    `mark`."""
    if framed_size(text) <= room:
        return text
    room -= framed_size(mark)
    if room <= 0:
        return ""
    return text[: _fitting_prefix(text, room)] + mark


def _fitting_prefix(text: str, room: int) -> int:
    """The most characters of `text` whose framed size is at most `room`."""
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if framed_size(text[:middle]) <= room:
            low = middle
        else:
            high = middle - 1
    return low


class PageCursor(Record):
    """Where the next page starts (docs/formats.md §22.10)."""

    tool: str
    at: int
    column: Annotated[int | None, OmitNone] = None
    end: Annotated[int | None, OmitNone] = None
    scope: Annotated[str | None, OmitNone] = None
    query: Annotated[str | None, OmitNone] = None
    path: Annotated[str | None, OmitNone] = None
    sha256: Annotated[str | None, OmitNone] = None
    after: Annotated[str | None, OmitNone] = None


def encode_cursor(cursor: PageCursor) -> str:
    """The cursor an answer gives for `cursor`: the same text for the same place."""
    raw = json.dumps(cursor.to_json(), ensure_ascii=False, separators=(",", ":"))
    return CURSOR_PREFIX + base64.urlsafe_b64encode(raw.encode("utf-8")).decode().rstrip("=")


def decode_cursor(text: str, tool: str) -> PageCursor:
    """The cursor `text` names, for `tool`; ToolArgumentError in words otherwise."""
    cursor = None
    if text.startswith(CURSOR_PREFIX):
        body = text[len(CURSOR_PREFIX) :]
        try:
            raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
            cursor = PageCursor.read(parse_strict_json(raw.decode("utf-8")))
        except (binascii.Error, ValueError, JsonError):
            cursor = None
    if cursor is None or cursor.at < 0 or (cursor.column or 0) < 0:
        raise ToolArgumentError(
            "`cursor` is not one this server gave: pass the `next` cursor of the answer "
            "before as it is, or call the tool without it to start again"
        )
    if cursor.tool != tool:
        raise ToolArgumentError(f"This cursor pages `{cursor.tool}`, not `{tool}`")
    return cursor


@dataclass(frozen=True)
class LineWindow:
    """The lines a page shows: text, first and last line, the next page's start (None: the end)."""

    text: str
    first: int
    last: int
    next_line: int | None
    next_column: int = 0


def line_window(
    lines: Sequence[str],
    start: int,
    column: int,
    end: int,
    room: int,
    *,
    numbered: bool,
) -> LineWindow:
    """The lines `start`..`end - 1` that fit in `room`, each `N<tab>line` when `numbered`; at least
    part of the first line, a longer line going on next page."""
    shown: list[str] = []
    used = 0
    number = start
    while number < end:
        text = lines[number - 1][column:] if number == start else lines[number - 1]
        head = f"{number}\t" if numbered else ""
        size = framed_size(head + text) + (_ESCAPED_NEWLINE if shown else 0)
        if used + size <= room:
            shown.append(head + text)
            used += size
            number += 1
            continue
        if shown:
            break
        taken = _fitting_prefix(text, room - framed_size(head))
        taken = max(taken, 1)  # a budget holds a number and a character: progress is sure
        shown.append(head + text[:taken])
        skipped = column if number == start else 0
        return LineWindow("\n".join(shown), start, number, number, skipped + taken)
    return LineWindow("\n".join(shown), start, number - 1, number if number < end else None)


def rows_that_fit(render: Callable[[int], str], size_of: Callable[[int], int], count: int,
                  room: int) -> int:  # fmt: skip
    """The most rows whose answer `render(k)` fits in `room`: estimated from `size_of`, checked and
    lowered on the answer."""
    used, fitting = framed_size(render(0)), 0
    while fitting < count:
        used += size_of(fitting)
        if used > room:
            break
        fitting += 1
    while fitting > 0 and framed_size(render(fitting)) > room:
        fitting -= 1
    return fitting


def cursor_argument(
    arguments: Mapping[str, Any],
    tool: str,
    *,
    alone: tuple[str, ...],
    carried: tuple[str, ...] = (),
    default_limit: int | None = None,
) -> PageCursor | None:
    """The call's cursor (None: none), with `alone`'s arguments absent and `carried` ones as the
    first call gave them (ToolArgumentError otherwise)."""
    text = optional_text(arguments, "cursor")
    if text is None:
        return None
    given = [key for key in alone if arguments.get(key) is not None]
    if given:
        raise ToolArgumentError(
            f"`cursor` goes without {', '.join(f'`{key}`' for key in given)}: it carries "
            "what the first page was asked with"
        )
    cursor = decode_cursor(text, tool)
    asked = {"scope": cursor.scope, "limit": cursor.end or default_limit}
    other = [key for key in carried if arguments.get(key) not in (None, asked[key])]
    if other:
        said = ", ".join(
            f"`{key}` {'none' if asked[key] is None else repr(asked[key])}" for key in other
        )
        raise ToolArgumentError(
            f"`cursor` carries what the first page was asked with ({said}): call with the "
            "cursor alone to go on, or without it to ask anew"
        )
    return cursor


def optional_text(arguments: Mapping[str, Any], key: str) -> str | None:
    """Text argument `key` (None: absent or empty); ToolArgumentError when not a string."""
    value = arguments.get(key)
    if value is not None and not isinstance(value, str):
        raise ToolArgumentError(f"`{key}` must be a string")
    return value or None
