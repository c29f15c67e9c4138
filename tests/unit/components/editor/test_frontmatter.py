"""components.editor.text_buffer: the description field reads and rewrites the
frontmatter's `description:` line, agreeing with the tree — no Qt."""

from __future__ import annotations

import pytest

from memtab.components.editor.text_buffer import (
    body_without_frontmatter,
    description_line,
    frontmatter_lines,
    read_description,
    with_description,
)
from memtab.store.text.frontmatter import description_from_prefix, description_from_text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("---\ndescription: Build notes\n---\n# x\n", "Build notes"),
        ("---\nname: a\ndescription: 'quoted: yes'\n---\n", "quoted: yes"),
        ("---\ndescription: >\n  folded\n  over lines\n---\n", "folded over lines"),
        ("---\ndescription: yes\n---\n", "yes"),  # YAML 1.2: text, not a boolean
        ("---\ndescription: 42\n---\n", ""),  # a number, as mux and the tree see it
        ("---\ndescription: a\ndescription: b\n---\n", ""),  # mux's parser refuses it
        ("---  \ndescription: fence with spaces\n---\n", ""),
        ("# no frontmatter\ndescription: no\n", ""),
        ("---\ndescription: [unclosed\n---\n", ""),
        ("---\r\ndescription: crlf\r\n---\r\nbody", "crlf"),
        ("---\n---\nbody", ""),
    ],
)
def test_read_description(text: str, expected: str) -> None:
    assert read_description(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "---\ndescription: 42\n---\n",
        "---\ndescription: Build notes\n---\n# x\n",
        "---\ndescription: a \x01 b\n---\n",
        "---\ndescription: a\ndescription: b\n---\n",
        "---\ndescription: x\n---  \n",
        "---\n" + "pad: " + "x" * 4100 + "\ndescription: beyond 4 KiB\n---\n",
    ],
)
def test_the_editor_field_and_the_tree_agree(text: str) -> None:
    # The tree reads the file's first 4 KiB (`description_from_prefix` in the listing).
    assert read_description(text) == description_from_prefix(text.encode()[:4096])


def test_with_description_replaces_a_repeated_entry_with_one() -> None:
    text = "---\ndescription: a\nname: n\ndescription: b\n---\nbody\n"
    updated = with_description(text, "c")
    assert updated == "---\ndescription: c\nname: n\n---\nbody\n"
    assert read_description(updated) == description_from_text(updated) == "c"


def test_read_description_is_not_cut_like_the_tree_description() -> None:
    long = "word " * 60
    text = f"---\ndescription: {long}\n---\n"
    assert read_description(text) == long.strip()
    assert description_from_text(text).endswith("…")


def test_with_description_replaces_only_the_description_entry() -> None:
    text = "---\nname: notes\ndescription: >\n  old folded\n  value\ntags: [a, b]\n---\n# Body\n"
    assert with_description(text, "New one") == (
        "---\nname: notes\ndescription: New one\ntags: [a, b]\n---\n# Body\n"
    )


def test_with_description_adds_to_existing_frontmatter_and_keeps_crlf() -> None:
    text = "---\r\nname: notes\r\n---\r\nbody\r\n"
    assert with_description(text, "Hello") == (
        "---\r\ndescription: Hello\r\nname: notes\r\n---\r\nbody\r\n"
    )


def test_with_description_creates_and_removes_frontmatter() -> None:
    assert with_description("# Body\n", "Hi") == "---\ndescription: Hi\n---\n# Body\n"
    assert with_description("---\ndescription: Hi\n---\n# Body\n", "") == "# Body\n"
    assert with_description("# Body\n", "  ") == "# Body\n"
    kept = "---\ndescription: Hi\nname: x\n---\n# Body\n"
    assert with_description(kept, "") == "---\nname: x\n---\n# Body\n"


@pytest.mark.parametrize(
    "value", ["plain words", "colon: inside", "#hash", "yes", "'quotes'", 'say "hi"', "- dash"]
)
def test_description_line_round_trips_through_yaml(value: str) -> None:
    text = f"---\n{description_line(value)}\n---\n"
    assert read_description(text) == value
    assert description_from_text(text) == value


def test_body_without_frontmatter() -> None:
    assert body_without_frontmatter("---\na: b\n---\n# T\n") == "# T\n"
    assert body_without_frontmatter("# T\n") == "# T\n"
    assert body_without_frontmatter("---\nunclosed\n# T\n") == "---\nunclosed\n# T\n"


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("---\ndescription: x\n---\n\n# Body\n", 3),
        ("---\ndescription: x\nname: y\n---", 4),  # the closing fence ends the text
        ("---\r\ndescription: x\r\n---\r\nbody", 3),
        ("# No frontmatter\n", None),
        ("---\ndescription: x\n--- \nbody\n", None),  # a fence with a space closes nothing
        ("\n---\ndescription: x\n---\n", None),  # not at the very top
    ],
)
def test_where_a_file_just_opened_starts_its_body(text: str, lines: int | None) -> None:
    assert frontmatter_lines(text) == lines
