"""Help → Keyboard shortcuts: a table made from the menus' actions (never hand-kept)."""

from __future__ import annotations

import html
import logging

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTextBrowser, QVBoxLayout, QWidget

from memtab.gui.style import mute

logger = logging.getLogger(__name__)

# Keys that belong to a widget, not to an action: how the search field and the tree move.
FIELD_NOTES = (
    "In the search box, Esc clears it and ↓ or Enter goes to the results. "
    "Drag files and folders onto a folder or scope to move them, across scopes too."
)


def shortcuts_html(rows: list[tuple[str, str, str]]) -> str:
    """The table of (menu, action, keys) rows, grouped by menu."""
    parts = ['<table cellspacing="0" cellpadding="3">']
    menu = None
    for row_menu, action, keys in rows:
        if row_menu != menu:
            menu = row_menu
            parts.append(f'<tr><td colspan="2"><br><b>{html.escape(menu)}</b></td></tr>')
        parts.append(
            f"<tr><td><code>{html.escape(keys)}</code>&nbsp;&nbsp;</td>"
            f"<td>{html.escape(action)}</td></tr>"
        )
    parts.append("</table>")
    return "".join(parts)


class ShortcutsDialog(QDialog):
    """The keyboard shortcuts of the window's actions."""

    def __init__(self, rows: list[tuple[str, str, str]], parent: QWidget | None = None) -> None:
        """Show `rows` (see `window_menus.shortcut_rows`)."""
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
