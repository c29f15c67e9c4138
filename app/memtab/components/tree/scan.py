"""Scanning the memory home: everything the Memory tab shows, read at one moment.

`scan_home(request)` is plain Python (run on a worker by `gui.tasks.scan.ScanTasks`): it
reads the registry, the recency metadata, `memory-meta.json`, the consolidation journal,
the three scopes of the chosen workspace and the orphan project dirs, and returns one
immutable `HomeScan`.

Rescans are incremental. The request carries the paths the watcher reported; a scope (or
orphan dir) none of them touches is reused from the previous scan; in a touched one only
the reported files are read again (`store.files.update_listing`), and the scope is
relisted (~30 ms per 1000 files) only when a directory appeared or went. The small JSON
files (registry, meta, journal) are always reread. Every scan also says what changed on
disk since the previous one (`DiskChanges`, by size and mtime), with the sha of each
changed file, so the tab can tell its own writes from an agent's and keep the open
editor in step.

Other agents' memory (`components.tree.sources_scan`) is scanned too once the request asks for it
(`with_sources`): the tab asks only after the mux scopes are shown, so it never delays
the first paint; later scans relist just the sources the watcher's paths touch.

Before the first scan of a big home, `scan_outline` gives the tree its first paint: the
registry and, per scope, the directories and how many files each holds, from names
alone (a few ms for 20,000 files). An outline's scopes have an `outline` and an empty
listing; it is never the `previous` of a rescan.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from memtab.components.cancel import CancelToken
from memtab.store.description_cache import DescriptionCache
from memtab.store.files import (
    FileEntry,
    ScopeListing,
    ScopeOutline,
    list_scope,
    outline_scope,
    read_file_content,
    update_listing,
)
from memtab.store.home import Home, HomeError
from memtab.store.journal import (
    ConsolidationRecord,
    ConsolidationStatus,
    Journal,
    JournalData,
    status_from,
)
from memtab.store.meta import MetaEntry, MetaStore
from memtab.store.paths import SCOPE_ORDER, Scope, VirtualPath
from memtab.store.registry import (
    Registry,
    Workspace,
    load_recency,
    load_registry,
    orphan_project_dirs,
)
from memtab.store.scope_view import ScopeView

if TYPE_CHECKING:  # imported by the first scan with sources, never before the first paint
    from memtab.components.tree.sources_scan import ContextLoader, SourcesScan

logger = logging.getLogger(__name__)

# Below this many files the whole scan is as quick as an outline: none is made.
OUTLINE_MIN_FILES = 500


FileStamp = tuple[int, int]
"""(size, mtime in ms) of a listed file: when it differs, the content may have changed."""


def stamp_of(entry: FileEntry) -> FileStamp:
    """The stamp of a listed file."""
    return (entry.size_bytes, entry.modified_at_ms)


@dataclass(frozen=True)
class ScopeScan:
    """One scope as scanned: its root (None when unavailable) and listing — or, in an
    outline (`scan_outline`), only its directories and file counts, the listing empty."""

    scope: Scope
    root: Path | None
    unavailable: str | None
    listing: ScopeListing
    outline: ScopeOutline | None = None

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
        if self.root is None:
            return None
        return "/".join((str(self.root), *path.segments))


@dataclass(frozen=True)
class OrphanScan:
    """A dir under `memory/project/` that no registered project owns, with its files.

    The listing's paths use the project scope, relative to the orphan dir.
    """

    dir_name: str
    root: Path
    listing: ScopeListing
    outline: ScopeOutline | None = None

    @property
    def file_count(self) -> int:
        return self.outline.file_count if self.outline is not None else self.listing.file_count


@dataclass(frozen=True)
class DiskChanges:
    """What changed on disk since the previous scan of the same scope roots."""

    changed: frozenset[VirtualPath] = frozenset()
    """Files created or modified."""
    deleted: frozenset[VirtualPath] = frozenset()
    """Files that are gone (deleted, or moved away)."""
    shas: Mapping[VirtualPath, str] = field(default_factory=dict)
    """The content sha of each changed file that could be read."""

    @property
    def empty(self) -> bool:
        return not self.changed and not self.deleted


@dataclass(frozen=True)
class HomeScan:
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
    status: ConsolidationStatus | None
    recent_runs: tuple[tuple[str, ConsolidationRecord], ...]
    """Labelled runs beyond those in `status` (agent-task workspaces), for the footer."""
    orphans: tuple[OrphanScan, ...]
    changes: DiskChanges
    duration_ms: float = 0.0
    sources: SourcesScan | None = None
    """Other agents' memory, once asked for (`ScanRequest.with_sources`)."""

    def scope(self, scope: Scope) -> ScopeScan:
        """The scan of one scope."""
        return next(item for item in self.scopes if item.scope is scope)

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


