"""Unified diff text (what history, a revert refusal and a plan carry) as a `DiffResult` for the
one `DiffView`, and what "Revert this run" says it did, file by file, without Qt."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from memtab import humanize
from memtab.components.text_diff import DiffLine, DiffResult, LineKind
from memtab.store.history.describe import display_name
from memtab.store.restore.from_history import Refusal, RevertResult

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def parse_unified_diff(text: str) -> DiffResult:
    """The lines of a unified diff, numbered, with how many lines it adds and removes."""
    return join_diffs([text])


def join_diffs(texts: Iterable[str]) -> DiffResult:
    """Several unified diffs (one per file) as one result, in order."""
    lines: list[DiffLine] = []
    added = removed = 0
    for text in texts:
        old_number = new_number = 0
        old_left = new_left = 0  # lines of the current hunk still to come, per side
        for raw in text.splitlines():
            hunk = _HUNK.match(raw) if not (old_left or new_left) else None
            if hunk is not None:
                old_number, new_number = int(hunk.group(1)), int(hunk.group(3))
                old_left = int(hunk.group(2)) if hunk.group(2) is not None else 1
                new_left = int(hunk.group(4)) if hunk.group(4) is not None else 1
                # `-0,0`: that side is empty; numbering starts at 1 all the same.
                old_number, new_number = max(old_number, 1), max(new_number, 1)
                lines.append(DiffLine(LineKind.HUNK, raw))
            elif old_left and raw.startswith("-"):
                lines.append(DiffLine(LineKind.REMOVED, raw[1:], old_number, None))
                old_number, old_left, removed = old_number + 1, old_left - 1, removed + 1
            elif new_left and raw.startswith("+"):
                lines.append(DiffLine(LineKind.ADDED, raw[1:], None, new_number))
                new_number, new_left, added = new_number + 1, new_left - 1, added + 1
            elif old_left and new_left and (raw.startswith(" ") or raw == ""):
                lines.append(DiffLine(LineKind.CONTEXT, raw[1:], old_number, new_number))
                old_number, new_number = old_number + 1, new_number + 1
                old_left, new_left = old_left - 1, new_left - 1
            elif raw.startswith("\\"):  # `\ No newline at end of file`
                lines.append(DiffLine(LineKind.HUNK, raw))
            else:  # a file's header, `… (12 more lines)`: the hunk is over
                old_left = new_left = 0
                lines.append(DiffLine(LineKind.HUNK, raw))
    return DiffResult(tuple(lines), added, removed)


RESTORED = "Restored"
LEFT_ALONE = "Left alone"
SELECT_LEFT_ALONE = "Select a file left alone to see what reverting it would change."
ALL_BACK = "Every file is back to what it held before the run."
BACK_AGAIN = "This file holds what it held before the run again."


def revert_summary(result: RevertResult) -> str:
    """`Restored 2 files; left 1 alone (changed after the run).`"""
    if not result.restored and not result.refused:
        return "Nothing to revert: the files already hold what they held before the run."
    restored, refused = len(result.restored), len(result.refused)
    parts = [f"Restored {humanize.plural(restored, 'file')}"] if restored else []
    if refused:
        why = "select one to see why and the change a revert would make"
        parts.append(f"left {humanize.plural(refused, 'file')} alone — {why}")
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


@dataclass(frozen=True)
class RevertRow:
    """One file's row: what became of it, its name, why (a refused file's index: `refusal`)."""

    result: str
    name: str
    why: str = ""
    refusal: int | None = None


def revert_rows(result: RevertResult) -> list[RevertRow]:
    """The files restored, then those left alone."""
    rows = [RevertRow(RESTORED, display_name(path)) for path in result.restored]
    rows += [
        RevertRow(LEFT_ALONE, display_name(refusal.path), refusal.reason, index)
        for index, refusal in enumerate(result.refused)
    ]
    return rows


def first_message(result: RevertResult) -> str:
    """What the diff pane says before a file is selected."""
    return SELECT_LEFT_ALONE if result.refused else ALL_BACK


def refusal_message(refusal: Refusal) -> str | None:
    """What the diff pane says of a file left alone (None: it shows the diff instead)."""
    return None if refusal.diff else f"{display_name(refusal.path)}: {refusal.reason}"
