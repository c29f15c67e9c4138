"""What `list`, `search` and `view` answer, each a page within the session's budget (docs/formats.md
§22.2, §22.10); no disk."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Annotated, TypeVar

from memtab.agent_server.catalog import SearchHit
from memtab.agent_server.pages.paging import (
    LineWindow,
    PageCursor,
    cut_to_fit,
    encode_cursor,
    framed_size,
    line_window,
    rows_that_fit,
)
from memtab.agent_server.pages.waiting import WaitingProposal
from memtab.agent_server.session_scope import ServedScopes
from memtab.fs.records import OmitEmpty, OmitNone, Record
from memtab.store.scopes.file_rows import FileRow

_Row = TypeVar("_Row", bound=Record)
_FIELD_LINE = framed_size("\n   ") - framed_size(" ")  # a field's line break and indent
# A row's texts a page may shorten (its path never).
_CUTTABLE = ("description", "not_editable", "read_only_reason", "warning", "snippet")


class FilePage(Record, write_only=True):
    """What `list` answers (docs/formats.md §22.2, §22.9, §22.10): a page of rows."""

    files: tuple[FileRow, ...]
    total: int
    offset: int
    next: Annotated[str | None, OmitNone] = None
    more: Annotated[str | None, OmitNone] = None
    notes: Annotated[tuple[str, ...], OmitEmpty] = ()
    session: Annotated[ServedScopes | None, OmitNone] = None
    waiting_in_inbox: Annotated[int | None, OmitNone] = None
    """How many proposals for what the session serves wait in the Inbox (§22.5): none, omitted."""


class SearchResults(Record, write_only=True):
    """What `search` answers: the files found, best first, `notes`, `next`/`more` (§22.10)."""

    results: tuple[SearchHit, ...]
    next: Annotated[str | None, OmitNone] = None
    more: Annotated[str | None, OmitNone] = None
    notes: Annotated[tuple[str, ...], OmitEmpty] = ()
    waiting: Annotated[tuple[WaitingProposal, ...], OmitEmpty] = ()
    """The proposals waiting in the Inbox these words find, not accepted yet (§22.5)."""
    waiting_in_inbox: Annotated[int | None, OmitNone] = None


def json_text(record: Record) -> str:
    """An answer's JSON, as every answer of `list` and `search` is written."""
    return json.dumps(record.to_json(), ensure_ascii=False, indent=1)


def _row_size(row: Record) -> int:
    """A row's framed size inside a page."""
    fields = row.to_json()
    compact = framed_size(json.dumps(fields, ensure_ascii=False, separators=(", ", ": ")))
    return compact + len(fields) * _FIELD_LINE + framed_size("\n  },\n  ")


def _shortened(row: _Row, room: int) -> _Row:
    """`row` with its long texts cut to fit `room`, longest first (never its path)."""
    for _ in _CUTTABLE:
        over = _row_size(row) - room
        if over <= 0:
            return row
        fields = [
            (framed_size(str(value)), name)
            for name in _CUTTABLE
            if isinstance(value := getattr(row, name, None), str) and value
        ]
        if not fields:
            break
        size, name = max(fields)
        value = str(getattr(row, name))
        row = row.replaced(**{name: cut_to_fit(value, max(0, size - over - 8))})
    return row


def _fitted(render: Callable[[int], str], candidates: list[_Row], budget: int) -> str:
    """`render` of as many `candidates` as fit in `budget`, the first cut to fit when even it does
    not."""
    whole = render(len(candidates))
    if framed_size(whole) <= budget:
        return whole  # every result fits (a search's ten, most often): nothing measured
    count = rows_that_fit(render, lambda i: _row_size(candidates[i]), len(candidates), budget)
    if count == 0 and candidates:
        room = budget - framed_size(render(0)) - 2 * framed_size(",\n  ")
        candidates[0] = _shortened(candidates[0], room)
        count = 1
    return render(count)


