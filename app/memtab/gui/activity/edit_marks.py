"""The "agent edited" badges on screen: the tree's rows and the editor's header.

`components.activity.badges.AgentEdits` decides which files carry a badge and whose change it names;
this collaborator of the Memory tab feeds it and shows the result:

- after each scan it counts the changes in and updates the tree and the open file's
  header;
- Memtab's own jobs claim what they wrote: a writer run of this window
  (`claim_writer_run`), a consolidation run of this window (its journal record, and
  every change seen while it runs on the shown workspace), a sync of this window
  (`claim_sync`: the files it brought in) and an agent's proposal accepted in the Inbox
  (`claim_agent`: the agent's change);
- Memtab's runs in other processes (`memtab sync`, `memtab write`, another window) claim
  the contents they wrote: each run the runs log gains is read off the GUI thread
  (`follow_other_runs`);
- a file the *user* opens loses its badge — not one the tab reopens by itself (the file
  open last time, or a file the editor reloads after a change on disk);
- the badges are kept in the UI state, so they survive a restart.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, SignalInstance, Slot

from memtab.components.activity.badges import CLAIM_TTL_MS, Actor, AgentEdits, Badge
from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.activity.own_writes import OwnWrites
from memtab.components.tree.scan import HomeScan
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.fs.clock import now_ms
from memtab.gui.context import WindowContext
from memtab.gui.toolkit.ui_state import UiState
from memtab.operations.history import contents_written_since
from memtab.operations.sync.look import SyncLook
from memtab.store.home import Home, PathKind
from memtab.store.paths import PathError, Scope, VirtualPath, parse_file_path
from memtab.store.sidecars.journal import ConsolidationRecord

logger = logging.getLogger(__name__)

RUN_ACTORS = {"writer": Actor.WRITER, "consolidation": Actor.CONSOLIDATOR, "sync": Actor.SYNC}
"""The badge of a change a run of each kind made (a revert is the user's own)."""
_RUNS_READ = "edit-marks-runs"


class BadgedTree(Protocol):
    """What the badges need of the tree's model (`MemoryTreeModel`)."""

    def set_agent_edited(self, badges: Mapping[str, Badge]) -> None: ...


class BadgedEditor(Protocol):
    """What the badges need of the editor (`EditorPanel`): when files open and close, which
    are still being read, where the open one is, and its header's badge."""

    @property
    def file_opened(self) -> SignalInstance: ...
    @property
    def file_closed(self) -> SignalInstance: ...
    @property
    def reading_refs(self) -> list[MemoryFileRef]: ...
    @property
    def real_path(self) -> Path | None: ...

    def set_badge(self, text: str | None, tooltip: str = "") -> None: ...


class ConsolidationRuns(Protocol):
    """This window's consolidation runs (`LazyConsolidationTasks`), as they start and end."""

    @property
    def run_started(self) -> SignalInstance: ...
    @property
    def run_finished(self) -> SignalInstance: ...
    @property
    def run_failed(self) -> SignalInstance: ...
    @property
    def run_cancelled(self) -> SignalInstance: ...
    @property
    def plan_ready(self) -> SignalInstance: ...


class EditMarks(QObject):
    """Keeps the tree's and the editor's badges in step (see the module docstring)."""

    def __init__(
        self,
        home: Home,
        model: BadgedTree,
        editor: BadgedEditor,
        own_writes: OwnWrites,
        ui_state: UiState | None,
        parent: QObject | None = None,
    ) -> None:
        """Badges remembered in `ui_state` for `home` come back at once."""
        super().__init__(parent)
        self._home = home
        self._model = model
        self._editor = editor
        self._ui_state = ui_state
        self._scan: HomeScan | None = None
        self._quiet_opens = 0
        self._quiet_refs: set[MemoryFileRef] = set()  # opened quietly, text on its way
        self._context: WindowContext | None = None
        self.edits = AgentEdits(own_writes)
        if ui_state is not None:
            self.edits.restore(ui_state.badges_for(home.root))
        editor.file_opened.connect(self._on_editor_file_opened)
        editor.file_closed.connect(self._on_editor_file_closed)

    @property
    def badges(self) -> Mapping[str, Badge]:
        """The badges by physical path (what the model shows)."""
        return self.edits.badges

    def scanned(self, scan: HomeScan, *, first: bool) -> None:
        """Count a scan's changes in (the `first` scan of a workspace also forgets badges
        of its files that went meanwhile); the tree gets the badges with the scan's tree."""
        self._scan = scan
        self.edits.count_in(scan)
        if first:
            self.edits.forget_missing(scan)
        self._show_in_editor()

    def show(self) -> None:
        """Push the badges to the tree and the editor now."""
        self._model.set_agent_edited(self.edits.badges)
        self._show_in_editor()

    @contextmanager
    def opening_quietly(self) -> Iterator[None]:
        """Files opened inside the block keep their badge (the tab opens them itself),
        also once their text arrives after it."""
        reading = set(self._editor.reading_refs)
        self._quiet_opens += 1
        try:
            yield
        finally:
            self._quiet_opens -= 1
            self._quiet_refs |= set(self._editor.reading_refs) - reading

    def moved_away(self, old: VirtualPath) -> None:
        """A move took files away from under `old`: their badges go."""
        if self.edits.drop_under(self._scan, old):
            self.show()

    def claim_writer_run(self, workspace_id: str, memory_path: str) -> None:
        """This window's writer wrote `memory_path` of `workspace_id`."""
        try:
            path = parse_file_path(memory_path)
        except PathError:
            return
        if path.scope is Scope.WORKSPACE:
            # A side chat's writer writes its task tree's notebook (docs/formats.md §2.5).
            workspace = self._scan.registry.workspace(workspace_id) if self._scan else None
            notebook = workspace.notebook_id if workspace is not None else workspace_id
            physical = self._home.workspace_root(notebook).joinpath(*path.segments)
            self._claim(physical, Actor.WRITER)

    @Slot(str, str)
    def claim_agent(self, memory_path: str, actor: str) -> None:
        """An agent's proposal the user accepted writes `memory_path` (of the shown
        workspace): its change is the agent's, named by its history actor `actor`."""
        scan = self._scan
        try:
            path = parse_file_path(memory_path)
        except PathError:
            return
        physical = scan.scope(path.scope).physical(path) if scan and path.scope else None
        if physical is not None and self.edits.claim(str(physical), Actor.AGENT, actor):
            self.show()

    def claim_sync(self, look: SyncLook) -> None:
        """This window's sync (`look`, after a job) brought files in: their changes are sync's."""
        if look.synced and look.report is not None:
            for target in look.report.targets:
                for physical in target.pulled_on_disk:
                    self._claim(Path(physical), Actor.SYNC)

    def follow(self, consolidation: ConsolidationRuns) -> None:
        """Claim what this window's consolidation runs change."""
        consolidation.run_started.connect(self._on_consolidation_run_started)
        consolidation.run_finished.connect(self._on_consolidation_run_finished)
        consolidation.run_failed.connect(self._on_consolidation_run_ended)
        consolidation.run_cancelled.connect(self._on_consolidation_run_ended)
        # A run with review ends with its plan, having changed nothing: changes seen after
        # it are not the consolidator's (applying the plan is a run of its own).
        consolidation.plan_ready.connect(self._on_consolidation_run_ended)

    def follow_other_runs(self, context: WindowContext) -> None:
        """Claim what Memtab's runs in other processes wrote, as the runs log gains them."""
        self._context = context
        context.changes.published.connect(self._on_changes_published)

    @Slot(object)
    def _on_changes_published(self, batch: ChangeBatch) -> None:
        if self._context is not None and batch.affects(PathKind.RUNS_LOG):
            since = now_ms() - CLAIM_TTL_MS
            job = functools.partial(contents_written_since, self._home, since)
            self._context.files.read(_RUNS_READ, job, self._claim_contents)

    def _claim_contents(self, written: dict[str, str]) -> None:
        changed = False
        for sha, kind in written.items():
            actor = RUN_ACTORS.get(kind)
            if actor is not None:
                changed = self.edits.claim_content(sha, actor) or changed
        if changed:
            self.show()

    def consolidation_started(self, workspace_id: str) -> None:
        """This window's consolidation runs on `workspace_id` (changes meanwhile are its)."""
        scan = self._scan
        self.edits.consolidating = (
            scan is not None and scan.workspace is not None and scan.workspace.id == workspace_id
        )

    def consolidation_ended(self, record: ConsolidationRecord | None = None) -> None:
        """The run ended; with its record, every file it changed is claimed for it."""
        self.edits.consolidating = False
        scan = self._scan
        if record is None or scan is None:
            return
        for op in record.ops:
            if not op.applied:
                continue
            for raw in (op.path, op.new_path):
                try:
                    path = parse_file_path(raw) if raw else None
                except PathError:
                    continue
                physical = scan.scope(path.scope).physical(path) if path and path.scope else None
                if physical is not None:
                    self._claim(Path(physical), Actor.CONSOLIDATOR)

    def save(self) -> None:
        """Put the badges in the UI state (the window writes the file)."""
        if self._ui_state is not None:
            self._ui_state.set_badges(self._home.root, self.edits.saved())

    # -- internals -----------------------------------------------------------------------

    def _claim(self, physical: Path, actor: Actor) -> None:
        if self.edits.claim(str(physical), actor):
            self.show()

    def _open_physical(self) -> str | None:
        """Where the open file is, spelled as badges (and the tree's rows) spell it."""
        real = self._editor.real_path
        return str(real) if real is not None else None

    def _show_in_editor(self) -> None:
        badge = self.edits.badge(self._open_physical())
        if badge is None:
            self._editor.set_badge(None)
        else:
            self._editor.set_badge(badge.label, badge.sentence())

    @Slot(object)
    def _on_editor_file_opened(self, ref: MemoryFileRef) -> None:
        opened = self._open_physical()
        quiet = self._quiet_opens > 0 or ref in self._quiet_refs
        self._quiet_refs &= set(self._editor.reading_refs)  # closed before it loaded: gone
        if not quiet and self.edits.clear(opened):  # the user looked
            self._model.set_agent_edited(self.edits.badges)
        self._show_in_editor()

    @Slot(str)
    def _on_consolidation_run_started(self, workspace_id: str) -> None:
        self.consolidation_started(workspace_id)

    @Slot(object)
    def _on_consolidation_run_finished(self, record: object) -> None:
        self.consolidation_ended(record if isinstance(record, ConsolidationRecord) else None)

    @Slot()
    def _on_consolidation_run_ended(self) -> None:
        self.consolidation_ended()

    @Slot()
    def _on_editor_file_closed(self) -> None:
        self._editor.set_badge(None)
