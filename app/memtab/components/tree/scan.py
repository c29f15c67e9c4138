"""Scanning the memory home: what the Memory tab shows, read at one moment (`HomeScan`)."""

import time
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from memtab.components.jobs import CancelToken
from memtab.store.files import (
    FileEntry,
    ScopeListing,
    ScopeOutline,
    outline_scope,
)
from memtab.store.home import Home, HomeError
from memtab.store.paths import Scope, VirtualPath
from memtab.store.scopes.scope_view import ScopeView
from memtab.store.sidecars.meta import MetaEntry
from memtab.store.sidecars.registry import (
    Registry,
    Workspace,
    load_recency,
    load_registry,
    orphan_project_dirs,
)

if TYPE_CHECKING:  # lazy: loaded by the full scan (the journal) or the first scan of sources
    from memtab.components.tree.sources_scan import ContextLoader, SourcesScan
    from memtab.store.sidecars.journal import ConsolidationRecord, ConsolidationStatus


# Below this many files the whole scan is as quick as an outline: none is made.
OUTLINE_MIN_FILES = 500


FileStamp = tuple[int, int]
"""(size, mtime in ms) of a listed file: when it differs, the content may have changed."""


def stamp_of(entry: FileEntry) -> FileStamp:
    """The stamp of a listed file."""
    return (entry.size_bytes, entry.modified_at_ms)


# The scan's records are NamedTuples: a dataclass writes and compiles its methods when its
# module loads (~4M instructions each), and this one loads before the tree's first paint.
class ScopeScan(NamedTuple):
    """One scope as scanned: its root (None: unavailable) and listing (an outline's: empty)."""

    scope: Scope
    root: Path | None
    unavailable: str | None
    listing: ScopeListing
    outline: ScopeOutline | None = None
    removed: str | None = None
    """The workspace scope of a workspace xum removed: why it is read-only (§21.3)."""

    @property
    def file_count(self) -> int:
        return self.outline.file_count if self.outline is not None else self.listing.file_count

    @property
    def error(self) -> str | None:
        """Why the scope's root could not be read, if it could not."""
        return self.outline.error if self.outline is not None else self.listing.error

    def stamps(self) -> dict[VirtualPath, FileStamp]:
        """Each listed file's stamp."""
        return {entry.path: stamp_of(entry) for entry in self.listing.files}

    def physical(self, path: VirtualPath) -> str | None:
        """Where a listed path of this scope lives, as a string (no symlink checks:
        listings hold none). Spelled like the tree's `TreeNode.physical`."""
        return None if self.root is None else "/".join((str(self.root), *path.segments))


class OrphanScan(NamedTuple):
    """A dir under `memory/project/` no registered project owns, with its files."""

    dir_name: str
    root: Path
    listing: ScopeListing
    outline: ScopeOutline | None = None

    @property
    def file_count(self) -> int:
        return self.outline.file_count if self.outline is not None else self.listing.file_count


class DiskChanges(NamedTuple):
    """What changed on disk since the previous scan of the same scope roots."""

    changed: frozenset[VirtualPath] = frozenset()  # Files created or modified.
    deleted: frozenset[VirtualPath] = frozenset()  # Files that are gone (deleted, or moved away).
    shas: Mapping[VirtualPath, str] = MappingProxyType({})
    """The content sha of each changed file that could be read."""

    @property
    def empty(self) -> bool:
        return not self.changed and not self.deleted


class HomeScan(NamedTuple):
    """Everything the Memory tab shows, read from disk at one moment."""

    home: Home
    registry: Registry
    registry_error: str | None
    workspace: Workspace | None
    workspace_note: str | None
    """Set when the requested workspace is unknown and another (or none) was chosen."""
    recency: Mapping[str, int]
    scopes: tuple[ScopeScan, ...]
    meta: Mapping[str, MetaEntry]
    status: "ConsolidationStatus | None"
    recent_runs: "tuple[tuple[str, ConsolidationRecord], ...]"
    """Labelled runs beyond those in `status` (agent-task workspaces), for the footer."""
    orphans: tuple[OrphanScan, ...]
    changes: DiskChanges
    duration_ms: float = 0.0
    sources: "SourcesScan | None" = None
    """Other agents' memory, once asked for (`ScanRequest.with_sources`)."""

    @property
    def shows_session(self) -> bool:
        """Whether the scan shows xum's session scope of its workspace (it keeps one)."""
        return self.scope_if_shown(Scope.SESSION) is not None

    def scope_if_shown(self, scope: Scope) -> ScopeScan | None:
        """The scan of one scope, None when the scan does not show it (the session scope
        of a workspace that keeps none: it comes and goes between two scans, so no caller
        may assume a scope an earlier scan showed)."""
        return next((item for item in self.scopes if item.scope is scope), None)

    def view(self) -> ScopeView:
        """The scanned workspace's scopes, to read (constructing it touches no disk; to
        change them: `MemoryStore.of(scan.view())`, after the first paint)."""
        return ScopeView(self.home, self.workspace)

    @property
    def file_count(self) -> int:
        """Files in the workspace's three scopes (orphaned project dirs not counted)."""
        return sum(item.file_count for item in self.scopes)

    @property
    def total_file_count(self) -> int:
        """Every file the tab shows: the scopes and the orphaned project dirs."""
        return self.file_count + sum(orphan.file_count for orphan in self.orphans)

    @property
    def is_outline(self) -> bool:
        """Whether this is an outline: directories and counts, no file read yet."""
        return any(item.outline is not None for item in self.scopes) or any(
            orphan.outline is not None for orphan in self.orphans
        )


