"""Edit → Undo after an Inbox accept or reject takes that decision back — the accepted
line leaves its file, the item is in the Inbox again — and names it ("Undo accept 'Always
use pnpm.'"), even pressed before the accept has finished; Redo makes it again."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import (
    WAIT_MS,
    WindowFactory,
    action,
    activate,
    choose_target,
    refresh_menus,
)
from memtab.components.files import undo
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.writer.inbox_panel import InboxPanel
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry
from memtab.writer.inbox.suggestions import SuggestionQueue
from memtab.writer.inbox.targets import PROJECT_NOTES
from memtab.writer.offline.notes import Note
from support.memory_home import MAIN
from support.memory_paths import vpath

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

home = support.home
make_window = support.make_window

NOTES = "/memories/workspace/notes.md"


def store_of(home: Home) -> MemoryStore:
    return MemoryStore(home, load_registry(home).require_workspace(MAIN))


def inbox_of(window: MainWindow, qtbot: QtBot, count: int) -> InboxPanel:
    panel = window.memory_tab.controller.inbox
    qtbot.waitUntil(lambda: len(panel.items) == count and not panel.busy, timeout=WAIT_MS)
    return panel


def select(panel: InboxPanel, text: str) -> None:
    panel.list.clearSelection()
    row = [item.text for item in panel.items].index(text)
    panel.list.item(row).setSelected(True)  # type: ignore[union-attr]


def texts(panel: InboxPanel) -> list[str]:
    return [item.text for item in panel.items]


def test_undo_takes_an_accept_back_and_redo_makes_it_again(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    store = store_of(home)
    store.save(vpath(PROJECT_NOTES), "# Ours\n", None)
    SuggestionQueue(home, MAIN).propose(
        [Note("Directives", "Always use pnpm."), Note("Directives", "Never push to main.")],
        memory_path=NOTES,
    )
    window = make_window(home)
    panel = inbox_of(window, qtbot, 2)
    # An older file operation on the stack: Undo must not offer it after an accept.
    undo.set_pinned(window.context.undo_stack, store, parse_file_path(PROJECT_NOTES), True)
    select(panel, "Always use pnpm.")
    panel.accept_button.click()
    window.memory_tab.tree.setFocus()
    refresh_menus(qtbot, window)  # waits for the accept, as Undo pressed meanwhile does
    qtbot.waitUntil(lambda: texts(panel) == ["Never push to main."], timeout=WAIT_MS)
    assert "- Always use pnpm." in store.read_text(vpath(PROJECT_NOTES))
    assert action(window, "files.undo").text() == "&Undo accept 'Always use pnpm.'"
    with qtbot.waitSignal(window.context.file_ops.op_finished, timeout=WAIT_MS) as done:
        action(window, "files.undo").trigger()
    assert done.args[0].message == (
        "Undid accept 'Always use pnpm.': 1 proposed memory back in the Inbox"
    )
    qtbot.waitUntil(lambda: texts(panel) == ["Always use pnpm.", "Never push to main."])
    assert store.read_text(vpath(PROJECT_NOTES)) == "# Ours\n"
    refresh_menus(qtbot, window)
    assert action(window, "files.redo").text() == "&Redo accept 'Always use pnpm.'"
    assert action(window, "files.undo").text() == "&Undo pin of notes.md"  # the older one
    with qtbot.waitSignal(window.context.file_ops.op_finished, timeout=WAIT_MS) as done:
        action(window, "files.redo").trigger()
    assert done.args[0].message == "Redid accept 'Always use pnpm.': 1 memory accepted again"
    qtbot.waitUntil(lambda: texts(panel) == ["Never push to main."], timeout=WAIT_MS)
    assert "- Always use pnpm." in store.read_text(vpath(PROJECT_NOTES))


def test_undo_pressed_before_a_reject_ends_brings_the_item_back(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    SuggestionQueue(home, MAIN).propose([Note("Directives", "Always use pnpm.")], memory_path=NOTES)
    window = make_window(home)
    panel = inbox_of(window, qtbot, 1)
    store = store_of(home)
    store.save(vpath("/memories/workspace/other.md"), "x\n", None)
    undo.set_pinned(
        window.context.undo_stack, store, parse_file_path("/memories/workspace/other.md"), True
    )
    select(panel, "Always use pnpm.")
    panel.reject_button.click()
    window.memory_tab.tree.setFocus()
    action(window, "files.undo").trigger()  # at once: the reject's step is not pushed yet
    qtbot.waitUntil(lambda: not window.context.file_ops.busy, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: texts(panel) == ["Always use pnpm."], timeout=WAIT_MS)
    assert [s.status for s in SuggestionQueue(home, MAIN).all()] == ["pending"]
    assert store.is_pinned(parse_file_path("/memories/workspace/other.md"))  # not undone


def test_ctrl_z_in_the_inbox_right_after_accept_takes_it_back(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    SuggestionQueue(home, MAIN).propose([Note("Directives", "Always use pnpm.")], memory_path=NOTES)
    window = make_window(home)
    panel = inbox_of(window, qtbot, 1)
    activate(qtbot, window)
    select(panel, "Always use pnpm.")
    panel.accept_button.setFocus()
    choose_target(qtbot, panel, NOTES)
    qtbot.keyClick(panel.accept_button, Qt.Key.Key_Space)  # the keyboard's click
    assert panel.list.hasFocus()  # not lost with the disabled button: the keys stay here
    qtbot.keyClick(panel.list, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not window.context.file_ops.busy, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: texts(panel) == ["Always use pnpm."], timeout=WAIT_MS)
    assert "pnpm" not in (home.workspace_root(MAIN) / "notes.md").read_text()
