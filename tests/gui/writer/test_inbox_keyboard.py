"""The Inbox by keyboard alone, and with one item — the common case: an agent's one
proposal is shown whole, and selected, accepted or rejected without the pointer."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QListWidget, QWidget
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS, WindowFactory, activate, wait_watching
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.window.menus import shortcut_rows
from memtab.gui.writer.inbox_panel import InboxPanel
from memtab.store.home import Home
from memtab.store.proposals.queue import ProposalQueue, ToolCall
from memtab.store.sidecars.registry import load_registry
from support.memory_home import MAIN

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

home = support.home
make_window = support.make_window

NOTE = "/memories/global/package-managers.md"
TEXT = (
    "# Package managers\n\nUse pnpm, never npm: the lockfile is pnpm's. Run "
    "`pnpm install --frozen-lockfile` in CI, and `pnpm dedupe` after every upgrade.\n"
)
ALT = Qt.KeyboardModifier.AltModifier


def one_proposal(home: Home, path: str = NOTE) -> None:
    ProposalQueue(home, load_registry(home).require_workspace(MAIN)).propose(
        ToolCall("create", {"path": path, "file_text": TEXT}), client="codex-mcp-client"
    )


def shown_with_one(qtbot: QtBot, make_window: WindowFactory, home: Home) -> MainWindow:
    """A laptop's window whose Inbox shows one proposal."""
    one_proposal(home)
    window = make_window(home)
    window.resize(1280, 712)
    activate(qtbot, window)
    wait_watching(qtbot, window)
    panel = window.memory_tab.controller.inbox
    qtbot.waitUntil(lambda: panel.isVisible() and len(panel.items) == 1, timeout=WAIT_MS)
    return window


def row_shows_whole(panel: InboxPanel) -> bool:
    view = panel.list.viewport()
    row = panel.list.visualRect(panel.list.model().index(0, 0))
    return view.height() > 0 and view.rect().contains(row)


def focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None
    return widget


def test_an_inbox_of_one_long_proposal_shows_its_row_whole(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    """Its row wraps at the list's width: no sideways scroll bar takes the list's height
    (a list of 0 px, whatever the window's width)."""
    window = shown_with_one(qtbot, make_window, home)
    panel = window.memory_tab.controller.inbox
    qtbot.waitUntil(lambda: row_shows_whole(panel), timeout=WAIT_MS)
    assert not panel.list.horizontalScrollBar().isVisible()
    window.resize(683, 700)  # half a laptop
    qtbot.waitUntil(lambda: row_shows_whole(panel), timeout=WAIT_MS)


def test_one_agent_proposal_is_accepted_by_keyboard_alone(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    """Tab from the tree reaches the Inbox's list, its one proposal selected (↓ changes
    nothing), Enter accepts it, and the keyboard is back in the tree."""
    window = shown_with_one(qtbot, make_window, home)
    tab = window.memory_tab
    panel = tab.controller.inbox
    tab.tree.setFocus()
    for _ in range(6):  # the Inbox's title and Accept into: come first
        if panel.list.hasFocus():
            break
        qtbot.keyClick(focused(), Qt.Key.Key_Tab)
    assert panel.list.hasFocus()
    qtbot.keyClick(panel.list, Qt.Key.Key_Down)
    assert panel.selected_ids() == [panel.items[0].id]
    qtbot.waitUntil(lambda: row_shows_whole(panel), timeout=WAIT_MS)
    with qtbot.waitSignal(panel.status_message, timeout=WAIT_MS):
        qtbot.keyClick(panel.list, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: panel.items == (), timeout=WAIT_MS)
    assert (home.global_root / "package-managers.md").read_text() == TEXT
    assert tab.tree.hasFocus()  # the Inbox went: the keyboard is back where it came from


def test_the_inbox_buttons_answer_their_letters(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    """Alt+R rejects what is selected, from anywhere in the window (the buttons' letters:
    Alt+A accepts, Alt+D edits); Del in the list does too."""
    window = shown_with_one(qtbot, make_window, home)
    panel = window.memory_tab.controller.inbox
    assert [b.text() for b in (panel.accept_button, panel.edit_button, panel.reject_button)] == [
        "&Accept",
        "E&dit…",
        "&Reject",
    ]
    panel.list.setFocus()
    qtbot.keyClick(panel.list, Qt.Key.Key_Down)
    window.memory_tab.tree.setFocus()
    with qtbot.waitSignal(panel.status_message, timeout=WAIT_MS):
        qtbot.keyClick(focused(), Qt.Key.Key_R, ALT)
    qtbot.waitUntil(lambda: panel.items == (), timeout=WAIT_MS)
    assert not (home.global_root / "package-managers.md").exists()
    queue = ProposalQueue(home, load_registry(home).require_workspace(MAIN))
    assert queue.pending() == []


def test_the_lists_keys_are_listed_before_anything_waits_and_work_once_it_does(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    """A window where nothing waits makes no list (nor details, nor buttons), yet Help →
    Keyboard shortcuts lists F2 and Del; a proposal coming in makes it, and Del there
    rejects."""
    window = make_window(home)
    activate(qtbot, window)
    wait_watching(qtbot, window)
    panel = window.memory_tab.controller.inbox
    qtbot.waitUntil(lambda: not panel.busy, timeout=WAIT_MS)
    assert panel.findChild(QListWidget) is None
    rows = shortcut_rows(window.context.actions)
    listed = {(action_id, row.keys) for row in rows for action_id in (row.id, *row.also)}
    assert {("inbox.edit", "F2"), ("inbox.reject", "Del")} <= listed
    one_proposal(home)
    qtbot.waitUntil(lambda: panel.isVisible() and len(panel.items) == 1, timeout=WAIT_MS)
    assert panel.findChild(QListWidget) is panel.list
    panel.list.setFocus()
    qtbot.keyClick(panel.list, Qt.Key.Key_Down)
    with qtbot.waitSignal(panel.status_message, timeout=WAIT_MS):
        qtbot.keyClick(panel.list, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: panel.items == (), timeout=WAIT_MS)
    assert not (home.global_root / "package-managers.md").exists()


def test_del_goes_on_to_the_next_proposal_without_the_pointer(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    """Rejecting one selects the one after it (the last: the one before), so Del, Del
    empties the Inbox from the keyboard."""
    for name in ("first", "second", "third"):
        one_proposal(home, f"/memories/global/{name}.md")
    window = make_window(home)
    activate(qtbot, window)
    wait_watching(qtbot, window)
    panel = window.memory_tab.controller.inbox
    qtbot.waitUntil(lambda: len(panel.items) == 3, timeout=WAIT_MS)
    ids = [item.id for item in panel.items]
    panel.list.setFocus()
    panel.list.setCurrentRow(1)
    with qtbot.waitSignal(panel.status_message, timeout=WAIT_MS):
        qtbot.keyClick(panel.list, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: len(panel.items) == 2, timeout=WAIT_MS)
    assert panel.selected_ids() == [ids[2]] and panel.list.currentRow() == 1
    assert panel.reject_button.isEnabled()
    with qtbot.waitSignal(panel.status_message, timeout=WAIT_MS):
        qtbot.keyClick(panel.list, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: len(panel.items) == 1, timeout=WAIT_MS)
    assert panel.selected_ids() == [ids[0]]
    with qtbot.waitSignal(panel.status_message, timeout=WAIT_MS):
        qtbot.keyClick(panel.list, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: panel.items == (), timeout=WAIT_MS)