class ScanRequest(NamedTuple):
    """What to scan: `changed_paths` from the watcher (or the tab's own writes), None: every
    scope relisted; `choose_default`: an unknown `workspace_id` falls back to the most recently
    used workspace."""

    home: Home
    workspace_id: str | None
    choose_default: bool = True
    previous: HomeScan | None = None
    changed_paths: frozenset[str] | None = None
    with_sources: bool = False  # Scan other agents' memory too.
    source_context: "ContextLoader | None" = None
    """How discovery reads its settings (default: `SourceContext.load`)."""
    remember_descriptions: bool = False
    """List scopes with the home's description cache (`store.description_cache`): the
    window's scans, so a start reads only the files changed since the last."""


class ScanOutcome(NamedTuple):
    """A finished scan, plus whatever the facade's `present` callable made of it."""

    request: ScanRequest
    scan: HomeScan
    presented: object = None


def choose_workspace(
    registry: Registry, requested: str | None, recency: Mapping[str, int], choose_default: bool
) -> tuple[Workspace | None, str | None]:
    """The workspace to show, and a note when the request could not be honoured; the default is
    the most recently used top-level, non-archived one, else the first such, else any."""
    note: str | None = None
    if requested:
        workspace = registry.workspace(requested)
        if workspace is not None:
            return workspace, None
        note = f"Workspace {requested!r} is not registered in this home"
    if not choose_default:
        return None, note
    pools = (
        [ws for ws in registry.workspaces if not ws.archived and ws.parent_id is None],
        [ws for ws in registry.workspaces if not ws.archived],
        list(registry.workspaces),
    )
    for pool in pools:
        if pool:
            order = {ws.id: index for index, ws in enumerate(pool)}
            chosen = max(pool, key=lambda ws: (recency.get(ws.id, 0), -order[ws.id]))
            return chosen, note
    return None, note


def workspace_identity(workspace: Workspace | None) -> tuple[str, str | None] | None:
    """What makes two workspaces show the same scopes: the notebook (a task tree shares
    one, docs/formats.md §2.5) and the project identity."""
    return (workspace.notebook_id, workspace.project_identity) if workspace is not None else None


def removed_reason(view: ScopeView, scope: Scope) -> str | None:
    """Why the workspace or session scope takes no writes (xum removed the workspace; two
    stats), or None — for every other scope too."""
    return view.removed_reason(scope) if scope in (Scope.WORKSPACE, Scope.SESSION) else None


def registry_and_workspace(
    request: ScanRequest,
) -> tuple[Registry, str | None, Mapping[str, int], Workspace | None, str | None]:
    """The registry (or why it could not be read), the workspaces' recency, the workspace
    to show and, when the request could not be honoured, a note saying so."""
    home = request.home
    try:
        registry, registry_error = load_registry(home), None
    except HomeError as error:
        registry, registry_error = Registry(), str(error)
    recency = load_recency(home)
    workspace, note = choose_workspace(
        registry, request.workspace_id, recency, request.choose_default
    )
    return registry, registry_error, recency, workspace, note


def scan_outline(request: ScanRequest, context: CancelToken | None = None) -> HomeScan | None:
    """The registry and each shown scope's directories and file counts, no file read; None
    for a home under `OUTLINE_MIN_FILES` files."""
    started = time.perf_counter()
    home = request.home
    registry, registry_error, recency, workspace, note = registry_and_workspace(request)
    view = ScopeView(home, workspace)
    scopes: list[ScopeScan] = []
    for scope in view.scopes():
        reason = view.unavailable_reason(scope)
        if reason is not None:
            scopes.append(ScopeScan(scope, None, reason, ScopeListing(scope)))
            continue
        root = view.root(scope)
        outline = outline_scope(scope, root)
        removed = removed_reason(view, scope)
        scopes.append(ScopeScan(scope, root, None, ScopeListing(scope), outline, removed))
        if context is not None:
            context.raise_if_cancelled()
    orphans: list[OrphanScan] = []
    for name in orphan_project_dirs(home, registry):
        root = home.projects_root / name
        outline = outline_scope(Scope.PROJECT, root)
        orphans.append(OrphanScan(name, root, ScopeListing(Scope.PROJECT), outline))
    scan = HomeScan(
        home=home,
        registry=registry,
        registry_error=registry_error,
        workspace=workspace,
        workspace_note=note,
        recency=recency,
        scopes=tuple(scopes),
        meta={},
        status=None,
        recent_runs=(),
        orphans=tuple(orphans),
        changes=DiskChanges(),
        duration_ms=(time.perf_counter() - started) * 1000.0,
    )
    return scan if scan.total_file_count >= OUTLINE_MIN_FILES else None
