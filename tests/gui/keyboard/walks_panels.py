"""Walks of the panels a key opens — Check, History, Blame, the Inbox, Loads: each takes
the keyboard, and Escape gives it back to where it came from."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication, QWidget

from gui.keyboard.driver import Keys, Until, Walk, WalkSpec, WalkSteps, focus_in, focus_name
from gui.keyboard.walks_editor import GIT, main_home, opened
from memtab.store.home import Home
from memtab.store.proposals.queue import ProposalQueue, ToolCall
from memtab.store.sidecars.registry import load_registry
from support.memory_home import MAIN


def home_with_a_proposal(folder: Path) -> Home:
    home = main_home(folder)
    ProposalQueue(home, load_registry(home).require_workspace(MAIN)).propose(
        ToolCall("create", {"path": "/memories/global/shell.md", "file_text": "Use zsh.\n"}),
        client="claude-code",
    )
    return home


def _dock(walk: Walk, name: str) -> QWidget:
    """The window's part (a dock, a dialog) of this object name."""
    found = walk.window.findChild(QWidget, name)
    assert found is not None, name
    return found


def _panel_takes_and_gives_back(walk: Walk, key: str, dock_name: str) -> WalkSteps:
    """From the open file's text: the panel's key, ↓ ↓ Enter, then Escape."""
    editor = walk.window.memory_tab.controller.editor
    yield from opened(walk, GIT)
    text = editor.buffer_text()
    yield Keys(key)
    dock = _dock(walk, dock_name)
    yield Until(dock.isVisible, dock_name)
    yield Until(lambda: focus_in(dock), f"the keyboard in {dock_name}")  # as a person waits
    walk.note("focus", focus_name())
    walk.note("in_panel", focus_in(dock))
    yield Keys("Down", "Down", "Return")
    walk.note("text_kept", editor.buffer_text() == text)
    if not focus_in(dock):  # Enter on a finding opens it: go back to the panel to leave it
        yield Keys(key, key)
    yield Keys("Escape")
    walk.note("back_in_text", focus_in(editor.text_edit))
    walk.note("panel_stays", dock.isVisible())


def check_panel(walk: Walk) -> WalkSteps:
    yield from _panel_takes_and_gives_back(walk, "ctrl+shift+k", "checkDock")


def trust_panel(walk: Walk) -> WalkSteps:
    """From the open file's text: View → Trust's key, ↓ ↓ (Enter on a contradiction opens
    its two files side by side, a dialog of its own), then Escape."""
    editor = walk.window.memory_tab.controller.editor
    yield from opened(walk, GIT)
    text = editor.buffer_text()
    yield Keys("ctrl+shift+t")
    dock = _dock(walk, "trustDock")
    yield Until(dock.isVisible, "trustDock")
    yield Until(lambda: focus_in(dock), "the keyboard in trustDock")
    walk.note("focus", focus_name())
    walk.note("in_panel", focus_in(dock))
    yield Keys("Down", "Down", "x")
    walk.note("text_kept", editor.buffer_text() == text)
    yield Keys("Escape")
    walk.note("back_in_text", focus_in(editor.text_edit))
    walk.note("panel_stays", dock.isVisible())


def needs_you_room(walk: Walk) -> WalkSteps:
    """No file open, from the tree: View → What needs you's key puts the keyboard in the
    room's list, ↓ walks it, Escape goes back to the tree."""
    window = walk.window
    tree = window.memory_tab.tree
    tree.setFocus()
    yield Until(tree.hasFocus, "the keyboard in the tree")
    yield Keys("alt+3")
    room = _dock(walk, "needsYouRoom")
    yield Until(lambda: focus_in(room), "the keyboard in the room")
    walk.note("in_room", focus_in(room))
    yield Keys("Down")
    walk.note("no_file_opened", window.memory_tab.controller.editor.current_ref is None)
    yield Keys("Escape")
    walk.note("back_in_tree", tree.hasFocus())


def history_panel(walk: Walk) -> WalkSteps:
    yield from _panel_takes_and_gives_back(walk, "ctrl+shift+h", "historyDock")


def blame(walk: Walk) -> WalkSteps:
    """From the tree: the blame shows beside the open file's text, which takes the
    keyboard; Escape goes back to the tree; the line's card by its key, Escape closes it."""
    window = walk.window
    editor, tree = window.memory_tab.controller.editor, window.memory_tab.tree
    yield from opened(walk, GIT)
    tree.setFocus()
    yield Until(tree.hasFocus, "the keyboard in the tree")
    yield Keys("ctrl+alt+b")
    walk.note("in_text", focus_in(editor.text_edit))
    yield Keys("Escape")
    walk.note("back_in_tree", tree.hasFocus())
    editor.text_edit.setFocus()
    blame_feature = window.context.actions.action("blame.toggle")
    walk.note("blame_shown", blame_feature.isChecked())
    yield Until(lambda: focus_in(editor.text_edit), "the keyboard in the text")
    gutter = editor.text_edit.findChild(QWidget, "blameGutter")
    walk.note("gutter", gutter is not None)
    yield Keys("ctrl+alt+l")
    card = QApplication.activePopupWidget()
    walk.note("card", card.objectName() if card is not None else None)
    yield Keys("Escape")
    walk.note("card_closed", QApplication.activePopupWidget() is None)
    walk.note("back_in_text_after_card", focus_in(editor.text_edit))


