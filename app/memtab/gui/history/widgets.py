"""`RecordingNote`: the status bar's word while history is not being recorded.

The diffs and lists of rows the history screens show are the toolkit's (`DiffPane`:
`gui/toolkit/text/diff_pane.py`; `RowList`: `gui/toolkit/row_list.py`), shared with the
review of a consolidation plan.
"""

from __future__ import annotations

import logging

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel, QWidget

from memtab.gui.toolkit.style import Accent, accent_text

logger = logging.getLogger(__name__)


class RecordingNote(QLabel):
    """The status bar's word while what other programs change is not being recorded in
    history (a full disk): its tooltip says why and since when; hidden while it is."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("historyRecording")
        self.setAccessibleName("History recording")
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.WindowText, accent_text(palette, Accent.WARNING))
        self.setPalette(palette)
        self.setVisible(False)

    def show_notice(self, notice: tuple[str, str] | None) -> None:
        """Show `(word, what it means)`, or hide for None (history is recorded)."""
        word, meaning = notice if notice is not None else ("", "")
        self.setText(word)
        self.setToolTip(meaning)
        self.setVisible(notice is not None)
