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

from memtab.components.window.menus import (
    FIELD_KEYS,
    NOTES,
    ShortcutRow,
    matches,
    shortcuts_html,
)
from memtab.gui.toolkit.dialog_layout import fit_to_screen, give_mnemonics
from memtab.gui.toolkit.style import mute

logger = logging.getLogger(__name__)


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
