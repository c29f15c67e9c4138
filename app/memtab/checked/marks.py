"""What an answer says of what the check found (docs/formats.md §19.8): marks after `view`'s
lines and in `search`'s snippets, a file's state, and the ranking's demotion; words for a model,
never copied into an edit."""

from __future__ import annotations

from collections.abc import Sequence

from memtab.checked.cache import CheckState, LineMark
from memtab.humanize import plural

MARK = "⚠ memtab check:"  # what starts a line's mark (`  ⟵ ⚠ memtab check: …` after the line)
MARK_JOIN = "  ⟵ "
VIEW_NOTE = (
    "(⟵ ⚠ memtab check: marks a line the check finds false or stale in the code now, with "
    "the evidence; do not act on it as if it were true. A mark is not part of the file: "
    "leave it out of `old_str`.)"
)
NOT_CHECKED_NOTE = (
    "(memtab check has not checked this file as it is now — it is being checked in the "
    "background: its lines carry no marks yet.)"
)
LIST_NOTE = (
    "`check`: what memtab check found false or stale in a file (view it to see the lines "
    "marked), or that it has not checked the file as it is now; a file without `check` "
    "was checked and nothing in it was found false or stale."
)
STALE_FACTOR = 0.5
"""A flagged file's search score is multiplied by this: found, but after what is still true."""


def mark_words(marks: Sequence[LineMark]) -> str:
    """The mark after a line: `⚠ memtab check: <evidence>; <evidence>`."""
    return f"{MARK} " + "; ".join(mark.says for mark in marks)


def marked_lines(lines: Sequence[str], first: int, state: CheckState) -> list[str]:
    """`lines` (numbered from `first`) with each flagged line's mark after it."""
    if not state.marks:
        return list(lines)
    by_line: dict[int, list[LineMark]] = {}
    for mark in state.marks:
        by_line.setdefault(mark.line, []).append(mark)
    marked = []
    for number, line in enumerate(lines, start=first):
        found = by_line.get(number)
        marked.append(f"{line}{MARK_JOIN}{mark_words(found)}" if found else line)
    return marked


def view_notes(state: CheckState) -> tuple[str, ...]:
    """The lines after a page of `view`: the marks' meaning, the file's state, or not checked."""
    if not state.checked:
        return (NOT_CHECKED_NOTE,)
    notes = []
    if state.note:
        notes.append(f"(memtab check: {state.note})")
    if state.marks:
        notes.append(VIEW_NOTE)
    return tuple(notes)


def row_state(state: CheckState) -> str | None:
    """A `list` row's `check` (None: nothing found, or nothing known)."""
    if not state.checked:
        return "not checked as it is now" if state.known else None
    parts = []
    if state.marks:
        lines = sorted({mark.line for mark in state.marks})
        shown = ", ".join(str(line) for line in lines[:8]) + (", …" if len(lines) > 8 else "")
        parts.append(f"{plural(len(lines), 'line')} false or stale ({shown})")
    if state.note:
        parts.append(state.note)
    return "; ".join(parts) or None


def unread_note(count: int) -> str:
    """What a page says of its files the check has not read yet."""
    return (
        f"memtab check has not read {plural(count, 'file')} of these yet (new, or not one it "
        "reads); it is checking them in the background."
    )


def hit_state(state: CheckState, line: int | None) -> tuple[str | None, str | None]:
    """A `search` result's (mark for its snippet's line, its file's `check`)."""
    mark = None
    if state.checked and line is not None:
        found = [m for m in state.marks if m.line == line]
        mark = mark_words(found) if found else None
    return mark, row_state(state)


def demoted(score: float, state: CheckState) -> float:
    """The search hook: a flagged file ranks after what is still true, never dropped."""
    return score * STALE_FACTOR if state.flagged else score
