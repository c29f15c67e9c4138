"""The memory of one workspace: its three scopes and every operation on them.

`MemoryStore` is what the rest of Memtab uses: the editor operations of SPEC §5a (reads,
sha-checked saves, create, rename/move, delete, pins) and the primitives the memory tool
(`memtab.store.tool`) is built on.

Every change is safe against other processes (mux, a second Memtab, an editor):

- It holds the scope root's cross-process lock (`writing`) for the whole read-change-
  write, so two Memtab processes never interleave their edits.
- It re-reads the file right before replacing it (`Directory.replace_if_unchanged`), so
  a change made meanwhile by a program that takes no lock is seen: a tool edit is
  redone on the new text (`edit_text`), an editor save reports a conflict.
- New files and renames never replace anything that appeared after the check (a hard
  link publishes them, see `memtab.fs.atomic`).
- It works through directory descriptors opened without following symlinks
  (`memtab.fs.confined`), so swapping a directory for a link cannot send a write
  outside the scope, and a path through a symlinked directory is refused.

Reads take no lock (every write is an atomic rename) and stop at the file cap.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from memtab.fs.atomic import Directory, encode_utf8
from memtab.fs.confined import copy_tree, entries_of, read_prefix, remove_tree
from memtab.fs.locks import LockUnavailableError, interprocess_lock
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
    file_cap_message,
    not_text_message,
    over_cap_message,
)
from memtab.store.files import (
    MAX_FILE_BYTES,
    MAX_FILES_PER_SCOPE,
    FileContent,
    ScopeListing,
    content_sha256,
    count_files,
    is_listable_name,
    list_scope,
    read_file_in,
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
from memtab.store.scope_access import (
    kind_in,
    open_scope_directory,
    read_in,
    remove_partial_copy,
    reporting_os_errors,
    resolve_in_scopes,
    still_holds,
)

logger = logging.getLogger(__name__)

__all__ = [  # the errors live in memtab.store.errors; importers of this module use them
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
    "missing_conflict",
    "parse_path_argument",
    "replace_loaded_in",
    "require_editable",
]

PROJECT_UNAVAILABLE = (
    "Project memory is unavailable: multi-project workspaces have no single project identity"
)
NO_WORKSPACE = "Workspace memory is unavailable: no workspace is selected"
# Scope locks are held for one edit (milliseconds); waiting longer means something is stuck.
SCOPE_LOCK_TIMEOUT_S = 10.0
# A tool edit redone this many times on text another program keeps changing gives up.
EDIT_ATTEMPTS = 3


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
        """Where a virtual path lives on disk, refusing symlink escapes (PathError).

        For showing and mapping paths; operations also refuse any link on the way.
        """
        if path.scope is None:
            raise PathError(f"{path} is not inside a scope")
        return resolve_inside_root(self.root(path.scope), path.segments, str(path))

    def resolved(self, path: VirtualPath) -> VirtualPath:
        """The virtual path of what `path` really names once every symlink is followed.

        Rules about files (pins, scopes) apply to this one: `global/al -> .` makes
        `/memories/global/al/x.md` name `/memories/global/x.md`, and a scope root may
        itself be a link into another scope. PathError when it is in no scope here.
        """
        roots = {s: self.root(s) for s in SCOPE_ORDER if not self.unavailable_reason(s)}
        return resolve_in_scopes(self.physical(path), roots, display=str(path))

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

    def scope_lock_path(self, scope: Scope) -> Path:
        """The lock file of a scope root, named after its real path (one lock per root,
        whichever of its names a process uses)."""
        real_root = os.path.realpath(self.root(scope))
        digest = hashlib.sha256(encode_utf8(real_root)).hexdigest()[:16]
        return self.home.lock_path(f"memory-{scope.value}-{digest}")

    @contextmanager
    def writing(self, *scopes: Scope) -> Iterator[None]:
        """Hold these scope roots' cross-process locks (always taken in one order).

        One lock per root rather than per file: renames, directory deletes and the
        1000-file cap span many files, and edits take milliseconds, so nothing waits long.
        """
        lock_paths = sorted({self.scope_lock_path(scope) for scope in scopes})
        with ExitStack() as held:
            for lock_path in lock_paths:
                try:
                    held.enter_context(interprocess_lock(lock_path, timeout_s=SCOPE_LOCK_TIMEOUT_S))
                except LockUnavailableError as error:
                    raise ScopeBusyError(
                        f"The memory scope is busy: {error}. Another program may be stuck "
                        "while holding it; try again"
                    ) from None
                except OSError as error:
                    raise MemoryStoreError(
                        f"Cannot lock {lock_path}: {error.strerror or error}"
                    ) from None
            yield

    # --- confined access ----------------------------------------------------------------

    def _open_directory(
        self, path: VirtualPath, *, target: VirtualPath, create: bool = False
    ) -> Directory:
        """Directory `path`, never through a symlink (see `open_scope_directory`)."""
        assert path.scope is not None
        self.physical(target)  # links out are refused with the known message first
        return open_scope_directory(self.root(path.scope), path, target=target, create=create)

    def _open_parent(self, path: VirtualPath, *, create: bool = False) -> Directory:
        return self._open_directory(path.parent, target=path, create=create)

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
        """Whether a path is a file, a directory, or missing (symlinks count as missing).

        PathError for a path through a symlink.
        """
        if path.is_scope_root:
            self.physical(path)
            return "dir"
        try:
            with self._open_parent(path) as parent:
                return kind_in(parent, path.name)
        except NotFoundError:
            return None

    def entries(self, path: VirtualPath) -> list[tuple[str, bool]]:
        """The visible entries of directory `path` as (name, is_dir); [] when missing."""
        try:
            directory = self._open_directory(path, target=path, create=False)
        except NotFoundError:
            return []
        with directory:
            try:
                found = entries_of(directory)
            except OSError:
                return []
        visible = []
        for entry in found:
            try:
                if is_listable_name(entry.name) and not entry.is_symlink():
                    visible.append((entry.name, entry.is_dir(follow_symlinks=False)))
            except OSError:
                continue  # vanished while listing
        return visible

    def read(self, raw_path: str) -> FileContent:
        """Read a file for the editor (not usage): at most the cap (see `FileContent`)."""
        path = parse_file_path(raw_path)
        with self._open_parent(path) as parent:
            return read_in(parent, path)[0]

    def read_text(self, raw_path: str) -> str:
        """The text of a memory file within the cap, as agents and engines may read it.

        CapError (mux's message) for a file over the cap, NotEditableError for a binary
        one; never reads more than the cap.
        """
        path = parse_file_path(raw_path)
        return self._text_of(path, self.read(raw_path))

    @staticmethod
    def _text_of(path: VirtualPath, current: FileContent) -> str:
        if current.over_cap:
            raise CapError(over_cap_message(path))
        if current.binary:
            raise NotEditableError(not_text_message(path))
        return current.content

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

    # --- caps ---------------------------------------------------------------------------

    @staticmethod
    def _check_size(size: int) -> None:
        if size > MAX_FILE_BYTES:
            raise CapError(file_cap_message(size))

    def check_scope_room(self, scope: Scope, adding: int = 1) -> None:
        if count_files(self.root(scope)) + adding > MAX_FILES_PER_SCOPE:
            raise CapError(
                f"The {scope.value} memory scope is full ({MAX_FILES_PER_SCOPE} files); "
                "delete unused files first"
            )

    # --- editing --------------------------------------------------------------------------

    def edit_text(self, raw_path: str, change: Callable[[str], str]) -> VirtualPath:
        """Replace a file's text with `change(text)`, atomically across processes.

        Under the scope lock: read, change, and replace only if the file is still what
        was read; if another program changed it meanwhile, the edit is redone on the new
        text (up to EDIT_ATTEMPTS times, then ChangedDuringEditError — nothing is
        overwritten). `change` raises to refuse (its error propagates). Counts as a write.
        """
        path = parse_file_path(raw_path)
        assert path.scope is not None
        with (
            self.writing(path.scope),
            self._open_parent(path) as parent,
            reporting_os_errors(path, "edit"),
        ):
            for attempt in range(1, EDIT_ATTEMPTS + 1):
                current, read_bytes = read_in(parent, path)
                updated = encode_utf8(change(self._text_of(path, current)))
                self._check_size(len(updated))
                if parent.replace_if_unchanged(
                    path.name, updated, unchanged=still_holds(parent, path.name, read_bytes)
                ):
                    break
                logger.info("%s changed during an edit (attempt %d); redoing it", path, attempt)
            else:
                raise ChangedDuringEditError(
                    f"{path} kept changing while it was being edited (another program is "
                    "writing it); nothing was changed, try again"
                )
        self.record_write(path)
        return path

    def _create_new(self, path: VirtualPath, data: bytes, *, conflict: Exception) -> None:
        """Create file `path` (parents made) that must not exist; caps checked. Raises
        `conflict` if anything is there, also if it appeared a moment ago."""
        assert path.scope is not None
        self._check_size(len(data))
        if self.kind_of(path) is not None:
            raise conflict
        self.check_scope_room(path.scope)
        with self._open_parent(path, create=True) as parent, reporting_os_errors(path, "create"):
            try:
                parent.create_new(path.name, data)
            except FileExistsError:
                raise conflict from None

    def save(self, raw_path: str, content: str, expected_sha256: str | None) -> SaveResult:
        """Save editor content if the file is still what the editor loaded.

        expected_sha256 None means "this is a new file". A conflict never touches the file;
        a successful save counts as a write.
        """
        path = parse_file_path(raw_path)
        assert path.scope is not None
        data = encode_utf8(content)
        self._check_size(len(data))
        with self.writing(path.scope):
            if expected_sha256 is None:
                exists = SaveConflictError("exists", f"{path} already exists; reload before saving")
                self._create_new(path, data, conflict=exists)
            else:
                self._replace_loaded(path, data, expected_sha256)
        self.record_write(path)
        # The sha of what was written, not a re-read: another writer may already be next.
        return SaveResult(path, content_sha256(content))

    def _replace_loaded(self, path: VirtualPath, data: bytes, expected_sha256: str) -> None:
        try:
            parent = self._open_parent(path)
        except NotFoundError:
            raise missing_conflict(str(path)) from None
        with parent, reporting_os_errors(path, "save"):
            replace_loaded_in(parent, path.name, data, expected_sha256, label=str(path))

    def create_file(self, raw_path: str, content: str = "") -> SaveResult:
        """Create a new file (fails if anything exists there); counts as a write."""
        path = parse_file_path(raw_path)
        assert path.scope is not None
        exists = AlreadyExistsError(
            f"A file already exists at {path}. To overwrite a file, delete it first, "
            "then create it."
        )
        with self.writing(path.scope):
            self._create_new(path, encode_utf8(content), conflict=exists)
        self.record_write(path)
        return SaveResult(path, content_sha256(content))

    def create_directory(self, raw_path: str) -> VirtualPath:
        """Create an empty directory (and its parents)."""
        path = parse_file_path(raw_path)
        assert path.scope is not None
        exists = AlreadyExistsError(f"Something already exists at {path}")
        with self.writing(path.scope):
            if self.kind_of(path) is not None:
                raise exists
            with (
                self._open_parent(path, create=True) as parent,
                reporting_os_errors(path, "create"),
            ):
                name, at = parent.at(path.name)
                try:
                    os.mkdir(name, **at)
                except FileExistsError:
                    raise exists from None
        return path

    def delete(self, raw_path: str) -> VirtualPath:
        """Delete a file or a directory (recursively); never a scope root. Drops its meta."""
        path = parse_file_path(raw_path)
        assert path.scope is not None
        missing = NotFoundError(f"No memory file or directory at {path}")
        with self.writing(path.scope):
            try:
                parent = self._open_parent(path)
            except NotFoundError:
                raise missing from None
            with parent:
                kind = kind_in(parent, path.name)
                if kind is None:
                    raise missing
                try:
                    if kind == "dir":
                        remove_tree(parent, path.name)
                    else:
                        name, at = parent.at(path.name)
                        os.unlink(name, **at)
                except OSError as error:
                    raise MemoryStoreError(
                        f"Cannot delete {path}: {error.strerror or error}"
                    ) from None
        self._update_meta(path, lambda: self.meta.drop_subtree(self.meta_key(path)))
        return path

    def move(self, raw_old: str, raw_new: str) -> VirtualPath:
        """Rename or move a file or directory, within a scope or across scopes.

        Never overwrites: the destination must not exist, even if it appears a moment
        after the check. Pins and usage move along. Across scopes this is copy + delete,
        so the source stays whole if the copy fails.
        """
        old, new = parse_file_path(raw_old), parse_file_path(raw_new)
        assert old.scope is not None and new.scope is not None
        if new.is_within(old):
            raise MemoryStoreError(f"Cannot move {old} into itself ({new})")
        taken = AlreadyExistsError(f"Cannot move {old} to {new}: something already exists there")
        with self.writing(old.scope, new.scope):
            kind = self.kind_of(old)
            if kind is None:
                raise NotFoundError(f"No memory file or directory at {old}")
            if self.kind_of(new) is not None:
                raise taken
            if old.scope != new.scope:
                self._copy_across_scopes(old, new, kind, taken)
            else:
                with (
                    self._open_parent(old) as source,
                    self._open_parent(new, create=True) as target,
                ):
                    try:
                        source.rename_no_replace(old.name, target, new.name)
                    except FileExistsError:
                        raise taken from None
                    except OSError as error:
                        raise MemoryStoreError(
                            f"Cannot move {old} to {new}: {error.strerror or error}"
                        ) from None
        self._update_meta(
            new,
            # SPEC §6: the keys move, then the rename counts as a write of the new path
            # (a directory too, so the launch sweep sees the scope changed).
            lambda: self.meta.move_subtree(
                self.meta_key(old), self.meta_key(new), record_write=True
            ),
        )
        return new

    def _copy_across_scopes(
        self, old: VirtualPath, new: VirtualPath, kind: str, taken: AlreadyExistsError
    ) -> None:
        assert new.scope is not None
        adding = 1 if kind == "file" else count_files(self.physical(old))
        self.check_scope_room(new.scope, adding)
        with self._open_parent(old) as source, self._open_parent(new, create=True) as target:
            try:
                if kind == "file":
                    target.create_new(new.name, read_prefix(source, old.name, limit=None)[0])
                else:
                    copy_tree(source, old.name, target, new.name)
            except FileExistsError:
                raise taken from None
            except OSError as error:
                if kind == "dir":
                    remove_partial_copy(target, new.name)
                raise MemoryStoreError(
                    f"Cannot copy {old} to {new}: {error.strerror or error}"
                ) from None
            try:
                if kind == "dir":
                    remove_tree(source, old.name)
                else:
                    name, at = source.at(old.name)
                    os.unlink(name, **at)
            except OSError as error:
                raise MemoryStoreError(
                    f"Copied {old} to {new}, but cannot remove the original: "
                    f"{error.strerror or error}"
                ) from None

    def set_pinned(self, raw_path: str, pinned: bool) -> VirtualPath:
        """Pin or unpin a file (not a directory)."""
        path = parse_file_path(raw_path)
        if self.kind_of(path) != "file":
            raise NotFoundError(f"Only files can be pinned; no memory file at {path}")
        self.meta.set_pinned(self.meta_key(path), pinned)
        return path


def replace_loaded_in(
    parent: Directory, name: str, data: bytes, expected_sha256: str, *, label: str
) -> None:
    """Replace file `name` in `parent` with `data` if it still holds what the editor loaded
    (SPEC §5a), re-checked right before the rename; a conflict never touches the file.

    The one sha-checked save, for memory files (`MemoryStore.save`) and the other agents'
    files (`memtab.sources`) alike. The caller holds the lock that serializes writers of
    the file and opened `parent` without following links; `label` names the file in
    messages. Raises SaveConflictError, NotEditableError or MemoryStoreError.
    """
    changed = SaveConflictError("changed", f"{label} changed since it was loaded")
    if kind_in(parent, name) != "file":
        raise missing_conflict(label)
    try:
        current, read_bytes = read_file_in(parent, name)
    except FileNotFoundError:
        raise missing_conflict(label) from None
    except OSError as error:
        raise MemoryStoreError(f"Cannot read {label}: {error.strerror or error}") from None
    if current.sha256 != expected_sha256:
        raise changed
    require_editable(label, current)
    if not parent.replace_if_unchanged(name, data, unchanged=still_holds(parent, name, read_bytes)):
        raise changed


def require_editable(label: str, current: FileContent) -> None:
    """NotEditableError for a binary file or one over the cap (`label` names it)."""
    if current.binary:
        raise NotEditableError(not_text_message(label))
    if current.over_cap:
        raise NotEditableError(
            f"{label} is {current.size_bytes} bytes, over the {MAX_FILE_BYTES}-byte cap; "
            "it cannot be edited through Memtab"
        )


def missing_conflict(label: str) -> SaveConflictError:
    """The conflict of saving over a file that is gone (`label` names it)."""
    return SaveConflictError("missing", f"{label} no longer exists; it may have been deleted")


def parse_path_argument(raw: object, *, allow_roots: bool = False) -> VirtualPath:
    """Validate a path given by a user or a model (PathError with a clear message)."""
    if not isinstance(raw, str):
        raise PathError("A memory path (string) is required")
    return parse_virtual_path(raw) if allow_roots else parse_file_path(raw)
