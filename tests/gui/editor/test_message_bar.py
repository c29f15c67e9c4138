"""The editor's message bar takes at most two lines of the text's room until expanded."""

from __future__ import annotations

from PySide6.QtWidgets import QToolButton, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from memtab.gui.editor.bar import COLLAPSED_LINES, BarKind, MessageBar

LONG = " ".join(["This file changed on disk while you were editing it"] * 8)


def test_a_long_message_takes_two_lines_until_more_shows_it_all(qtbot: QtBot) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    bar = MessageBar(host)
    layout = QVBoxLayout(host)
    layout.addWidget(bar)
    layout.addStretch(1)  # the text's room, under the bar
    host.resize(683, 400)
    host.show()
    bar.show_message(BarKind.WARNING, LONG, [("reload", "Reload"), ("keep", "Keep mine")])
    qtbot.waitExposed(host)
    lines = bar.fontMetrics().lineSpacing()
    qtbot.waitUntil(lambda: bar.height() <= (COLLAPSED_LINES + 1) * lines + 20)
    collapsed = bar.height()
    [more] = [b for b in bar.findChildren(QToolButton) if b.text() == "More"]
    assert more.isVisible()
    more.click()
    qtbot.waitUntil(lambda: bar.height() > collapsed + lines)
    assert bar.expanded
    bar.show_message(BarKind.INFO, "Saved.")
    assert not bar.expanded and not more.isVisible()
