"""The window's trust actions off the GUI thread: Combine into… (what it proposes for whole
files: `operations.trust.combine`), Keep and Move (`components.trust.changes`), each place
opened as its file — a mux file through the
store of its workspace (a project's memory through a workspace of the project, global
memory through any), another agent's through its source as a discovery lists it now —
and a contradiction's two files read to be shown side by side."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from memtab.components.files.ops import OpResult
from memtab.components.files.undo import UndoStack
from memtab.components.jobs import JobContext
from memtab.components.trust import changes
from memtab.components.trust.combining import CombineChoice, CombineProposal
from memtab.file_protocol.file_ref import MemoryFileRef, SourceError, parse_file_ref
from memtab.file_protocol.memory_file import MemoryFile, MemoryFileError
from memtab.sources.config import SourceContext
from memtab.sources.discovery import discover
from memtab.sources.listing import find_file
from memtab.sources.model import Discovery, Source, SourceFile
from memtab.sources.open_file import open_memory_file
from memtab.store.home import Home, HomeError
from memtab.store.paths import PathError
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Registry, Workspace, load_registry
from memtab.trust.contradictions.records import Contradiction
from memtab.trust.duplicates.records import DuplicateGroup
from memtab.trust.leaks.records import Leak
from memtab.trust.records import MemoryPlace


class PlaceFiles:
    """Each place's memory file (see the module doc), the registry and the other agents'
    sources read once per action."""

    def __init__(self, home: Home, env: Mapping[str, str] | None = None) -> None:
        self._home = home
        self._env = env
        self._registry: Registry | None = None
        self._discovery: Discovery | None = None

    @property
    def registry(self) -> Registry:
        if self._registry is None:
            self._registry = load_registry(self._home)
        return self._registry

    def workspace_of(self, project: str | None) -> Workspace | None:
        """A workspace of `project` (None: any, for global memory)."""
        workspaces = self.registry.workspaces
        if project is None:
            return workspaces[0] if workspaces else None
        return next((w for w in workspaces if w.project_path == project), None)

    def store_of(self, project: str | None) -> MemoryStore | None:
        workspace = self.workspace_of(project)
        if workspace is None and project is not None:
            return None
        return MemoryStore(self._home, workspace)

    def open(self, place: MemoryPlace) -> MemoryFile | None:
        try:
            ref = parse_file_ref(place.path)
        except (PathError, SourceError):
            return None
        store = None
        if place.agent == "mux":
            workspace = (
                self.registry.workspace(place.workspace)
                if place.workspace
                else self.workspace_of(place.project if place.scope == "project" else None)
            )
            if workspace is None and place.scope != "global":
                return None
            store = MemoryStore(self._home, workspace)
        return open_memory_file(ref, self._home, store=store, find_agent_file=self._find)

    def _find(self, wanted: MemoryFileRef) -> tuple[Source, SourceFile] | None:
        if self._discovery is None:
            self._discovery = discover(SourceContext.load(self._home, env=self._env))
        try:
            return find_file(self._discovery, wanted.key)
        except SourceError:
            return None


def combine_lines(
    home: Home, stack: UndoStack, group: DuplicateGroup, choice: CombineChoice, _ctx: JobContext
) -> OpResult:
    """Combine a rule `group` into `choice` (`components.trust.changes.combine_lines`)."""
    files = PlaceFiles(home)
    try:
        return changes.combine_lines(stack, group, choice, files.open)
    except HomeError as error:
        return OpResult.failed("Combining failed", error)


def combine_files(
    home: Home,
    stack: UndoStack,
    proposal: CombineProposal,
    choice: CombineChoice,
    text: str,
    _ctx: JobContext,
) -> OpResult:
    """Combine `proposal`'s files into `choice`, given the `text` the user accepted
    (`components.trust.changes.combine_files`)."""
    files = PlaceFiles(home)
    try:
        return changes.combine_files(
            stack, proposal.members, choice, text, files.open, files.store_of(None)
        )
    except HomeError as error:
        return OpResult.failed("Combining failed", error)


def keep(home: Home, stack: UndoStack, group: DuplicateGroup, _ctx: JobContext) -> OpResult:
    """Keep `group` as it is."""
    return changes.keep(stack, home, group)


def move(home: Home, stack: UndoStack, leak: Leak, _ctx: JobContext) -> OpResult:
    """Move `leak` where it belongs (`components.trust.changes.move`)."""
    files = PlaceFiles(home)
    try:
        return changes.move(stack, leak, files.open, files.store_of)
    except HomeError as error:
        return OpResult.failed("Moving failed", error)


@dataclass(frozen=True)
class SideBySide:
    """The two files of a contradiction as they are now (None: unreadable, and why)."""

    contradiction: Contradiction
    first: str | None
    second: str | None
    problem: str = ""


def read_side_by_side(home: Home, found: Contradiction, _ctx: JobContext) -> SideBySide:
    """Read both files of `found`."""
    files = PlaceFiles(home)
    texts: list[str | None] = []
    problems: list[str] = []
    for side in (found.first, found.second):
        try:
            file = files.open(side.place)
            texts.append(file.read().content if file is not None else None)
            if file is None:
                problems.append(f"{side.place.path} cannot be reached")
        except (MemoryFileError, HomeError, OSError) as error:
            texts.append(None)
            problems.append(f"{side.place.path}: {error}")
    return SideBySide(found, texts[0], texts[1], "; ".join(problems))
