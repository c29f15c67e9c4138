"""Help → Keyboard shortcuts' filter and table, without Qt."""

from __future__ import annotations

from memtab.components.window.menus import ShortcutRow, matches, shortcuts_html

SAVE = ShortcutRow("editor.save", "File", "Save", "Ctrl+S")
REDO = ShortcutRow("files.redo", "Edit", "Redo <last>", "Ctrl+Shift+Z")


def test_the_filter_wants_every_word_in_the_name_keys_or_section() -> None:
    assert matches(SAVE, "")
    assert matches(SAVE, "save ctrl+s")
    assert matches(SAVE, "FILE")
    assert not matches(SAVE, "save redo")
    assert matches(REDO, "edit z")


def test_the_table_groups_rows_by_section_once_each() -> None:
    other = ShortcutRow("window.quit", "File", "Quit", "Ctrl+Q")
    html = shortcuts_html([SAVE, other, REDO])
    assert html.count("<b>File</b>") == 1 and html.count("<b>Edit</b>") == 1
    assert html.index("Save") < html.index("Quit") < html.index("<b>Edit</b>")


def test_the_table_escapes_what_it_shows_and_says_when_nothing_matches() -> None:
    assert "Redo &lt;last&gt;" in shortcuts_html([REDO])
    assert shortcuts_html([]) == "<p>No shortcut matches.</p>"
