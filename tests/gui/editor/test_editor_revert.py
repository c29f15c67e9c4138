"""File → Revert file: the version on disk in place of the draft, which Undo brings back."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from gui import editor_support
from gui.editor_support import NOTES, disk_text, open_loaded, settle, type_at_end, write_disk
from memtab.gui.editor.editor import EditorPanel
from memtab.store.scopes.memory import MemoryStore

store = editor_support.store
own_writes = editor_support.own_writes
panel = editor_support.panel


def test_revert_loads_the_disk_and_undo_brings_the_draft_back(
    qtbot: QtBot, panel: EditorPanel, store: MemoryStore
) -> None:
    open_loaded(qtbot, panel, NOTES)
    revert = panel.editor_actions.revert_action
    type_at_end(qtbot, panel, "\n- a draft line")
    assert panel.is_dirty
    write_disk(store, "# Notes\n- changed by an agent meanwhile\n")
    revert.trigger()
    settle(qtbot, panel)
    assert panel.buffer_text() == disk_text(store) == "# Notes\n- changed by an agent meanwhile\n"
    assert not panel.is_dirty
    panel.text_edit.undo()
    assert "- a draft line" in panel.buffer_text()
