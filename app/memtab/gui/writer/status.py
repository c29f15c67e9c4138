"""The memory writer's corner of the status bar: what it is doing, what its last run did,
a link to the trace of a failed run, and a pause/resume button.

    widget = WriterStatusWidget()
    window.statusBar().addPermanentWidget(widget)
    widget.attach(supervisor)                      # status and runs in, pause/resume out
    widget.trace_requested.connect(window.show_trace)              # Path
    widget.news_opened.connect(open_news)                          # WriterNews

After a run that wrote, the line says "Recorded 3 notes in notes.md · just now" (the time
kept current); after one that queued suggestions, "Suggested 2 notes — review". Both are
links: `news_opened(WriterNews)` asks the window to open the file (the new lines
highlighted) or the suggestions. `news_arrived(WriterNews)` is for a desktop notification.

The pause button is a plain button whose text says what a click does (Pause / Resume):
both states look alike, never "pressed". Without `attach`, feed the widget with
`set_status(WriterStatus)` and `show_run(WriterRunResult)`, and listen to
`paused_changed(bool)`.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from memtab.components.writer.supervision import (
    NEWS_LINK,
    TRACE_LINK,
    WriterNews,
    WriterStatus,
    news_from_run,
    status_text,
    status_view,
)
from memtab.fs.clock import now_ms
from memtab.gui.toolkit.style import set_style_sheet
from memtab.gui.writer.supervisor import WriterSupervisor
from memtab.writer.job.result import WriterRunResult

logger = logging.getLogger(__name__)

NEWS_REFRESH_MS = 30_000  # "just now" → "1 min ago"


def run_news(result: WriterRunResult) -> WriterNews | None:
    """The news of a finished run, for the status bar (None: nothing worth saying)."""
    return news_from_run(
        outcome=result.outcome,
        workspace_id=result.workspace_id,
        workspace_name=result.workspace_name,
        memory_path=result.memory_path,
        before=result.before,
        after=result.after,
        suggested=result.suggested_count,
        at_ms=now_ms(),
        left_out=result.left_out_count,
    )


class WriterStatusWidget(QWidget):
    """Status-bar widget of the background memory writer.

    Signals:
        trace_requested(Path): the user clicked "view trace" of a failed run.
        paused_changed(bool): the pause button was clicked (or `setPaused` changed it).
        news_arrived(WriterNews): a run recorded or suggested notes.
        news_opened(WriterNews): the user clicked that news.
    """

    trace_requested = Signal(object)
    paused_changed = Signal(bool)
    news_arrived = Signal(object)
    news_opened = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._status = WriterStatus()
        self._news: WriterNews | None = None
        self._paused = False
        self._dot = QLabel("●", self)
        self._dot.setObjectName("writerStatusDot")
        self._label = QLabel(self)
        self._label.setObjectName("writerStatusText")
        self._label.setTextFormat(Qt.TextFormat.RichText)
        self._label.setTextInteractionFlags(
            Qt.TextInteractionFlag.LinksAccessibleByMouse
            | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
        )
        self._label.linkActivated.connect(self._on_label_link_activated)
        self._toggle = QToolButton(self)
        self._toggle.setObjectName("writerPauseToggle")
        self._toggle.setAutoRaise(True)
        self._toggle.clicked.connect(self._on_toggle_clicked)
        self._refresh = QTimer(self)
        self._refresh.setInterval(NEWS_REFRESH_MS)
        self._refresh.timeout.connect(self._on_refresh_timeout)

        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        layout.setSpacing(4)
        layout.addWidget(self._dot)
        layout.addWidget(self._label)
        layout.addWidget(self._toggle)
        self._render()

    # --- public API -----------------------------------------------------------------------

    @property
    def status(self) -> WriterStatus:
        """The status shown."""
        return self._status

    @property
    def news(self) -> WriterNews | None:
        """The last run's news, while it is shown."""
        return self._news

    def text(self) -> str:
        """The line shown, as plain text (for tests and accessibility)."""
        return status_text(self._status, self._news)

    def isPaused(self) -> bool:
        """Whether the writer is shown as paused (the button offers Resume)."""
        return self._paused

    @Slot(bool)
    def setPaused(self, paused: bool) -> None:
        """Pause or resume; `paused_changed` is emitted if it changes."""
        if paused != self._paused:
            self._paused = paused
            self._render()
            self.paused_changed.emit(paused)

    @Slot(object)
    def set_status(self, status: WriterStatus) -> None:
        """Show a status (the button follows its `paused`, without echoing it back)."""
        self._status = status
        self._paused = status.paused
        self._render()

    @Slot(object)
    def show_run(self, result: WriterRunResult) -> None:
        """Say what a finished run did (a run that found nothing keeps the last news)."""
        news = run_news(result)
        if news is None:
            return
        self._news = news
        self._refresh.start()
        self._render()
        self.news_arrived.emit(news)

    def clear_news(self) -> None:
        """Stop showing the last run's news (e.g. its suggestions were all reviewed)."""
        self._news = None
        self._refresh.stop()
        self._render()

    def shutdown(self) -> None:
        """Stop refreshing the news' time (on window close)."""
        self._refresh.stop()

    def attach(self, supervisor: WriterSupervisor) -> None:
        """Show the supervisor's status and runs; pause/resume it from the button."""
        supervisor.status_changed.connect(self.set_status)
        supervisor.run_finished.connect(self.show_run)
        self.paused_changed.connect(supervisor.set_paused)
        self.set_status(supervisor.status)

    # --- internals ------------------------------------------------------------------------

    def _render(self) -> None:
        view = status_view(self._status, self._news, paused=self._paused)
        self._label.setText(view.html)
        self._label.setAccessibleName(view.text)
        set_style_sheet(self._dot, f"color: {view.dot_color};")
        self._label.setToolTip(view.tooltip)
        self._dot.setToolTip(view.tooltip)
        self._toggle.setText(view.toggle)
        self._toggle.setAccessibleName(view.toggle_name)
        self._toggle.setToolTip(view.toggle_tooltip)

    @Slot(str)
    def _on_label_link_activated(self, link: str) -> None:
        if link == TRACE_LINK and self._status.trace_path is not None:
            self.trace_requested.emit(Path(self._status.trace_path))
        elif link == NEWS_LINK and self._news is not None:
            self.news_opened.emit(self._news)

    @Slot()
    def _on_toggle_clicked(self) -> None:
        self.setPaused(not self._paused)

    @Slot()
    def _on_refresh_timeout(self) -> None:
        self._render()


__all__ = ["TRACE_LINK", "WriterStatusWidget", "run_news", "status_text"]