def inbox(walk: Walk) -> WalkSteps:
    window = walk.window
    panel = window.memory_tab.controller.inbox
    editor = window.memory_tab.controller.editor
    yield Until(lambda: len(panel.items) == 1, "the proposal")
    yield from opened(walk, GIT)
    yield Keys("ctrl+shift+i")
    walk.note("focus", focus_name())
    walk.note("in_list", focus_in(panel.list))
    walk.note("selected", panel.selected_ids() == [panel.items[0].id])
    yield Keys("Escape")
    walk.note("back_in_text", focus_in(editor.text_edit))


def inbox_narrow(walk: Walk) -> WalkSteps:
    """Beside a terminal (683 px, one pane at a time): from the open file, the Inbox's key
    shows the files with the keyboard in the Inbox, and Escape shows the file again with
    the keyboard in its text."""
    window = walk.window
    panel = window.memory_tab.controller.inbox
    editor = window.memory_tab.controller.editor
    yield Until(lambda: len(panel.items) == 1, "the proposal")
    yield from opened(walk, GIT)
    walk.note("narrow", window.memory_tab.panes.narrow)
    yield Keys("ctrl+shift+i")
    walk.note("in_list", focus_in(panel.list))
    yield Keys("Escape")
    walk.note("editor_shown", editor.isVisible())
    walk.note("back_in_text", focus_in(editor.text_edit))


def loads(walk: Walk) -> WalkSteps:
    editor = walk.window.memory_tab.controller.editor
    yield from opened(walk, GIT)
    yield Keys("ctrl+shift+l")
    yield Until(lambda: walk.window.findChild(QWidget, "loadsDialog"), "the loads dialog")
    dialog = _dock(walk, "loadsDialog")
    yield Until(dialog.isActiveWindow, "the dialog active")
    walk.note("focus", focus_name())
    walk.note("in_dialog", focus_in(dialog))
    yield Keys("Escape")
    yield Until(walk.window.isActiveWindow, "the window active again")
    walk.note("dialog_closed", not dialog.isVisible())
    walk.note("back_in_text", focus_in(editor.text_edit))


def context_menu_keys(walk: Walk) -> WalkSteps:
    """Shift+F10 and the Menu key open the row's context menu in the tree, and the text's
    in the editor, where the keyboard is (not where the pointer happens to be)."""
    window = walk.window
    tree = window.memory_tab.tree
    editor = window.memory_tab.controller.editor
    yield from opened(walk, GIT)
    tree.setFocus()
    yield Until(tree.hasFocus, "the keyboard in the tree")
    for key in ("shift+F10", "Menu"):
        yield Keys(key, until=QApplication.activePopupWidget)
        menu = QApplication.activePopupWidget()
        titles = [a.text().replace("&", "") for a in menu.actions()] if menu else []
        walk.note(f"tree:{key}", titles)
        row = tree.visualRect(tree.currentIndex())
        walk.note(f"tree_at_row:{key}", bool(menu) and _near(menu, tree.viewport(), row))
        yield Keys("Escape", until=lambda: QApplication.activePopupWidget() is None)
    editor.text_edit.setFocus()
    yield Until(lambda: focus_in(editor.text_edit), "the keyboard in the text")
    yield Keys("shift+F10", until=QApplication.activePopupWidget)
    menu = QApplication.activePopupWidget()
    walk.note("text:shift+F10", [a.text().replace("&", "") for a in menu.actions()] if menu else [])
    yield Keys("Escape", until=lambda: QApplication.activePopupWidget() is None)


def _near(menu: QWidget, view: QWidget, row: QRect) -> bool:
    """Whether `menu` opened by the row `row` of `view` (within a row's height of it)."""
    where = view.mapToGlobal(row.center())
    return abs(menu.geometry().top() - where.y()) <= 2 * row.height() + 4


WALKS = (
    WalkSpec("check_panel", check_panel, main_home, workspace_id=MAIN),
    WalkSpec("history_panel", history_panel, main_home, workspace_id=MAIN),
    WalkSpec("trust_panel", trust_panel, main_home, workspace_id=MAIN),
    WalkSpec("needs_you_room", needs_you_room, main_home, workspace_id=MAIN),
    WalkSpec("blame", blame, main_home, workspace_id=MAIN),
    WalkSpec("inbox_key", inbox, home_with_a_proposal, workspace_id=MAIN),
    WalkSpec("inbox_narrow", inbox_narrow, home_with_a_proposal, width=683, workspace_id=MAIN),
    WalkSpec("loads", loads, main_home, workspace_id=MAIN),
    WalkSpec("context_menu_keys", context_menu_keys, main_home, workspace_id=MAIN),
)
