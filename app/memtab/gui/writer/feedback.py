"""What the window does with the background writer's news: claims what this window's writer
wrote, opens the file (or the Suggested memories) a click names, notifies the desktop when
`notify` is on, and drops "Suggested … — review" once nothing is left.
"""

from __future__ import annotations

import functools
import logging
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QSystemTrayIcon,
    QToolButton,
    QWidget,
)

from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.jobs import JobFunction, plain
from memtab.components.window.settings_news import SettingsChange, SettingsSection
from memtab.components.writer.jobs import begin, poll, run
from memtab.components.writer.supervision import (
    NEWS_LINK,
    TRACE_LINK,
    NewsKind,
    Supervision,
    WatchJob,
    WatchStep,
    WriterActivity,
    WriterNews,
    WriterStatus,
    news_from_run,
    status_text,
    status_view,
)
from memtab.fs.clock import now_ms
from memtab.gui.context import ChangeFeed, SettingsFeed, WindowContext, WindowShell
from memtab.gui.tasks.jobs import JobService, Lane
from memtab.gui.toolkit.clock import qtimer
from memtab.gui.toolkit.style import set_style_sheet
from memtab.gui.toolkit.widgets import hbox, named
from memtab.gui.writer.inbox_panel import InboxPanel
from memtab.store.home import Home
from memtab.store.paths import PathError, parse_file_path
from memtab.writer.config import WriterMode, WriterSettings, load_writer_settings
from memtab.writer.job.policy import RunTicket
from memtab.writer.job.result import WriterRunResult
from memtab.writer.job.service import PollResult, WriterLock, WriterService

logger = logging.getLogger(__name__)


APP_NAME = "Memtab"
EXPIRE_MS = 8000
_FREEDESKTOP = ("org.freedesktop.Notifications", "/org/freedesktop/Notifications")


