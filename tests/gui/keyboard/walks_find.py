"""Walks of F3 and Shift+F3: Edit showed each twice (Find next, Next search result), one
key for two entries. One action each now, by where the keyboard is: in the open file its
next match, in the tree or the search field the search's next matching line."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QMenu

from gui.keyboard.driver import Keys, Text, Until, Walk, WalkSpec, WalkSteps, focus_in
from gui.keyboard.walks_editor import PYTHON, main_home, opened
from memtab.components.tree.nodes import NodeKind
from memtab.fs.atomic import atomic_write_text
from memtab.store.home import Home
from support.memory_home import MAIN, memory


def two_lines_home(folder: Path) -> Home:
    """The test home, python.md saying "body" on two lines (the other files on one)."""
    home = main_home(folder)
    atomic_write_text(
        home.global_root / "tools" / "python.md",
        memory("Python tooling", "Body: use ruff.\nThe body again.\n"),
    )
    return home


def _entries_with(menu: QMenu, key: str) -> list[str]:
    native = QKeySequence.SequenceFormat.PortableText
    return [
        action.text().replace("&", "")
        for action in menu.actions()
        if action.isVisible() and action.shortcut().toString(native) == key
    ]


def find_keys(walk: Walk) -> WalkSteps:
    editor = walk.window.memory_tab.controller.editor
    yield from opened(walk, PYTHON)
    yield Keys("alt+e", until=QApplication.activePopupWidget)
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu)
    walk.note("edit:F3", _entries_with(menu, "F3"))
    walk.note("edit:Shift+F3", _entries_with(menu, "Shift+F3"))
    yield Keys("Escape", until=lambda: QApplication.activePopupWidget() is None)
    # In the file: Ctrl+F "body", back in the text, F3 goes to its next line.
    yield Keys("ctrl+f")
    yield Text("body")
    text = editor.text_edit
    yield Until(lambda: text.textCursor().selectedText().lower() == "body", "the first match")
    text.take_keyboard()  # type: ignore[attr-defined]
    yield Until(lambda: focus_in(text), "the keyboard in the text")
    line = text.textCursor().blockNumber()
    yield Keys("F3")
    walk.note("in_file:moved", text.textCursor().blockNumber() != line)
    walk.note("in_file:same_file", editor.current_path == PYTHON)
    yield Keys("shift+F3")
    walk.note("in_file:back", text.textCursor().blockNumber() == line)
    # In the tree: search "body" (every file has it), F3 goes to the next matching line.
    tab = walk.window.memory_tab
    yield Keys("ctrl+shift+f")
    yield Text("body")
    tree = tab.tree
    yield Until(lambda: _match_rows(tab) >= 3, "the search's matching lines")
    tree.setFocus()
    yield Until(lambda: focus_in(tree), "the keyboard in the tree")
    yield Keys("F3")
    yield Until(lambda: tree.current_node() is not None, "a matching line")
    first = _where(walk)
    yield Keys("F3")
    yield Until(lambda: _where(walk) != first, "the next matching line")
    walk.note("in_tree:stepped", [first, _where(walk)])
    walk.note("in_tree:kept_keyboard", focus_in(tree))
    yield Keys("shift+F3")
    yield Until(lambda: _where(walk) == first, "the previous matching line")
    walk.note("in_tree:back", True)


def _match_rows(tab: object) -> int:
    model = tab.model  # type: ignore[attr-defined]
    return sum(1 for node in model.nodes() if node.kind is NodeKind.MATCH)


def _where(walk: Walk) -> tuple[str, int]:
    node = walk.window.memory_tab.tree.current_node()
    line = node.line_match.line if node is not None and node.line_match is not None else -1
    return (node.key if node is not None else "", line)


WALKS = (WalkSpec("find_keys", find_keys, two_lines_home, workspace_id=MAIN),)
