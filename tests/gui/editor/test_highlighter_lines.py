"""The editor's highlighter paints each line as the one classifier (`memtab.markdown`) tells
it — as the check, the consolidator and the writer read it — on real memory files and on
the corners where it used to part from them (tests/unit/test_markdown_users.py)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QPalette, QTextDocument
from pytestqt.qtbot import QtBot

from memtab.gui.editor.text.view import MarkdownHighlighter
from memtab.markdown import LineKind, classify, text_lines
from support.markdown_texts import TEXTS


@pytest.mark.parametrize(("name", "text"), TEXTS, ids=[name for name, _ in TEXTS])
def test_the_highlighter_paints_lines_as_the_classifier(qtbot: QtBot, name: str, text: str) -> None:
    document = QTextDocument()
    highlighter = MarkdownHighlighter(document, QPalette())
    document.setPlainText(text)
    highlighter.rehighlight()
    for number, found in enumerate(classify(text_lines(text))):
        line = document.findBlockByNumber(number)
        ranges = line.layout().formats()
        whole = [r for r in ranges if r.start == 0 and r.length == len(line.text())]
        kind = found.kind
        if not line.text():
            continue
        code = [r for r in whole if r.format.background().style() != Qt.BrushStyle.NoBrush]
        bold = [r for r in whole if r.format.fontWeight() == QFont.Weight.Bold]
        if kind in (LineKind.FENCE, LineKind.CODE):
            assert code, (number, line.text())
        elif "`" not in line.text():  # (an inline code span has a background too)
            assert not code, (number, line.text())
        if kind is LineKind.HEADING:
            assert bold, (number, line.text())
        if kind is LineKind.TEXT and "`" not in line.text():
            assert not ranges, (number, line.text())
