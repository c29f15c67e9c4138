"""The three-way merge of the editor's draft with the disk (no Qt)."""

from __future__ import annotations

import pytest

from memtab.components.editor.merge import (
    KeepBoth,
    MergeOutcome,
    MergeResult,
    keep_both_outcome,
    merge_three_way,
)

BASE = "# Notes\n\n- one\n- two\n- three\n"


class _CancelledError(Exception):
    pass


class _CancelledToken:
    def raise_if_cancelled(self) -> None:
        raise _CancelledError


@pytest.mark.parametrize(
    ("mine", "theirs", "merged"),
    [
        # The user edits a line; an agent appends (`echo >>`): both kept.
        (
            "# Notes\n\n- one\n- TWO\n- three\n",
            BASE + "- four\n",
            "# Notes\n\n- one\n- TWO\n- three\n- four\n",
        ),
        # The user edits the last line; the agent appends right after it: adjacent, kept.
        (
            "# Notes\n\n- one\n- two\n- THREE\n",
            BASE + "- four\n",
            "# Notes\n\n- one\n- two\n- THREE\n- four\n",
        ),
        # Edits at both ends.
        (
            "# My notes\n\n- one\n- two\n- three\n",
            "# Notes\n\n- one\n- two\n",
            "# My notes\n\n- one\n- two\n",
        ),
        # The same edit on both sides is kept once.
        (BASE + "- four\n", BASE + "- four\n", BASE + "- four\n"),
        # Only one side changed.
        (BASE, BASE + "- four\n", BASE + "- four\n"),
        ("# Notes\n", BASE, "# Notes\n"),
        # An insertion right before a line the other side replaced.
        (
            "# Notes\n\n- zero\n- one\n- two\n- three\n",
            "# Notes\n\n- ONE\n- two\n- three\n",
            "# Notes\n\n- zero\n- ONE\n- two\n- three\n",
        ),
    ],
    ids=[
        "edit-and-append",
        "adjacent",
        "both-ends",
        "same-edit",
        "theirs-only",
        "mine-only",
        "insert-before-replace",
    ],
)
def test_changes_to_different_lines_merge(mine: str, theirs: str, merged: str) -> None:
    result = merge_three_way(BASE, mine, theirs)
    assert result.clean
    assert result.text == merged
    assert result.conflicts == ()
    assert result.describe().endswith("touch different lines: Keep both keeps them all.")


@pytest.mark.parametrize(
    ("mine", "theirs", "conflicts"),
    [
        # Both changed the same line.
        ("# Notes\n\n- one\n- mine\n- three\n", "# Notes\n\n- one\n- theirs\n- three\n", ((4, 4),)),
        # Both appended at the end: which goes first is a guess.
        (BASE + "- mine\n", BASE + "- theirs\n", ((6, 6),)),
        # One deleted a block the other edited inside.
        ("# Notes\n\n", "# Notes\n\n- one\n- 2\n- three\n", ((3, 5),)),
    ],
    ids=["same-line", "both-append", "delete-vs-edit"],
)
def test_overlapping_changes_do_not_merge_and_say_where(
    mine: str, theirs: str, conflicts: tuple[tuple[int, int], ...]
) -> None:
    result = merge_three_way(BASE, mine, theirs)
    assert not result.clean
    assert result.text is None
    assert result.conflicts == conflicts
    message = result.describe()
    assert "cannot be merged automatically" in message
    first, last = conflicts[0]
    assert (f"line {first}" if first == last else f"lines {first}–{last}") in message


def test_a_last_line_without_a_line_break_is_kept_exactly() -> None:
    base = "a\nb"
    assert merge_three_way(base, "A\nb", base).text == "A\nb"
    assert merge_three_way(base, base, "a\nb\nc\n").text == "a\nb\nc\n"
    # `echo >>` onto a line without a break changes that line: it overlaps an edit of it.
    assert not merge_three_way(base, "a\nB", "a\nbc\n").clean


def test_several_conflicts_are_counted() -> None:
    base = "1\n2\n3\n4\n5\n6\n"
    result = merge_three_way(base, "1\nX\n3\n4\nY\n6\n", "1\nx\n3\n4\ny\n6\n")
    assert result.conflicts == ((2, 2), (5, 5))
    assert "(and 1 other place)" in result.describe()


def test_counts_and_empty_texts() -> None:
    assert merge_three_way("", "", "") == MergeResult("", 0, 0)
    assert merge_three_way("", "a\n", "").text == "a\n"
    assert not merge_three_way("", "a\n", "b\n").clean
    result = merge_three_way(BASE, BASE.replace("one", "1").replace("three", "3"), BASE + "x\n")
    assert (result.mine_changes, result.theirs_changes) == (2, 1)
    assert result.counts() == "Your 2 changes and 1 change on disk"


def test_merge_stops_when_cancelled() -> None:
    with pytest.raises(_CancelledError):
        merge_three_way(BASE, BASE + "a\n", BASE + "b\n", _CancelledToken())


def test_keep_both_keeps_the_clean_merge_or_what_the_user_made_of_it() -> None:
    clean = merge_three_way(BASE, BASE + "- mine\n", "- first\n" + BASE)
    assert clean.text is not None
    merged = MergeOutcome(clean.text, clean, "sha-on-disk")
    assert keep_both_outcome(None, "anything", edited=True) is None, "no merge computed"
    assert keep_both_outcome(merged, None, edited=False) is merged, "view not filled yet"
    kept = keep_both_outcome(merged, clean.text + "- edited\n", edited=True)
    assert kept == MergeOutcome(clean.text + "- edited\n", clean, "sha-on-disk", edited=True)


def test_keep_both_of_a_conflict_only_keeps_a_text_the_user_made() -> None:
    conflict = merge_three_way(BASE, BASE.replace("two", "mine"), BASE.replace("two", "theirs"))
    assert conflict.text is None
    merged = MergeOutcome("", conflict, "sha-on-disk")
    assert keep_both_outcome(merged, "the draft, as shown", edited=False) is None
    kept = keep_both_outcome(merged, "- one\n- mine and theirs\n", edited=True)
    assert kept is not None and kept.text == "- one\n- mine and theirs\n" and kept.edited


def test_keep_both_keeps_the_clean_merge_or_the_text_the_user_made() -> None:
    keep = KeepBoth()
    assert keep.outcome(None) is None  # no merge yet
    assert not keep.text_edited()  # an edit with no merge to stand for: nothing to keep
    clean = MergeResult("a\nb\n", 1, 1, ())
    keep.merged(clean, None)  # nothing loaded from disk to merge with
    assert keep.outcome(None) is None
    keep.merged(clean, "sha")
    assert keep.outcome(None) == MergeOutcome("a\nb\n", clean, "sha")
    assert keep.outcome("a\nb\n") == MergeOutcome("a\nb\n", clean, "sha", edited=False)
    assert keep.text_edited()
    assert keep.outcome("a\nc\n") == MergeOutcome("a\nc\n", clean, "sha", edited=True)
    keep.reset()
    assert keep.outcome("a\nc\n") is None


def test_keep_both_of_a_conflict_is_only_what_the_user_made_of_it() -> None:
    keep = KeepBoth()
    overlap = MergeResult(None, 1, 1, ((1, 1),))
    keep.merged(overlap, "sha")
    assert keep.outcome("mine\n") is None  # not resolved by hand
    assert keep.text_edited()
    assert keep.outcome("both\n") == MergeOutcome("both\n", overlap, "sha", edited=True)
