"""The three-way view reads like prose: long lines wrap, the words a side changed are
marked, and the panes scroll together line for line."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit
from pytestqt.qtbot import QtBot

from memtab.components.merge import three_way_texts
from memtab.gui.toolkit.text.three_way import ThreeWayView

SENTENCE = "Run the whole suite with pytest -n 2 before landing, then land with land.sh"


def shown(qtbot: QtBot, base: str | None, mine: str, theirs: str) -> ThreeWayView:
    view = ThreeWayView()
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    qtbot.waitExposed(view)
    view.set_texts(three_way_texts(base and base.encode(), mine.encode(), theirs.encode()))
    return view


def marked(edit: QPlainTextEdit, line: int) -> list[str]:
    """The words of a line marked as changed (the runs with a background of their own)."""
    block = edit.document().findBlockByNumber(line)
    found = []
    for place in block:
        fragment = place.fragment()
        if fragment.charFormat().background().style() != Qt.BrushStyle.NoBrush:
            found.append(fragment.text())
    return found


def test_long_lines_wrap_in_every_pane(qtbot: QtBot) -> None:
    long = " ".join([SENTENCE] * 6) + "\n"
    view = shown(qtbot, long, long.replace("whole", "quick"), long + "tail\n")
    for edit in (view.base.text, view.mine.text, view.theirs.text, view.merged):
        layout = edit.document().firstBlock().layout()
        qtbot.waitUntil(lambda layout=layout: layout.lineCount() > 1)  # laid out as painted
        assert edit.horizontalScrollBar().maximum() == 0, edit.objectName()


def test_the_words_a_side_changed_are_marked(qtbot: QtBot) -> None:
    base = f"# Landing\n{SENTENCE}\n"
    mine = base.replace("whole suite", "unit tests")
    theirs = base.replace("pytest -n 2", "pytest -n 4")
    view = shown(qtbot, base, mine, theirs)
    assert marked(view.mine.text, 1) == ["unit tests"]
    assert marked(view.theirs.text, 1) == ["4"]
    assert marked(view.mine.text, 0) == [] and marked(view.base.text, 1) == []
    # Without a common version each side's words are marked against the other's.
    view.set_texts(three_way_texts(None, mine.encode(), theirs.encode()))
    assert marked(view.mine.text, 1) == ["unit tests", "2"]
    assert marked(view.theirs.text, 1) == ["whole suite", "4"]


def test_the_panes_scroll_together_line_for_line(qtbot: QtBot) -> None:
    base = "".join(f"line {n}\n" for n in range(200))
    mine = "".join(f"mine's own {n}\n" for n in range(60)) + base  # 60 lines above
    theirs = base.replace("line 150\n", "line 150, theirs\n")
    view = shown(qtbot, base, mine, theirs)
    view.mine.scroll_to_line(60 + 100)  # base's line 100 in mine
    assert view.mine.top_line() == 160
    assert view.base.top_line() == 100 and view.theirs.top_line() == 100
    view.theirs.scroll_to_line(40)
    assert view.base.top_line() == 40 and view.mine.top_line() == 100
