"""A unified diff between the file on disk and the editor's draft, as plain data."""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum

from memtab.components.jobs import CancelToken
from memtab.store.history.capture import common_prefix_length

CONTEXT_LINES = 3
MAX_MATCHING_WORK = 1_000_000
"""Pairs of equal lines a diff's matching may compare (see `compute_diff`)."""


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
    """The unified diff of `old` → `new` by lines, cancellable per hunk; only what lies between
    the common ends is compared, and lines so frequent that matching them would exceed
    `MAX_MATCHING_WORK` count as difflib's junk: bounded time."""
    old_lines, new_lines = old.splitlines(), new.splitlines()
    lines: list[DiffLine] = []
    added = removed = 0
    for group in _grouped_opcodes(old_lines, new_lines, context):
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
            lines += (DiffLine(LineKind.REMOVED, old_lines[i], i + 1, None) for i in range(i1, i2))
            lines += (DiffLine(LineKind.ADDED, new_lines[j], None, j + 1) for j in range(j1, j2))
            removed += i2 - i1
            added += j2 - j1
    return DiffResult(tuple(lines), added, removed)


def _grouped_opcodes(
    old: list[str], new: list[str], context: int
) -> Iterator[list[tuple[str, int, int, int, int]]]:
    """difflib's grouped opcodes of `old` → `new`, found between their common ends (see
    `compute_diff`)."""
    head = common_prefix_length(old, new)
    tail = common_prefix_length(old[head:][::-1], new[head:][::-1])
    start, end = max(head - context, 0), max(tail - context, 0)
    old_part, new_part = old[start : len(old) - end], new[start : len(new) - end]
    frequent = _frequent_lines(old_part, new_part)
    junk = frequent.__contains__ if frequent else None
    matcher = difflib.SequenceMatcher(junk, old_part, new_part, autojunk=False)
    for group in matcher.get_grouped_opcodes(context):
        yield [
            (tag, i1 + start, i2 + start, j1 + start, j2 + start) for tag, i1, i2, j1, j2 in group
        ]


def _frequent_lines(old: list[str], new: list[str]) -> frozenset[str]:
    """The lines that match only beside others: the most frequent, until matching the
    rest compares at most `MAX_MATCHING_WORK` pairs of lines."""
    in_new = Counter(new)
    pairs = Counter({line: count * in_new[line] for line, count in Counter(old).items()})
    work = sum(pairs.values())
    frequent: set[str] = set()
    for line, count in pairs.most_common():
        if work <= MAX_MATCHING_WORK:
            break
        frequent.add(line)
        work -= count
    return frozenset(frequent)
