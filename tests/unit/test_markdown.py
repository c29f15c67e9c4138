"""The one Markdown line classifier (`memtab.markdown`, docs/formats.md §4.4): its rules."""

from __future__ import annotations

import pytest

from memtab.markdown import (
    FRONTMATTER_OPEN,
    Block,
    Fence,
    Line,
    LineKind,
    classify,
    classify_line,
    fenced_blocks,
    frontmatter_lines,
    heading,
    item_text,
    link_path,
    text_lines,
)


def kinds(text: str) -> str:
    return names(classify(text_lines(text)))


def names(lines: list[Line]) -> str:
    return " ".join(line.kind.name.lower() for line in lines)


def test_frontmatter_is_muxs_rule() -> None:
    assert frontmatter_lines(["---", "a: 1", "---", "# x"]) == 3
    assert frontmatter_lines(["---", "---", "x"]) == 0  # `---\n---\n` is no block
    assert frontmatter_lines(["---", "---", "---"]) == 3  # ...but its body may be `---`
    assert frontmatter_lines(["---", "a: 1", "--- "]) == 0  # trailing space: not closed
    assert frontmatter_lines(["---\r", "a: 1", "---\r"]) == 3
    assert frontmatter_lines([" ---", "a", "---"]) == 0
    assert kinds("---\na: 1\n# never closed\n") == "rule text heading"


def test_fences_open_at_any_indent_and_close_on_their_own_run() -> None:
    text = "- item\n    ```bash\n    ls\n    ```\nafter\n"
    assert kinds(text) == "list_item fence code fence text"
    lines = classify(text_lines(text))
    assert lines[1].fence == Fence("`", 3, "bash") and lines[2].fence == lines[1].fence
    # a longer run closes, a shorter one, another character or more text does not
    assert kinds("````\n```\n~~~\n``` x\n`````\nx\n") == "fence code code code fence text"
    assert kinds("```py\n# not a heading\n") == "fence code"  # unclosed: to the end


def test_a_backtick_run_with_a_backtick_after_it_is_inline_code() -> None:
    assert kinds("```x``` is code\n# h\n") == "text heading"
    assert kinds("~~~ a`b\n~~~\n") == "fence fence"


@pytest.mark.parametrize(
    ("line", "level", "text"),
    [
        ("# Title", 1, "Title"),
        ("   ### Deep ###", 3, "Deep"),
        ("## C#", 2, "C#"),
        ("#", 1, ""),
        ("###### six", 6, "six"),
        ("#\tTab", 1, "Tab"),
    ],
)
def test_headings(line: str, level: int, text: str) -> None:
    found = heading(line)
    assert found is not None and (found.level, found.text) == (level, text)


@pytest.mark.parametrize("line", ["#tag", "####### seven", "    # indented code", "x # y"])
def test_not_headings(line: str) -> None:
    assert heading(line) is None


def test_list_items_and_rules() -> None:
    lines = classify(["- a", "  * b", "10. c", "3) d", "-", "***", "- - -", "**bold**", "2024-01"])
    assert names(lines) == "list_item list_item list_item list_item list_item rule rule text text"
    assert [(line.marker, line.indent) for line in lines[:4]] == [
        ("-", 0), ("*", 2), ("10.", 0), ("3)", 0),
    ]  # fmt: skip


def test_a_list_items_text_is_after_its_marker() -> None:
    lines = ["- a", "  * b c", "10.\td", "3) e ", "-", "+ [x](x.md)"]
    found = classify(lines)
    assert [item_text(line, item) for line, item in zip(lines, found, strict=True)] == [
        "a", "b c", "d", "e ", "", "[x](x.md)",
    ]  # fmt: skip


def test_a_text_with_no_frontmatter() -> None:
    """An agent's message is no file: a first `---` is a rule, what follows it prose."""
    lines = ["---", "a: 1", "---"]
    assert names(classify(lines)) == "frontmatter frontmatter frontmatter"
    assert names(classify(lines, frontmatter=False)) == "rule text rule"


def test_fenced_blocks() -> None:
    text = "a\n```bash\nls\n```\n~~~\n```\n~~~\n````md\nx\n"
    blocks = fenced_blocks(classify(text_lines(text)))
    assert blocks == [
        Block(Fence("`", 3, "bash"), 1, 3),
        Block(Fence("~", 3, ""), 4, 6),  # a run of the other character is code in it
        Block(Fence("`", 4, "md"), 7, None),  # unclosed: to the end
    ]
    assert fenced_blocks(classify(["x", "```y```"])) == []


def test_line_by_line_a_frontmatter_counts_while_typed() -> None:
    """The highlighter sees one line at a time: an opened frontmatter is one until it
    closes, and the line right after the opening `---` cannot close it."""
    found, state = classify_line("---", None, 0)
    assert found.kind is LineKind.FRONTMATTER and state == FRONTMATTER_OPEN
    found, state = classify_line("---", state, 1)
    assert found.kind is LineKind.FRONTMATTER and state == FRONTMATTER_OPEN
    found, state = classify_line("---", state, 2)
    assert found.kind is LineKind.FRONTMATTER and state is None
    assert classify_line("---", None, 5)[0].kind is LineKind.RULE


def test_link_path() -> None:
    assert link_path("notes/setup.md#top") == "notes/setup.md"
    assert link_path("a%20b.md") == "a b.md"
    for not_a_file in ("https://x.org", "#anchor", "//host/x", "path/to/file.md", "{x}.md", ""):
        assert link_path(not_a_file) is None


def test_a_carriage_return_left_at_the_end_changes_nothing() -> None:
    """Readers that split at `\\n` only keep a CRLF file's `\\r` on each line."""
    lines = ["---\r", "a: 1\r", "---\r", "## Notes ##\r", "- x\r", "-\r", "***\r", "```\r", "```\r"]
    found = classify(lines)
    assert (
        names(found)
        == "frontmatter frontmatter frontmatter heading list_item list_item rule fence fence"
    )
    assert found[3].text == "Notes"