@dataclass(frozen=True)
class ScanRequest:
    """What to scan.

    `changed_paths` are absolute paths from the watcher (or the tab's own writes); None
    means "anything may have changed": every scope is relisted. With `choose_default`, an
    unknown or missing `workspace_id` falls back to the most recently used workspace.
    """

    home: Home
    workspace_id: str | None
    choose_default: bool = True
    previous: HomeScan | None = None
    changed_paths: frozenset[str] | None = None
    with_sources: bool = False
    """Scan other agents' memory too (see the module docstring)."""
    source_context: ContextLoader | None = None
    """How discovery reads its settings (default: `SourceContext.load`)."""
    remember_descriptions: bool = False
    """List scopes with the home's description cache (`store.description_cache`): the
    window's scans, so a start reads only the files changed since the last."""


@dataclass(frozen=True)
class ScanOutcome:
    """A finished scan, plus whatever the facade's `present` callable made of it."""

    request: ScanRequest
    scan: HomeScan
    presented: object = None


# -- choosing the workspace ----------------------------------------------------------------


def choose_workspace(
    registry: Registry, requested: str | None, recency: Mapping[str, int], choose_default: bool
) -> tuple[Workspace | None, str | None]:
    """The workspace to show and, when the request could not be honoured, a note saying so.

    The default is the most recently used top-level, non-archived workspace (by
    extensionMetadata.json), else the first such in registry order, else any.
    """
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
    """What makes two workspaces show the same scopes: the id and the project identity."""
    return (workspace.id, workspace.project_identity) if workspace is not None else None


def agent_task_runs(
    data: JournalData, registry: Registry, workspace: Workspace | None
) -> tuple[tuple[str, ConsolidationRecord], ...]:
    """The journaled runs of the workspace's agent-task (child) workspaces, labelled,
    newest first: their consolidation concerns the parent's project too."""
    if workspace is None:
        return ()
    runs = [
        (f"Agent task · {child.display_name}", record)
        for child in registry.workspaces
        if child.parent_id == workspace.id and (record := data.workspaces.get(child.id)) is not None
    ]
    runs.sort(key=lambda item: item[1].last_run_at, reverse=True)
    return tuple(runs)


# -- listing scopes --------------------------------------------------------------------------


def _full_scope_scan(scope: Scope, root: Path, cache: DescriptionCache | None) -> ScopeScan:
    return ScopeScan(scope, root, None, _list(scope, root, cache))


def _list(scope: Scope, root: Path, cache: DescriptionCache | None) -> ScopeListing:
    if cache is None:
        return list_scope(scope, root)
    return list_scope(scope, root, known=cache.for_root(root))


def _relative_segments(path: str, root: str) -> tuple[str, ...] | None:
    """`path` as segments under `root`; () for the root; None when outside."""
    if path == root:
        return ()
    prefix = root.rstrip(os.sep) + os.sep
    if not path.startswith(prefix):
        return None
    return tuple(part for part in path[len(prefix) :].split(os.sep) if part)


def _changed_listing(
    previous: ScopeListing, root: Path, changed_paths: frozenset[str] | None
) -> ScopeListing | None:
    """`previous` when nothing under `root` changed, patched when only files did (see
    `update_listing`); None when `root` must be listed again."""
    if changed_paths is None or previous.error is not None:
        return None
    root_text = str(root)
    inside: list[tuple[str, ...]] = []
    for path in changed_paths:
        segments = _relative_segments(path, root_text)
        if segments is not None:
            inside.append(segments)
        elif _relative_segments(root_text, path) is not None:
            return None  # the root or a directory above it changed
    return update_listing(previous, root, inside) if inside else previous


def _scan_scope(
    scope: Scope,
    view: ScopeView,
    previous: ScopeScan | None,
    changed_paths: frozenset[str] | None,
    cache: DescriptionCache | None,
) -> ScopeScan:
    reason = view.unavailable_reason(scope)
    if reason is not None:
        return ScopeScan(scope, None, reason, ScopeListing(scope))
    root = view.root(scope)
    if previous is None or previous.root != root or previous.outline is not None:
        return _full_scope_scan(scope, root, cache)
    listing = _changed_listing(previous.listing, root, changed_paths)
    if listing is None:
        return _full_scope_scan(scope, root, cache)
    return previous if listing is previous.listing else ScopeScan(scope, root, None, listing)


