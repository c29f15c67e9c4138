"""The Inbox's review has room (issue 74 point 3): at 1366×768, over the bottom of the
tree, a proposal left the list one row and the tree four, and its diff was ~400 px wide
and cut a replacement's text while the editor's column sat empty. A wide tab puts the
Inbox below the editor, in a splitter the window remembers, the diff wrapped; a narrow one
over the tree again, its diff wrapped there too."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QPlainTextEdit
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS, WindowFactory, wait_watching
from memtab.components.window.ui_state import UiState
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.memory_tab.controller import INBOX_SPLITTER
from memtab.store.home import Home
from memtab.store.proposals.queue import ProposalQueue, ToolCall
from memtab.store.sidecars.registry import load_registry
from support.memory_home import MAIN

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

home = support.home
make_window = support.make_window

LONG = (
    "Rebase, never merge; always rebase feature branches onto main before opening a pull "
    "request, and squash fixup commits with `git rebase -i --autosquash` so the history "
    "reads as one change per idea."
)


def propose(home: Home) -> None:
    queue = ProposalQueue(home, load_registry(home).require_workspace(MAIN))
    for index in range(3):
        queue.propose(
            ToolCall("create", {"path": f"/memories/global/n{index}.md", "file_text": "x\n"}),
            client="codex-cli",
        )
    queue.propose(
        ToolCall(
            "str_replace",
            {
                "path": "/memories/global/tools/git.md",
                "old_str": "Rebase, never merge.",
                "new_str": LONG,
            },
        ),
        client="claude-code",
    )


def reviewing(qtbot: QtBot, window: MainWindow, width: int) -> None:
    """The window `width` px wide (768 high), the replacement's review shown."""
    window.resize(width, 768)
    window.show()
    wait_watching(qtbot, window)
    panel = window.memory_tab.controller.inbox
    qtbot.waitUntil(lambda: len(panel.items) == 4 and panel.isVisible(), timeout=WAIT_MS)
    panel.list.setCurrentRow(3)
    qtbot.waitUntil(
        lambda: panel.review.diff.result is not None and panel.review.isVisible(),
        timeout=WAIT_MS,
    )


def test_a_wide_tab_reviews_below_the_editor_wrapped_the_tree_whole(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    propose(home)
    window = make_window(home)
    reviewing(qtbot, window, 1366)
    tab = window.memory_tab
    panel = tab.controller.inbox
    assert tab.controller.inbox_room.below_editor
    diff = panel.review.diff
    qtbot.waitUntil(lambda: diff.width() > 800, timeout=WAIT_MS)  # the editor's width
    assert diff.lineWrapMode() is QPlainTextEdit.LineWrapMode.WidgetWidth
    assert not diff.horizontalScrollBar().isVisible()  # the replacement's text whole
    assert tab.tree.viewport().height() > 450  # not covered: the tree keeps its rows
    rows = [panel.list.visualRect(panel.list.model().index(r, 0)) for r in range(4)]
    assert all(panel.list.viewport().rect().contains(row) for row in rows)  # every row


def test_the_inbox_splitter_is_remembered(
    qtbot: QtBot, make_window: WindowFactory, home: Home, tmp_path: object
) -> None:
    propose(home)
    state = UiState(tmp_path / "ui.json")  # type: ignore[operator]
    window = make_window(home, ui_state=state)
    reviewing(qtbot, window, 1366)
    splitter = window.memory_tab.below_editor
    splitter.moveSplitter(200, 1)  # the user drags it up: the Inbox gets more
    moved = splitter.sizes()
    assert state.splitter_sizes(INBOX_SPLITTER) == moved
    window.close_without_asking()
    again = make_window(home, ui_state=state)
    reviewing(qtbot, again, 1366)
    qtbot.waitUntil(lambda: again.memory_tab.below_editor.sizes() == moved, timeout=WAIT_MS)


def test_a_narrow_tab_reviews_over_the_tree_wrapped(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    propose(home)
    window = make_window(home)
    reviewing(qtbot, window, 683)
    panel = window.memory_tab.controller.inbox
    assert not window.memory_tab.controller.inbox_room.below_editor
    assert panel in window.memory_tab.overlay.panels
    diff = panel.review.diff
    assert diff.lineWrapMode() is QPlainTextEdit.LineWrapMode.WidgetWidth
    qtbot.waitUntil(lambda: not diff.horizontalScrollBar().isVisible(), timeout=WAIT_MS)
    window.resize(1366, 768)  # wide again: below the editor
    qtbot.waitUntil(lambda: window.memory_tab.controller.inbox_room.below_editor, timeout=WAIT_MS)


def test_without_a_review_the_inbox_is_as_tall_as_its_rows(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    """Nothing selected, the Inbox below the editor takes no more than its rows and
    buttons: the editor keeps the rest (with the Check panel docked below, it was left
    three lines); a review shows in the room the Inbox is given."""
    propose(home)
    window = make_window(home)
    window.resize(1366, 768)
    window.show()
    wait_watching(qtbot, window)
    panel = window.memory_tab.controller.inbox
    splitter = window.memory_tab.below_editor
    qtbot.waitUntil(lambda: len(panel.items) == 4 and panel.isVisible(), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: splitter.sizes()[1] == panel.sizeHint().height(), timeout=WAIT_MS)
    editor, inbox = splitter.sizes()
    assert editor > inbox
    panel.list.setCurrentRow(3)  # the replacement: its review
    qtbot.waitUntil(lambda: panel.reviewing, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: splitter.sizes()[1] > inbox, timeout=WAIT_MS)
