"""A file row in a narrow tree keeps its whole name before its pills (the kind of file,
the check's marks, ● unsaved, over limit): seen at half a laptop, where
`feedback_verify-before-asserting.md` read `feedback_ve…-newline.md` beside its pills."""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontMetrics
from pytestqt.qtbot import QtBot

from memtab.components.tree.marks import MarkTone, RowMark
from memtab.components.tree.nodes import NodeKind, TreeNode
from memtab.gui.tree.view import MemoryTreeView

NAME = "feedback_vercel-env-newline.md"
CHECK = RowMark("1 to check", MarkTone.CHECK, "The check found a line to look at")
UNSAVED = RowMark("● unsaved", MarkTone.UNSAVED, "Unsaved changes in the editor")


def test_the_name_is_whole_and_the_least_telling_pills_give_way(qtbot: QtBot) -> None:
    view = MemoryTreeView()
    qtbot.addWidget(view)
    node = TreeNode(NAME, NodeKind.FILE, NAME, tag="feedback", warning="over its cut")
    font = QFont(view.font())
    name_width = QFontMetrics(font).horizontalAdvance(NAME)
    delegate = view.delegate
    wide = delegate.first_line(node, "writer", [CHECK, UNSAVED], font, name_width + 600)
    assert wide[0] == NAME
    assert [text for text, *_ in wide[1]] == [
        "writer", "over limit", "1 to check", "● unsaved", "feedback",
    ]  # fmt: skip
    snug = delegate.first_line(node, "writer", [CHECK, UNSAVED], font, name_width + 150)
    assert snug[0] == NAME  # whole: the tag and the check's mark went first
    kept = [text for text, *_ in snug[1]]
    assert "feedback" not in kept and "writer" in kept
    alone = delegate.first_line(node, None, [], font, name_width // 2)
    assert alone[1] == [] and alone[0] != NAME  # too narrow for the name alone: elided


def test_the_warning_pill_says_what_is_wrong(qtbot: QtBot) -> None:
    """A topic file Claude Code cannot recall well is not `over limit`: its pill says
    `no description` (the row's warning_label); a warning without one is a limit."""
    view = MemoryTreeView()
    qtbot.addWidget(view)
    font = QFont(view.font())
    topic = TreeNode(
        NAME, NodeKind.FILE, NAME, warning="No description: …", warning_label="no description"
    )
    shown = view.delegate.first_line(topic, None, [], font, 2000)
    assert [text for text, *_ in shown[1]] == ["no description"]
    index = TreeNode("MEMORY.md", NodeKind.FILE, "MEMORY.md", warning="MEMORY.md has 249 lines")
    assert [text for text, *_ in view.delegate.first_line(index, None, [], font, 2000)[1]] == [
        "over limit"
    ]
