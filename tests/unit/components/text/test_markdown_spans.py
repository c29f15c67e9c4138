"""What the Markdown highlighting colours, line by line, without Qt."""

from __future__ import annotations

from memtab.components.text import (
    NORMAL,
    Style,
    block_state,
    classifier_state,
    line_spans,
)
from memtab.markdown import FRONTMATTER_OPEN, Fence


def _spans(lines: list[str], *, imports: bool = False) -> list[list[tuple[int, int, Style]]]:
    state, found = -1, []  # Qt's "none yet" before the first line
    for number, text in enumerate(lines):
        state, spans = line_spans(text, state, number, imports=imports)
        found.append(spans)
    return found


def test_frontmatter_its_keys_and_its_fences() -> None:
    spans = _spans(["---", "description: a file", "  more", "---", "Prose"])
    assert spans == [
        [(0, 3, Style.DELIMITER)],
        [(0, 19, Style.FRONTMATTER), (0, 11, Style.FRONTMATTER_KEY)],
        [(0, 6, Style.FRONTMATTER)],
        [(0, 3, Style.DELIMITER)],
        [],
    ]


def test_headings_bullets_inline_code_and_fences() -> None:
    lines = ["# Title", "  - item `code` and `more`", "```py", "# not a heading", "```", "x"]
    assert _spans(lines) == [
        [(0, 7, Style.HEADING)],
        [(2, 1, Style.BULLET), (9, 6, Style.CODE), (20, 6, Style.CODE)],
        [(0, 5, Style.FENCE)],
        [(0, 15, Style.FENCE)],  # inside the fence: code, never a heading
        [(0, 3, Style.FENCE)],
        [],
    ]


def test_imports_are_links_only_where_they_are_read() -> None:
    assert _spans(["See @notes/a.md now"]) == [[]]
    assert _spans(["See @notes/a.md now"], imports=True) == [[(4, 11, Style.LINK)]]


def test_block_states_round_trip() -> None:
    for state in (None, FRONTMATTER_OPEN, Fence("`", 3, ""), Fence("~", 5, "")):
        assert classifier_state(block_state(state)) == state
    assert block_state(None) == NORMAL
    assert classifier_state(-1) is None
    assert block_state(Fence("~", 4, "py")) != block_state(Fence("`", 4, "py"))
