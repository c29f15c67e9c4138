"""The Markdown source's text widget: a `QPlainTextEdit` with the keys of a code editor.

- Redo is Ctrl+Shift+Z and Ctrl+Y on every desktop (`widgets.REDO_KEYS`: on X11 Qt's
  own Redo is Ctrl+Shift+Z only; the description field gets both by `give_redo_keys`).
- Tab never traps the keyboard. In the frontmatter, where a tab character is invalid YAML,
  Tab and Shift+Tab move the focus on (and back); elsewhere they indent, unless "Tab moves
  focus" is on (Ctrl+M, as in VS Code), which makes them move the focus everywhere.
  The mode is one for the whole application, as VS Code's is.
"""

from __future__ import annotations

import logging
from typing import ClassVar

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from memtab.components.editor.text_buffer import buffer_from_raw
from memtab.gui.widgets import is_redo_key
from memtab.store.frontmatter import find_frontmatter

logger = logging.getLogger(__name__)

_CHORD_MODIFIERS = (
    Qt.KeyboardModifier.ControlModifier
    | Qt.KeyboardModifier.AltModifier
    | Qt.KeyboardModifier.MetaModifier
)
_FRONTMATTER_SCAN_BLOCKS = 200
"""How far down a closing fence is looked for (a frontmatter is a few lines)."""


class SourceEdit(QPlainTextEdit):
    """The editor's source text (see the module docstring)."""

    tab_moves_focus: ClassVar[bool] = False
    """Ctrl+M's mode: Tab moves the focus instead of indenting (every source edit)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)

    @classmethod
    def set_tab_moves_focus(cls, on: bool) -> None:
        """Turn "Tab moves focus" on or off (Ctrl+M)."""
        cls.tab_moves_focus = on

    def in_frontmatter(self) -> bool:
        """Whether the cursor is inside the frontmatter (between its fences, or on one)."""
        document = self.document()
        first = document.firstBlock()
        if first.text().rstrip("\r") != "---":
            return False
        block = first.next()
        lines = [first.text()]
        while block.isValid() and len(lines) < _FRONTMATTER_SCAN_BLOCKS:
            lines.append(block.text())
            if block.text().rstrip("\r") in ("---", "..."):
                break
            block = block.next()
        head = buffer_from_raw("\n".join(lines) + "\n")
        if find_frontmatter(head) is None:
            return False
        return self.textCursor().blockNumber() < len(lines)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Tab and Shift+Tab (see the module docstring), and Redo's keys."""
        if is_redo_key(event):
            if not self.isReadOnly():
                self.redo()
            event.accept()
            return
        plain_tab = event.key() in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab) and not (
            event.modifiers() & _CHORD_MODIFIERS
        )  # Ctrl+Tab, Ctrl+Shift+Tab: the editor's tabs, not the focus
        if plain_tab and self._tab_moves_focus():
            forward = event.key() == Qt.Key.Key_Tab and not (
                event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            )
            # QPlainTextEdit's own focusNextPrevChild refuses while it takes Tab: QWidget's.
            QWidget.focusNextPrevChild(self, forward)
            event.accept()
            return
        super().keyPressEvent(event)

    def _tab_moves_focus(self) -> bool:
        return self.tab_moves_focus or self.isReadOnly() or self.in_frontmatter()
