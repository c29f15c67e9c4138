"""Go to line's field, read as VS Code reads it — no Qt."""

from __future__ import annotations

import pytest

from memtab.components.editor.go_to import LineTarget, go_to_hint, parse_target


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