class DesktopNotifier(QObject):
    """Shows desktop notifications (see the module docstring)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tray: QSystemTrayIcon | None = None

    def notify(self, title: str, body: str) -> bool:
        """Show a notification; False when this desktop has no way to show one."""
        unix = sys.platform.startswith(("linux", "freebsd", "openbsd"))
        return (unix and self._notify_dbus(title, body)) or self._notify_tray(title, body)

    def _notify_dbus(self, title: str, body: str) -> bool:
        try:
            # lazy: platform — a Qt build may lack D-Bus
            from PySide6.QtDBus import QDBus, QDBusConnection, QDBusInterface
        except ImportError:  # a Qt build without D-Bus
            return False
        bus = QDBusConnection.sessionBus()
        service, path = _FREEDESKTOP
        interface = QDBusInterface(service, path, service, bus) if bus.isConnected() else None
        if interface is None or not interface.isValid():
            return False
        interface.call(
            QDBus.CallMode.NoBlock,
            "Notify",
            APP_NAME,
            0,
            "memtab",
            title,
            body,
            [],
            {},
            EXPIRE_MS,
        )
        return True

    def _notify_tray(self, title: str, body: str) -> bool:
        if not QSystemTrayIcon.isSystemTrayAvailable():
            logger.info("No desktop notifications here: %s — %s", title, body)
            return False
        if self._tray is None:
            self._tray = QSystemTrayIcon(QApplication.windowIcon(), self)
        self._tray.show()
        self._tray.showMessage(title, body, QSystemTrayIcon.MessageIcon.Information, EXPIRE_MS)
        return True


R = TypeVar("R")


class WriterSupervisor(QObject):
    """Runs the memory writer in the background (see the module docstring)."""

    status_changed = Signal(object)
    run_started = Signal(str)
    run_finished = Signal(object)
    run_failed = Signal(str, str, object)
    external_writer_detected = Signal(str)
    monitoring_started = Signal()
    transcripts_checked = Signal(object)

    def __init__(
        self,
        home: Home,
        jobs: JobService,
        parent: QObject | None = None,
        *,
        service: WriterService | None = None,
    ) -> None:
        """Nothing is watched or run until `start()`; polls run on `jobs`' jobs lane, runs
        on its runs lane."""
        super().__init__(parent)
        self._home = home
        self.service = service or WriterService(home)
        self._watch_client = jobs.client("writer-watch", Lane.JOBS, parent=self)
        self._run_client = jobs.client("writer-runs", Lane.RUNS, parent=self)
        self._turns: Supervision[RunTicket] = Supervision()
        self._pause = threading.Event()  # `paused`, for the polls on their lane
        self._writer_lock = WriterLock(home)

        self._watch_client.job_finished.connect(self._on_watch_client_job_finished)
        self._watch_client.job_failed.connect(self._on_watch_client_job_failed)
        self._watch_client.job_cancelled.connect(self._on_watch_client_job_cancelled)
        self._run_client.job_started.connect(self._on_run_client_job_started)
        self._run_client.job_finished.connect(self._on_run_client_job_finished)
        self._run_client.job_failed.connect(self._on_run_client_job_failed)
        self._run_client.job_cancelled.connect(self._on_run_client_job_cancelled)

    @property
    def status(self) -> WriterStatus:
        """The current status (also sent with every `status_changed`)."""
        return self._turns.status

    @property
    def paused(self) -> bool:
        return self._turns.paused

    def attach(self, changes: ChangeFeed) -> None:
        """Follow the batches of a watcher of this supervisor's home (`context.changes`)."""
        changes.published.connect(self._on_changes_published)

    def start(self) -> None:
        """Follow every transcript from its current end; later changes count. If another
        Memtab process runs the writer of this home, stand by until it is gone."""
        step = self._turns.start()
        if step is not None:
            self._submit_watch(step)

    def _began(self, took_lock: bool) -> None:
        active, poll_again = self._changed(lambda: self._turns.began(took_lock))
        if active:
            self.monitoring_started.emit()
        if poll_again is not None:
            self._submit_watch(poll_again)

    @Slot(bool)
    def set_paused(self, paused: bool) -> None:
        """Pause (no new runs; queued ones are withdrawn) or resume."""
        before = self._turns.status
        withdrawn = self._turns.set_paused(paused)
        if withdrawn is None:
            return
        (self._pause.set if paused else self._pause.clear)()
        for job in withdrawn:
            self._run_client.cancel(job)
        self._changed(lambda: None, before)

    def follow_settings(self, settings: SettingsFeed) -> None:
        """Apply the writer's settings as they are saved (`context.settings`): the writer
        turned off withdraws the runs still queued at once (a run going finishes, as when
        paused); every run started after a save reads the model and settings saved."""
        settings.published.connect(self._on_settings_published)

    @Slot(object)
    def _on_settings_published(self, change: SettingsChange) -> None:
        writer = change.section("writer") if change.touches(SettingsSection.WRITER) else None
        if writer is not None and WriterSettings.parsed(writer).mode is WriterMode.OFF:
            for job in self._turns.queued():
                self._run_client.cancel(job)

    def shutdown(self, timeout_ms: int = 5000) -> None:
        """Stop following and running (a run in progress is cancelled within about a
        second; its end is waited for, at most `timeout_ms`, before the lock is let go)."""
        if self._turns.closed:
            return
        self._turns.closed = True
        self._watch_client.shutdown(timeout_ms)
        self._run_client.shutdown(timeout_ms)
        self._writer_lock.release()

    @Slot(object)
    def _on_changes_published(self, batch: ChangeBatch) -> None:
        for step in self._turns.batch_steps(batch):
            self._submit_watch(step)

    def _submit_watch(self, step: WatchStep) -> None:
        job: JobFunction
        if step.kind is WatchJob.BEGIN:
            job = functools.partial(begin, self._writer_lock, self.service)
        elif step.kind is WatchJob.CHECK:
            job = plain(self.service.check_state_changes, step.keys or [])
        else:
            job = functools.partial(poll, self.service, step.keys, self._pause.is_set)
        self._turns.watch_submitted(self._watch_client.submit(job), step.kind)

    @Slot(int, object)
    def _on_watch_client_job_finished(self, job: int, result: object) -> None:
        kind = self._turns.watch_ended(job)
        if kind is WatchJob.BEGIN:
            self._began(result is True)
        elif kind is WatchJob.POLL and isinstance(result, PollResult):
            self._start_runs(result)
            self.transcripts_checked.emit(result.polled)
        elif kind is WatchJob.CHECK and isinstance(result, list):
            for workspace_id in result:
                self.external_writer_detected.emit(workspace_id)

    @Slot(int, str)
    def _on_watch_client_job_failed(self, job: int, message: str) -> None:
        kind = self._turns.watch_ended(job, finished=False)  # a BEGIN: the next change retries
        logger.warning("Memory writer: %s job failed: %s", kind.name if kind else "?", message)

    @Slot(int)
    def _on_watch_client_job_cancelled(self, job: int) -> None:
        self._turns.watch_ended(job, finished=False)

    def _start_runs(self, result: PollResult) -> None:
        runs, abandoned = self._turns.polled(result.names, result.tickets)
        for ticket in abandoned:
            self.service.abandon(ticket)
        for ticket in runs:
            job = self._run_client.submit(functools.partial(run, self.service, ticket))
            self._turns.run_submitted(job, ticket)

    @Slot(int)
    def _on_run_client_job_started(self, job: int) -> None:
        ticket = self._changed(lambda: self._turns.run_started(job))
        if ticket is not None:
            self.run_started.emit(ticket.workspace_id)

    @Slot(int, object)
    def _on_run_client_job_finished(self, job: int, result: object) -> None:
        ticket, _ = self._turns.run_ended(job)
        if ticket is None or not isinstance(result, WriterRunResult):
            return
        if result.ok:
            self._settle(WriterActivity.IDLE, ticket, result.summary(), None)
            self.run_finished.emit(result)
        else:
            message = result.error or "the memory writer failed"
            self._settle(WriterActivity.FAILED, ticket, message, result.trace_path)
            self.run_failed.emit(ticket.workspace_id, message, result.trace_path)

    @Slot(int, str)
    def _on_run_client_job_failed(self, job: int, message: str) -> None:
        ticket, _ = self._turns.run_ended(job)
        if ticket is None:
            return
        self._settle(WriterActivity.FAILED, ticket, message, None)
        self.run_failed.emit(ticket.workspace_id, message, None)

    @Slot(int)
    def _on_run_client_job_cancelled(self, job: int) -> None:
        ticket, started = self._turns.run_ended(job)
        if ticket is None:
            return
        if not started:
            self.service.abandon(ticket)  # never ran: the next turn runs instead
        elif not self._turns.closed:
            self._settle(WriterActivity.IDLE, ticket, "cancelled", None)

    def _settle(
        self, activity: WriterActivity, ticket: RunTicket, message: str, trace: Path | None
    ) -> None:
        self._changed(lambda: self._turns.settle(activity, ticket, message, trace))

    def _changed(self, turn: Callable[[], R], before: WriterStatus | None = None) -> R:
        """Take a turn of the supervision; its status changed (since `before`): say so."""
        before = self._turns.status if before is None else before
        result = turn()
        if self._turns.status != before:
            self.status_changed.emit(self._turns.status)
        return result


