"""What a file row's first line keeps when the tree is narrow (no Qt: `gui/tree/rows`
measures and paints): the file's name whole before any of its pills.

A row's pills — its search hits, who changed it, `over limit`, the features' marks, what
the file is to its agent — stand right of its name. When they do not all fit beside the
whole name, the least telling go first (what the file is to its agent, then the check's
marks, `● unsaved`, who changed it, `over limit`, a conflict's mark, the search hits last);
only a name that does not fit alone is elided. What a dropped pill said is in the row's
tooltip.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Pill(NamedTuple):
    """One pill of a row: its width, and how telling it is (lower goes first)."""

    width: int
    rank: int


TAG, CHECK, UNSAVED, BADGE, WARNING, CONFLICT, HITS = range(7)
"""The pills' ranks, least telling first."""


def pills_kept(name_width: int, pills: Sequence[Pill], room: int, gap: int) -> list[bool]:
    """Which of `pills` (each followed by `gap`) show beside a name `name_width` wide in
    `room` pixels: all while the whole name fits, else the most telling that leave it room
    (a pill dropped for a lower one never is)."""
    kept = [True] * len(pills)
    needed = name_width + sum(pill.width for pill in pills) + gap * len(pills)
    if needed <= room:  # most rows: all of it fits
        return kept
    for index in sorted(range(len(pills)), key=lambda i: (pills[i].rank, -i)):
        kept[index] = False
        needed -= pills[index].width + gap
        if needed <= room:
            break
    return kept
