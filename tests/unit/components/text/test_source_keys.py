"""What Tab does in the editor's source, and how far its frontmatter reaches, without Qt."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memtab.components.text import (
    FRONTMATTER_SCAN_LINES,
    TabKey,
    frontmatter_head,
    indent_width,
    tab_key,
)


@pytest.mark.parametrize(
    ("forward", "moves_focus", "selects_lines", "does"),
    [
        (True, True, True, TabKey.MOVE_FOCUS),  # the frontmatter, a dialog, Ctrl+M
        (False, True, False, TabKey.MOVE_FOCUS),
        (True, False, False, TabKey.TYPE),
        (True, False, True, TabKey.SHIFT_LINES),  # indent every line selected
        (False, False, False, TabKey.SHIFT_LINES),  # Shift+Tab outdents
    ],
)
def test_what_tab_does(forward: bool, moves_focus: bool, selects_lines: bool, does: TabKey) -> None:
    assert tab_key(forward=forward, moves_focus=moves_focus, selects_lines=selects_lines) is does


def test_an_outdent_takes_a_tab_or_up_to_four_spaces() -> None:
    assert indent_width("\t\tx") == 1
    assert indent_width("  x") == 2
    assert indent_width("      x") == 4
    assert indent_width("x") == 0


def test_the_frontmatter_head_is_read_only_as_far_as_it_reaches() -> None:
    assert frontmatter_head(["---", "description: d", "---", "body"]) == 3
    assert frontmatter_head(["---", "a: b", "---\r", "body"]) == 3  # a CRLF file
    assert frontmatter_head(["# Title", "---"]) is None
    assert frontmatter_head([]) is None
    read: list[int] = []

    def lines() -> Iterator[str]:
        yield "---"
        for number in range(10_000):
            read.append(number)
            yield f"key{number}: v"

    frontmatter_head(lines())
    assert len(read) == FRONTMATTER_SCAN_LINES - 1  # never the whole text
