"""A line margin's lines follow the text's edits, without Qt."""

from __future__ import annotations

import pytest

from memtab.components.text import ToldLines


def test_lines_added_above_move_the_told_lines_down() -> None:
    lines = ToldLines(4)
    assert [lines.line(n) for n in range(4)] == [0, 1, 2, 3]
    lines.edited(6, lambda: 1)  # two lines typed at line 1
    assert [lines.line(n) for n in range(6)] == [0, None, None, 1, 2, 3]
    lines.edited(5, lambda: 4)  # line 2 of the told text removed
    assert [lines.line(n) for n in range(5)] == [0, None, None, 1, 3]
    assert lines.line(5) is None  # past the end


def test_typing_within_a_line_never_asks_where() -> None:
    lines = ToldLines(3)

    def never() -> int:
        pytest.fail("asked where lines came while none did")

    lines.edited(3, never)
    assert lines.line(2) == 2


def test_a_text_replaced_whole_keeps_no_told_line_until_told_again() -> None:
    lines = ToldLines(3)
    lines.replaced(5)
    assert [lines.line(n) for n in range(5)] == [None] * 5
    lines.edited(6, lambda: 0)  # counted from the replaced text's 5 lines
    assert lines.line(5) is None
    lines.told(6)
    assert [lines.line(n) for n in range(6)] == list(range(6))
