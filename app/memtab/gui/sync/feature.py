"""Sync in the window: the background sync, its status-bar corner, File → Sync now (F9) and
Resolve conflicts…, conflict bars in editor tabs, and syncing or asking before a close with
changes not sent yet.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, Qt, Signal, SignalInstance, Slot
from PySide6.QtWidgets import QMessageBox, QPushButton, QToolButton, QWidget

from memtab.components.editor.document import OpenDocument
from memtab.components.editor.session import BarKind, Situation
from memtab.components.sync.conflicts import (
    BAR_DECISIONS,
    CHOICES,
    DEFAULT_ACTION,
    PREFIX,
    BarStep,
    Choice,
    bar_actions,
    bar_step,
    bar_text,
    choice_of,
    conflict_marks,
    not_resolved_text,
    resolve_sync_conflict,
    shown_conflicts,
)
from memtab.components.sync.status import (
    CopyCounts,
    QuitQuestion,
    QuitStep,
    SyncLine,
    SyncLook,
    SyncNowNote,
    UnsentChoice,
    sync_line,
    unsent_question,
)
from memtab.components.tree.marks import MarkedRows
from memtab.components.tree.scan import HomeScan
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.fs.clock import now_ms
from memtab.gui.actions import Focus
from memtab.gui.context import StatusNotices, WindowContext, WindowShell
from memtab.gui.sync.service import WindowSync
from memtab.gui.tasks.jobs import JobClient, Lane
from memtab.gui.toolkit.clock import QT_CLOCK, GuiClock
from memtab.gui.toolkit.dialog_layout import answer_later, message_box
from memtab.sync.repository.layout import SyncPaths


class ConflictBar(Protocol):
    """A tab's message bar (`MessageBar`): the conflict's words and its choices."""

    def show_message(
        self,
        kind: BarKind,
        text: str,
        actions: list[tuple[str, str]] | tuple[tuple[str, str], ...] = (),
        *,
        default: str | None = None,
    ) -> None: ...
    def button(self, action_id: str) -> QPushButton: ...
    def action_ids(self) -> list[str]: ...


class ConflictPrompts(Protocol):
    """A tab's prompts (`EditorPrompts`): its bar, and the choice made on it."""

    @property
    def bar(self) -> ConflictBar: ...
    @property
    def action_chosen(self) -> SignalInstance: ...


class ConflictTab(Protocol):
    """One open file (`FileTab`): which it is, its document, its bar, and saving it."""

    @property
    def key(self) -> str | None: ...
    @property
    def doc(self) -> OpenDocument: ...
    @property
    def reading(self) -> bool: ...
    @property
    def is_dirty(self) -> bool: ...
    @property
    def prompts(self) -> ConflictPrompts: ...
    @property
    def destroyed(self) -> SignalInstance: ...
    def save(self, then: Callable[[bool], None] | None = None) -> None: ...


class EditorConflicts(Protocol):
    """The editor's own conflicts (`BarKeys`): a draft the disk changed under."""

    def resolve_first(self) -> str | None: ...


class ConflictEditor(Protocol):
    """The editor (`EditorPanel`): its tabs, when files open or tabs change, and its own
    conflicts (File → Resolve conflicts… goes to them when sync has none)."""

    @property
    def bar_keys(self) -> EditorConflicts: ...
    @property
    def file_opened(self) -> SignalInstance: ...
    @property
    def tabs_changed(self) -> SignalInstance: ...
    @property
    def tabs(self) -> Sequence[ConflictTab]: ...
    def tab_for(self, ref: MemoryFileRef) -> ConflictTab | None: ...


if TYPE_CHECKING:  # lazy: ~1.3 MiB, ~110 ms (sync's engine) when File → Sync… opens
    from memtab.gui.sync.conflicts_dialog import ConflictsDialog
    from memtab.gui.sync.setup_dialog import SyncSetupDialog
    from memtab.sync.service import SyncConflict


