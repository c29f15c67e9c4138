"""One workspace's memory and every change to it (docs/formats.md §6): under the scope's lock,
rechecked before replacing, through descriptors that never follow links, recorded with write-ahead;
destroying content history cannot keep is refused unless `allow_unkept` (§14.2)."""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass

from memtab.fs.atomic import Directory, encode_utf8
from memtab.fs.confined import remove_entry
from memtab.fs.private import AGENT_FOLDER_MODE
from memtab.store.errors import (
    AlreadyExistsError,
    CapError,
    ChangedDuringEditError,
    MemoryStoreError,
    NotEditableError,
    NotFoundError,
    SaveConflictError,
    ScopeBusyError,
    ScopeUnavailableError,
    UnkeptChangeError,
)
from memtab.store.files import content_sha256
from memtab.store.history.blobs import sha256_of
from memtab.store.history.capture import (
    capture_file,
    capture_tree,
    file_stat,
    read_whole,
    relocate,
    removes_nothing,
)
from memtab.store.history.recorder import FileChange
from memtab.store.history.versions import Op
from memtab.store.paths import (
    Scope,
    VirtualPath,
    require_depth_room,
    require_file_path,
    require_listed,
)
from memtab.store.scopes.scope_access import (
    copy_across_scopes,
    missing_conflict,
    replace_loaded_in,
    reporting_os_errors,
    require_editable,
    still_holds,
)
from memtab.store.scopes.scope_dir import ScopeDir
from memtab.store.scopes.scope_store import SCOPE_LOCK_TIMEOUT_S, ScopeStore, check_file_size
from memtab.store.scopes.scope_view import NO_WORKSPACE, PROJECT_UNAVAILABLE, kind_in, read_in

logger = logging.getLogger(__name__)

__all__ = [  # the errors live in memtab.store.errors; importers of this module use them
    "NO_WORKSPACE",
    "PROJECT_UNAVAILABLE",
    "SCOPE_LOCK_TIMEOUT_S",
    "AlreadyExistsError",
    "CapError",
    "ChangedDuringEditError",
    "MemoryStore",
    "MemoryStoreError",
    "NotEditableError",
    "NotFoundError",
    "SaveConflictError",
    "SaveResult",
    "ScopeBusyError",
    "ScopeUnavailableError",
    "UnkeptChangeError",
    "missing_conflict",
    "replace_loaded_in",
    "require_editable",
]


# A tool edit redone this many times on text another program keeps changing gives up.
EDIT_ATTEMPTS = 3
# What `restore_content` did, by op, in a refusal.
_DONE = {"restore": "restored", "revert": "reverted", "delete": "deleted", "edit": "saved"}


@dataclass(frozen=True)
class SaveResult:
    path: VirtualPath
    sha256: str


def _scope_of(path: VirtualPath) -> Scope:
    """The scope of a path in one (PathError for `/memories` and roots, docs/formats.md §3.2)."""
    scope = require_file_path(path).scope
    assert scope is not None
    return scope


