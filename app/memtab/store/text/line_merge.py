"""Three-way merge line by line, the one the editor and sync share: both sides' changes of different
lines kept, overlapping ones a conflict (two insertions at one place merged with
`insertions="both"`, theirs first); `merge_union` when no base is known. Pure functions."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

Insertions = Literal["conflict", "both"]


@dataclass(frozen=True)
class Change:
    """Base lines `[start, end)` (0-based) replaced by `lines` on one side."""

    start: int
    end: int
    lines: tuple[str, ...]
    mine: bool

    @property
    def insertion(self) -> bool:
        return self.start == self.end

    def overlaps(self, other: Change) -> bool:
        """Whether the two changes claim some of the same place in the base."""
        if self.insertion and other.insertion:
            return self.start == other.start  # two insertions: which goes first?
        return self.start < other.end and other.start < self.end

    def same_edit(self, other: Change) -> bool:
        return (self.start, self.end, self.lines) == (other.start, other.end, other.lines)


@dataclass(frozen=True)
class LineMerge:
    """The merged text, or None when the changes overlap (`conflicts` says where)."""

    text: str | None
    mine_changes: int
    theirs_changes: int
    conflicts: tuple[tuple[int, int], ...] = ()
    """Base line ranges (1-based, inclusive) both sides changed; empty when merged."""

    @property
    def clean(self) -> bool:
        return self.text is not None


def merge_lines(
    base: str,
    mine: str,
    theirs: str,
    *,
    insertions: Insertions = "conflict",
    check: Callable[[], None] | None = None,
) -> LineMerge:
    """Merge the changes `base` → `mine` and `base` → `theirs` (see the module doc)."""
    # Lines compared each with a final break; whether the result ends with one is merged on its own.
    ends = [_ends_with_break(text) for text in (base, mine, theirs)]
    base_lines, mine_lines, theirs_lines = (_lines(text) for text in (base, mine, theirs))
    mine_changes = _changes(base_lines, mine_lines, mine=True)
    if check is not None:
        check()
    theirs_changes = _changes(base_lines, theirs_lines, mine=False)
    # At one place, theirs sorts first.
    changes = sorted(mine_changes + theirs_changes, key=lambda c: (c.start, c.end, c.mine))
    kept: list[Change] = []
    conflicts: list[tuple[int, int]] = []
    for change in changes:
        previous = kept[-1] if kept else None
        if previous is not None and previous.mine != change.mine and previous.overlaps(change):
            if previous.same_edit(change):
                continue  # both sides made the same edit: keep it once
            if not (insertions == "both" and previous.insertion and change.insertion):
                start, end = min(previous.start, change.start), max(previous.end, change.end)
                conflicts.append((start + 1, max(start + 1, end)))
        kept.append(change)
    counts = (len(mine_changes), len(theirs_changes))
    if conflicts:
        return LineMerge(None, *counts, conflicts=tuple(_joined(conflicts)))
    merged: list[str] = []
    position = 0
    for change in kept:
        merged.extend(base_lines[position : change.start])
        merged.extend(change.lines)
        position = max(position, change.end)
    merged.extend(base_lines[position:])
    ends_with_break = ends[2] if ends[1] == ends[0] else ends[1]
    return LineMerge(_finished(merged, ends_with_break), *counts)


def merge_union(mine: str, theirs: str) -> str:
    """Both texts in one: shared lines once, in order; where they differ, `mine`'s, `theirs'`."""
    mine_lines, theirs_lines = _lines(mine), _lines(theirs)
    matcher = difflib.SequenceMatcher(None, mine_lines, theirs_lines, autojunk=False)
    merged: list[str] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        merged.extend(mine_lines[i1:i2])
        if tag != "equal":
            merged.extend(theirs_lines[j1:j2])
    return _finished(merged, _ends_with_break(mine) or _ends_with_break(theirs))


def _ends_with_break(text: str) -> bool:
    return not text or text.endswith(("\n", "\r"))


def _lines(text: str) -> list[str]:
    """The text's lines with their breaks, the last one given a break if it has none."""
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += "\n"
    return lines


def _finished(lines: list[str], ends_with_break: bool) -> str:
    """The merged lines as text, without the final break when the result has none."""
    text = "".join(lines)
    if not ends_with_break and text.endswith("\n"):
        text = text[:-2] if text.endswith("\r\n") else text[:-1]
    return text


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
