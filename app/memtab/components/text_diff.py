"""A unified diff between the file on disk and the editor's draft, as plain data.

`compute_diff` is difflib by lines; it runs off the GUI thread (the editor's
`operations.editor.compare`), so a large diff never blocks the GUI. `gui.toolkit.text.diff_view`
renders the result.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from enum import Enum

from memtab.components.cancel import CancelToken

CONTEXT_LINES = 3


class LineKind(Enum):
    """What a diff line is."""

    HUNK = "hunk"
    CONTEXT = "context"
    ADDED = "added"
    REMOVED = "removed"


@dataclass(frozen=True)
class DiffLine:
    """One rendered line: its kind, its text and its numbers on each side (if any)."""

    kind: LineKind
    text: str
    old_number: int | None = None
    new_number: int | None = None


@dataclass(frozen=True)
class DiffResult:
    """A unified diff of two texts, with how many lines each side adds."""

    lines: tuple[DiffLine, ...]
    added: int
    removed: int

    @property
    def identical(self) -> bool:
        return self.added == 0 and self.removed == 0


def compute_diff(
    old: str, new: str, ctx: CancelToken | None = None, context: int = CONTEXT_LINES
) -> DiffResult:
    """The unified diff of `old` → `new` by lines; checks `ctx` for cancellation per hunk."""
    old_lines, new_lines = old.splitlines(), new.splitlines()
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    lines: list[DiffLine] = []
    added = removed = 0
    for group in matcher.get_grouped_opcodes(context):
        if ctx is not None:
            ctx.raise_if_cancelled()
        first, last = group[0], group[-1]
        old_start, old_end, new_start, new_end = first[1], last[2], first[3], last[4]
        old_range = f"-{old_start + 1},{old_end - old_start}"
        new_range = f"+{new_start + 1},{new_end - new_start}"
        lines.append(DiffLine(LineKind.HUNK, f"@@ {old_range} {new_range} @@"))
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines.extend(
                    DiffLine(LineKind.CONTEXT, old_lines[i], i + 1, j1 + (i - i1) + 1)
                    for i in range(i1, i2)
                )
                continue
            for index in range(i1, i2):
                lines.append(DiffLine(LineKind.REMOVED, old_lines[index], index + 1, None))
            for index in range(j1, j2):
                lines.append(DiffLine(LineKind.ADDED, new_lines[index], None, index + 1))
            removed += i2 - i1
            added += j2 - j1
    return DiffResult(tuple(lines), added, removed)
