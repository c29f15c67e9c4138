"""An agent's proposal reviewed in the Inbox as what it would write: who proposed it and
what it does ("Changes /memories/…: 2 lines added, 1 removed", or why it cannot be
applied now) over the diff against the file as it is — a create's file whole, a replacement's or an
insert's lines with their context, a delete's lines gone — not the call in one line.

The panel asks for it (`inbox_jobs.load_review`, off the GUI thread) and hands the result
here; the diff is `gui.toolkit.text.diff_view`'s, scrolled by the keyboard like any text.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit, QVBoxLayout, QWidget

from memtab.components.rich_text import escape_html
from memtab.components.writer.inbox_view import MOVED_UNCHANGED, review_heading
from memtab.gui.toolkit.style import Accent, accent_text
from memtab.gui.toolkit.text.diff_view import DiffView
from memtab.gui.toolkit.widgets import WrappedLabel
from memtab.operations.writer import Reviewed

REVIEW_LINES = 12
"""The diff's height at most over the tree, in lines; more scroll."""
_NO_MAX_HEIGHT = 16_777_215  # Qt's QWIDGETSIZE_MAX


class ProposalReview(QWidget):
    """The review of one agent's proposal (see the module docstring); hidden until shown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("proposalReview")
        self.heading = WrappedLabel("", self)
        self.heading.setObjectName("proposalReviewHeading")
        self.heading.setTextFormat(Qt.TextFormat.RichText)
        self.diff = DiffView(self)
        self.diff.setAccessibleName("What the proposal would write")
        self.diff.setTabChangesFocus(True)  # a review, not a text: Tab goes on to the buttons
        self.diff.wraps_lines = True  # whole lines, however narrow the column
        self.diff.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        lines = self.diff.fontMetrics().lineSpacing()
        self._frame = 2 * self.diff.frameWidth()
        self._line = lines
        self.diff.setMinimumHeight(3 * lines + self._frame)
        self._error = accent_text(self.palette(), Accent.ERROR).name()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.heading)
        layout.addWidget(self.diff)
        self.set_roomy(False)
        self._origin = ""
        self.shown_id: str | None = None
        """The proposal whose review is shown (or is being read)."""
        self.hide()

    def set_roomy(self, roomy: bool) -> None:
        """Below the editor (`roomy`) the diff takes the room it is given; over the tree,
        at most REVIEW_LINES lines (more scroll)."""
        most = _NO_MAX_HEIGHT if roomy else REVIEW_LINES * self._line + self._frame
        self.diff.setMaximumHeight(most)
        layout = self.layout()
        if isinstance(layout, QVBoxLayout):
            layout.setStretchFactor(self.diff, 1 if roomy else 0)

    def show_reading(self, item_id: str, origin: str) -> None:
        """The proposal `item_id`'s review is on its way (`origin`: who proposed it)."""
        self.shown_id = item_id
        self._origin = origin
        self._say("Reading what it would write…")
        self.diff.show_computing()
        self.show()

    def show_review(self, reviewed: Reviewed) -> None:
        """Show what the proposal would write (or why it cannot be read)."""
        self.shown_id = reviewed.item_id
        preview = reviewed.preview
        if reviewed.heading is not None:  # a Gemini patch: its own words over its diff
            self._say(reviewed.heading, error=reviewed.refused)
            if reviewed.diff is not None:
                self.diff.set_diff(reviewed.diff, identical=MOVED_UNCHANGED)
        elif preview is None:
            self._say(f"Cannot show what it would write: {reviewed.problem}", error=True)
            self.diff.setPlainText("")
        else:
            self._say(review_heading(preview, reviewed.diff), error=preview.problem is not None)
            if reviewed.diff is not None:
                self.diff.set_diff(reviewed.diff, identical=MOVED_UNCHANGED)
        self.show()

    def clear(self) -> None:
        """Nothing to review (no agent's proposal selected alone)."""
        self.shown_id = None
        self.hide()

    def _say(self, text: str, *, error: bool = False) -> None:
        said = escape_html(text)
        if error:
            said = f'<span style="color: {self._error}">{said}</span>'
        self.heading.setText(f"<b>{escape_html(self._origin)}</b><br>{said}")
