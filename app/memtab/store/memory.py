"""The memory of one workspace: its three scopes and every operation on them.

`MemoryStore` is what the rest of Memtab uses: the editor operations of SPEC §5a (reads,
sha-checked saves, create, rename/move, delete, pins) and the primitives the memory tool
(`memtab.store.tool`) is built on. Writes are serialized per scope root in this process
and atomic on disk; the sidecars are locked across processes.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from memtab.fs.atomic import atomic_write_bytes, atomic_write_text, encode_utf8
from memtab.fs.locks import thread_lock_for
from memtab.store.files import (
    MAX_FILE_BYTES,
    MAX_FILES_PER_SCOPE,
    FileContent,
    ScopeListing,
    content_sha256,
    copy_tree,
    count_files,
    list_scope,
    read_file_content,
    remove_tree,
)
from memtab.store.home import Home, Registry, Workspace, load_registry
from memtab.store.meta import (
    MetaEntry,
    MetaStore,
    global_key,
    key_in_subtree,
    now_ms,
    project_key,
    workspace_key,
)
from memtab.store.paths import (
    SCOPE_ORDER,
    PathError,
    Scope,
    VirtualPath,
    parse_file_path,
    parse_virtual_path,
    resolve_inside_root,
)

logger = logging.getLogger(__name__)

PROJECT_UNAVAILABLE = (
    "Project memory is unavailable: multi-project workspaces have no single project identity"
)
NO_WORKSPACE = "Workspace memory is unavailable: no workspace is selected"


class MemoryStoreError(Exception):
    """An operation that cannot be done; the message is meant for the user."""


class NotFoundError(MemoryStoreError):
    pass


class AlreadyExistsError(MemoryStoreError):
    pass


class ScopeUnavailableError(MemoryStoreError):
    pass


class CapError(MemoryStoreError):
    """A file or scope cap would be exceeded."""


class NotEditableError(MemoryStoreError):
    """The file is binary or over the size cap, so it cannot be changed through Memtab."""


ConflictKind = Literal["exists", "missing", "changed"]


class SaveConflictError(MemoryStoreError):
    """A save refused because the file on disk is not what the editor loaded."""

    def __init__(self, kind: ConflictKind, message: str) -> None:
        super().__init__(message)
        self.kind: ConflictKind = kind


def file_cap_message(size: int) -> str:
    return (
        f"Memory files are limited to {MAX_FILE_BYTES} bytes (got {size}); "
        "split the content into smaller files"
    )


@dataclass(frozen=True)
class SaveResult:
    path: VirtualPath
    sha256: str


class MemoryStore:
    """The global, project and workspace scopes as one workspace sees them."""

    def __init__(
        self,
        home: Home,
        workspace: Workspace | None = None,
        *,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self.home = home
        self.workspace = workspace
        self.meta = MetaStore(home, clock)

    @classmethod
    def open(
        cls, home: Home, workspace_id: str | None, registry: Registry | None = None
    ) -> MemoryStore:
        """The store for a workspace id from the registry (HomeError if unknown)."""
        if workspace_id is None:
            return cls(home)
        registry = registry or load_registry(home)
        return cls(home, registry.require_workspace(workspace_id))

    # --- scopes -------------------------------------------------------------------------

    @property
    def project_path(self) -> str | None:
        """The project identity, or None (no workspace, or multi-project)."""
        return self.workspace.project_identity if self.workspace else None

    def unavailable_reason(self, scope: Scope) -> str | None:
        """Why a scope cannot be used here, or None when it can."""
        if scope is Scope.WORKSPACE and self.workspace is None:
            return NO_WORKSPACE
        if scope is Scope.PROJECT:
            if self.workspace is None:
                return "Project memory is unavailable: no workspace is selected"
            if self.project_path is None:
                return PROJECT_UNAVAILABLE
        return None

    def root(self, scope: Scope) -> Path:
        """The physical root of a scope (may not exist yet); ScopeUnavailableError if none."""
        reason = self.unavailable_reason(scope)
        if reason:
            raise ScopeUnavailableError(reason)
        if scope is Scope.GLOBAL:
            return self.home.global_root
        assert self.workspace is not None
        if scope is Scope.PROJECT:
            assert self.project_path is not None
            return self.home.project_root(self.project_path)
        return self.home.workspace_root(self.workspace.id)

    def physical(self, path: VirtualPath) -> Path:
        """Where a virtual path lives on disk, refusing symlink escapes (PathError)."""
        if path.scope is None:
            raise PathError(f"{path} is not inside a scope")
        return resolve_inside_root(self.root(path.scope), path.segments, str(path))

    def meta_key(self, path: VirtualPath) -> str:
        """The memory-meta.json key of a path (SPEC §6)."""
        if path.scope is Scope.GLOBAL:
            return global_key(path.relative)
        if path.scope is Scope.PROJECT and self.project_path is not None:
            return project_key(self.project_path, path.relative)
        if path.scope is Scope.WORKSPACE and self.workspace is not None:
            return workspace_key(self.workspace.id, path.relative)
        raise ScopeUnavailableError(
            self.unavailable_reason(path.scope or Scope.GLOBAL) or f"No key for {path}"
        )

    @contextmanager
    def writing(self, *scopes: Scope) -> Iterator[None]:
        """Serialize writes to these scope roots inside this process (always in one order)."""
        keys = sorted({os.path.realpath(self.root(scope)) for scope in scopes})
        locks = [thread_lock_for(key) for key in keys]
        for lock in locks:
            lock.acquire()
        try:
            yield
        finally:
            for lock in reversed(locks):
                lock.release()

    # --- reading ------------------------------------------------------------------------

    def list_scope(self, scope: Scope) -> ScopeListing:
        """Every visible file and directory of a scope; unavailable scopes list empty."""
        if self.unavailable_reason(scope):
            return ScopeListing(scope)
        return list_scope(scope, self.root(scope))

    def list_all(self) -> list[ScopeListing]:
        """All three scopes in display order."""
        return [self.list_scope(scope) for scope in SCOPE_ORDER]

    def meta_entries(self) -> dict[str, MetaEntry]:
        return self.meta.load()

    def kind_of(self, path: VirtualPath) -> Literal["file", "dir"] | None:
        """Whether a path is a file, a directory, or missing (symlinks count as missing)."""
        physical = self.physical(path)
        if physical.is_symlink() and not path.is_scope_root:
            return None
        if physical.is_dir():
            return "dir"
        if physical.is_file():
            return "file"
        return None

    def read(self, raw_path: str) -> FileContent:
        """Read a file for the editor (not usage)."""
        path = parse_file_path(raw_path)
        physical = self.physical(path)
        if self.kind_of(path) != "file":
            raise NotFoundError(f"No memory file at {path}")
        try:
            return read_file_content(physical)
        except OSError as error:
            raise MemoryStoreError(f"Cannot read {path}: {error.strerror or error}") from None

    def is_pinned(self, path: VirtualPath, entries: dict[str, MetaEntry] | None = None) -> bool:
        entries = self.meta.load() if entries is None else entries
        entry = entries.get(self.meta_key(path))
        return bool(entry and entry.pinned)

    def pinned_within(self, path: VirtualPath) -> list[str]:
        """Meta keys of pinned files at or below `path` (a pinned file, or a dir holding one)."""
        subtree = self.meta_key(path)
        return [k for k, e in self.meta.load().items() if e.pinned and key_in_subtree(k, subtree)]

    # --- usage (SPEC §6) ------------------------------------------------------------------

    def record_read(self, path: VirtualPath) -> None:
        """Count an agent read of `path`; best effort (see `_record_usage`)."""
        self._record_usage(path, self.meta.record_read)

    def record_write(self, path: VirtualPath) -> None:
        """Count a write of `path` (agent edit or UI save); best effort."""
        self._record_usage(path, self.meta.record_write)

    def _record_usage(self, path: VirtualPath, record: Callable[[str], None]) -> None:
        self._update_meta(path, lambda: record(self.meta_key(path)))

    def _update_meta(self, path: VirtualPath, update: Callable[[], None]) -> None:
        # The operation itself already happened: failing to update memory-meta.json (read-
        # only home, lock timeout) must not report it as failed, or an agent would retry it.
        try:
            update()
        except (OSError, MemoryStoreError) as error:
            logger.warning("Could not update memory-meta.json for %s: %s", path, error)

    # --- writing primitives --------------------------------------------------------------

    def check_file_size(self, content: str) -> None:
        size = len(encode_utf8(content))
        if size > MAX_FILE_BYTES:
            raise CapError(file_cap_message(size))

    def check_scope_room(self, scope: Scope, adding: int = 1) -> None:
        if count_files(self.root(scope)) + adding > MAX_FILES_PER_SCOPE:
            raise CapError(
                f"The {scope.value} memory scope is full ({MAX_FILES_PER_SCOPE} files); "
                "delete unused files first"
            )

    def require_editable(self, path: VirtualPath, current: FileContent) -> None:
        if current.binary:
            raise NotEditableError(f"{path} is not a text file (it contains NUL bytes)")
        if current.over_cap:
            raise NotEditableError(
                f"{path} is {current.size_bytes} bytes, over the {MAX_FILE_BYTES}-byte cap; "
                "it cannot be edited through Memtab"
            )

    def write_new_file(self, path: VirtualPath, content: str) -> None:
        """Create a file that must not exist yet (parents created); caps checked."""
        assert path.scope is not None
        self.check_file_size(content)
        with self.writing(path.scope):
            if self.kind_of(path) is not None:
                raise AlreadyExistsError(
                    f"A file already exists at {path}. To overwrite a file, delete it first, "
                    "then create it."
                )
            self.check_scope_room(path.scope)
            self._ensure_parent_dirs(path)
            atomic_write_text(self.physical(path), content)

    def replace_file(self, path: VirtualPath, content: str) -> None:
        """Overwrite an existing file atomically (caller holds `writing` and checked it)."""
        self.check_file_size(content)
        atomic_write_text(self.physical(path), content)

    def _ensure_parent_dirs(self, path: VirtualPath) -> None:
        """Create the missing directories above `path`, refusing to go through a file."""
        assert path.scope is not None
        directory = path.parent
        # One containment check for the deepest parent covers every ancestor (realpath
        # resolves the existing prefix), so walking up is plain existence tests.
        physical = self.physical(directory)
        missing: list[Path] = []
        while not directory.is_scope_root and not os.path.lexists(physical):
            missing.append(physical)
            directory, physical = directory.parent, physical.parent
        if directory.is_scope_root:
            self.root(path.scope).mkdir(parents=True, exist_ok=True)
        elif not physical.is_dir():
            raise AlreadyExistsError(f"{directory} is a file, not a directory")
        for new_directory in reversed(missing):
            new_directory.mkdir(exist_ok=True)

    # --- editor operations (SPEC §5a, and what mux lacks) --------------------------------

    def save(self, raw_path: str, content: str, expected_sha256: str | None) -> SaveResult:
        """Save editor content if the file is still what the editor loaded.

        expected_sha256 None means "this is a new file". A conflict never touches the file;
        a successful save counts as a write.
        """
        path = parse_file_path(raw_path)
        assert path.scope is not None
        self.check_file_size(content)
        with self.writing(path.scope):
            kind = self.kind_of(path)
            if expected_sha256 is None:
                if kind is not None:
                    raise SaveConflictError(
                        "exists", f"{path} already exists; reload before saving"
                    )
                self.write_new_file(path, content)
            else:
                if kind != "file":
                    raise SaveConflictError(
                        "missing", f"{path} no longer exists; it may have been deleted"
                    )
                current = self.read(str(path))
                if current.sha256 != expected_sha256:
                    raise SaveConflictError("changed", f"{path} changed since it was loaded")
                self.require_editable(path, current)
                self.replace_file(path, content)
        self.record_write(path)
        # The sha of what was written, not a re-read: another writer may already be next.
        return SaveResult(path, content_sha256(content))

    def create_file(self, raw_path: str, content: str = "") -> SaveResult:
        """Create a new file (fails if anything exists there); counts as a write."""
        path = parse_file_path(raw_path)
        self.write_new_file(path, content)
        self.record_write(path)
        return SaveResult(path, content_sha256(content))

    def create_directory(self, raw_path: str) -> VirtualPath:
        """Create an empty directory (and its parents)."""
        path = parse_file_path(raw_path)
        assert path.scope is not None
        with self.writing(path.scope):
            if self.kind_of(path) is not None:
                raise AlreadyExistsError(f"Something already exists at {path}")
            self._ensure_parent_dirs(path)
            self.physical(path).mkdir()
        return path

    def delete(self, raw_path: str) -> VirtualPath:
        """Delete a file or a directory (recursively); never a scope root. Drops its meta."""
        path = parse_file_path(raw_path)
        assert path.scope is not None
        with self.writing(path.scope):
            kind = self.kind_of(path)
            if kind is None:
                raise NotFoundError(f"No memory file or directory at {path}")
            physical = self.physical(path)
            try:
                if kind == "dir":
                    remove_tree(physical)
                else:
                    physical.unlink()
            except OSError as error:
                raise MemoryStoreError(f"Cannot delete {path}: {error.strerror or error}") from None
        self._update_meta(path, lambda: self.meta.drop_subtree(self.meta_key(path)))
        return path

    def move(self, raw_old: str, raw_new: str) -> VirtualPath:
        """Rename or move a file or directory, within a scope or across scopes.

        Never overwrites: the destination must not exist. Pins and usage move along.
        Across scopes this is copy + delete, so the source stays whole if the copy fails.
        """
        old, new = parse_file_path(raw_old), parse_file_path(raw_new)
        assert old.scope is not None and new.scope is not None
        if new.is_within(old):
            raise MemoryStoreError(f"Cannot move {old} into itself ({new})")
        with self.writing(old.scope, new.scope):
            kind = self.kind_of(old)
            if kind is None:
                raise NotFoundError(f"No memory file or directory at {old}")
            if self.kind_of(new) is not None:
                raise AlreadyExistsError(
                    f"Cannot move {old} to {new}: something already exists there"
                )
            if old.scope == new.scope:
                self._ensure_parent_dirs(new)
                os.rename(self.physical(old), self.physical(new))
            else:
                self._copy_across_scopes(old, new, kind)
        self._update_meta(
            new,
            # SPEC §6: the keys move, then the rename counts as a write of the new path
            # (a directory too, so the launch sweep sees the scope changed).
            lambda: self.meta.move_subtree(
                self.meta_key(old), self.meta_key(new), record_write=True
            ),
        )
        return new

    def _copy_across_scopes(self, old: VirtualPath, new: VirtualPath, kind: str) -> None:
        assert new.scope is not None
        source = self.physical(old)
        adding = 1 if kind == "file" else count_files(source)
        self.check_scope_room(new.scope, adding)
        self._ensure_parent_dirs(new)
        target = self.physical(new)
        try:
            if kind == "file":
                atomic_write_bytes(target, source.read_bytes())
            else:
                # Symlinks stay links, so nothing outside the source scope is copied in.
                copy_tree(source, target)
        except OSError as error:
            if kind == "dir":
                with contextlib.suppress(OSError):
                    remove_tree(target)
            raise MemoryStoreError(
                f"Cannot copy {old} to {new}: {error.strerror or error}"
            ) from None
        if kind == "dir":
            remove_tree(source)
        else:
            source.unlink()

    def set_pinned(self, raw_path: str, pinned: bool) -> VirtualPath:
        """Pin or unpin a file (not a directory)."""
        path = parse_file_path(raw_path)
        if self.kind_of(path) != "file":
            raise NotFoundError(f"Only files can be pinned; no memory file at {path}")
        self.meta.set_pinned(self.meta_key(path), pinned)
        return path


def parse_path_argument(raw: object, *, allow_roots: bool = False) -> VirtualPath:
    """Validate a path given by a user or a model (PathError with a clear message)."""
    if not isinstance(raw, str):
        raise PathError("A memory path (string) is required")
    return parse_virtual_path(raw) if allow_roots else parse_file_path(raw)
