"""A three-way merge of the editor's draft with a file that changed on disk — no Qt.

The editor loaded `base`; the user turned it into `mine` (the draft) while an agent (mux,
`echo >>`, another editor) turned it into `theirs` (the disk). `merge_three_way` keeps
both sides' changes when they touch different lines, and refuses when they overlap: it
never guesses which of two edits of the same lines wins. It compares lines with their
line breaks, so the result is exact text (a last line without a newline stays so unless
a side changed it).

Two changes overlap when they replace some of the same base lines, or both insert at the
same place; a change next to another (an agent appending after the line the user edited)
merges. The same change made on both sides is kept once. It runs on a worker thread
(`ctx` is checked between the two comparisons).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from memtab.humanize import plural
from memtab.views.cancel import CancelToken


@dataclass(frozen=True)
class MergeBasis:
    """What to merge a draft with: the text it was based on, and the disk version by sha
    (the merge applies only while the disk still holds it)."""

    base: str
    disk_sha: str


@dataclass(frozen=True)
class Change:
    """Base lines `[start, end)` (0-based) replaced by `lines` on one side."""

    start: int
    end: int
    lines: tuple[str, ...]
    mine: bool

    def overlaps(self, other: Change) -> bool:
        """Whether the two changes claim some of the same place in the base."""
        if self.start == self.end and other.start == other.end:
            return self.start == other.start  # two insertions: which goes first?
        return self.start < other.end and other.start < self.end

    def same_edit(self, other: Change) -> bool:
        return (self.start, self.end, self.lines) == (other.start, other.end, other.lines)


@dataclass(frozen=True)
class MergeResult:
    """The merged text, or None when the changes overlap (`conflicts` says where)."""

    text: str | None
    mine_changes: int
    theirs_changes: int
    conflicts: tuple[tuple[int, int], ...] = ()
    """Base line ranges (1-based, inclusive) both sides changed; empty when merged."""

    @property
    def clean(self) -> bool:
        return self.text is not None

    def counts(self) -> str:
        """`Your 2 changes and 1 change on disk`."""
        mine, theirs = plural(self.mine_changes, "change"), plural(self.theirs_changes, "change")
        return f"Your {mine} and {theirs} on disk"

    def describe(self) -> str:
        """One line for the user: what was merged, or why nothing was."""
        if self.clean:
            return f"{self.counts()} touch different lines: Merge both keeps them all."
        first, last = self.conflicts[0]
        where = f"line {first}" if first == last else f"lines {first}–{last}"
        more = len(self.conflicts) - 1
        also = f" (and {plural(more, 'other place')})" if more else ""
        return (
            f"Your draft and the file on disk both changed {where}{also}, so they cannot be "
            "merged automatically: keep one version, or copy what you need by hand."
        )


def merge_three_way(
    base: str, mine: str, theirs: str, ctx: CancelToken | None = None
) -> MergeResult:
    """Merge the changes `base` → `mine` and `base` → `theirs` (see the module docstring)."""
    base_lines = base.splitlines(keepends=True)
    mine_changes = _changes(base_lines, mine.splitlines(keepends=True), mine=True)
    if ctx is not None:
        ctx.raise_if_cancelled()
    theirs_changes = _changes(base_lines, theirs.splitlines(keepends=True), mine=False)
    changes = sorted(mine_changes + theirs_changes, key=lambda c: (c.start, c.end, not c.mine))
    kept: list[Change] = []
    conflicts: list[tuple[int, int]] = []
    for change in changes:
        previous = kept[-1] if kept else None
        if previous is not None and previous.mine != change.mine and previous.overlaps(change):
            if previous.same_edit(change):
                continue  # both sides made the same edit: keep it once
            start, end = min(previous.start, change.start), max(previous.end, change.end)
            conflicts.append((start + 1, max(start + 1, end)))
        kept.append(change)
    result_counts = (len(mine_changes), len(theirs_changes))
    if conflicts:
        return MergeResult(None, *result_counts, conflicts=tuple(_joined(conflicts)))
    merged: list[str] = []
    position = 0
    for change in kept:
        merged.extend(base_lines[position : change.start])
        merged.extend(change.lines)
        position = change.end
    merged.extend(base_lines[position:])
    return MergeResult("".join(merged), *result_counts)


def _changes(base: list[str], other: list[str], *, mine: bool) -> list[Change]:
    matcher = difflib.SequenceMatcher(None, base, other, autojunk=False)
    return [
        Change(i1, i2, tuple(other[j1:j2]), mine)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def _joined(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping conflict ranges as one."""
    joined: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if joined and start <= joined[-1][1]:
            joined[-1] = (joined[-1][0], max(end, joined[-1][1]))
        else:
            joined.append((start, end))
    return joined
