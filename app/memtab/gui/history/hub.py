"""Nothing is lost, in the window: `HistoryHub` joins the History panel, Runs…, Recently
deleted, the recording of what other programs changed and the burst news to the window and
the Memory tab; it registers `history.panel`, `history.trash` and `history.runs`.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

from PySide6.QtCore import QObject, Signal, SignalInstance, Slot
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel, QWidget

from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.editor.session import BarKind
from memtab.components.files import undo
from memtab.components.files.ops import OpResult
from memtab.components.files.steps import UndoStep
from memtab.components.files.undo import (
    BurstRestored,
    restore_burst_undoably,
    restore_deleted_file,
    undoable_run,
)
from memtab.components.history.burst_news import (
    RESTORE_ALL,
    REVIEW,
    BurstNews,
    NewsRead,
    PanelAway,
    RecordingWait,
    batch_routes,
)
from memtab.components.history.deleted import DeletedFile, news_read
from memtab.components.history.history import record_external_changes, recording_notice
from memtab.components.history.trash_view import restored_words
from memtab.components.jobs import plain
from memtab.components.tree.scan import HomeScan
from memtab.file_protocol.memory_file import MemoryFile
from memtab.gui.context import WindowContext, WindowShell
from memtab.gui.history.panel import HistoryPanel
from memtab.gui.tasks.file_ops import OpFollowUp
from memtab.gui.tasks.jobs import JobClient, Lane
from memtab.gui.toolkit.clock import QT_CLOCK, qtimer
from memtab.gui.toolkit.style import Accent, accent_text
from memtab.sources.model import Source
from memtab.store.catch_up.recording import recording_state
from memtab.store.catch_up.runs_log import catch_up_runs
from memtab.store.paths import PathError, Scope, VirtualPath, parse_file_path
from memtab.store.restore.orphans import OrphanProjectStore
from memtab.store.scopes.memory import MemoryStore
from memtab.watch.events import ChangeEvent, EventRestore

if TYPE_CHECKING:  # lazy: Runs… and Recently deleted load when first opened (open_runs, open_trash)
    from memtab.gui.history.runs_dialog import RunsDialog
    from memtab.gui.history.trash_dialog import TrashDialog

logger = logging.getLogger(__name__)


class NoticeBar(Protocol):
    """What the notice needs of its bar (`gui.editor.tab.bar.MessageBar`)."""

    @property
    def action_triggered(self) -> SignalInstance: ...  # Signal(str): the id of the action clicked.
    @property
    def dismissed(self) -> SignalInstance: ...  # Signal(): closed by the user.
    def show_message(
        self,
        kind: BarKind,
        text: str,
        actions: list[tuple[str, str]] | tuple[tuple[str, str], ...] = (),
        *,
        default: str | None = None,
    ) -> None: ...
    def clear(self) -> None: ...
    def isHidden(self) -> bool: ...


class BurstNotices(QObject):
    """Shows the newest burst not seen yet as news in the bar, once: Review…, and for a mass
    change Restore all (one undoable step); which were shown is kept in the UI state."""

    review_requested = Signal(str)  # Review… was clicked: the burst's id
    # a mass change's Restore all was clicked: its `ChangeEvent`
    restore_all_requested = Signal(object)

    def __init__(self, context: WindowContext, bar: NoticeBar, parent: QObject) -> None:
        super().__init__(parent)
        self._context = context
        self._bar = bar
        state = context.ui_state
        self.news = BurstNews(state.bursts_seen_for(context.home.root) if state else ())
        self._undone_by: UndoStep | None = None
        """The step the restore line shown offers to undo (None: no such line)."""
        bar.action_triggered.connect(self._on_bar_action_triggered)
        bar.dismissed.connect(self._on_bar_dismissed)
        context.file_ops.ended.connect(self._on_file_ops_ended)

    @property
    def text(self) -> str:
        """What the notice says now ("" when it shows nothing)."""
        notice = self.news.notice
        return notice.text if notice is not None and not self._bar.isHidden() else ""

    def take(self, read: NewsRead) -> None:
        """The bursts Recently deleted lists now (and the mass changes among them): show
        the newest not seen yet."""
        if not self.news.take(read.bursts, read.mass):
            return
        notice = self.news.notice
        self._undone_by = None
        if notice is None:  # what it named was put back
            self._bar.clear()
            return
        kind = BarKind.WARNING if notice.event is not None else BarKind.INFO
        self._bar.show_message(kind, notice.text, notice.actions, default=REVIEW)
        state = self._context.ui_state
        if state is not None:
            state.set_bursts_seen(self._context.home.root, self.news.seen)
            self._context.save_ui_state()

    def restored(self, text: str, undone_by: UndoStep | None = None) -> None:
        """What Restore all did, in words (the window's restore has ended); `undone_by`:
        the step the line offers Edit → Undo of — the line goes once it is taken back."""
        self._bar.show_message(BarKind.INFO, text)
        self._undone_by = undone_by

    @Slot()
    def _on_file_ops_ended(self) -> None:
        step = self._undone_by
        if step is not None and not self._context.undo_stack.holds(step):
            self._undone_by = None
            self._bar.clear()  # it offered an undo already taken

    @Slot(str)
    def _on_bar_action_triggered(self, action_id: str) -> None:
        notice = self.news.notice
        if notice is None or action_id not in (REVIEW, RESTORE_ALL):
            return
        self.news.dismissed()
        self._undone_by = None
        self._bar.clear()
        if action_id == RESTORE_ALL and notice.event is not None:
            self._bar.show_message(BarKind.INFO, f"Restoring what {notice.event.words()}…")
            self.restore_all_requested.emit(notice.event)
        else:
            self.review_requested.emit(notice.burst_id)

    @Slot()
    def _on_bar_dismissed(self) -> None:
        self._undone_by = None
        self.news.dismissed()


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


RECORD_KEY = "record-external-changes"
RECORD_QUIET_MS = 1500
RECORD_MAX_WAIT_MS = 20_000
IMPORT_KEY = "import-journal-runs"
NEWS_KEY = "burst-news"
RECORDING_KEY = "read-recording-state"
PANEL_FLAG = "history-panel"  # the UI-state flag: whether the History panel is shown


class FollowedEditor(Protocol):
    """What the History panel follows of the editor (`EditorPanel`): its open file."""

    @property
    def file_opened(self) -> SignalInstance: ...
    @property
    def file_closed(self) -> SignalInstance: ...
    @property
    def current_file(self) -> MemoryFile | None: ...
    @property
    def current_path(self) -> VirtualPath | None: ...


class HistoryHub(QObject):
    """The window's history features (see the module docstring); `trace_requested(Path)`:
    Runs… asked to show a run's trace dump (the window's Traces tab does)."""

    trace_requested = Signal(object)

    def __init__(
        self,
        context: WindowContext,
        shell: WindowShell,
        editor: FollowedEditor,
        parent: QObject,
        news: NoticeBar | None = None,
    ) -> None:
        """Dock the History panel in `shell`, follow `editor`'s open file, register the
        actions, show bursts in `news` (none: no notice); `tab_loaded()` once the Memory
        tab has loaded."""
        super().__init__(parent)
        self._context = context
        self._shell = shell
        self._editor = editor
        self._home = context.home
        self._loaded = False
        self._shut_down = False
        self._client: JobClient | None = None  # made with the first job
        self._restores: list[OpFollowUp] = []  # the follow-ups of restores from the trash
        self._panel_away = PanelAway()
        self._record_wait: RecordingWait[MemoryStore] = RecordingWait()
        self._record_timer = qtimer(self, self._on_record_timer_timeout)
        self.runs_dialog: RunsDialog | None = None
        self.trash_dialog: TrashDialog | None = None
        self.notices: BurstNotices | None = None
        if news is not None:
            self.notices = BurstNotices(context, news, self)
            self.notices.review_requested.connect(self.review_burst)
            self.notices.restore_all_requested.connect(self._on_notices_restore_all_requested)
        self.recording_note = RecordingNote(shell.as_widget())
        """Placed in the window's status bar by the window (`gui.window.features`)."""

        self._panel: HistoryPanel | None = None  # built when first shown or asked for
        self._followed: MemoryFile | None = None  # the editor's file, for the panel
        self.dock = shell.add_dock("History", "historyDock")
        actions = context.actions
        self.panel_action = actions.add_panel_toggle(
            "history.panel",
            "File &history",
            self.dock,
            keys=["Ctrl+Shift+H"],
            menu="view",
            tip="Every version of the open file; compare and restore",
        )
        self.trash_action = actions.add(
            "history.trash",
            "Recently &deleted…",
            self.open_trash,
            menu="view",
            tip="Deleted memory files, to restore",
        )
        self.runs_action = actions.add(
            "history.runs",
            "&Runs…",
            self.show_runs,
            keys=["Ctrl+Shift+R"],
            menu="view",
            tip="Every consolidation and writer run: its changes, Revert",
        )

        self.dock.visibilityChanged.connect(self._on_dock_visibility_changed)
        context.shown.scan_applied.connect(self._on_shown_scan_applied)
        context.shown.workspace_changed.connect(self._on_shown_workspace_changed)
        context.changes.published.connect(self._on_changes_published)
        editor.file_opened.connect(self._follow_editor)
        editor.file_closed.connect(self._on_editor_file_closed)
        context.file_ops.op_finished.connect(self._on_file_ops_op_finished)
        shell.memory_tab_current.connect(self._on_shell_memory_tab_current)
        state = context.ui_state
        if state is not None and state.flag(PANEL_FLAG):
            self.dock.show()

    @property
    def panel(self) -> HistoryPanel:
        """The History panel, showing the editor's file (built now if it is not yet)."""
        if self._panel is None:
            self._panel = HistoryPanel(self._context.jobs)
            self._panel.restore_requested.connect(self._on_panel_restore_requested)
            self._panel.show_file(self._followed)
            self.dock.setWidget(self._panel)
            if self.dock.isVisible():  # built as the dock shows: now, not once Qt gets to it
                self._panel.show()
        return self._panel

    @property
    def busy(self) -> bool:
        """Whether the hub records (or waits to record) or imports something."""
        return self._record_timer.isActive() or (
            self._client is not None and self._client.is_busy()
        )

    @Slot(str)
    def run_ended(self, run_id: str) -> None:
        """A run of the window ended (Consolidate now): Edit → Undo takes it back next, as
        Runs… → Revert does — put on the undo stack in order with the file operations, so
        an Undo pressed meanwhile waits for it."""
        job = functools.partial(undoable_run, self._context.undo_stack, self._home, run_id)
        self._context.file_ops.decide(job, lambda _pushed: None, self._on_run_not_undoable)

    def _on_run_not_undoable(self, message: str) -> None:
        self._context.status.show(f"Edit → Undo cannot take back the run: {message}")

    @Slot()
    def show_runs(self) -> None:
        """View → Runs… (and the footer's clock button): Runs…, over the Memory tab."""
        self._shell.show_memory_tab()
        self.open_runs()

    def open_runs(self) -> RunsDialog:
        """Open (or raise) Runs…, listing the runs again."""
        if self.runs_dialog is None:
            # lazy: Runs… and what only it uses, not imported by a window that never opens it
            from memtab.gui.history.runs_dialog import RunsDialog

            self.runs_dialog = RunsDialog(self._home, self._context.jobs, self._shell.as_widget())
            self.runs_dialog.open_file_requested.connect(self._on_runs_open_file_requested)
            self.runs_dialog.open_trace_requested.connect(self._on_runs_open_trace_requested)
        scan = self._context.shown.scan
        workspaces = (
            [(w.id, w.display_name) for w in scan.registry.workspaces if not w.archived]
            if scan is not None
            else []
        )
        self.runs_dialog.set_workspaces(workspaces, self._context.shown.workspace_id)
        # Opened again: on the newest run, not the one left selected last time.
        self.runs_dialog.reload(newest=not self.runs_dialog.isVisible())
        self._raise(self.runs_dialog)
        return self.runs_dialog

    def show_run(self, run_id: str, op_index: int | None = None) -> None:
        """Runs… on the run `run_id`, its `op_index`th op selected (blame's card)."""
        self.show_runs()
        assert self.runs_dialog is not None
        self.runs_dialog.show_run(run_id, op_index)

    def open_trash(self, scope: Scope | None = None) -> TrashDialog:
        """Open (or raise) Recently deleted, for one scope or all."""
        if self.trash_dialog is None:
            # lazy: Recently deleted and its rows, as Runs… above
            from memtab.gui.history.trash_dialog import TrashDialog

            self.trash_dialog = TrashDialog(
                self._context.jobs, self._shell.as_widget(), restore_all=self.restore_burst
            )
            self.trash_dialog.restore_requested.connect(self._on_trash_restore_requested)
            self.trash_dialog.restore_file_requested.connect(self._on_trash_restore_file_requested)
        store = MemoryStore.of(self._context.shown.view())
        self.trash_dialog.show_store(store, scope, self._shown_sources())
        self._raise(self.trash_dialog)
        return self.trash_dialog

    def restore_burst(
        self,
        event: ChangeEvent,
        only: frozenset[str] | None,
        done: Callable[[EventRestore], None],
        failed: Callable[[str], None],
    ) -> None:
        """Put back what a burst deleted or rewrote (`only`: those of its files), in order
        with the window's file operations and as one step Edit → Undo takes back; `done`
        is told what it did."""
        self._restore_burst(event, only, lambda outcome: done(outcome.restored), failed)

    def _restore_burst(
        self,
        event: ChangeEvent,
        only: frozenset[str] | None,
        done: Callable[[BurstRestored], None],
        failed: Callable[[str], None],
    ) -> None:
        """`restore_burst`, `done` told the step it pushed too. What it wrote is the user's
        own change (no file of it badged as mux's or another program's)."""
        file_ops = self._context.file_ops
        stack = self._context.undo_stack
        job = functools.partial(restore_burst_undoably, self._home, event, only, stack=stack)

        def restored(outcome: BurstRestored) -> None:
            file_ops.wrote(outcome.written)
            done(outcome)

        file_ops.decide(job, restored, failed)

    @Slot(object)
    def _on_notices_restore_all_requested(self, event: ChangeEvent) -> None:
        notices = self.notices
        assert notices is not None

        def done(outcome: BurstRestored) -> None:
            result, step = outcome.restored, outcome.step
            if step is None:  # nothing put back: nothing to take back
                notices.restored(restored_words(result))
            else:
                notices.restored(restored_words(result) + " — Edit → Undo takes it back", step)

        def failed(message: str) -> None:
            notices.restored(f"Restoring what {event.words()} failed: {message}")

        self._restore_burst(event, None, done, failed)

    @Slot(str)
    def review_burst(self, burst_id: str) -> None:
        """The burst notice's Review…: Recently deleted, over the Memory tab, at the burst."""
        self._shell.show_memory_tab()
        self.open_trash().show_burst(burst_id)

    def show_history(self, path: VirtualPath | None = None) -> None:
        """Show the History panel (of `path`, opened in the editor first)."""
        self._shell.show_memory_tab()
        self.dock.show()
        self.dock.raise_()
        if path is not None and path != self._editor.current_path:
            self._shell.reveal_file(self._context.shown.workspace_id, path)

    def save_ui_state(self) -> None:
        """Remember whether the History panel is shown (the window saves the file)."""
        state = self._context.ui_state
        if state is not None:
            state.set_flag(PANEL_FLAG, self._panel_away.remembered(visible=self.dock.isVisible()))

    def shutdown(self) -> None:
        """Stop every worker (on window close)."""
        self._shut_down = True
        self._record_timer.stop()
        for part in (self._panel, self.runs_dialog, self.trash_dialog, self._client):
            if part is not None:
                part.shutdown()

    def _jobs(self) -> JobClient:
        if self._client is None:
            # The runs lane: the first recording pass of a big home reads every file.
            self._client = self._context.jobs.client("history", Lane.RUNS, parent=self)
            self._client.latest_finished.connect(self._on_client_latest_finished)
            self._client.latest_failed.connect(self._on_client_latest_failed)
        return self._client

    def _raise(self, dialog: RunsDialog | TrashDialog) -> None:
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()

    @Slot()
    def _follow_editor(self) -> None:
        self._show_file(self._editor.current_file)

    def _show_file(self, file: MemoryFile | None) -> None:
        self._followed = file
        if self._panel is not None:
            self._panel.show_file(file)

    def _shown_sources(self) -> tuple[Source, ...] | None:
        """The other agents' sources the tree shows (None: not listed yet)."""
        scan = self._context.shown.scan
        sources = scan.sources if scan is not None else None
        return sources.discovery.sources if sources is not None else None

    def _look_for_news(self) -> None:
        """Read the bursts Recently deleted lists, for the notice (off the GUI thread)."""
        if self.notices is None or not self._loaded or self._shut_down:
            return
        store = MemoryStore.of(self._context.shown.view())
        self._jobs().submit_latest(NEWS_KEY, plain(news_read, store, self._shown_sources()))

    @Slot(object)
    def _on_changes_published(self, batch: ChangeBatch) -> None:
        panel = self._panel  # not built: nothing shown to reload
        subject = panel.subject if panel is not None else None
        routes = batch_routes(
            batch,
            panel_index=subject.history_index() if subject is not None else None,
            trash_shown=self.trash_dialog is not None and self.trash_dialog.isVisible(),
            runs_shown=self.runs_dialog is not None and self.runs_dialog.isVisible(),
            closing=self._shut_down,
        )
        if routes.panel and panel is not None:
            panel.reload()
        if routes.trash and self.trash_dialog is not None:
            self.trash_dialog.reload(record_first=False)
        if routes.news:
            self._look_for_news()
        if routes.runs and self.runs_dialog is not None:
            self.runs_dialog.reload()
        if routes.import_runs:
            self._jobs().submit_latest(IMPORT_KEY, plain(catch_up_runs, self._home))
        if routes.recording:
            self._read_recording()

    def tab_loaded(self) -> None:
        """The Memory tab has loaded: record what changed from the next scan on."""
        # From the next scan on — the one the watcher's start causes, once the loaded tab
        # has painted: recording must not compete with that paint for the interpreter.
        self._loaded = True
        # The runs log catches up once at start: a run a kill left (the last window's, a
        # CLI's) is logged with its changes, mux's records since the last look are added.
        # (Not once the window is closing: its last scan may end after the workers did.)
        if not self._shut_down:
            self._jobs().submit_latest(IMPORT_KEY, plain(catch_up_runs, self._home))
            self._read_recording()
        self._look_for_news()  # what happened while no window ran

    def _read_recording(self) -> None:
        """Read whether history is being recorded (off the GUI thread) and show it."""
        home = self._home
        self._jobs().submit_latest(
            RECORDING_KEY, lambda _ctx: recording_notice(recording_state(home))
        )

    @Slot(object)
    def _on_shown_scan_applied(self, scan: HomeScan) -> None:
        panel = self._panel  # not built: nothing shown to reload
        subject = panel.subject if panel is not None else None
        if panel is not None and subject is not None and scan.sources is not None:
            # Another agent's file: no recording pass records its changes, so its index says
            # nothing.
            changes = scan.sources.changes
            if subject.ref in changes.changed | changes.deleted:
                panel.reload()
        if not self._loaded:
            return
        delay = self._record_wait.scanned(
            MemoryStore.of(scan.view()),
            QT_CLOCK.monotonic_ms(),
            quiet_ms=RECORD_QUIET_MS,
            max_wait_ms=RECORD_MAX_WAIT_MS,
        )
        self._record_timer.start(delay)

    @Slot()
    def _on_record_timer_timeout(self) -> None:
        store = self._record_wait.take()
        if store is not None:
            self._jobs().submit_latest(
                RECORD_KEY, lambda ctx: record_external_changes(store, ctx.is_cancelled)
            )

    @Slot(object)
    def _on_shown_workspace_changed(self, _workspace: object) -> None:
        self._follow_editor()
        self._look_for_news()  # its scopes' bursts

    @Slot()
    def _on_editor_file_closed(self) -> None:
        self._show_file(None)

    @Slot(bool)
    def _on_dock_visibility_changed(self, visible: bool) -> None:
        if visible or self._panel is not None:
            self.panel.set_active(visible)
        if visible:
            self._follow_editor()

    @Slot(bool)
    def _on_shell_memory_tab_current(self, on_memory: bool) -> None:
        show = self._panel_away.tab_shown(on_memory, visible=self.dock.isVisible())
        if show is not None:
            self.dock.setVisible(show)

    @Slot(object, str)
    def _on_runs_open_file_requested(self, workspace_id: str | None, raw_path: str) -> None:
        try:
            path = parse_file_path(raw_path)
        except PathError:
            return
        self._shell.show_memory_tab()
        self._shell.activateWindow()
        self._shell.reveal_file(workspace_id or self._context.shown.workspace_id, path)

    @Slot(object)
    def _on_runs_open_trace_requested(self, path: Path) -> None:
        self._shell.activateWindow()
        self.trace_requested.emit(path)

    @Slot(object, str)
    def _on_panel_restore_requested(self, file: MemoryFile, version_id: str) -> None:
        context = self._context
        context.own_writes.note(file.ref.key)  # no "edited outside" badge on a restore
        restore = functools.partial(undo.restore_version, context.undo_stack, file, version_id)
        without_copy = functools.partial(restore, allow_unkept=True)
        context.file_ops.run(restore, OpFollowUp(without_copy=without_copy))

    @Slot(str, str, object, str)
    def _on_trash_restore_requested(
        self, raw_path: str, version_id: str, to: VirtualPath | None, orphan_dir: str
    ) -> None:
        context = self._context
        store: MemoryStore
        if orphan_dir:  # back into its dir, which no workspace shows: nothing to open
            store = OrphanProjectStore(self._home, orphan_dir)
        else:
            with contextlib.suppress(PathError):
                context.own_writes.note(to or parse_file_path(raw_path))
            store = MemoryStore.of(context.shown.view())
        restore = functools.partial(
            undo.restore, context.undo_stack, store, raw_path, version_id, to
        )
        self._restore(restore, open_created=not orphan_dir)

    @Slot(object, object)
    def _on_file_ops_op_finished(self, result: OpResult, follow_up: OpFollowUp) -> None:
        # The same object, not an equal one: an undo's follow-up is equal to it.
        if not any(f is follow_up for f in self._restores):
            return
        if result.unkept is None:  # else the user is asked, and it may run again
            self._restores = [f for f in self._restores if f is not follow_up]
        if self.trash_dialog is not None:
            text = result.message if result.ok else f"{result.message}: {result.error}"
            self.trash_dialog.note.set_full_text(text)

    @Slot(object)
    def _on_trash_restore_file_requested(self, file: DeletedFile) -> None:
        context = self._context
        context.own_writes.note(file.physical)  # no "edited outside" badge on a restore
        self._restore(functools.partial(restore_deleted_file, context.undo_stack, self._home, file))

    def _restore(self, restore: Callable[..., OpResult], *, open_created: bool = False) -> None:
        """Restore from the trash; made without a copy in history if it was refused for want
        of one and the user chooses to (`OpFollowUp.without_copy`)."""
        without_copy = functools.partial(restore, allow_unkept=True)
        follow_up = OpFollowUp(open_created=open_created, without_copy=without_copy)
        self._restores.append(follow_up)
        self._context.file_ops.run(restore, follow_up)

    @Slot(str, object)
    def _on_client_latest_finished(self, key: str, result: object) -> None:
        if key == RECORDING_KEY:
            self.recording_note.show_notice(cast("tuple[str, str] | None", result))
        elif key == NEWS_KEY and isinstance(result, NewsRead) and self.notices is not None:
            self.notices.take(result)

    @Slot(str, str)
    def _on_client_latest_failed(self, key: str, message: str) -> None:
        logger.warning("History: %s failed: %s", key, message)