def _scan_orphans(
    home: Home,
    registry: Registry,
    previous: HomeScan | None,
    changed_paths: frozenset[str] | None,
    cache: DescriptionCache | None,
) -> tuple[OrphanScan, ...]:
    earlier = {orphan.dir_name: orphan for orphan in previous.orphans} if previous else {}
    orphans: list[OrphanScan] = []
    for name in orphan_project_dirs(home, registry):
        root = home.projects_root / name
        reuse = earlier.get(name)
        listing = None
        if reuse is not None and reuse.outline is None:
            listing = _changed_listing(reuse.listing, root, changed_paths)
        if reuse is not None and listing is reuse.listing:
            orphans.append(reuse)
        else:
            fresh = listing if listing is not None else _list(Scope.PROJECT, root, cache)
            orphans.append(OrphanScan(name, root, fresh))
    return tuple(orphans)


def _disk_changes(previous: HomeScan | None, scopes: tuple[ScopeScan, ...]) -> DiskChanges:
    """Files created, modified or deleted since `previous`, for scopes with the same root."""
    if previous is None:
        return DiskChanges()
    changed: set[VirtualPath] = set()
    deleted: set[VirtualPath] = set()
    shas: dict[VirtualPath, str] = {}
    for now in scopes:
        before = previous.scope(now.scope)
        if now is before or now.root is None or before.root != now.root or before.outline:
            continue
        stamps_now, stamps_before = now.stamps(), before.stamps()
        modified = [path for path, stamp in stamps_now.items() if stamps_before.get(path) != stamp]
        for path in modified:
            try:
                shas[path] = read_file_content(now.root.joinpath(*path.segments)).sha256
            except OSError:
                continue  # gone again already; the next scan reports it deleted
        changed.update(modified)
        deleted.update(path for path in stamps_before if path not in stamps_now)
    return DiskChanges(frozenset(changed), frozenset(deleted), shas)


def _registry_and_workspace(
    request: ScanRequest,
) -> tuple[Registry, str | None, Mapping[str, int], Workspace | None, str | None]:
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
    """The registry and each shown scope's directories and file counts, no file read (see
    the module docstring); None for a home under `OUTLINE_MIN_FILES` files."""
    started = time.perf_counter()
    home = request.home
    registry, registry_error, recency, workspace, note = _registry_and_workspace(request)
    view = ScopeView(home, workspace)
    scopes: list[ScopeScan] = []
    for scope in SCOPE_ORDER:
        reason = view.unavailable_reason(scope)
        if reason is not None:
            scopes.append(ScopeScan(scope, None, reason, ScopeListing(scope)))
            continue
        root = view.root(scope)
        outline = outline_scope(scope, root)
        scopes.append(ScopeScan(scope, root, None, ScopeListing(scope), outline))
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


def scan_home(request: ScanRequest, context: CancelToken | None = None) -> HomeScan:
    """Read everything the Memory tab shows (see the module docstring). Runs on a worker."""
    started = time.perf_counter()
    home = request.home
    registry, registry_error, recency, workspace, note = _registry_and_workspace(request)
    if context is not None:
        context.raise_if_cancelled()
    view = ScopeView(home, workspace)
    previous = request.previous
    if previous is not None and (previous.home.root != home.root or previous.is_outline):
        previous = None
    # Loaded only if a scope is listed in full (the first scan, a directory come or gone).
    cache = DescriptionCache.of_home(home.root) if request.remember_descriptions else None
    scopes: list[ScopeScan] = []
    for scope in SCOPE_ORDER:
        earlier = previous.scope(scope) if previous is not None else None
        scopes.append(_scan_scope(scope, view, earlier, request.changed_paths, cache))
        if context is not None:
            context.raise_if_cancelled()
    meta = MetaStore(home).load()
    journal = Journal(home).load()
    status = status_from(journal, workspace.id, workspace.project_identity) if workspace else None
    orphans = _scan_orphans(home, registry, previous, request.changed_paths, cache)
    if cache is not None:
        cache.save()
    scope_tuple = tuple(scopes)
    sources = None
    if request.with_sources:
        from memtab.components.tree.sources_scan import scan_sources

        shown = previous.sources if previous is not None else None
        sources = scan_sources(home, shown, request.changed_paths, request.source_context)
    return HomeScan(
        home=home,
        registry=registry,
        registry_error=registry_error,
        workspace=workspace,
        workspace_note=note,
        recency=recency,
        scopes=scope_tuple,
        meta=meta,
        status=status,
        recent_runs=agent_task_runs(journal, registry, workspace),
        orphans=orphans,
        changes=_disk_changes(previous, scope_tuple),
        duration_ms=(time.perf_counter() - started) * 1000.0,
        sources=sources,
    )
