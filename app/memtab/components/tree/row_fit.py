"""What a file row's first line shows and keeps when the tree is narrow (no Qt:
`gui/tree/view.py` measures and paints): the file's name whole before any of its pills."""

import enum
from collections.abc import Sequence
from typing import NamedTuple

from memtab import humanize
from memtab.components.tree.marks import MarkTone, RowMark
from memtab.components.tree.nodes import TreeNode


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


WARNING_PILL = "over limit"
"""What a file row with a warning says when it has no `warning_label` (the tooltip says
what the limit is)."""


class PillTone(enum.Enum):
    """How a pill is coloured (the row's palette gives the colours)."""

    MUTED = "muted"  # how many lines match the search
    BADGE = "badge"  # who changed the file: accent on a tinted ground
    ERROR = "error"  # a warning, a conflict
    NOTE = "note"  # the features' other marks, as the pin is coloured
    FAINT = "faint"  # what the file is to its agent


class RowPill(NamedTuple):
    """One pill a file row would show: its words, colour and rank."""

    text: str
    tone: PillTone
    rank: int


_MARK_PILLS = {
    MarkTone.CHECK: (PillTone.NOTE, CHECK),
    MarkTone.UNSAVED: (PillTone.NOTE, UNSAVED),
    MarkTone.CONFLICT: (PillTone.ERROR, CONFLICT),
}


def file_pills(node: TreeNode, badge_label: str | None, marks: Sequence[RowMark]) -> list[RowPill]:
    """A file row's pills, right to left: how many lines match the search, who changed it,
    the warning, the features' marks, the tag."""
    pills: list[RowPill] = []
    if node.content_hits:
        said = humanize.plural(node.content_hits, "matching line")
        pills.append(RowPill(said, PillTone.MUTED, HITS))
    if badge_label is not None:
        pills.append(RowPill(badge_label, PillTone.BADGE, BADGE))
    if node.warning:
        pills.append(RowPill(node.warning_label or WARNING_PILL, PillTone.ERROR, WARNING))
    for mark in marks:
        tone, rank = _MARK_PILLS[mark.tone]
        pills.append(RowPill(mark.text, tone, rank))
    if node.tag:
        pills.append(RowPill(node.tag, PillTone.FAINT, TAG))
    return pills
