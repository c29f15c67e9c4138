"""The editor's message bar takes at most two lines of the text's room until expanded."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractButton, QToolButton, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from gui import editor_support
from gui.editor_support import NOTES, open_loaded
from memtab.components.editor.panel import COLLAPSED_LINES
from memtab.components.editor.session import BarKind
from memtab.gui.editor.editor import EditorPanel
from memtab.gui.editor.tab.bar import MessageBar

store = editor_support.store
own_writes = editor_support.own_writes
panel = editor_support.panel

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


def lines_high(bar: MessageBar, lines: int = COLLAPSED_LINES) -> int:
    """The most a bar may take over the text for `lines` lines of its message: those
    lines, or its buttons' row, and the bar's margins."""
    margins = bar.layout().contentsMargins()
    buttons = max(button.sizeHint().height() for button in bar.findChildren(QAbstractButton))
    rows = max(lines * bar.fontMetrics().lineSpacing(), buttons)
    return rows + margins.top() + margins.bottom()


def test_the_editor_places_its_bar_at_the_height_the_message_needs(
    qtbot: QtBot, panel: EditorPanel
) -> None:
    # The bar was placed at its size hint: the message wrapped a word a line, 194 px for
    # one line of text, 375 px for a long one, over a text of 9 lines at 1366×768.
    panel.show()
    qtbot.waitExposed(panel)
    open_loaded(qtbot, panel, NOTES)
    tab = panel.current_tab
    assert tab is not None
    bar = panel.message_bar
    tab.show_notice(BarKind.WARNING, "notes.md changed on disk while you were editing it.")
    qtbot.waitUntil(bar.isVisible)
    qtbot.waitUntil(lambda: bar.height() <= lines_high(bar, 1))
    tab.show_notice(BarKind.ERROR, LONG)
    qtbot.waitUntil(lambda: bar.height() <= lines_high(bar))
    text = panel.text_edit
    assert text.viewportMargins().bottom() == bar.height()  # no line hides under it
    [more] = [b for b in bar.findChildren(QToolButton) if b.text() == "More"]
    more.click()
    qtbot.waitUntil(lambda: bar.height() > lines_high(bar))  # the whole message
    assert text.viewportMargins().bottom() == bar.height()
