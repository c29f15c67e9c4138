"""Every answer of `memtab mcp` within one budget, paged with a cursor (docs/formats.md §22.10).

Agents cut what a tool answers: Claude Code saves a result over 50,000 characters to a
file and shows the model a preview, and truncates one over 25,000 tokens; Codex cuts the
middle out of one over 12,000 bytes for a model outside its catalog. So no answer passes
the session's budget (`DEFAULT_ANSWER_BUDGET` bytes, lowered to its client's own limit by
`client_limits`, unless `--answer-budget` says otherwise), measured as the
client receives it: the answer's text as its JSON-RPC frame carries it (JSON-escaped,
UTF-8 — a Korean character counts 3, a newline 2), which keeps a page of multi-byte text
under every agent's token limit too. What does not fit is paged: `list` and `search`
give as many rows as fit and a `next` cursor, `view` as many lines as fit and says which
come next; each says in words how to get the rest.

A cursor is opaque to the agent (`c1.` and the base64url of the record `PageCursor`),
the same for the same place, and says where the next page starts and what it pages: the
file's sha256 for `view`, so a cursor of a file that changed since is refused in words
rather than continued on other lines.
"""

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
"""Bytes of an answer's text in its frame: half of Codex's cut and of Claude Code's file
spill, and a page of CJK text (3 bytes a character) stays well under 25,000 tokens."""
MIN_ANSWER_BUDGET = 16_000
"""The least budget `--answer-budget` takes: a page must hold the longest row `list`
can give (a path 32 folders deep) and a line's number."""
MAX_ANSWER_BUDGET = 1_000_000
CLAUDE_CODE_WHOLE_CHARS = 50_000
"""Claude Code shows a tool's result whole up to this many characters; a longer one is
saved to a file the model must read (unless the tool declares more)."""
VIEW_DECLARES = ("view",)
"""The tools whose answer is worth showing whole past Claude Code's default: a file read
in one piece. `list` and `search` page instead."""
CURSOR_PREFIX = "c1."
CURSOR_SHA_DIGITS = 16
"""Of the text's sha256, what a cursor keeps: enough to tell a change."""
_ESCAPED_NEWLINE = 2  # "\n" in a frame


def framed_size(text: str) -> int:
    """The bytes `text` takes in a JSON-RPC frame: JSON-escaped, UTF-8 (the quotes around
    it not counted). Additive: the size of `a + b` is the sum of theirs."""
    escaped = json.dumps(text, ensure_ascii=False)
    return len(escaped.encode("utf-8", "surrogatepass")) - 2


def max_result_size_chars(tool: str, budget: int) -> int | None:
    """What tool `tool` declares as `anthropic/maxResultSizeChars` for a server with
    `budget`: only `view`, and only when its pages may pass what Claude Code shows whole
    by default (None: declare nothing, the default is enough)."""
    if tool in VIEW_DECLARES and budget > CLAUDE_CODE_WHOLE_CHARS:
        return budget
    return None


def cut_to_fit(text: str, room: int, *, mark: str = "…") -> str:
    """`text` whole when it fits in `room` framed bytes, else its longest beginning that
    fits with `mark` after it ("" when not even the mark fits)."""
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


# --- cursors ------------------------------------------------------------------------------


class PageCursor(Record):
    """Where the next page of an answer starts (docs/formats.md §22.10), written into the
    opaque cursor an answer gives. `tool` is the tool it pages; `at` the next row
    (`list`, `search`: 0-based) or line (`view`: 1-based), `column` the characters of
    that line already shown; `end` the row or line the answer asked for stops before
    (None: the end); `scope`, `query`, `path` what was asked; `sha256` the text paged
    (`view`: the file's, a directory's listing's); `after` the last row `list` showed."""

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
    """The cursor `text` names, for `tool` (ToolArgumentError, in words, when it is not
    one this server gives, or another tool's)."""
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


# --- pages of lines -----------------------------------------------------------------------


@dataclass(frozen=True)
class LineWindow:
    """The lines a page shows: its text, the first and last line shown (1-based), and
    where the next page starts (`next_line` None: the window asked for is shown to its
    end; `next_column` characters of `next_line` are already shown)."""

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
    """The lines `start`..`end - 1` (1-based; the first from its `column`th character) that
    fit in `room` framed bytes, each `N<tab>line` when `numbered`. At least part of the
    first line is always shown: a line longer than a page is cut, and the next page goes
    on from where it was cut."""
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
    last = number - 1
    return LineWindow("\n".join(shown), start, last, number if number < end else None)


# --- pages of rows ------------------------------------------------------------------------


def rows_that_fit(render: Callable[[int], str], size_of: Callable[[int], int], count: int,
                  room: int) -> int:  # fmt: skip
    """The most rows `k` (0 ≤ k ≤ `count`) whose answer `render(k)` fits in `room` framed
    bytes, `size_of(i)` being row i's framed size as rendered: estimated from the sizes
    (only as many rows are measured as may fit), then checked, and lowered, on the answer
    itself."""
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
    """The cursor of the call (None: none given), which goes without the arguments
    `alone` names, and takes those of `carried` (`scope`, `limit`) only as the first
    call gave them — a model repeats its arguments with the cursor (ToolArgumentError
    otherwise); `default_limit`: the limit of a first call that gave none."""
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
        said = ", ".join(f"`{key}` {_words(asked[key])}" for key in other)
        raise ToolArgumentError(
            f"`cursor` carries what the first page was asked with ({said}): call with the "
            "cursor alone to go on, or without it to ask anew"
        )
    return cursor


def _words(value: object) -> str:
    """An argument's value as a page's words say it (`None`: none was given)."""
    return "none" if value is None else repr(value)


def optional_text(arguments: Mapping[str, Any], key: str) -> str | None:
    """The text argument `key` (None: not given, or empty); ToolArgumentError when not a
    string."""
    value = arguments.get(key)
    if value is not None and not isinstance(value, str):
        raise ToolArgumentError(f"`{key}` must be a string")
    return value or None
