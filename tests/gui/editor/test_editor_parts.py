"""The editor's parts: frontmatter helpers, the diff view and the highlighter."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette, QTextDocument
from pytestqt.qtbot import QtBot

from memtab.components.text_diff import compute_diff
from memtab.gui.editor.text.frontmatter import (
    body_without_frontmatter,
    description_line,
    read_description,
    with_description,
)
from memtab.gui.editor.text.highlighter import MarkdownHighlighter
from memtab.gui.text.diff_view import COLOR_LINES_PER_PASS, DiffView
from memtab.store.text.frontmatter import description_from_prefix, description_from_text

# --- frontmatter -------------------------------------------------------------------------------


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


# --- diff view ---------------------------------------------------------------------------------


def test_diff_view_renders_colored_lines(qtbot: QtBot) -> None:
    view = DiffView()
    qtbot.addWidget(view)
    view.set_diff(compute_diff("a\nb\n", "a\nc\n"))
    text = view.toPlainText().splitlines()
    assert text[0].startswith("@@")
    assert any(line.endswith("- b") for line in text)
    assert any(line.endswith("+ c") for line in text)
    assert colored(view, 2)  # the removed line (a valid colour alone is any block's: black)
    view.set_diff(compute_diff("x\n", "x\n"))
    assert "No differences" in view.toPlainText()


def colored(view: DiffView, number: int) -> bool:
    background = view.document().findBlockByNumber(number).blockFormat().background()
    return background.style() != Qt.BrushStyle.NoBrush


def test_a_long_diff_shows_at_once_and_takes_its_colours_a_pass_at_a_time(qtbot: QtBot) -> None:
    view = DiffView()
    qtbot.addWidget(view)
    gone = "".join(f"line {number}\n" for number in range(3 * COLOR_LINES_PER_PASS))
    view.set_diff(compute_diff(gone, ""))
    last = view.document().blockCount() - 1
    assert last == 3 * COLOR_LINES_PER_PASS  # the hunk's header, then every line
    assert view.toPlainText().splitlines()[last].endswith(f"- line {last - 1}")
    assert colored(view, 1) and not colored(view, last) and not view.is_colored
    qtbot.waitUntil(lambda: view.is_colored)
    assert colored(view, last)


def test_new_text_drops_the_colours_the_old_had_still_to_come(qtbot: QtBot) -> None:
    view = DiffView()
    qtbot.addWidget(view)
    gone = "".join(f"line {number}\n" for number in range(3 * COLOR_LINES_PER_PASS))
    view.set_diff(compute_diff(gone, ""))
    view.set_diff(compute_diff("a\nb\n", "a\nc\n"))
    assert view.is_colored and colored(view, 2)  # short: coloured at once
    view.set_diff(compute_diff(gone, ""))
    view.show_computing()
    assert view.is_colored
    qtbot.wait(50)  # the passes that were due find nothing to colour
    assert view.toPlainText() == "Computing the differences…" and view.is_colored


# --- highlighter -------------------------------------------------------------------------------


def test_highlighter_marks_frontmatter_headings_bullets_and_code(qtbot: QtBot) -> None:
    document = QTextDocument()
    highlighter = MarkdownHighlighter(document, QPalette())
    document.setPlainText(
        "---\ndescription: x\n---\n# Heading\n- item `code`\n```\nfenced # not heading\n```\n"
    )
    highlighter.rehighlight()

    def formats(line: int) -> list[tuple[int, int]]:
        block = document.findBlockByNumber(line)
        return [(r.start, r.length) for r in block.layout().formats()]

    assert formats(1)  # frontmatter line
    assert formats(3) == [(0, len("# Heading"))]
    assert (0, 1) in formats(4) and (7, 6) in formats(4)  # bullet marker, inline code
    assert formats(6) == [(0, len("fenced # not heading"))]  # fenced, not a heading
    highlighter.set_palette(QPalette())
