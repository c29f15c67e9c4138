"""What "Revert this run" says it did, without Qt: the summary, a row for each file restored
or left alone (with why), and what the diff pane says for the file selected — so nothing is
overwritten without the user seeing it. `gui/history/revert.py` builds the list and pane."""

from __future__ import annotations

from dataclasses import dataclass

from memtab import humanize
from memtab.store.history.describe import display_name
from memtab.store.restore.from_history import Refusal, RevertResult

RESTORED = "Restored"
LEFT_ALONE = "Left alone"
SELECT_LEFT_ALONE = "Select a file left alone to see what reverting it would change."
ALL_BACK = "Every file is back to what it held before the run."
BACK_AGAIN = "This file holds what it held before the run again."


def revert_summary(result: RevertResult) -> str:
    """`Restored 2 files; left 1 alone (changed after the run).`"""
    if not result.restored and not result.refused:
        return "Nothing to revert: the files already hold what they held before the run."
    parts = []
    if result.restored:
        parts.append(f"Restored {humanize.plural(len(result.restored), 'file')}")
    if result.refused:
        parts.append(
            f"left {humanize.plural(len(result.refused), 'file')} alone — select one to see "
            "why and the change a revert would make"
        )
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
