"""Go to line's field, read as VS Code reads it — no Qt."""

from __future__ import annotations

import pytest

from memtab.components.editor.find import (
    LineTarget,
    cursor_place,
    go_to_hint,
    number_digits,
    parse_target,
)


@pytest.mark.parametrize(
    ("typed", "target"),
    [
        ("12", LineTarget(12, 1)),
        (" 12 ", LineTarget(12, 1)),
        ("12:5", LineTarget(12, 5)),
        ("12,5", LineTarget(12, 5)),
        (":12", LineTarget(12, 1)),
        ("900", LineTarget(40, 1)),  # past the end: the last line
        ("0", LineTarget(1, 1)),
        ("12:0", LineTarget(12, 1)),
        ("", None),
        ("twelve", None),
        ("12:", None),
        ("-3", None),
    ],
)
def test_what_the_field_asks_for(typed: str, target: LineTarget | None) -> None:
    assert parse_target(typed, 40) == target


def test_the_hint_says_where_the_cursor_is_and_what_to_type() -> None:
    assert go_to_hint(3, 40) == (
        "The cursor is on line 3 of 40. Type a line number (1–40), or line:column."
    )


def test_the_line_numbers_are_as_wide_as_the_last_ones_two_digits_at_least() -> None:
    assert [number_digits(n) for n in (0, 1, 9, 99, 100, 12345)] == [2, 2, 2, 2, 3, 5]


def test_the_cursor_lands_within_the_text_whatever_is_asked() -> None:
    lengths = [5, 0, 12]  # "first", an empty line, "third line !"

    def length(index: int) -> int:
        return lengths[index]

    assert cursor_place(2, 1, 3, length) == (1, 0)
    assert cursor_place(3, 4, 3, length) == (2, 3)
    assert cursor_place(99, 1, 3, length) == (2, 0)  # past the end: the last line
    assert cursor_place(0, 0, 3, length) == (0, 0)  # before the start: the first, its start
    assert cursor_place(1, 80, 3, length) == (0, 5)  # past the line's end: its end
    assert cursor_place(2, 3, 3, length) == (1, 0)  # an empty line has only its start
    assert cursor_place(4, 2, 0, lambda _index: 0) == (0, 0)  # an empty text: its start
