"""Help → Keyboard shortcuts: a table made from the registered actions (never hand-kept:
`gui.window.menus.shortcut_rows`), then the keys that belong to a widget rather than to an
action (the editor's Tab, the find bar's Enter, the search box's Esc) — with a filter box:
typing keeps the rows whose name, keys or section hold every word typed."""

from __future__ import annotations

import logging

from PySide6.QtCore import QSize, Slot
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from memtab.components.rich_text import escape_html
from memtab.gui.toolkit.dialog_layout import fit_to_screen, give_mnemonics
from memtab.gui.toolkit.style import mute
from memtab.gui.window.menus import ShortcutRow

logger = logging.getLogger(__name__)

FIELD_KEYS = (
    ShortcutRow(
        "field.tab",
        "In the editor's text",
        "Indent (the selected lines) · outdent; in the frontmatter, or while Tab moves "
        "focus is on (Ctrl+M), move the focus",
        "Tab, Shift+Tab",
    ),
    ShortcutRow("field.escape", "In the editor's text", "Close the find bar", "Esc"),
    ShortcutRow(
        "find.enter", "In the find bar", "Next match · previous match", "Enter, Shift+Enter"
    ),
    ShortcutRow("find.replace", "In the find bar", "Replace the match (in Replace with)", "Enter"),
    ShortcutRow("find.escape", "In the find bar", "Close it, back to the text", "Esc"),
    ShortcutRow("search.escape", "In the search box", "Clear the search", "Esc"),
    ShortcutRow("search.down", "In the search box", "Go to the results", "↓, Enter"),
    ShortcutRow("tree.type", "In the tree", "Go to the row whose name starts so", "letters"),
    ShortcutRow("tree.open", "In the tree", "Open the file (or fold the folder)", "Enter"),
    ShortcutRow("inbox.enter", "In the Inbox", "Accept the selected proposals", "Enter"),
    ShortcutRow("window.dialogs", "In dialogs", "A button: its underlined letter", "Alt+letter"),
)
"""Keys a widget handles itself (not registered actions): listed after the actions."""

NOTES = (
    "Drag files and folders onto a folder or scope to move them, across scopes too. "
    "Edit → Undo and Redo take back a file operation, or typing when a text has the focus."
)


def matches(row: ShortcutRow, query: str) -> bool:
    """Whether every word of `query` is in the row's name, keys or section."""
    haystack = f"{row.section} {row.name} {row.keys}".casefold()
    return all(word in haystack for word in query.casefold().split())


def shortcuts_html(rows: list[ShortcutRow]) -> str:
    """The table of rows, grouped by section (a menu, a feature, a field)."""
    if not rows:
        return "<p>No shortcut matches.</p>"
    parts = ['<table cellspacing="0" cellpadding="3">']
    section = None
    for row in rows:
        if row.section != section:
            section = row.section
            parts.append(f'<tr><td colspan="2"><br><b>{escape_html(section)}</b></td></tr>')
        parts.append(
            f"<tr><td><code>{escape_html(row.keys)}</code>&nbsp;&nbsp;</td>"
            f"<td>{escape_html(row.name)}</td></tr>"
        )
    parts.append("</table>")
    return "".join(parts)


class ShortcutsDialog(QDialog):
    """The keyboard shortcuts of the window's actions and fields, filterable."""

    def __init__(self, rows: list[ShortcutRow], parent: QWidget | None = None) -> None:
        """Show `rows` (see `menus.shortcut_rows`), then the fields' own keys."""
        super().__init__(parent)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle("Keyboard shortcuts — Memtab")
        self.rows = [*rows, *FIELD_KEYS]
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setAccessibleName("Filter shortcuts")
        self.filter_edit.setPlaceholderText("Filter: a name or a key (redo, Ctrl+S, tab…)")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(self._on_filter_edit_text_changed)
        self.table = QTextBrowser(self)
        self.table.setAccessibleName("Keyboard shortcuts")
        notes = QLabel(NOTES, self)
        notes.setWordWrap(True)
        mute(notes)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        give_mnemonics(buttons)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter_edit)
        layout.addWidget(self.table, 1)
        layout.addWidget(notes)
        layout.addWidget(buttons)
        self.shown_rows: list[ShortcutRow] = []
        self._show(self.rows)
        self.filter_edit.setFocus()
        fit_to_screen(self, QSize(520, 600), remember="shortcuts")

    def _show(self, rows: list[ShortcutRow]) -> None:
        self.shown_rows = rows
        self.table.setHtml(shortcuts_html(rows))

    @Slot(str)
    def _on_filter_edit_text_changed(self, text: str) -> None:
        self._show([row for row in self.rows if matches(row, text)])
