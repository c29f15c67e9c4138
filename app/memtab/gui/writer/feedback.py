"""What the window does with the background writer's news.

- A run of this window's writer that wrote a file claims it: its badge says "written by
  Memtab's writer", not "changed outside Memtab".
- Clicking "Recorded 3 notes in notes.md" opens the file in the Memory tab with the new
  lines highlighted; clicking "Suggested 2 notes — review" shows the Suggested memories
  of that workspace.
- With the writer setting `notify` on, news that arrives while the window is not the
  active one becomes a desktop notification (a change of it applies at once: settings news
  on the context).
- "Suggested 2 notes — review" goes once that workspace has no suggestion left to review.
"""

from __future__ import annotations

import logging
from typing import Protocol

from PySide6.QtCore import QObject, Slot

from memtab.components.window.settings_news import SettingsChange, SettingsSection
from memtab.components.writer.supervision import NewsKind, WriterNews
from memtab.gui.context import WindowContext, WindowShell
from memtab.gui.toolkit.notifications import DesktopNotifier
from memtab.gui.writer.inbox_panel import InboxPanel
from memtab.gui.writer.status import WriterStatusWidget
from memtab.gui.writer.supervisor import WriterSupervisor
from memtab.store.paths import PathError, parse_file_path
from memtab.writer.config import load_writer_settings, parse_writer_settings
from memtab.writer.job.result import WriterRunResult

logger = logging.getLogger(__name__)


class WriterClaims(Protocol):
    """The badges (`EditMarks`): what this window's writer wrote is claimed for it."""

    def claim_writer_run(self, workspace_id: str, memory_path: str) -> None: ...


class FeedbackTab(Protocol):
    """The Memory tab's parts the feedback follows (`MemoryTab`, once assembled)."""

    @property
    def marks(self) -> WriterClaims: ...

    @property
    def inbox(self) -> InboxPanel: ...


class WriterFeedback(QObject):
    """Connects the writer and its status widget to the window (see the module docstring)."""

    def __init__(
        self,
        context: WindowContext,
        shell: WindowShell,
        writer: WriterSupervisor,
        status: WriterStatusWidget,
        tab: FeedbackTab,
        parent: QObject,
        notifier: DesktopNotifier | None = None,
    ) -> None:
        """Follow `writer`'s runs and `status`' news; claim writes in `tab`'s badges."""
        super().__init__(parent)
        self._context = context
        self._shell = shell
        self._marks = tab.marks
        self.notifier = notifier or DesktopNotifier(self)
        self.notify = load_writer_settings().notify
        """Whether news becomes a desktop notification (the writer setting `notify`)."""
        writer.run_finished.connect(self._on_writer_run_finished)
        status.news_opened.connect(self._on_status_news_opened)
        status.news_arrived.connect(self._on_status_news_arrived)
        tab.inbox.count_changed.connect(self._on_suggestions_count_changed)
        context.settings.published.connect(self._on_settings_published)
        self._status = status

    @Slot(object)
    def _on_settings_published(self, change: SettingsChange) -> None:
        """The `notify` setting, as saved: from the next news on."""
        if change.touches(SettingsSection.WRITER):
            self.notify = parse_writer_settings(change.section("writer")).notify

    def open_news(self, news: WriterNews) -> None:
        """Show what the news is about in the Memory tab."""
        shell = self._shell
        shell.show_memory_tab()
        if news.kind is NewsKind.SUGGESTED:
            shell.show_suggestions(news.workspace_id)
            return
        try:
            path = parse_file_path(news.memory_path)
        except PathError:
            return
        shell.reveal_file(news.workspace_id, path, news.lines)

    @Slot(object)
    def _on_writer_run_finished(self, result: object) -> None:
        if isinstance(result, WriterRunResult) and result.outcome == "wrote":
            self._marks.claim_writer_run(result.workspace_id, result.memory_path)

    @Slot(object)
    def _on_status_news_opened(self, news: object) -> None:
        if isinstance(news, WriterNews):
            self.open_news(news)

    @Slot(int)
    def _on_suggestions_count_changed(self, count: int) -> None:
        news = self._status.news
        workspace = self._context.shown.workspace
        if count or news is None or workspace is None or news.kind is not NewsKind.SUGGESTED:
            return
        if news.workspace_id == workspace.id:
            self._status.clear_news()

    @Slot(object)
    def _on_status_news_arrived(self, news: object) -> None:
        if isinstance(news, WriterNews) and self.notify and not self._shell.isActiveWindow():
            self.notifier.notify(*news.notification())
