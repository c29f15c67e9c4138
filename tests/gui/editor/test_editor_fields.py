"""The editor panel: a file it cannot edit opens read-only (binary, over the cap, an orphan),
the description field and the frontmatter follow each other, and the preview and mode
buttons (test_editor.py: opening, saving, conflicts, changes on disk)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton
from pytestqt.qtbot import QtBot

from gui import editor_support
from gui.editor_support import (
    NOTES,
    ORIGINAL,
    OTHER,
    open_loaded,
    saved,
    settle,
    type_at_end,
    write_disk,
)
from memtab.components.editor.panel import ViewMode
from memtab.gui.editor.editor import EditorPanel
from memtab.store.files import MAX_FILE_BYTES
from memtab.store.scopes.memory import MemoryStore

# Showing a top-level window on the offscreen platform logs this harmless warning.

store = editor_support.store
own_writes = editor_support.own_writes
panel = editor_support.panel


# --- read-only files ---------------------------------------------------------------------------


def test_binary_file_opens_read_only(panel: EditorPanel, store: MemoryStore, qtbot: QtBot) -> None:
    store.physical(NOTES).write_bytes(b"abc\x00def")
    open_loaded(qtbot, panel, NOTES)
    assert panel.is_read_only
    assert panel.text_edit.isReadOnly()
    assert panel.description_edit.isReadOnly()
    # No field that looks editable: no hint to fill it in, no stop for Tab.
    assert panel.description_edit.placeholderText() == ""
    assert panel.description_edit.focusPolicy() == Qt.FocusPolicy.NoFocus
    assert "NUL" in panel.message_bar.text
    assert not panel.save_button.isEnabled()
    assert not saved(qtbot, panel)
    assert "\u2400" in panel.buffer_text()


def test_over_cap_file_opens_read_only_showing_its_start(
    qtbot: QtBot, panel: EditorPanel, store: MemoryStore
) -> None:
    write_disk(store, "y" * (MAX_FILE_BYTES + 10))
    open_loaded(qtbot, panel, NOTES)
    assert panel.is_read_only
    assert "cap" in panel.message_bar.text
    assert len(panel.buffer_text()) == MAX_FILE_BYTES


def test_open_read_only_shows_an_orphan_file(
    qtbot: QtBot, panel: EditorPanel, tmp_path: Path
) -> None:
    orphan = tmp_path / "orphan.md"
    orphan.write_text("# Old project\n", encoding="utf-8")
    panel.open_read_only(orphan, "Orphan: old-prototype/orphan.md", "An orphan dir")
    settle(qtbot, panel)
    assert panel.is_read_only
    assert panel.current_path is None
    assert panel.buffer_text() == "# Old project\n"
    assert panel.message_bar.text == "An orphan dir"


# --- description field ---------------------------------------------------------------------


def test_description_field_shows_the_frontmatter_description(
    qtbot: QtBot, panel: EditorPanel
) -> None:
    open_loaded(qtbot, panel, NOTES)
    assert panel.description_edit.text() == "Build notes"


def test_typing_in_the_description_field_rewrites_the_frontmatter(
    panel: EditorPanel, qtbot: QtBot
) -> None:
    open_loaded(qtbot, panel, NOTES)
    field = panel.description_edit
    field.selectAll()
    qtbot.keyClicks(field, "Notes: how to build")
    assert panel.buffer_text() == ORIGINAL.replace(
        "description: Build notes", "description: 'Notes: how to build'"
    )
    assert panel.is_dirty
    panel.text_edit.undo()  # one keystroke back
    assert "description: 'Notes: how to buil'\n" in panel.buffer_text()


def test_description_field_creates_and_removes_frontmatter(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    open_loaded(qtbot, panel, OTHER)
    assert panel.description_edit.text() == ""
    qtbot.keyClicks(panel.description_edit, "Other things")
    assert panel.buffer_text() == "---\ndescription: Other things\n---\n# Other\n"
    panel.description_edit.selectAll()
    qtbot.keyClick(panel.description_edit, Qt.Key.Key_Backspace)
    assert panel.buffer_text() == "# Other\n"
    assert not panel.is_dirty  # back to what was loaded


def test_editing_the_frontmatter_updates_the_field(panel: EditorPanel, qtbot: QtBot) -> None:
    open_loaded(qtbot, panel, NOTES)
    cursor = panel.text_edit.textCursor()
    cursor.setPosition(ORIGINAL.index("Build notes") + len("Build notes"))
    panel.text_edit.setTextCursor(cursor)
    qtbot.keyClicks(panel.text_edit, " and tips")
    qtbot.waitUntil(lambda: panel.description_edit.text() == "Build notes and tips")
    assert "name: notes" in panel.buffer_text()


# --- preview -------------------------------------------------------------------------------------


def test_preview_renders_the_markdown_without_frontmatter(panel: EditorPanel, qtbot: QtBot) -> None:
    open_loaded(qtbot, panel, NOTES)
    panel.show()
    panel.set_view_mode(ViewMode.SPLIT)
    assert panel.preview.isVisibleTo(panel) and panel.text_edit.isVisibleTo(panel)
    rendered = panel.preview.toPlainText()
    assert "Notes" in rendered and "second" in rendered
    assert "description" not in rendered and "#" not in rendered
    heading = panel.preview.document().firstBlock()
    assert heading.blockFormat().headingLevel() == 1
    type_at_end(qtbot, panel, "\n## Later")
    qtbot.waitUntil(lambda: "Later" in panel.preview.toPlainText())
    panel.set_view_mode(ViewMode.PREVIEW)
    assert not panel.text_edit.isVisibleTo(panel)
    panel.set_view_mode(ViewMode.SOURCE)
    assert not panel.preview.isVisibleTo(panel)


def test_mode_buttons_switch_the_view(panel: EditorPanel, qtbot: QtBot) -> None:
    open_loaded(qtbot, panel, NOTES)
    modes = {b.accessibleName(): b for b in panel.findChildren(QToolButton)}
    qtbot.mouseClick(modes["Preview view"], Qt.MouseButton.LeftButton)
    assert panel.view_mode is ViewMode.PREVIEW
    qtbot.mouseClick(modes["Split view"], Qt.MouseButton.LeftButton)
    assert panel.view_mode is ViewMode.SPLIT
