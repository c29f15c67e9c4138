"""A diff's rows and the diff window's merge offer, without Qt."""

from __future__ import annotations

from memtab.components.editor.merge import MergeResult
from memtab.components.text import (
    COLOR_LINES_PER_PASS,
    MAX_RENDERED_LINES,
    counts_text,
    diff_rows,
    merge_offer,
    next_pass,
)
from memtab.components.text_diff import DiffLine, DiffResult, LineKind, compute_diff


def test_rows_number_each_side_in_a_gutter() -> None:
    result = compute_diff("a\nb\n" + "x\n" * 9, "a\nc\n" + "x\n" * 9)
    rows = diff_rows(result)
    assert rows.text.splitlines() == [
        "@@ -1,5 +1,5 @@",
        "1 1   a",
        "2   - b",
        "  2 + c",
        "3 3   x",
        "4 4   x",
        "5 5   x",
    ]
    assert rows.gutter == 4  # one digit a side, a space after each
    assert rows.lines == result.lines
    assert counts_text(result) == "+1  −1"


def test_a_long_diff_shows_its_first_rows_and_says_how_many_more() -> None:
    lines = tuple(
        DiffLine(LineKind.ADDED, f"l{n}", None, n + 1) for n in range(MAX_RENDERED_LINES + 7)
    )
    rows = diff_rows(DiffResult(lines, len(lines), 0))
    assert len(rows.lines) == MAX_RENDERED_LINES
    assert rows.text.splitlines()[-1] == "… 7 more lines not shown"
    assert rows.text.splitlines()[0] == " " * 10 + "1 + l0"  # five digits a side
    assert rows.gutter == 12


def test_colours_follow_a_pass_at_a_time() -> None:
    assert next_pass(0, 3 * COLOR_LINES_PER_PASS) == COLOR_LINES_PER_PASS
    assert next_pass(COLOR_LINES_PER_PASS, COLOR_LINES_PER_PASS + 3) == COLOR_LINES_PER_PASS + 3


def test_keep_both_is_offered_only_for_a_clean_merge() -> None:
    nothing = merge_offer(None)
    assert (nothing.enabled, nothing.note) == (False, None)
    assert "not loaded" in nothing.tip
    clean = merge_offer(MergeResult("a\n", 1, 1, ()))
    assert clean.enabled and clean.is_default
    assert clean.note == clean_note()
    overlap = merge_offer(MergeResult(None, 1, 1, ((2, 3),)))
    assert not overlap.enabled and not overlap.is_default
    assert overlap.tip == "Both sides changed the same lines"
    assert overlap.note is not None and "lines 2–3" in overlap.note


def clean_note() -> str:
    return MergeResult("a\n", 1, 1, ()).describe()
