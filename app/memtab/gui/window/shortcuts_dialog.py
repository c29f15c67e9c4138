"""Help → Keyboard shortcuts: a table made from the registered actions (never hand-kept:
`gui.window.menus.shortcut_rows`)."""

from __future__ import annotations

import html
import logging

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTextBrowser, QVBoxLayout, QWidget

from memtab.gui.style import mute
from memtab.gui.window.menus import ShortcutRow

logger = logging.getLogger(__name__)

# Keys that belong to a widget, not to an action: how the search field and the tree move.
FIELD_NOTES = (
    "In the search box, Esc clears it and ↓ or Enter goes to the results. "
    "Drag files and folders onto a folder or scope to move them, across scopes too."
)


def shortcuts_html(rows: list[ShortcutRow]) -> str:
    """The table of rows, grouped by section (a menu, or a feature)."""
    parts = ['<table cellspacing="0" cellpadding="3">']
    section = None
    for row in rows:
        if row.section != section:
            section = row.section
            parts.append(f'<tr><td colspan="2"><br><b>{html.escape(section)}</b></td></tr>')
        parts.append(
            f"<tr><td><code>{html.escape(row.keys)}</code>&nbsp;&nbsp;</td>"
            f"<td>{html.escape(row.name)}</td></tr>"
        )
    parts.append("</table>")
    return "".join(parts)


class ShortcutsDialog(QDialog):
    """The keyboard shortcuts of the window's actions."""

    def __init__(self, rows: list[ShortcutRow], parent: QWidget | None = None) -> None:
        """Show `rows` (see `menus.shortcut_rows`)."""
        super().__init__(parent)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle("Keyboard shortcuts — Memtab")
        self.rows = rows
        self.table = QTextBrowser(self)
        self.table.setAccessibleName("Keyboard shortcuts")
        self.table.setHtml(shortcuts_html(rows))
        notes = QLabel(FIELD_NOTES, self)
        notes.setWordWrap(True)
        mute(notes)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addWidget(notes)
        layout.addWidget(buttons)
        self.resize(460, 560)
