"""A file in sync conflict, open in an editor tab, says so in the tab's message bar.

Another machine changed the same lines of the file: the tab shows this machine's text
(the file keeps it until the user decides, docs/formats.md §18.4), and its bar offers the
choices File → Resolve conflicts… offers, in the same words
(`components.merge`): Compare (that dialog, on this file: the three-way view and
the text to keep), Keep mine, Keep theirs, Keep both — which opens that dialog with its
result in the text to keep, to be seen before a second press keeps it. Enter picks
Compare.

A decision is made by sync's engine (`components.sync.conflicts.resolve`) on a lane of its
own; an unsaved draft is saved first, so *mine* is the text in front of the user (the
draft Keep theirs replaces stays in history). The bar follows the window's sync: it
comes when a look finds the conflict, goes when the conflict is decided (here, in the
dialog or with `memtab sync resolve`), and comes again when the tab opens the file
anew. Dismissed, it stays away for that tab until then; a bar asking something else (a
save's conflict, a change on disk) is never covered by it.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Slot

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
    not_resolved_text,
    resolve_sync_conflict,
    shown_conflicts,
)
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.gui.context import WindowContext
from memtab.gui.sync.needs import ConflictEditor, ConflictTab
from memtab.gui.sync.service import WindowSync
from memtab.gui.tasks.jobs import JobClient, Lane

if TYPE_CHECKING:  # lazy: sync's engine (~1.5 MiB, ~90 ms), on its worker
    from memtab.sync.service import SyncConflict

logger = logging.getLogger(__name__)

__all__ = ["PREFIX", "SyncConflictBars"]


class SyncConflictBars(QObject):
    """The sync conflict bars of one editor panel (see the module docstring).

    `compare(path, show_both)` opens Resolve conflicts… on the conflict at that virtual
    path (with Keep both's result shown);
    `resolved(message)` is told what a decision did (for the status bar).
    """

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
        sync.changed.connect(self._on_sync_changed)
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

    # --- the bar -----------------------------------------------------------------------------

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

    # --- deciding ----------------------------------------------------------------------------

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

    # --- slots -------------------------------------------------------------------------------

    @Slot(object)
    def _on_sync_changed(self, _look: object) -> None:
        self.refresh()

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
