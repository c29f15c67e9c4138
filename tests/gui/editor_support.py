"""Shared fixtures and helpers of the editor panel's GUI tests.

Import the fixtures into a test module (`store = editor_support.store`, …) to use them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from pytestqt.qtbot import QtBot

from memtab.components.activity.own_writes import OwnWrites
from memtab.components.editor.leaving import DiscardChoice
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.file_protocol.memory_file import MemoryFile
from memtab.gui.context import WindowContext
from memtab.gui.editor.editor import EditorPanel
from memtab.store.home import Home
from memtab.store.paths import VirtualPath, parse_virtual_path
from memtab.store.scopes.memory import MemoryStore
from support.memory_paths import vpath

NOTES = parse_virtual_path("/memories/global/notes.md")
OTHER = parse_virtual_path("/memories/global/other.md")


def ref(path: VirtualPath) -> MemoryFileRef:
    """The file reference of a mux file (what the panel's signals carry)."""
    return MemoryFileRef.of_mux(path)


ORIGINAL = "---\ndescription: Build notes\nname: notes\n---\n# Notes\n\n- first\n- second\n"


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    memory_store = MemoryStore(Home(tmp_path / "home"))
    memory_store.create_file(vpath(NOTES), ORIGINAL)
    memory_store.create_file(vpath(OTHER), "# Other\n")
    return memory_store


@pytest.fixture
def own_writes() -> OwnWrites:
    return OwnWrites()


@pytest.fixture
def panel(qtbot: QtBot, store: MemoryStore, own_writes: OwnWrites) -> Iterator[EditorPanel]:
    context = WindowContext(store.home, own_writes=own_writes)
    editor = EditorPanel(context)
    context.owned_by(editor)  # the panel is the window here: it owns the context,
    context.actions.attach(editor)  # and Save's keys live on it
    qtbot.addWidget(editor)
    editor.resize(900, 600)
    editor.set_store(store)
    yield editor
    editor.shutdown()
    context.shutdown()


def open_loaded(
    qtbot: QtBot, panel: EditorPanel, target: VirtualPath | MemoryFile, *, keep: bool = False
) -> None:
    """Open `target` (a mux file's path, or any memory file) and wait until its text is
    shown: the panel reads it on the file channel."""
    if isinstance(target, VirtualPath):
        panel.open_file(target, keep=keep)
    else:
        panel.open(target, keep=keep)
    settle(qtbot, panel)


def settle(qtbot: QtBot, panel: EditorPanel) -> None:
    """Wait until no tab's read or save is on its way: what opening, following the disk,
    a choice of the bar or a save asked for is shown."""
    qtbot.waitUntil(lambda: not panel.reading and not panel.saving)


def saved(qtbot: QtBot, panel: EditorPanel) -> bool:
    """Save the current tab and wait for the outcome (saves run on the file channel)."""
    outcome: list[bool] = []
    panel.save(outcome.append)
    qtbot.waitUntil(lambda: bool(outcome))
    return outcome[0]


def wait_saved(qtbot: QtBot, panel: EditorPanel) -> None:
    """Wait until no tab's save is on its way to disk (one a button or key asked for)."""
    qtbot.waitUntil(lambda: not panel.saving)


def disk_text(store: MemoryStore, path: VirtualPath = NOTES) -> str:
    return store.physical(path).read_text(encoding="utf-8")


def write_disk(store: MemoryStore, text: str, path: VirtualPath = NOTES) -> None:
    """A write by someone else (an agent, a text editor): straight to the file."""
    store.physical(path).write_text(text, encoding="utf-8")


def type_at_end(qtbot: QtBot, panel: EditorPanel, text: str) -> None:
    editor = panel.text_edit
    editor.moveCursor(QTextCursor.MoveOperation.End)
    for index, line in enumerate(text.split("\n")):
        if index:
            qtbot.keyClick(editor, Qt.Key.Key_Return)  # keyClicks cannot send newlines
        qtbot.keyClicks(editor, line)


def replace_in_buffer(panel: EditorPanel, old: str, new: str) -> None:
    """Edit the buffer as a user would: select `old` (its first occurrence), type `new`."""
    start = panel.buffer_text().index(old)
    cursor = panel.text_edit.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(start + len(old), QTextCursor.MoveMode.KeepAnchor)
    cursor.insertText(new)
    panel.text_edit.setTextCursor(cursor)


def show_and_focus(qtbot: QtBot, panel: EditorPanel) -> None:
    panel.show()
    qtbot.waitExposed(panel)
    panel.activateWindow()
    panel.text_edit.setFocus()
    qtbot.waitUntil(panel.text_edit.hasFocus)


def patch_choice(
    monkeypatch: pytest.MonkeyPatch, panel: EditorPanel, choice: DiscardChoice
) -> list[list[str]]:
    """Answer the unsaved-changes question with `choice`; returns the names asked about,
    one list per question."""
    asked: list[list[str]] = []

    def ask(names: list[str], answer: Callable[[DiscardChoice], None]) -> None:
        asked.append(list(names))
        answer(choice)

    monkeypatch.setattr(panel, "_ask_unsaved", ask)
    return asked
