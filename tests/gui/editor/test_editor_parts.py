"""The editor's parts: the diff view and the highlighter."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette, QTextDocument
from pytestqt.qtbot import QtBot

from memtab.components.text import COLOR_LINES_PER_PASS
from memtab.components.text_diff import compute_diff
from memtab.gui.editor.text.view import MarkdownHighlighter
from memtab.gui.toolkit.text.diff_view import DiffView

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


def test_a_sentence_wraps_in_a_narrow_pane_and_a_diff_keeps_its_lines_whole(qtbot: QtBot) -> None:
    view = DiffView()
    qtbot.addWidget(view)
    view.resize(200, 200)
    view.show()
    qtbot.waitExposed(view)
    bar = view.horizontalScrollBar()
    view.show_sentence("Select a version to compare it with the file as it is now.")
    qtbot.waitUntil(lambda: view.document().blockCount() == 1)
    assert bar.maximum() == 0  # the History dock's placeholder no longer scrolls sideways
    view.set_diff(compute_diff("a\n", "a long line the diff must show as one line, not two\n"))
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    view.set_diff(compute_diff("x\n", "x\n"))  # "No differences": a sentence again
    qtbot.waitUntil(lambda: bar.maximum() == 0)


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