class MemoryStore(ScopeStore):
    """The global, project and workspace scopes as one workspace sees them, and their changes."""

    def edit_text(self, path: VirtualPath, change: Callable[[str], str]) -> VirtualPath:
        """Replace a file's text with `change(text)` under the scope lock, redone on another
        program's newer text up to EDIT_ATTEMPTS times (then ChangedDuringEditError); counts as a
        write. `change` raises to refuse."""
        with (
            self.writing(_scope_of(path)) as (where,),
            where.open_parent(path) as parent,
            reporting_os_errors(path, "edit"),
        ):
            for attempt in range(1, EDIT_ATTEMPTS + 1):
                current, read_bytes = read_in(parent, path)
                updated = encode_utf8(change(self._text_of(path, current)))
                check_file_size(len(updated))
                kept = self._keep_replaced(
                    where, path, read_bytes, updated, done="edited", allow_unkept=False
                )
                if parent.replace_if_unchanged(
                    path.name, updated, unchanged=still_holds(parent, path.name, read_bytes)
                ):
                    stat = file_stat(parent, path.name)
                    change_made = FileChange(str(path), read_bytes, updated, "edit", stat)
                    self.record_changes(where, [change_made], before_kept=kept)
                    break
                logger.info("%s changed during an edit (attempt %d); redoing it", path, attempt)
            else:
                raise ChangedDuringEditError(
                    f"{path} kept changing while it was being edited (another program is "
                    "writing it); nothing was changed, try again"
                )
        self.record_write(path, where=where)
        return path

    def _keep_replaced(
        self,
        where: ScopeDir,
        path: VirtualPath,
        before: bytes,
        after: bytes | None,
        *,
        done: str,
        allow_unkept: bool,
    ) -> bool:
        """`keep_before` of what `path` holds when a change gives it `after` (None: removes it)."""
        destroys = after is None or not removes_nothing(before, after)
        return self.keep_before(
            where,
            [(path, before)],
            label=path,
            done=done,
            destroys=destroys,
            allow_unkept=allow_unkept,
        )

    def _create_new(
        self, where: ScopeDir, path: VirtualPath, data: bytes, *, conflict: Exception
    ) -> None:
        """Create file `path` (parents made) that must not exist, even a moment ago (`conflict`);
        caps checked; recorded."""
        check_file_size(len(data))
        require_listed(path, "create")
        if where.kind_of(path) is not None:
            raise conflict
        where.check_room()
        with where.open_parent(path, create=True) as parent, reporting_os_errors(path, "create"):
            try:
                parent.create_new(path.name, data)
            except FileExistsError:
                raise conflict from None
            stat = file_stat(parent, path.name)
        self.record_changes(where, [FileChange(str(path), None, data, "create", stat)])

    def save(
        self,
        path: VirtualPath,
        content: str,
        expected_sha256: str | None,
        *,
        allow_unkept: bool = False,
        count_as_write: bool = True,
    ) -> SaveResult:
        """Save editor content if the file is still what was loaded (`expected_sha256` None: a new
        file); a conflict touches nothing. Counts as a write unless not `count_as_write`;
        UnkeptChangeError unless `allow_unkept`."""
        scope = _scope_of(path)
        data = encode_utf8(content)
        check_file_size(len(data))
        with self.writing(scope) as (where,):
            if expected_sha256 is None:
                exists = SaveConflictError("exists", f"{path} already exists; reload before saving")
                self._create_new(where, path, data, conflict=exists)
            else:
                self._replace_loaded(where, path, data, expected_sha256, allow_unkept=allow_unkept)
        if count_as_write:
            self.record_write(path, where=where, created=expected_sha256 is None)
        # The sha of what was written: another writer may be next.
        return SaveResult(path, content_sha256(content))

    def _replace_loaded(
        self,
        where: ScopeDir,
        path: VirtualPath,
        data: bytes,
        expected_sha256: str,
        *,
        allow_unkept: bool,
    ) -> None:
        try:
            parent = where.open_parent(path)
        except NotFoundError:
            raise missing_conflict(str(path)) from None
        kept: list[bool] = []

        def keep(old: bytes) -> None:
            kept.append(
                self._keep_replaced(where, path, old, data, done="saved", allow_unkept=allow_unkept)
            )

        with parent, reporting_os_errors(path, "save"):
            replaced = replace_loaded_in(
                parent, path.name, data, expected_sha256, label=str(path), before_replacing=keep
            )
            stat = file_stat(parent, path.name)
        change = FileChange(str(path), replaced, data, "edit", stat)
        self.record_changes(where, [change], before_kept=kept == [True])

    def create_file(self, path: VirtualPath, content: str = "") -> SaveResult:
        """Create a new file (fails if anything exists there); counts as a write."""
        words = "To overwrite a file, delete it first, then create it."
        exists = AlreadyExistsError(f"A file already exists at {path}. {words}")
        with self.writing(_scope_of(path)) as (where,):
            self._create_new(where, path, encode_utf8(content), conflict=exists)
        self.record_write(path, where=where, created=True)
        return SaveResult(path, content_sha256(content))

    def create_directory(self, path: VirtualPath) -> VirtualPath:
        """Create an empty directory (and its parents)."""
        scope = _scope_of(path)
        exists = AlreadyExistsError(f"Something already exists at {path}")
        require_listed(path, "create")
        with self.writing(scope) as (where,):
            if where.kind_of(path) is not None:
                raise exists
            with (
                where.open_parent(path, create=True) as parent,
                reporting_os_errors(path, "create"),
            ):
                name, at = parent.at(path.name)
                try:
                    os.mkdir(name, AGENT_FOLDER_MODE, **at)
                except FileExistsError:
                    raise exists from None
        return path

    def delete(self, path: VirtualPath, *, allow_unkept: bool = False) -> VirtualPath:
        """Delete a file or directory (never a scope root) and its meta; UnkeptChangeError unless
        `allow_unkept`."""
        scope = _scope_of(path)
        missing = NotFoundError(f"No memory file or directory at {path}")
        with self.writing(scope) as (where,):
            try:
                parent = where.open_parent(path)
            except NotFoundError:
                raise missing from None
            with parent:
                kind = kind_in(parent, path.name)
                if kind is None:
                    raise missing
                unkept: list[tuple[VirtualPath, str]] = []
                removed = self._capture(parent, path, kind, unkept=unkept)
                if unkept:
                    lost, why = unkept[0]
                    cause = f"it keeps no copy of {lost}: {why}"
                    if not allow_unkept:
                        raise UnkeptChangeError(str(path), "deleted", cause)
                    logger.warning("%s deleted without a copy in history: %s", path, cause)
                kept = self.keep_before(
                    where,
                    removed,
                    label=path,
                    done="deleted",
                    destroys=True,
                    allow_unkept=allow_unkept,
                )
                try:
                    remove_entry(parent, path.name, directory=kind == "dir")
                except OSError as error:
                    raise MemoryStoreError(
                        f"Cannot delete {path}: {error.strerror or error}"
                    ) from None
            meta = self.meta_snapshot()
            changes = [
                FileChange(str(p), data, None, "delete", meta=meta.get(where.meta_key(p)))
                for p, data in removed
            ]
            self.record_changes(where, changes, before_kept=kept)
        self._update_meta(path, lambda: self.meta.drop_subtree(where.meta_key(path)))
        return path

    def _capture(
        self,
        parent: Directory,
        path: VirtualPath,
        kind: str,
        *,
        unkept: list[tuple[VirtualPath, str]] | None = None,
    ) -> list[tuple[VirtualPath, bytes]]:
        """What a delete or move takes away, for history; `unkept`: see `capture_file`."""
        if self.history is None:
            return []
        if kind == "dir":
            return capture_tree(parent, path, unkept=unkept)
        data = capture_file(parent, path, unkept=unkept)
        return [] if data is None else [(path, data)]

    def _record_move(
        self,
        source: tuple[ScopeDir, VirtualPath],
        target: tuple[ScopeDir, VirtualPath],
        moved: list[tuple[VirtualPath, bytes]],
        *,
        kept: bool,
    ) -> None:
        """Record a move: each file deleted at its old path, created at its new one."""
        (source_dir, old), (target_dir, new) = source, target
        meta = self.meta_snapshot()
        gone, arrived = [], []
        for was, data in moved:
            now, was_meta = relocate(was, old, new), meta.get(source_dir.meta_key(was))
            gone.append(FileChange(str(was), data, None, "move", moved_to=str(now), meta=was_meta))
            arrived.append(FileChange(str(now), None, data, "move", moved_from=str(was)))
        self.record_changes(source_dir, gone, before_kept=kept)
        self.record_changes(target_dir, arrived)

    def move(self, old: VirtualPath, new: VirtualPath) -> VirtualPath:
        """Rename or move a file or directory, within or across scopes (copy then delete); never
        overwrites, even a moment after the check. Pins and usage move along."""
        scopes = _scope_of(old), _scope_of(new)
        if new.is_within(old):
            raise MemoryStoreError(f"Cannot move {old} into itself ({new})")
        require_listed(new, f"move {old} to")
        taken = AlreadyExistsError(f"Cannot move {old} to {new}: something already exists there")
        with self.writing(*scopes) as (source, target):
            kind = source.kind_of(old)
            if kind is None:
                raise NotFoundError(f"No memory file or directory at {old}")
            if target.kind_of(new) is not None:
                raise taken
            with source.open_parent(old) as source_parent:
                moved = self._capture(source_parent, old, kind)
            below = max((len(p.segments) - len(old.segments) for p, _ in moved), default=0)
            require_depth_room(new, below, f"move {old} to")
            # A move destroys nothing: it goes on without a copy.
            kept = self.keep_before(
                source, moved, label=old, done="moved", destroys=False, allow_unkept=False
            )
            if source.scope != target.scope:
                copy_across_scopes((source, old), (target, new), kind, taken)
            else:
                with (
                    source.open_parent(old) as old_parent,
                    target.open_parent(new, create=True) as new_parent,
                ):
                    try:
                        old_parent.rename_no_replace(old.name, new_parent, new.name)
                    except FileExistsError:
                        raise taken from None
                    except OSError as error:
                        why = error.strerror or error
                        raise MemoryStoreError(f"Cannot move {old} to {new}: {why}") from None
            self._record_move((source, old), (target, new), moved, kept=kept)
        # docs/formats.md §7: the keys move, then the rename counts as a write of the new path.
        keys = source.meta_key(old), target.meta_key(new)
        self._update_meta(new, lambda: self.meta.move_subtree(*keys, record_write=True))
        return new

    def restore_content(
        self,
        path: VirtualPath,
        data: bytes | None,
        *,
        expected_sha256: str | None,
        op: Op = "restore",
        restored_from: str | None = None,
        revert_of: str | None = None,
        meta: dict[str, object] | None = None,
        allow_unkept: bool = False,
        count_as_write: bool = True,
    ) -> VirtualPath:
        """Make file `path` hold `data` (None: no file) only if it holds `expected_sha256`: the one
        write of restore, revert and sync, recorded as `op`, no text rule or size cap. `meta` comes
        back with a recreated file. SaveConflictError or UnkeptChangeError, nothing changed."""
        scope = _scope_of(path)
        changed = SaveConflictError("changed", f"{path} changed meanwhile; nothing was changed")
        with self.writing(scope) as (where,):
            kind = where.kind_of(path)
            if kind == "dir":
                raise AlreadyExistsError(f"{path} is a directory")
            if kind is None and data is not None:
                require_listed(path, "restore")
                where.check_room()
            try:
                parent = where.open_parent(path, create=data is not None)
            except NotFoundError:
                if expected_sha256 is not None:
                    raise changed from None
                return path  # no file, and none wanted
            with parent, reporting_os_errors(path, "restore"):
                current = read_whole(parent, path.name)
                if (sha256_of(current) if current is not None else None) != expected_sha256:
                    raise changed
                if current is None and data is None:
                    return path
                done = _DONE.get(op, "changed")
                kept = current is not None and self._keep_replaced(
                    where, path, current, data, done=done, allow_unkept=allow_unkept
                )
                if data is None:
                    remove_entry(parent, path.name, directory=False)
                elif current is None:
                    self._recreate(parent, (where, path), data, meta, changed)
                elif not parent.replace_if_unchanged(
                    path.name, data, unchanged=lambda: read_whole(parent, path.name) == current
                ):
                    raise changed
                stat = file_stat(parent, path.name) if data is not None else None
            gone_meta = self.meta_snapshot().get(where.meta_key(path)) if data is None else None
            change = FileChange(
                str(path),
                current,
                data,
                op,
                stat,
                restored_from=restored_from,
                revert_of=revert_of,
                meta=gone_meta,
            )
            self.record_changes(where, [change], before_kept=kept)
        if data is None:
            self.forget_meta(path, where=where)
        elif count_as_write and not (current is None and meta):  # else they came back with it
            self.record_write(path, where=where, created=current is None)
        return path

    def _recreate(
        self,
        parent: Directory,
        at: tuple[ScopeDir, VirtualPath],
        data: bytes,
        meta: dict[str, object] | None,
        changed: SaveConflictError,
    ) -> None:
        """Create the file a restore brings back, its pins and usage first (dropped again if the
        create fails); `changed` if a file appeared."""
        where, path = at
        key = where.meta_key(path)
        if meta:
            self._update_meta(path, lambda: self.meta.restore_entries({key: meta}))
        try:
            parent.create_new(path.name, data)
        except BaseException as error:
            if meta:
                self._update_meta(path, lambda: self.meta.drop_subtree(key))
            if isinstance(error, FileExistsError):
                raise changed from None
            raise

    def set_pinned(self, path: VirtualPath, pinned: bool) -> VirtualPath:
        """Pin or unpin a file (not a directory)."""
        require_file_path(path)
        if self.kind_of(path) != "file":
            raise NotFoundError(f"Only files can be pinned; no memory file at {path}")
        # As xum: a workspace's under the notebook's locks, refused for a removed workspace, its
        # clock advanced.
        with (
            self.writing(Scope.WORKSPACE)
            if path.scope is Scope.WORKSPACE
            else contextlib.nullcontext()
        ):
            self.meta.set_pinned(self.meta_key(path), pinned)
        return path
