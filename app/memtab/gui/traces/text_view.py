"""A read-only view for long text that loads megabytes without freezing.

`LongTextView` shows the start of a value at once (64 KiB by default) and the rest only
when asked ("Show all"), appended in chunks from a zero-delay timer so the window keeps
painting and answering input while a multi-megabyte dump streams in.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtGui import QFontDatabase, QTextCursor, QTextOption
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from memtab.gui.toolkit.style import mute
from memtab.humanize import size_text

DEFAULT_LIMIT_CHARS = 64 * 1024
CHUNK_CHARS = 256 * 1024


class LongTextView(QWidget):
    """Read-only text: the first `limit` characters now, the rest on "Show all"."""

    fully_loaded = Signal()
    """The whole text is in the editor (emitted after the last chunk)."""

    def __init__(
        self,
        accessible_name: str,
        parent: QWidget | None = None,
        *,
        monospace: bool = True,
        limit: int = DEFAULT_LIMIT_CHARS,
    ) -> None:
        """`accessible_name` names the text area for screen readers and tests."""
        super().__init__(parent)
        self._limit = limit
        self._text = ""
        self._loaded = 0  # characters of `_text` in the editor

        self.editor = QPlainTextEdit(self)
        self.editor.setReadOnly(True)
        self.editor.setUndoRedoEnabled(False)
        self.editor.setAccessibleName(accessible_name)
        self.editor.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.editor.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        if monospace:
            self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))

        self._more_label = QLabel(self)
        mute(self._more_label)
        self.more_button = QPushButton("Show all", self)
        self.more_button.setAccessibleName(f"Show all of {accessible_name}")
        self.more_button.clicked.connect(self._on_more_button_clicked)
        self._more_bar = QWidget(self)
        bar = QHBoxLayout(self._more_bar)
        bar.setContentsMargins(4, 2, 4, 2)
        bar.addWidget(self._more_label, 1)
        bar.addWidget(self.more_button)
        self._more_bar.hide()

        self._chunk_timer = QTimer(self)
        self._chunk_timer.setInterval(0)
        self._chunk_timer.timeout.connect(self._on_chunk_timer_timeout)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self._more_bar)

    @property
    def full_text(self) -> str:
        """The whole value, whatever part of it is shown."""
        return self._text

    @property
    def is_complete(self) -> bool:
        """Whether the editor holds the whole value."""
        return self._loaded >= len(self._text)

    def set_placeholder(self, text: str) -> None:
        """What the empty view says (e.g. "The memory file was empty")."""
        self.editor.setPlaceholderText(text)

    def set_text(self, text: str) -> None:
        """Show `text`: all of it if short, else its start and a "Show all" bar."""
        self._chunk_timer.stop()
        self._text = text
        cut = _cut_point(text, self._limit)
        self._loaded = cut
        self.editor.setPlainText(text[:cut])
        self._update_more_bar()

    def show_all(self) -> None:
        """Append the rest of the text in chunks (returns at once)."""
        if not self.is_complete and not self._chunk_timer.isActive():
            self.more_button.setEnabled(False)
            self._chunk_timer.start()

    def _update_more_bar(self) -> None:
        if self.is_complete:
            self._more_bar.hide()
            return
        shown, total = size_text(self._loaded), size_text(len(self._text))
        self._more_label.setText(f"Showing the first {shown} of {total}")
        self.more_button.setEnabled(not self._chunk_timer.isActive())
        self._more_bar.show()

    @Slot()
    def _on_more_button_clicked(self) -> None:
        self.show_all()

    @Slot()
    def _on_chunk_timer_timeout(self) -> None:
        end = min(len(self._text), self._loaded + CHUNK_CHARS)
        cursor = QTextCursor(self.editor.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(self._text[self._loaded : end])
        self._loaded = end
        if self.is_complete:
            self._chunk_timer.stop()
            self._update_more_bar()
            self.fully_loaded.emit()
        else:
            percent = round(100 * self._loaded / len(self._text))
            self._more_label.setText(f"Loading… {percent}%")


def _cut_point(text: str, limit: int) -> int:
    """Where to cut `text` to show about `limit` characters: at a line end when one is near."""
    if len(text) <= limit:
        return len(text)
    newline = text.rfind("\n", limit // 2, limit)
    return newline + 1 if newline >= 0 else limit
