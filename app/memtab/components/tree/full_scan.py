"""The full scan of the memory home (`scan_home`, on the scans lane): every file of the shown
scopes listed and described, the recency metadata, `memory-meta.json` and the consolidation
journal; a big home's outline paints first."""

from __future__ import annotations

import os
import time
from pathlib import Path

from memtab.components.jobs import CancelToken
from memtab.components.tree.scan import (
    DiskChanges,
    HomeScan,
    OrphanScan,
    ScanRequest,
    ScopeScan,
    registry_and_workspace,
    removed_reason,
)
from memtab.store.description_cache import DescriptionCache
from memtab.store.files import (
    ScopeListing,
    ScopeOutline,
    list_scope,
    read_file_content,
    update_listing,
)
from memtab.store.home import Home
from memtab.store.paths import Scope, VirtualPath
from memtab.store.scope_walk import ScopeWalk
from memtab.store.scopes.scope_view import ScopeView
from memtab.store.sidecars.journal import ConsolidationRecord, Journal, JournalData, status_from
from memtab.store.sidecars.meta import MetaStore
from memtab.store.sidecars.registry import Registry, Workspace, orphan_project_dirs
from memtab.store.sidecars.scope_runs import load_scope_runs


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


def _full_scope_scan(
    scope: Scope, root: Path, cache: DescriptionCache | None, walked: ScopeWalk | None = None
) -> ScopeScan:
    return ScopeScan(scope, root, None, _list(scope, root, cache, walked))


def _list(
    scope: Scope, root: Path, cache: DescriptionCache | None, walked: ScopeWalk | None = None
) -> ScopeListing:
    known = cache.for_root(root) if cache is not None else None
    return list_scope(scope, root, known=known, walked=walked)


def _outline_walk(outline: ScopeOutline | None) -> ScopeWalk | None:
    """The walk an outline was made from (`list_scope` lists its names again only if it
    is of the same root)."""
    return outline.walk if outline is not None else None


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
    removed = removed_reason(view, scope)  # asked every scan: a removal changes no listing
    if previous is None or previous.root != root or previous.outline is not None:
        walked = _outline_walk(previous.outline) if previous is not None else None
        return _full_scope_scan(scope, root, cache, walked)._replace(removed=removed)
    listing = _changed_listing(previous.listing, root, changed_paths)
    if listing is None:
        return _full_scope_scan(scope, root, cache)._replace(removed=removed)
    if listing is previous.listing and previous.removed == removed:
        return previous
    return ScopeScan(scope, root, None, listing, removed=removed)


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
            walked = _outline_walk(reuse.outline) if reuse is not None else None
            fresh = listing if listing is not None else _list(Scope.PROJECT, root, cache, walked)
            orphans.append(OrphanScan(name, root, fresh))
    return tuple(orphans)


def _disk_changes(
    previous: HomeScan | None, workspace: Workspace | None, scopes: tuple[ScopeScan, ...]
) -> DiskChanges:
    """Files created, modified or deleted since `previous`, for scopes with the same root; of the
    same workspace, a scope that appeared (xum's session scope) is its files created, one that
    went its files deleted."""
    if previous is None:
        return DiskChanges()
    same_workspace = _workspace_id(previous.workspace) == _workspace_id(workspace)
    changed: set[VirtualPath] = set()
    deleted: set[VirtualPath] = set()
    shas: dict[VirtualPath, str] = {}
    for now in scopes:
        before = previous.scope_if_shown(now.scope)
        if before is None and not same_workspace:
            continue
        if now.root is None or (
            before is not None and (now is before or before.root != now.root or before.outline)
        ):
            continue
        stamps_now = now.stamps()
        stamps_before = before.stamps() if before is not None else {}
        modified = [path for path, stamp in stamps_now.items() if stamps_before.get(path) != stamp]
        for path in modified:
            try:
                shas[path] = read_file_content(now.root.joinpath(*path.segments)).sha256
            except OSError:
                continue  # gone again already; the next scan reports it deleted
        changed.update(modified)
        deleted.update(path for path in stamps_before if path not in stamps_now)
    if same_workspace:
        shown = {now.scope for now in scopes}
        for gone in previous.scopes:
            if gone.scope not in shown and gone.outline is None:
                deleted.update(gone.stamps())
    return DiskChanges(frozenset(changed), frozenset(deleted), shas)


def _workspace_id(workspace: Workspace | None) -> str | None:
    return workspace.id if workspace is not None else None


def scan_home(request: ScanRequest, context: CancelToken | None = None) -> HomeScan:
    """Read everything the Memory tab shows. Runs on a worker."""
    started = time.perf_counter()
    home = request.home
    registry, registry_error, recency, workspace, note = registry_and_workspace(request)
    if context is not None:
        context.raise_if_cancelled()
    view = ScopeView(home, workspace)
    shown_scan = request.previous
    if shown_scan is not None and shown_scan.home.root != home.root:
        shown_scan = None
    # An outline is no previous scan: only its walks are used again, by the listings of
    # the same roots (each file stat'ed now; what appeared since is found by the rescan
    # the window makes once it watches the home).
    previous = shown_scan if shown_scan is not None and not shown_scan.is_outline else None
    # Loaded only if a scope is listed in full (the first scan, a directory come or gone).
    cache = DescriptionCache.of_home(home.root) if request.remember_descriptions else None
    scopes: list[ScopeScan] = []
    for scope in view.scopes():
        earlier = shown_scan.scope_if_shown(scope) if shown_scan is not None else None
        scopes.append(_scan_scope(scope, view, earlier, request.changed_paths, cache))
        if context is not None:
            context.raise_if_cancelled()
    meta = MetaStore(home).load()
    journal = Journal(home).load()
    status = None
    if workspace:  # with the runs of one scope alone, which mux's journal has no room for
        ids = (workspace.id, workspace.project_identity, workspace.notebook_id)
        status = status_from(journal, *ids, load_scope_runs(home))
    orphans = _scan_orphans(home, registry, shown_scan, request.changed_paths, cache)
    if cache is not None:
        cache.save()
    scope_tuple = tuple(scopes)
    sources = None
    if request.with_sources:
        # lazy: what sources are (~45 ms) loads with the first scan that includes them
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
        changes=_disk_changes(previous, workspace, scope_tuple),
        duration_ms=(time.perf_counter() - started) * 1000.0,
        sources=sources,
    )
