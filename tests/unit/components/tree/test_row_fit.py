"""A file row's first line when the tree is narrow (no Qt): the whole name before any
pill, the least telling pills going first."""

from __future__ import annotations

from memtab.components.tree.marks import MarkTone, RowMark
from memtab.components.tree.nodes import NodeKind, TreeNode
from memtab.components.tree.row_fit import (
    BADGE,
    CHECK,
    CONFLICT,
    HITS,
    TAG,
    UNSAVED,
    WARNING,
    Pill,
    PillTone,
    RowPill,
    file_pills,
    pills_kept,
)

# Right to left, as a row paints them: lines matched, who changed it, over limit, two marks,
# the tag.
PILLS = [
    Pill(40, HITS),
    Pill(60, BADGE),
    Pill(60, WARNING),
    Pill(70, CHECK),
    Pill(60, UNSAVED),
    Pill(50, TAG),
]
GAP = 6


def test_every_pill_shows_while_the_whole_name_fits() -> None:
    assert pills_kept(100, PILLS, 100 + 340 + 6 * GAP, GAP) == [True] * 6


def test_the_least_telling_pills_give_way_to_the_name() -> None:
    assert pills_kept(100, PILLS, 100 + 340, GAP) == [True, True, True, True, True, False]
    assert pills_kept(100, PILLS, 100 + 200, GAP) == [True, True, True, False, False, False]
    assert pills_kept(100, PILLS, 100 + 60, GAP) == [True, False, False, False, False, False]
    # A name that does not fit alone keeps no pill (it is elided then).
    assert pills_kept(500, PILLS, 300, GAP) == [False] * 6


def test_of_two_marks_of_one_kind_the_leftmost_goes_first_and_a_conflict_stays_longest() -> None:
    pills = [Pill(50, CHECK), Pill(50, CHECK), Pill(50, CONFLICT)]
    assert pills_kept(100, pills, 100 + 112, GAP) == [True, False, True]
    assert pills_kept(100, pills, 100 + 56, GAP) == [False, False, True]


def test_a_file_row_s_pills_come_right_to_left_each_with_its_tone_and_rank() -> None:
    node = TreeNode("file:x", NodeKind.FILE, "MEMORY.md", content_hits=3, tag="generated")
    node.warning = "Over Claude Code's limit"
    marks = [
        RowMark("2 to check", MarkTone.CHECK, ""),
        RowMark("sync conflict", MarkTone.CONFLICT, ""),
        RowMark("● unsaved", MarkTone.UNSAVED, ""),
    ]
    assert file_pills(node, "writer", marks) == [
        RowPill("3 matching lines", PillTone.MUTED, HITS),
        RowPill("writer", PillTone.BADGE, BADGE),
        RowPill("over limit", PillTone.ERROR, WARNING),
        RowPill("2 to check", PillTone.NOTE, CHECK),
        RowPill("sync conflict", PillTone.ERROR, CONFLICT),
        RowPill("● unsaved", PillTone.NOTE, UNSAVED),
        RowPill("generated", PillTone.FAINT, TAG),
    ]
    node.warning_label = "no description"
    assert file_pills(node, None, [])[1] == RowPill("no description", PillTone.ERROR, WARNING)
    assert file_pills(TreeNode("file:y", NodeKind.FILE, "y.md"), None, []) == []