NEWS_REFRESH_MS = 30_000  # "just now" → "1 min ago"


class WriterStatusWidget(QWidget):
    """Status-bar widget of the background memory writer."""

    trace_requested = Signal(object)  # (Path) the user clicked "view trace" of a failed run
    paused_changed = Signal(bool)  # the pause button was clicked (or `setPaused` changed it)
    news_arrived = Signal(object)  # (WriterNews) a run recorded or suggested notes
    news_opened = Signal(object)  # (WriterNews) the user clicked that news

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.status = WriterStatus()
        self.news: WriterNews | None = None
        self._paused = False
        self._dot = named(QLabel("●", self), "writerStatusDot")
        self._label = named(QLabel(self), "writerStatusText")
        self._label.setTextFormat(Qt.TextFormat.RichText)
        self._label.setTextInteractionFlags(
            Qt.TextInteractionFlag.LinksAccessibleByMouse
            | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
        )
        self._label.linkActivated.connect(self._on_label_link_activated)
        self._toggle = named(QToolButton(self), "writerPauseToggle")
        self._toggle.setAutoRaise(True)
        self._toggle.clicked.connect(self._on_toggle_clicked)
        self._refresh = qtimer(self, self._render, NEWS_REFRESH_MS, single_shot=False)

        hbox(self._dot, self._label, self._toggle, on=self, margins=(4, 0, 4, 0), spacing=4)
        self._render()

    def text(self) -> str:
        """The line shown, as plain text (for tests and accessibility)."""
        return status_text(self.status, self.news)

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
        self.status = status
        self._paused = status.paused
        self._render()

    @Slot(object)
    def show_run(self, result: WriterRunResult) -> None:
        """Say what a finished run did (a run that found nothing keeps the last news)."""
        news = news_from_run(
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
        if news is None:
            return
        self.news = news
        self._refresh.start()
        self._render()
        self.news_arrived.emit(news)

    def clear_news(self) -> None:
        """Stop showing the last run's news (e.g. its suggestions were all reviewed)."""
        self.news = None
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

    def _render(self) -> None:
        view = status_view(self.status, self.news, paused=self._paused)
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
        if link == TRACE_LINK and self.status.trace_path is not None:
            self.trace_requested.emit(Path(self.status.trace_path))
        elif link == NEWS_LINK and self.news is not None:
            self.news_opened.emit(self.news)

    @Slot()
    def _on_toggle_clicked(self) -> None:
        self.setPaused(not self._paused)


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
            self.notify = WriterSettings.parsed(change.section("writer")).notify

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
