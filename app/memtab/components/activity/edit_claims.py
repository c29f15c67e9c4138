"""Whose change each badge names, without Qt: `EditClaims` keeps the badges between scans,
turns what the window hears (a writer run, an Inbox accept, a sync, a consolidation, other
processes' runs) into claims, and knows which opens are the user's (`gui/activity/edit_marks`)."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Any

from memtab.components.activity.badges import Actor, AgentEdits, Badge
from memtab.components.activity.own_writes import OwnWrites
from memtab.components.tree.scan import HomeScan
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.store.home import Home
from memtab.store.paths import PathError, Scope, VirtualPath, parse_file_path
from memtab.store.sidecars.journal import ConsolidationRecord

RUN_ACTORS = {"writer": Actor.WRITER, "consolidation": Actor.CONSOLIDATOR, "sync": Actor.SYNC}
"""The badge of a change a run of each kind made (a revert is the user's own)."""


def _parsed(raw: str | None) -> VirtualPath | None:
    try:
        return parse_file_path(raw) if raw else None
    except PathError:
        return None


class EditClaims:
    """The badges and the claims on them."""

    def __init__(self, home: Home, own_writes: OwnWrites, saved: Any = None) -> None:
        """Badges `saved` for `home` (the UI state's) come back at once."""
        self._home = home
        self.edits = AgentEdits(own_writes)
        if saved is not None:
            self.edits.restore(saved)
        self.scan: HomeScan | None = None
        self._quiet_opens = 0
        self._quiet_refs: set[MemoryFileRef] = set()  # opened quietly, text on its way

    def scanned(self, scan: HomeScan, *, first: bool) -> None:
        """Count a scan's changes in (the `first` scan of a workspace also forgets badges
        of its files that went meanwhile)."""
        self.scan = scan
        self.edits.count_in(scan)
        if first:
            self.edits.forget_missing(scan)

    def moved_away(self, old: VirtualPath) -> bool:
        """A move took files away from under `old`: their badges go (True: some did)."""
        return self.edits.drop_under(self.scan, old)

    def _physical(self, path: VirtualPath | None) -> str | None:
        """Where a memory path of the shown workspace is on disk."""
        scan = self.scan
        shown = scan.scope_if_shown(path.scope) if scan and path and path.scope else None
        return shown.physical(path) if shown is not None and path is not None else None

    def claim_all(self, physical: Iterable[str | Path], actor: Actor) -> bool:
        """These files' changes are `actor`'s (True: a badge changed)."""
        return any([self.edits.claim(str(each), actor) for each in physical])  # each claimed

    def user_wrote(self, physical: Iterable[str]) -> bool:
        """A file operation of this window wrote these files (True: a badge went)."""
        return self.edits.written_by_user(physical)

    def writer_wrote(self, workspace_id: str, memory_path: str) -> bool:
        """This window's writer wrote `memory_path` of `workspace_id`."""
        path = _parsed(memory_path)
        if path is None or path.scope is not Scope.WORKSPACE:
            return False
        # A side chat's writer writes its task tree's notebook (docs/formats.md §2.5).
        workspace = self.scan.registry.workspace(workspace_id) if self.scan else None
        notebook = workspace.notebook_id if workspace is not None else workspace_id
        physical = self._home.workspace_root(notebook).joinpath(*path.segments)
        return self.edits.claim(str(physical), Actor.WRITER)

    def agent_wrote(self, memory_path: str, actor: str) -> bool:
        """An agent's proposal the user accepted writes `memory_path` (of the shown
        workspace): its change is the agent's, named by its history actor `actor`."""
        physical = self._physical(_parsed(memory_path))
        return physical is not None and self.edits.claim(physical, Actor.AGENT, actor)

    def contents_written(self, written: dict[str, str]) -> bool:
        """Memtab's runs elsewhere wrote these contents (sha → the run's kind)."""
        claims = [(sha, RUN_ACTORS.get(kind)) for sha, kind in written.items()]
        return any([self.edits.claim_content(sha, actor) for sha, actor in claims if actor])

    def consolidation_started(self, workspace_id: str) -> None:
        """This window's consolidation runs on `workspace_id` (changes meanwhile are its,
        when it is the shown workspace)."""
        shown = self.scan.workspace if self.scan is not None else None
        self.edits.consolidating = shown is not None and shown.id == workspace_id

    def consolidation_ended(self, record: ConsolidationRecord | None) -> bool:
        """The run ended; with its record, every file it changed is claimed for it."""
        self.edits.consolidating = False
        if record is None or self.scan is None:
            return False
        paths = (_parsed(raw) for op in record.ops if op.applied for raw in (op.path, op.new_path))
        physical = [Path(each) for path in paths if (each := self._physical(path)) is not None]
        return self.claim_all(physical, Actor.CONSOLIDATOR)

    def quiet_begins(self) -> None:
        """Files opened from now until `quiet_ends` keep their badge (the tab opens them)."""
        self._quiet_opens += 1

    def quiet_ends(
        self, reading_before: Collection[MemoryFileRef], reading: Iterable[MemoryFileRef]
    ) -> None:
        """The quiet block ended; the files it began reading stay quiet until they load."""
        self._quiet_opens -= 1
        self._quiet_refs |= set(reading) - set(reading_before)

    def opened(
        self, ref: MemoryFileRef, physical: str | None, reading: Iterable[MemoryFileRef]
    ) -> bool:
        """`ref` opened (at `physical`; `reading`: what the editor still reads): the user
        looked, unless the tab opened it; True when its badge went."""
        quiet = self._quiet_opens > 0 or ref in self._quiet_refs
        self._quiet_refs &= set(reading)  # closed before it loaded: gone
        return not quiet and self.edits.clear(physical)

    def badge_of(self, physical: str | None) -> Badge | None:
        """The badge of the file at `physical` (the open one's, for the editor's header)."""
        return self.edits.badge(physical)
