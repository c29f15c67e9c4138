"""A diff with its legend: `DiffPane` frames the one `DiffView` with what its two sides are
(`− version of 12:03 · + now`) and the counts; the History panel, Runs…, a revert's refusals
and the review of a consolidation plan all show their diffs in it."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from memtab.components.rich_text import escape_html
from memtab.components.text import counts_text
from memtab.components.text_diff import DiffResult
from memtab.gui.toolkit.style import Accent, accent_text, muted_text, set_style_sheet
from memtab.gui.toolkit.text.diff_view import DiffView
from memtab.gui.toolkit.widgets import WrappedLabel


class DiffPane(QWidget):
    """A `DiffView` under a legend naming its sides and the added/removed counts."""

    def __init__(self, parent: QWidget | None = None) -> None:
        """An empty pane; `set_sides`, then `set_diff` or `show_message`, fill it."""
        super().__init__(parent)
        self._old_label = ""
        self._new_label = ""
        # Wraps: a long side ("version of 12:03 by the consolidator") never widens the
        # pane — the History panel's dock grew when a version was picked.
        self.legend = WrappedLabel("", self)
        self.stats = QLabel(self)
        self.view = DiffView(self)
        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.addWidget(self.legend, 1)
        header.addWidget(self.stats)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(header)
        layout.addWidget(self.view, 1)
        self._recolor()

    @property
    def result(self) -> DiffResult | None:
        """The diff shown (None: a message instead)."""
        return self.view.result

    @property
    def text(self) -> str:
        """What the view shows (for tests and screen readers)."""
        return self.view.toPlainText()

    def set_sides(self, old_label: str, new_label: str) -> None:
        """What the removed (red) and added (green) lines are."""
        self._old_label, self._new_label = old_label, new_label
        self._recolor()

    def set_diff(self, result: DiffResult, identical_text: str = "No differences.") -> None:
        """Show a diff (`identical_text` when it has no changed line)."""
        self.view.set_diff(result, identical=identical_text)
        self.stats.setText(counts_text(result))

    def show_message(self, text: str) -> None:
        """Show a sentence instead of a diff (computing, nothing selected, a failure)."""
        self.view.show_sentence(text)
        self.stats.setText("")

    def changeEvent(self, event: QEvent) -> None:
        """Follow palette changes (light ↔ dark)."""
        if event.type() == QEvent.Type.PaletteChange:
            self._recolor()
        super().changeEvent(event)

    def _recolor(self) -> None:
        palette = self.palette()
        removed = accent_text(palette, Accent.REMOVED).name()
        added = accent_text(palette, Accent.ADDED).name()
        parts = []
        if self._old_label:
            parts.append(f"<span style='color:{removed}'>− {escape_html(self._old_label)}</span>")
        if self._new_label:
            parts.append(f"<span style='color:{added}'>+ {escape_html(self._new_label)}</span>")
        self.legend.setText("&nbsp;&nbsp;&nbsp;".join(parts))
        set_style_sheet(self.stats, f"color: {muted_text(palette).name()}")