def file_page(
    rows: Sequence[FileRow],
    *,
    offset: int,
    limit: int,
    cursor: PageCursor,
    notes: Sequence[str],
    session: ServedScopes | None,
    budget: int,
    waiting: int = 0,
) -> str:
    """The page of `rows` from `offset`: at most `limit`, as many as fit in `budget`; `cursor` the
    next page's; `waiting`: the proposals waiting in the Inbox."""
    candidates = list(rows[offset : offset + limit])

    def render(count: int, shown: Sequence[FileRow] = candidates) -> str:
        after = offset + count
        more = after < len(rows)
        page = FilePage(
            files=tuple(shown[:count]),
            total=len(rows),
            offset=offset,
            next=_next(cursor, after, rows[after - 1].path if count else None) if more else None,
            more=_more_rows("Files", offset, count, len(rows), "list", budget, count < limit)
            if more
            else None,
            notes=tuple(notes),
            session=session,
            waiting_in_inbox=waiting or None,
        )
        return json_text(page)

    return _fitted(render, candidates, budget)


def search_page(
    hits: Sequence[SearchHit],
    *,
    offset: int,
    cursor: PageCursor,
    notes: Sequence[str],
    budget: int,
    waiting: Sequence[WaitingProposal] = (),
    waiting_count: int = 0,
) -> str:
    """The page of `hits` from `offset`, as many as fit, with the next `cursor`; `waiting`: the
    proposals in the Inbox the query finds, of `waiting_count` waiting."""
    candidates = list(hits[offset:])

    def render(count: int) -> str:
        after = offset + count
        more = after < len(hits)
        found = SearchResults(
            results=tuple(candidates[:count]),
            next=_next(cursor, after, None) if more else None,
            more=_more_rows("Results", offset, count, len(hits), "search", budget, True)
            if more
            else None,
            notes=tuple(notes),
            waiting=tuple(waiting),
            waiting_in_inbox=waiting_count or None,
        )
        return json_text(found)

    return _fitted(render, candidates, budget)


def _next(cursor: PageCursor, at: int, after: str | None) -> str:
    return encode_cursor(cursor.replaced(at=at, after=after))


def _more_rows(
    what: str, offset: int, count: int, total: int, tool: str, budget: int, by_size: bool
) -> str:
    shown = f"{what} {offset + 1}–{offset + count} of {total} are on this page"
    if count == 0:
        shown = f"No more {what.lower()} fit on this page ({total} in all)"
    why = f" (an answer holds at most {budget} bytes)" if by_size else ""
    again = "with the same query and " if tool == "search" else "with "
    return f"{shown}{why}; for the next, call {tool} {again}`cursor` set to `next`."


def lines_page(
    lines: Sequence[str],
    *,
    label: str,
    start: int,
    column: int,
    end: int,
    cursor: PageCursor,
    tail: Sequence[str],
    budget: int,
    numbered: bool = True,
) -> str:
    """Lines `start`..`end - 1` from character `column` of the first, as many as fit with the words
    on what comes next and `tail`; `cursor` the next page's."""
    unit = "Lines" if numbered else "Listing lines"
    after = max(  # the longest words a page can end with
        (
            _after_window(unit, label, LineWindow("", end, end, end, column), len(lines),
                          cursor, budget, numbered)
            for column in (0, 10**7)
        ),
        key=framed_size,
    )  # fmt: skip
    reserve = framed_size("\n\n".join([after, *tail])) + 2 * framed_size("\n\n")
    window = line_window(lines, start, column, end, budget - reserve, numbered=numbered)
    parts = [window.text]
    if window.next_line is not None and window.next_line <= len(lines):
        parts.append(_after_window(unit, label, window, len(lines), cursor, budget, numbered))
    return "\n\n".join([*parts, *tail])


def _after_window(
    unit: str,
    label: str,
    window: LineWindow,
    total: int,
    cursor: PageCursor,
    budget: int,
    numbered: bool,
) -> str:
    """The words after a page that does not reach the end of what was asked."""
    assert window.next_line is not None
    token = encode_cursor(cursor.replaced(at=window.next_line, column=window.next_column or None))
    if window.last > window.first:
        shown = f"({unit} {window.first}–{window.last} of {total} of {label} are shown"
        cut = ", the last"
    else:
        shown = f"({unit.removesuffix('s')} {window.first} of {total} of {label} is shown"
        cut = ""
    if window.next_column:
        shown += f"{cut} up to its character {window.next_column}"
    shown += f": an answer holds at most {budget} bytes."
    if numbered and not window.next_column:
        return (
            f"{shown} The next: view with offset {window.next_line}, or with cursor "
            f'"{token}", which also checks that the file has not changed.)'
        )
    return f'{shown} The rest: view with cursor "{token}".)'
