"""File operations the tree offers — create, move, delete, pin, restore a version — as
plain jobs on the file-operations worker returning an `OpResult`, never raising (one history
cannot keep a copy for waits for the user: docs/formats.md §14.2); a row's file opened."""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memtab.components.tree.scan import HomeScan
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.file_protocol.memory_file import MemoryFile
from memtab.sources.open_file import open_memory_file
from memtab.store.files import content_sha256
from memtab.store.history.describe import display_name
from memtab.store.home import Home, HomeError
from memtab.store.paths import PathError, VirtualPath, parse_file_path
from memtab.store.restore import orphans
from memtab.store.restore.from_history import HistoryError, restore
from memtab.store.scopes.memory import MemoryStore, MemoryStoreError, UnkeptChangeError
from memtab.store.text.frontmatter import yaml_scalar


def open_file(scan: HomeScan, ref: MemoryFileRef) -> MemoryFile | None:
    """The memory file `ref` names as `scan` shows it — a mux file of the scanned
    workspace, another agent's file as its source is listed — or None
    (`memtab.sources.open_file.open_memory_file`; touches no disk)."""
    sources = scan.sources
    return open_memory_file(
        ref,
        scan.home,
        store=MemoryStore.of(scan.view()),
        find_agent_file=sources.find if sources is not None else None,
    )


def ref_on_disk(scan: HomeScan, physical: Path) -> MemoryFileRef | None:
    """The memory file of another agent's that `scan` lists at `physical` (an `@`-import
    followed), or None: a file Memtab does not show."""
    if scan.sources is None:
        return None
    wanted = os.path.normpath(physical)
    files = (file for listing in scan.sources.listings for file in listing.files)
    return next((file.ref for file in files if os.path.normpath(file.physical) == wanted), None)


@dataclass(frozen=True)
class OpResult:
    """What an operation did: a message for the status bar, or an error for the user."""

    message: str
    error: str | None = None
    created: MemoryFileRef | None = None
    """A new file or folder to select (and, for a file, open): mux's or another agent's."""
    moved: tuple[tuple[VirtualPath, VirtualPath], ...] = ()  # (old, new) pairs that were moved.
    touched: tuple[str, ...] = ()  # Physical paths that changed, for an immediate rescan.
    unkept: str | None = None
    """Refused only because history cannot keep a copy of what it would destroy: what it would have
    done (`deleted`, `restored`…); the same operation with `allow_unkept` makes it without one."""

    @property
    def ok(self) -> bool:
        return self.error is None

    @classmethod
    def failed(cls, message: str, error: Exception, **fields: Any) -> OpResult:
        """A failure: `message` (`Deleting a.md failed`) and the error in one line."""
        if isinstance(error, OSError):
            detail = error.strerror or str(error)
            if error.filename:
                detail = f"{detail} ({error.filename})"
        else:
            detail = str(error)
        unkept = error.done if isinstance(error, UnkeptChangeError) else None
        return cls(message, error=detail, unkept=unkept, **fields)


def _failure(action: str, error: Exception) -> OpResult:
    return OpResult.failed(f"{action} failed", error)


def _physical(store: MemoryStore, path: VirtualPath) -> str:
    try:
        return str(store.physical(path))
    except (PathError, MemoryStoreError):
        return ""


def initial_content(description: str) -> str:
    """A new file's text: frontmatter with the description, or nothing."""
    description = " ".join(description.split())
    return "" if not description else f"---\ndescription: {yaml_scalar(description)}\n---\n\n"


def new_file_sha(content: str) -> str:
    """The sha the new file will have (noted as Memtab's own write before it is made)."""
    return content_sha256(content)


def create_file(store: MemoryStore, path: VirtualPath, content: str) -> OpResult:
    """Create a memory file (never overwrites)."""
    try:
        store.create_file(path, content)
    except (MemoryStoreError, PathError, OSError) as error:
        return _failure(f"Creating {path.name}", error)
    created = MemoryFileRef.of_mux(path)
    return OpResult(f"Created {path}", created=created, touched=(_physical(store, path),))


def create_directory(store: MemoryStore, path: VirtualPath) -> OpResult:
    """Create a directory (and its parents)."""
    try:
        store.create_directory(path)
    except (MemoryStoreError, PathError, OSError) as error:
        return _failure(f"Creating the folder {path.name}", error)
    created = MemoryFileRef.of_mux(path)
    return OpResult(f"Created folder {path}", created=created, touched=(_physical(store, path),))


def move(store: MemoryStore, moves: Sequence[tuple[VirtualPath, VirtualPath]]) -> OpResult:
    """Move or rename each (old, new); stops at the first failure (earlier moves stand)."""
    done: list[tuple[VirtualPath, VirtualPath]] = []
    touched: list[str] = []
    for old, new in moves:
        old_physical = _physical(store, old)
        try:
            store.move(old, new)
        except (MemoryStoreError, PathError, OSError) as error:
            failed = _failure(f"Moving {old.name}", error)
            return OpResult(failed.message, failed.error, moved=tuple(done), touched=tuple(touched))
        done.append((old, new))
        touched.extend((old_physical, _physical(store, new)))
    if len(done) == 1:
        old, new = done[0]
        verb = "Renamed" if old.parent == new.parent else "Moved"
        message = f"{verb} {old} to {new}"
    else:
        message = f"Moved {len(done)} items"
    return OpResult(message, moved=tuple(done), touched=tuple(touched))


