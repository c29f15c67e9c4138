"""Sync in the window: the background sync, its status-bar corner and its commands.

Built by the window once its watcher starts (`MainWindow._start_watching`): it follows
the watcher's batches, puts `SyncStatusWidget` in the status bar, and registers File →
Sync now (F9) and File → Resolve conflicts…; a file in sync conflict open in an editor
tab says so in the tab's bar (`editor_bar`). The conflicts are counted from the sync
targets' states and from the conflict copies a file-sync tool left in the scopes the
Memory tab shows (`memtab.store.conflict_copies`). Closing the window with changes not
sent yet syncs first or asks (`quitting`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Slot

from memtab.components.sync.conflicts import conflict_marks
from memtab.components.sync.status import CopyCounts, SyncLook, SyncNowNote
from memtab.components.tree.marks import MarkedRows
from memtab.components.tree.scan import HomeScan
from memtab.gui.actions import Focus
from memtab.gui.context import WindowContext, WindowShell
from memtab.gui.sync.editor_bar import SyncConflictBars
from memtab.gui.sync.needs import ConflictEditor
from memtab.gui.sync.quitting import UnsentAtQuit
from memtab.gui.sync.service import WindowSync
from memtab.gui.sync.status import SyncStatusWidget
from memtab.gui.toolkit.clock import QT_CLOCK, GuiClock

if TYPE_CHECKING:  # lazy: ~1.3 MiB, ~110 ms (sync's engine) when File → Sync… opens
    from memtab.gui.sync.conflicts_dialog import ConflictsDialog
    from memtab.gui.sync.setup_dialog import SyncSetupDialog

logger = logging.getLogger(__name__)

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
        self.sync.busy_changed.connect(self.status.set_syncing)
        self.sync.busy_changed.connect(self._on_sync_busy_changed)
        self.sync.changed.connect(self._on_sync_changed)  # after the corner's update
        self._note = SyncNowNote()
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

    @Slot(bool)
    def _on_sync_busy_changed(self, busy: bool) -> None:
        self._note.busy_changed(busy)

    @Slot(object)
    def _on_sync_changed(self, _look: object) -> None:
        note = self._note.looked(self.status.line.text)
        if note is not None:
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
        if self.dialog is not None:
            self.dialog.shutdown()
        if self.setup is not None:
            self.setup.shutdown()
        if self.bars is not None:
            self.bars.shutdown()
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
            look: SyncLook = self.sync.look
            self._rows.set_marks(
                "sync", conflict_marks(look.conflicts, self._context.shown.workspace)
            )

    @Slot(object)
    def _on_shown_scan_applied(self, scan: HomeScan) -> None:
        self.status.set_copies(self._count_copies(scan))
        if self.dialog is not None and self.dialog.isVisible():
            self.dialog.reload()
