"""Blame after the editor's Keep both (docs/formats.md §20.2): the lines the other program
wrote stay that program's ("Another program"), the draft's are the user's."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from gui import editor_support
from gui.editor_support import NOTES, disk_text, saved, settle, show_and_focus
from memtab.blame.service import blame_memory_file
from memtab.gui.editor.editor import EditorPanel
from memtab.store.scopes.memory import MemoryStore

from .test_editor_merge import MERGED, edit_then_agent_appends, open_diff_with_enter

store = editor_support.store
own_writes = editor_support.own_writes
panel = editor_support.panel


def test_keep_both_leaves_the_other_programs_line_its_own(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    edit_then_agent_appends(qtbot, panel, store)
    show_and_focus(qtbot, panel)
    dialog = open_diff_with_enter(qtbot, panel)
    qtbot.waitUntil(dialog.button("merge").isEnabled)
    qtbot.keyClick(dialog, Qt.Key.Key_Return)  # Keep both
    settle(qtbot, panel)
    assert saved(qtbot, panel) and disk_text(store) == MERGED
    actors = {line.text: line.actor for line in blame_memory_file(store, str(NOTES)).lines}
    assert actors["- appended by the agent"] == "external"
    assert actors["- first, edited by me"] == "user"
