"""A file row's first line when the tree is narrow (no Qt): the whole name before any
pill, the least telling pills going first."""

from __future__ import annotations

from memtab.components.tree.row_fit import (
    BADGE,
    CHECK,
    CONFLICT,
    HITS,
    TAG,
    UNSAVED,
    WARNING,
    Pill,
    pills_kept,
)

# Right to left, as a row paints them: hits, who changed it, over limit, two marks, the tag.
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