def delete(
    store: MemoryStore, paths: Sequence[VirtualPath], *, allow_unkept: bool = False
) -> OpResult:
    """Delete files and directories; stops at the first failure. `allow_unkept`: without
    a copy in history where it cannot keep one (the user chose to, after a refusal), and
    a path already gone is skipped (the refused attempt deleted it)."""
    touched: list[str] = []
    for path in paths:
        physical = _physical(store, path)
        try:
            if allow_unkept and store.kind_of(path) is None:
                continue
            store.delete(path, allow_unkept=allow_unkept)
        except (MemoryStoreError, PathError, OSError) as error:
            return OpResult.failed(f"Deleting {path.name} failed", error, touched=tuple(touched))
        touched.append(physical)
    message = f"Deleted {paths[0]}" if len(paths) == 1 else f"Deleted {len(paths)} items"
    return OpResult(message, touched=tuple(touched))


@dataclass(frozen=True)
class DeletionCount:
    """What a delete of some items takes with it, for the question asked before it."""

    items: int
    files: int  # Every file that goes, those inside folders included.
    hidden: int  # Of those, the files the search filter hides (none without a search).


def count_deletion(
    scan: HomeScan, roots: Sequence[VirtualPath], shown: Collection[VirtualPath] | None
) -> DeletionCount:
    """Count the files deleting `roots` (no one inside another) removes, from the scan's
    full listings (or a big home's outline): not only the rows a search left in the tree.
    `shown` are the files the tree shows while a search filters it (None: no search)."""
    files = 0
    for root in roots:
        scope = scan.scope_if_shown(root.scope) if root.scope is not None else None
        if scope is None:  # no scope, or one gone since the scan (xum's session scope)
            continue
        outline = scope.outline
        if outline is not None:  # folders and counts only: a root it does not name is a file
            if root.is_scope_root or root in outline.directories:
                files += sum(
                    count
                    for segments, count in outline.direct_files.items()
                    if segments[: len(root.segments)] == root.segments
                )
            else:
                files += 1
        else:
            files += sum(1 for entry in scope.listing.files if entry.path.is_within(root))
    if shown is None:
        return DeletionCount(len(roots), files, 0)
    visible = sum(1 for path in shown if any(path.is_within(root) for root in roots))
    return DeletionCount(len(roots), files, max(files - visible, 0))


def set_pinned(store: MemoryStore, path: VirtualPath, pinned: bool) -> OpResult:
    """Pin or unpin a file (memory-meta.json)."""
    try:
        store.set_pinned(path, pinned)
    except (MemoryStoreError, PathError, OSError, TimeoutError) as error:
        return _failure(f"{'Pinning' if pinned else 'Unpinning'} {path.name}", error)
    verb = "Pinned" if pinned else "Unpinned"
    note = " — a running mux may overwrite pin changes" if pinned else ""
    return OpResult(f"{verb} {path.name}{note}", touched=(str(store.home.meta_path),))


def delete_orphan_project_dir(
    home: Home,
    dir_name: str,
    on_deleted: Callable[[orphans.OrphanDeletion], None] | None = None,
) -> OpResult:
    """Delete a project dir under `memory/project/` no registered project owns, every file to
    history first; `on_deleted` is told the versions (how Edit → Undo restores them)."""
    action = f"Deleting the orphaned project memory {dir_name}"
    source = home.projects_root / dir_name
    try:
        deleted = orphans.delete_orphan_project_dir(home, dir_name)
    except (OSError, HomeError, MemoryStoreError, PathError) as error:
        return _failure(action, error)
    if on_deleted is not None:
        on_deleted(deleted)
    return OpResult(deleted.message, touched=(str(source),))


def orphan_file_title(dir_name: str, relative: str) -> str:
    """How an orphan file is named in the editor (it has no virtual path)."""
    return f"memory/project/{dir_name}/{relative}"


def restore_file(
    store: MemoryStore,
    path: str,
    version_id: str,
    to: VirtualPath | None = None,
    *,
    allow_unkept: bool = False,
) -> OpResult:
    """Make a file hold one of its versions again (a deleted one with its pins and usage, beside
    a newer file of its name; `to`: elsewhere, never over a file); `created` names a file it
    made; `allow_unkept`: even when history cannot keep what it replaces."""
    name = display_name(path)
    failed = f"Restoring {name} failed"
    try:
        target = to if to is not None else parse_file_path(path)
        existed = store.kind_of(target) is not None
        if to is not None and existed:
            return OpResult(failed, error=f"Something exists at {to}; choose another path")
        result = restore(
            store,
            parse_file_path(path),
            version_id,
            to=to,
            allow_unkept=allow_unkept,
        )
    except (HistoryError, MemoryStoreError, PathError, OSError) as error:
        return OpResult.failed(failed, error)
    restored = parse_file_path(result.path)
    return restored_result(
        MemoryFileRef.of_mux(target),
        MemoryFileRef.of_mux(restored),
        unchanged=result.unchanged,
        created=not existed,
        touched=tuple(filter(None, [_physical(store, restored)])),
    )


def restored_result(
    requested: MemoryFileRef,
    restored: MemoryFileRef,
    *,
    unchanged: bool,
    created: bool,
    touched: tuple[str, ...],
) -> OpResult:
    """What a restore of `requested` says, once it made `restored` hold the version (a
    deleted mux file whose name a newer file took comes back beside it); `created`:
    there was no file. The result's `created` names a file the restore made."""
    if unchanged:
        return OpResult(f"{restored.shown} already holds that version", touched=touched)
    beside = restored != requested
    if beside:
        name = requested.relative
        message = f"Restored {name} as {restored.name} ({name} is taken by a newer file)"
    else:
        message = f"Restored {restored.shown}"  # another agent's: `Claude Code · memory/a.md`
    return OpResult(message, created=restored if beside or created else None, touched=touched)