class SyncConflictBars(QObject):
    """The sync conflict bars of one editor panel: `compare(path, show_both)` opens Resolve
    conflicts… on that file, `resolved(message)` says what a decision did."""

    def __init__(
        self,
        context: WindowContext,
        editor: ConflictEditor,
        sync: WindowSync,
        compare: Callable[[str, bool], None],
        resolved: Callable[[str], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._context = context
        self._editor = editor
        self._sync = sync
        self._compare = compare
        self._resolved = resolved
        self._client: JobClient | None = None  # made with the first decision
        self._jobs: dict[int, ConflictTab] = {}
        self._connected: set[int] = set()
        self._showing: dict[int, str] = {}
        """The tabs (by id) the bar was shown on, and for which file: not shown again
        there once dismissed, until the file is opened anew."""
        sync.changed.connect(self.refresh)
        editor.file_opened.connect(self._on_editor_file_opened)
        editor.tabs_changed.connect(self.refresh)
        context.shown.workspace_changed.connect(self.refresh)

    def conflict_for(self, tab: ConflictTab) -> SyncConflict | None:
        """The sync conflict of the file `tab` shows, if it is in one."""
        key = tab.key
        if key is None:
            return None
        return shown_conflicts(self._sync.look.conflicts, self._context.shown.workspace).get(key)

    @Slot()
    def refresh(self) -> None:
        """Show the bar on each tab whose file is in conflict; take it away where the
        conflict was decided."""
        for tab in self._editor.tabs:
            self._connect(tab)
            conflict = self.conflict_for(tab)
            if conflict is None:
                self._showing.pop(id(tab), None)
            step = bar_step(
                conflict is not None,
                tab.doc.file.situation,
                reading=tab.reading,
                dismissed=self._dismissed(tab),
            )
            if step is BarStep.CLEAR:
                tab.doc.clear_bar()
            elif step is BarStep.SHOW and conflict is not None:
                self._show(tab, conflict)

    def shutdown(self) -> None:
        if self._client is not None:
            self._client.shutdown()

    def _dismissed(self, tab: ConflictTab) -> bool:
        return self._showing.get(id(tab)) == tab.key

    def _show(self, tab: ConflictTab, conflict: SyncConflict, said: str = "") -> None:
        self._showing[id(tab)] = tab.key or ""
        tab.doc.file.situation = Situation.SYNC_CONFLICT
        bar = tab.prompts.bar
        bar.show_message(
            BarKind.WARNING,
            said + bar_text(conflict),
            bar_actions(),
            default=DEFAULT_ACTION,
        )
        for choice in CHOICES:
            bar.button(PREFIX + choice.id).setToolTip(choice.tip)

    def _connect(self, tab: ConflictTab) -> None:
        if id(tab) in self._connected:
            return
        self._connected.add(id(tab))
        tab.prompts.action_chosen.connect(functools.partial(self._on_tab_action_chosen, tab))
        tab.destroyed.connect(functools.partial(self._forget, id(tab)))

    def _forget(self, tab_id: int, _object: object = None) -> None:
        self._connected.discard(tab_id)
        self._showing.pop(tab_id, None)

    def decide(self, tab: ConflictTab, choice: str) -> None:
        """Carry out a choice of `tab`'s bar (a choice's id: `compare`, `mine`, …)."""
        conflict = self.conflict_for(tab)
        if conflict is None or tab in self._jobs.values():
            return
        does = choice_of(choice)
        if does is not Choice.DECIDE:  # Keep both is seen before it is kept
            self._compare(conflict.path, does is Choice.COMPARE_BOTH)
            return
        for action in tab.prompts.bar.action_ids():
            tab.prompts.bar.button(action).setEnabled(False)
        go = functools.partial(self._resolve, tab, conflict, choice)
        if tab.is_dirty:  # mine is the text in front of the user: saved first
            tab.save(go)
        else:
            go(True)

    def _resolve(self, tab: ConflictTab, conflict: SyncConflict, choice: str, saved: bool) -> None:
        if not saved:  # the bar says why (a save's conflict, an error)
            return
        home, workspace = self._context.home, self._context.shown.workspace
        decision = BAR_DECISIONS[choice]
        job = functools.partial(
            resolve_sync_conflict, home, workspace, conflict, decision, self._sync.git_program
        )
        self._jobs[self._tasks().submit(job)] = tab

    def _tasks(self) -> JobClient:
        if self._client is None:
            self._client = self._context.jobs.client("sync-bar", Lane.JOBS, parent=self)
            self._client.job_finished.connect(self._on_client_job_finished)
            self._client.job_failed.connect(self._on_client_job_failed)
            self._client.job_cancelled.connect(self._on_client_job_cancelled)
        return self._client

    @Slot(object)
    def _on_editor_file_opened(self, ref: MemoryFileRef) -> None:
        tab = self._editor.tab_for(ref)
        if tab is not None:
            self._showing.pop(id(tab), None)  # opened anew: its bar shows again
        self.refresh()

    def _on_tab_action_chosen(self, tab: ConflictTab, action: str) -> None:
        if action.startswith(PREFIX):
            self.decide(tab, action.removeprefix(PREFIX))

    @Slot(int, object)
    def _on_client_job_finished(self, job_id: int, result: object) -> None:
        self._jobs.pop(job_id, None)
        self._resolved(str(result))
        self._sync.look_again()

    @Slot(int, str)
    def _on_client_job_failed(self, job_id: int, message: str) -> None:
        tab = self._jobs.pop(job_id, None)
        conflict = self.conflict_for(tab) if tab is not None else None
        if tab is not None and conflict is not None:
            self._show(tab, conflict, not_resolved_text(message))
        self._sync.look_again()

    @Slot(int)
    def _on_client_job_cancelled(self, job_id: int) -> None:
        self._jobs.pop(job_id, None)


LOOKING_MS = 2000  # how long the status bar says it looks (a look takes a moment)


def ask_unsent(
    parent: QWidget, text: str, detail: str, answer: Callable[[UnsentChoice], None]
) -> QMessageBox:
    """Ask Sync now / Quit anyway / Cancel; `answer` is called once with the choice
    (closing the box is Cancel). Returns the open box."""
    role = QMessageBox.ButtonRole
    box, buttons = message_box(
        parent,
        QMessageBox.Icon.Warning,
        "Changes not sent",
        text,
        detail,
        [
            ("&Sync now", role.AcceptRole),
            ("&Quit anyway", role.DestructiveRole),
            QMessageBox.StandardButton.Cancel,
        ],
        default=0,
        window_modal=True,
    )
    answers = (UnsentChoice.SYNC, UnsentChoice.QUIT, UnsentChoice.CANCEL)
    answer_later(box, buttons, lambda index: answer(answers[index]))  # closed: -1, Cancel
    return box


class UnsentAtQuit(QObject):
    """The window's question about changes sync has not sent (see the module docstring):
    a `ClosingQuestion`."""

    def __init__(
        self, sync: WindowSync, status: StatusNotices, parent_widget: QWidget, parent: QObject
    ) -> None:
        super().__init__(parent)
        self._sync = sync
        self._status = status
        self._parent_widget = parent_widget
        self._question = QuitQuestion()
        self._box: QMessageBox | None = None  # the question, while it is open
        self.ask_box = ask_unsent
        """Opens the question (a seam for tests, which answer it)."""
        sync.changed.connect(self._on_sync_changed)
        sync.finished.connect(self._on_sync_finished)

    def needs_asking(self) -> bool:
        """Where sync is set up — or may be, closed before the first look said (its
        set-up's file is there: a stat, as the UI's decisions may make)."""
        if self._sync.looked:
            return self._sync.configured
        return SyncPaths(self._sync.home).config.exists()

    def ask(self, then: Callable[[], object]) -> None:
        """Look where sync stands (after the sync that runs); close, or ask."""
        self._do(self._question.ask(then))

    def _do(self, step: QuitStep) -> None:
        if step is QuitStep.LOOK:
            self._status.show("Looking for changes sync has not sent…", LOOKING_MS)
            self._sync.look_again()  # after the sync that runs, if one does
        elif step is QuitStep.SYNC:
            self._status.show("Syncing before Memtab quits…")
            self._sync.sync_now()
        elif step is QuitStep.CLOSE:
            self._close()

    @Slot(object)
    def _on_sync_changed(self, look: SyncLook) -> None:
        action = self._question.sync_changed(look, busy=self._sync.busy)
        if action.step is QuitStep.DISMISS_AND_CLOSE and self._box is not None:
            box, self._box = self._box, None
            box.finished.disconnect()
            box.close()
            box.deleteLater()
            self._close()
        elif action.step is QuitStep.ASK:
            self._box = self.ask_box(
                self._parent_widget, action.text, action.detail, self._on_answered
            )
        else:
            self._do(action.step)

    @Slot(object)
    def _on_sync_finished(self, look: SyncLook | None) -> None:
        self._do(self._question.sync_finished(look))

    def _on_answered(self, choice: UnsentChoice) -> None:
        self._box = None
        self._do(self._question.answered(choice))

    def _close(self) -> None:
        then = self._question.take_then()
        if then is not None:
            then()


class SyncStatusWidget(QToolButton):
    """The status-bar button (see the module docstring)."""

    conflicts_requested = Signal()  # open the conflicts (there are some)
    sync_requested = Signal()  # sync now

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("syncStatus")
        self.setAutoRaise(True)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.setAccessibleName("Sync")
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._look = SyncLook()
        self._syncing = False
        self._copies = 0
        self._progress = ""
        self.line = SyncLine("", "", visible=False)
        self.clicked.connect(self._on_clicked)
        self.setVisible(False)

    @Slot(object)
    def show_look(self, look: SyncLook) -> None:
        self._look = look
        self._update()

    @Slot(bool)
    def set_syncing(self, syncing: bool) -> None:
        self._syncing = syncing
        self._progress = ""
        self._update()

    @Slot(str)
    def set_progress(self, line: str) -> None:
        """What the running sync does now (its tooltip, not the window's messages)."""
        self._progress = line
        self._update()

    def set_copies(self, copies: int) -> None:
        """How many file-sync conflict copies the Memory tab shows."""
        if copies != self._copies:
            self._copies = copies
            self._update()

    def _update(self) -> None:
        self.line = line = sync_line(
            self._look,
            syncing=self._syncing,
            copies=self._copies,
            now_ms=now_ms(),
            progress=self._progress,
        )
        self.setText(line.text)
        self.setToolTip(line.tooltip)
        self.setVisible(line.visible)

    @Slot()
    def _on_clicked(self) -> None:
        if self.line.conflicts:
            self.conflicts_requested.emit()
        else:
            self.sync_requested.emit()


EDITOR_CONFLICT = (
    "{name}: your draft and the file on disk differ — Keep mine (Alt+M), Keep theirs "
    "(Alt+T) or Keep both (Alt+B) in the compare window"
)


class SyncFeature(QObject):
    """Sync of one window (see the module docstring)."""

    def __init__(
        self,
        context: WindowContext,
        shell: WindowShell,
        *,
        clock: GuiClock = QT_CLOCK,
        git_program: str | None = None,
        rows: MarkedRows | None = None,
        editor: ConflictEditor | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._context = context
        self._shell = shell
        self._rows = rows
        self.sync = WindowSync(
            context.home, context.jobs, clock=clock, git_program=git_program, parent=self
        )
        self.quitting = UnsentAtQuit(self.sync, context.status, shell.as_widget(), self)
        context.before_closing.append(self.quitting)  # "1 change not sent yet"
        self.status = SyncStatusWidget()
        self.sync.changed.connect(self.status.show_look)
        self.sync.changed.connect(self._mark_conflicts)
        context.shown.workspace_changed.connect(self._mark_conflicts)
        context.changes.published.connect(self.sync.follow_changes)
        self._note = SyncNowNote()
        self.sync.busy_changed.connect(self.status.set_syncing)
        self.sync.busy_changed.connect(self._note.busy_changed)
        self.sync.changed.connect(self._on_sync_changed)  # after the corner's update
        self.sync.progress.connect(self.status.set_progress)
        self.status.conflicts_requested.connect(self.open_conflicts)
        self.status.sync_requested.connect(self.sync_now)
        self.dialog: ConflictsDialog | None = None
        self.setup: SyncSetupDialog | None = None
        self.bars = (
            SyncConflictBars(context, editor, self.sync, self.compare, self._on_resolved, self)
            if editor is not None
            else None
        )
        """The sync conflict bars of the editor's tabs (a window without an editor: none)."""
        self._count_copies = CopyCounts()
        actions = context.actions
        actions.add(
            "sync.now",
            "S&ync now",
            self.sync_now,
            keys=["F9"],
            focus=Focus.WINDOW,
            menu="file",
            tip="Send this machine's memory changes and bring in the others'",
            enabled_when=lambda: not self.sync.syncing,
        )
        actions.add(
            "sync.setup",
            "Sy&nc…",
            self.open_setup,
            menu="file",
            tip="Sync memory through a git remote: which remote, what syncs, the first sync",
        )
        actions.add(
            "sync.conflicts",
            "Resolve &conflicts…",
            self.resolve_conflicts,
            menu="file",
            tip="Files two machines changed on the same lines, file-sync conflict copies, "
            "and a draft the file changed under",
        )
        self._editor = editor
        context.shown.scan_applied.connect(self._on_shown_scan_applied)
        if context.shown.scan is not None:
            self.status.set_copies(self._count_copies(context.shown.scan))

    def start(self) -> None:
        self.sync.start()

    @Slot()
    def sync_now(self) -> None:
        """Sync now; without a target, open File → Sync… to set one up."""
        configured = self.sync.configured
        self._context.status.show(self._note.sync_now(configured=configured))
        if configured:
            self.sync.sync_now()
            return
        self.sync.look_again()  # the CLI may have set it up meanwhile: the dialog says so
        self.open_setup()

    @Slot(object)
    def _on_sync_changed(self, _look: object) -> None:
        if (note := self._note.looked(self.status.line.text)) is not None:
            self._context.status.show(note)

    @Slot()
    def open_setup(self) -> None:
        """File → Sync…: set sync up, change it or stop it."""
        # lazy: ~1.3 MiB, ~110 ms (sync's engine) when File → Sync… opens
        from memtab.gui.sync.setup_dialog import SyncSetupDialog

        if self.setup is None:
            self.setup = SyncSetupDialog(self._context, self.sync, self._shell.as_widget())
        if not self.setup.busy:
            self.setup.reload()
        self.setup.show()
        self.setup.raise_()
        self.setup.activateWindow()

    def resolve_conflicts(self) -> None:
        """File → Resolve conflicts…: sync's and file-sync copies' in their dialog; with
        none, a draft of the editor the file changed under, in its Compare."""
        scan = self._context.shown.scan
        copies = self._count_copies(scan) if scan is not None else 0
        if not self.sync.look.conflicts and not copies and self._editor is not None:
            name = self._editor.bar_keys.resolve_first()
            if name is not None:
                self._context.status.show(EDITOR_CONFLICT.format(name=name))
                return
        self.open_conflicts()

    @Slot()
    def open_conflicts(self, select: str | None = None, *, show_both: bool = False) -> None:
        """Open the conflicts: sync's and file-sync copies', each to resolve; `select` the
        one at that virtual path once they are listed (`show_both`: with Keep both's result
        shown, to keep with a second press)."""
        if self.dialog is None:
            # lazy: the dialog and its view's rules, imported by no window that never opens it
            from memtab.gui.sync.conflicts_dialog import ConflictsDialog

            self.dialog = ConflictsDialog(self._context, self.sync, self._shell.as_widget())
        self.dialog.reload(select, show_both=show_both)
        self.dialog.show()
        self.dialog.raise_()
        self.dialog.activateWindow()

    def compare(self, path: str, show_both: bool = False) -> None:
        """Resolve conflicts…, on the conflict at `path` (an editor bar's Compare; its
        Keep both, `show_both`, shows what it keeps there before it is kept)."""
        self.open_conflicts(path, show_both=show_both)

    def shutdown(self) -> None:
        for part in (self.dialog, self.setup, self.bars):
            if part is not None:
                part.shutdown()
        self.sync.shutdown()

    def _on_resolved(self, message: str) -> None:
        """An editor bar decided a conflict: say so; the dialog, if open, lists anew."""
        self._context.status.show(message)
        if self.dialog is not None and self.dialog.isVisible():
            self.dialog.reload()

    @Slot()
    def _mark_conflicts(self) -> None:
        """Mark the rows of the files in sync conflict that the tree shows (after every
        look, and when the shown workspace changes)."""
        if self._rows is not None:
            marks = conflict_marks(self.sync.look.conflicts, self._context.shown.workspace)
            self._rows.set_marks("sync", marks)

    @Slot(object)
    def _on_shown_scan_applied(self, scan: HomeScan) -> None:
        self.status.set_copies(self._count_copies(scan))
        if self.dialog is not None and self.dialog.isVisible():
            self.dialog.reload()


__all__ = ["unsent_question"]
