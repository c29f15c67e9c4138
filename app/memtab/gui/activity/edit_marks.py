"""The "agent edited" badges on the tree's rows and the editor's header: fed after each scan,
claimed by Memtab's own runs (here and in other processes), dropped when the user opens the
file, kept in the UI state (`components.activity.badges`, `edit_claims`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, SignalInstance, Slot

from memtab.components.activity.badges import CLAIM_TTL_MS, Actor, Badge
from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.activity.edit_claims import EditClaims
from memtab.components.activity.own_writes import OwnWrites
from memtab.components.jobs import plain
from memtab.components.sync.status import SyncLook
from memtab.components.tree.scan import HomeScan
from memtab.components.window.ui_state import UiState
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.fs.clock import now_ms
from memtab.gui.context import WindowContext
from memtab.store.history.runs import RunsLog
from memtab.store.home import Home, PathKind
from memtab.store.paths import VirtualPath
from memtab.store.sidecars.journal import ConsolidationRecord

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
    """This window's consolidation runs (`ConsolidationTasks`), as they start and end."""

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
        self._context: WindowContext | None = None
        saved = ui_state.badges_for(home.root) if ui_state is not None else None
        self.claims = EditClaims(home, own_writes, saved)
        self.edits = self.claims.edits
        own_writes.listen(self._on_own_written)
        editor.file_opened.connect(self._on_editor_file_opened)
        editor.file_closed.connect(self._on_editor_file_closed)

    @property
    def badges(self) -> Mapping[str, Badge]:
        return self.edits.badges

    def scanned(self, scan: HomeScan, *, first: bool) -> None:
        """Count a scan's changes in (`EditClaims.scanned`); the tree gets the badges with
        the scan's tree."""
        self.claims.scanned(scan, first=first)
        self._show_in_editor()

    def show(self) -> None:
        """Push the badges to the tree and the editor now."""
        self._model.set_agent_edited(self.edits.badges)
        self._show_in_editor()

    def _show_if(self, changed: bool) -> None:
        if changed:
            self.show()

    @contextmanager
    def opening_quietly(self) -> Iterator[None]:
        """Files opened inside the block keep their badge (the tab opens them itself),
        also once their text arrives after it."""
        reading = list(self._editor.reading_refs)
        self.claims.quiet_begins()
        try:
            yield
        finally:
            self.claims.quiet_ends(reading, self._editor.reading_refs)

    def moved_away(self, old: VirtualPath) -> None:
        """A move took files away from under `old`: their badges go."""
        self._show_if(self.claims.moved_away(old))

    def _on_own_written(self, physical: Sequence[str]) -> None:
        """A file operation of the window wrote `physical`: the user's, never badged."""
        self._show_if(self.claims.user_wrote(physical))

    def claim_writer_run(self, workspace_id: str, memory_path: str) -> None:
        """This window's writer wrote `memory_path` of `workspace_id`."""
        self._show_if(self.claims.writer_wrote(workspace_id, memory_path))

    @Slot(str, str)
    def claim_agent(self, memory_path: str, actor: str) -> None:
        """An agent's proposal the user accepted writes `memory_path` (of the shown
        workspace): its change is the agent's, named by its history actor `actor`."""
        self._show_if(self.claims.agent_wrote(memory_path, actor))

    def claim_sync(self, look: SyncLook) -> None:
        """This window's sync (`look`, after a job) brought files in: their changes are sync's."""
        if look.synced and look.report is not None:
            pulled = (each for target in look.report.targets for each in target.pulled_on_disk)
            self._show_if(self.claims.claim_all((Path(each) for each in pulled), Actor.SYNC))

    def follow(self, consolidation: ConsolidationRuns) -> None:
        """Claim what this window's consolidation runs change."""
        consolidation.run_started.connect(self.consolidation_started)
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
            job = plain(RunsLog(self._home).contents_written_since, now_ms() - CLAIM_TTL_MS)
            self._context.files.read(_RUNS_READ, job, self._claim_contents)

    def _claim_contents(self, written: dict[str, str]) -> None:
        self._show_if(self.claims.contents_written(written))

    def consolidation_started(self, workspace_id: str) -> None:
        """This window's consolidation runs on `workspace_id` (changes meanwhile are its)."""
        self.claims.consolidation_started(workspace_id)

    def consolidation_ended(self, record: ConsolidationRecord | None = None) -> None:
        """The run ended; with its record, every file it changed is claimed for it."""
        self._show_if(self.claims.consolidation_ended(record))

    def save(self) -> None:
        """Put the badges in the UI state (the window writes the file)."""
        if self._ui_state is not None:
            self._ui_state.set_badges(self._home.root, self.edits.saved())

    def _open_physical(self) -> str | None:
        """Where the open file is, spelled as badges (and the tree's rows) spell it."""
        real = self._editor.real_path
        return str(real) if real is not None else None

    def _show_in_editor(self) -> None:
        badge = self.claims.badge_of(self._open_physical())
        if badge is None:
            self._editor.set_badge(None)
        else:
            self._editor.set_badge(badge.label, badge.sentence())

    @Slot(object)
    def _on_editor_file_opened(self, ref: MemoryFileRef) -> None:
        if self.claims.opened(ref, self._open_physical(), self._editor.reading_refs):
            self._model.set_agent_edited(self.edits.badges)  # the user looked
        self._show_in_editor()

    @Slot(object)
    def _on_consolidation_run_finished(self, record: object) -> None:
        self.consolidation_ended(record if isinstance(record, ConsolidationRecord) else None)

    @Slot()
    def _on_consolidation_run_ended(self) -> None:
        self.consolidation_ended()

    @Slot()
    def _on_editor_file_closed(self) -> None:
        self._editor.set_badge(None)
