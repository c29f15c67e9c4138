"""Where a workspace's three memory scopes are, and reading them: `ScopeStore`.

`MemoryStore` (`memtab.store.memory`) adds every change on top; this half holds what
changes and reads share: the scopes and their roots, meta keys and history indexes, the
scope locks, confined access to directories, reading, usage counts and the caps.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Literal, Self

from memtab.fs.atomic import Directory, encode_utf8
from memtab.fs.clock import Clock, now_ms
from memtab.fs.confined import entries_of
from memtab.fs.locks import LockUnavailableError, interprocess_lock
from memtab.store.errors import (
    CapError,
    MemoryStoreError,
    NotEditableError,
    NotFoundError,
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
    count_files,
    is_listable_name,
    list_scope,
)
from memtab.store.history.capture import read_whole
from memtab.store.history.recorder import FileChange, HistoryRecorder, RecordedChange
from memtab.store.history.versions import scope_key
from memtab.store.home import Home
from memtab.store.meta import (
    MetaEntry,
    MetaStore,
    global_key,
    key_in_subtree,
    project_key,
    workspace_key,
)
from memtab.store.paths import (
    SCOPE_ORDER,
    PathError,
    Scope,
    VirtualPath,
    parse_file_path,
    resolve_inside_root,
)
from memtab.store.registry import Registry, Workspace, load_registry
from memtab.store.scope_access import (
    kind_in,
    open_scope_directory,
    read_in,
    reporting_os_errors,
    resolve_in_scopes,
)

logger = logging.getLogger(__name__)

PROJECT_UNAVAILABLE = (
    "Project memory is unavailable: multi-project workspaces have no single project identity"
)
NO_WORKSPACE = "Workspace memory is unavailable: no workspace is selected"
# Scope locks are held for one edit (milliseconds); waiting longer means something is stuck.
SCOPE_LOCK_TIMEOUT_S = 10.0
# How long a read waits for a lock it needs only for bookkeeping — counting a use in
# memory-meta.json, recording what changed outside in history — before going on without
# it: reads never wait on a writer (the files themselves are replaced by rename).
READ_LOCK_WAIT_S = 0.25


class ScopeStore:
    """The global, project and workspace scopes as one workspace sees them."""

    def __init__(
        self,
        home: Home,
        workspace: Workspace | None = None,
        *,
        clock: Clock = now_ms,
        actor: str = "user",
        run_id: str | None = None,
        record_history: bool = True,
    ) -> None:
        """`actor`/`run_id`: who every change made through this store is recorded as."""
        self.home = home
        self.workspace = workspace
        self.meta = MetaStore(home, clock)
        self.history: HistoryRecorder | None = None
        if record_history:
            self.history = HistoryRecorder(
                home,
                actor=actor,
                run_id=run_id,
                workspace_id=workspace.id if workspace else None,
                clock=clock,
            )

    @classmethod
    def open(
        cls,
        home: Home,
        workspace_id: str | None,
        registry: Registry | None = None,
        *,
        actor: str = "user",
    ) -> Self:
        """The store for a workspace id from the registry (HomeError if unknown)."""
        if workspace_id is None:
            return cls(home, actor=actor)
        registry = registry or load_registry(home)
        return cls(home, registry.require_workspace(workspace_id), actor=actor)

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
        """The memory-meta.json key of a path (docs/formats.md §7)."""
        if path.scope is Scope.GLOBAL:
            return global_key(path.relative)
        if path.scope is Scope.PROJECT and self.project_path is not None:
            return project_key(self.project_path, path.relative)
        if path.scope is Scope.WORKSPACE and self.workspace is not None:
            return workspace_key(self.workspace.id, path.relative)
        raise ScopeUnavailableError(
            self.unavailable_reason(path.scope or Scope.GLOBAL) or f"No key for {path}"
        )

    def history_key(self, scope: Scope) -> str:
        """The history index of a scope (ScopeUnavailableError when it has none here)."""
        try:
            return scope_key(
                scope,
                project_path=self.project_path,
                workspace_id=self.workspace.id if self.workspace else None,
            )
        except ValueError:
            raise ScopeUnavailableError(self.unavailable_reason(scope) or str(scope)) from None

    def keep_before(
        self,
        scope: Scope,
        contents: Sequence[tuple[VirtualPath, bytes]],
        *,
        label: VirtualPath,
        done: str,
        destroys: bool,
        allow_unkept: bool,
    ) -> bool:
        """Write-ahead, under the scope lock and before a change replaces or removes these
        files' contents: keep them in history first; whether they were kept (pass it to
        `record_changes` as `before_kept`). A change that `destroys` content history
        cannot keep is refused with UnkeptChangeError unless `allow_unkept` (see
        `HistoryRecorder.keep_before`)."""
        if self.history is None:
            return False
        return self.history.keep_before(
            self.history_key(scope),
            [(str(path), data) for path, data in contents],
            label=str(label),
            done=done,
            destroys=destroys,
            allow_unkept=allow_unkept,
        )

    def record_changes(
        self, scope: Scope, changes: Sequence[FileChange], *, before_kept: bool = False
    ) -> list[RecordedChange]:
        """Record changes of one scope in history (never raises; see `HistoryRecorder`).
        `before_kept`: what `keep_before` returned for their `before` contents."""
        if self.history is None:
            return []
        return self.history.record(self.history_key(scope), changes, before_kept=before_kept)

    @contextmanager
    def collecting_changes(self) -> Iterator[list[RecordedChange]]:
        """What this store records in history during the block, on this thread (how a
        run links each op to the versions it made)."""
        if self.history is None:
            yield []
            return
        with self.history.collecting() as changes:
            yield changes

    def scope_lock_path(self, scope: Scope) -> Path:
        """The lock file of a scope root, named after its real path (one lock per root,
        whichever of its names a process uses)."""
        real_root = os.path.realpath(self.root(scope))
        digest = hashlib.sha256(encode_utf8(real_root)).hexdigest()[:16]
        return self.home.lock_path(f"memory-{scope.value}-{digest}")

    @contextmanager
    def writing(self, *scopes: Scope, timeout_s: float = SCOPE_LOCK_TIMEOUT_S) -> Iterator[None]:
        """Hold these scope roots' cross-process locks (always taken in one order), each
        waited for up to `timeout_s` (then ScopeBusyError).

        One lock per root rather than per file: renames, directory deletes and the
        1000-file cap span many files, and edits take milliseconds, so nothing waits long.
        """
        lock_paths = sorted({self.scope_lock_path(scope) for scope in scopes})
        with ExitStack() as held:
            for lock_path in lock_paths:
                try:
                    held.enter_context(interprocess_lock(lock_path, timeout_s=timeout_s))
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

    def list_scope(self, scope: Scope, *, read_files: bool = True) -> ScopeListing:
        """Every visible file and directory of a scope; unavailable scopes list empty.
        Without `read_files`, files are listed from their directory entries alone (see
        `files.list_scope`)."""
        if self.unavailable_reason(scope):
            return ScopeListing(scope)
        return list_scope(scope, self.root(scope), read_files=read_files)

    def list_all(self, *, read_files: bool = True) -> list[ScopeListing]:
        """All three scopes in display order."""
        return [self.list_scope(scope, read_files=read_files) for scope in SCOPE_ORDER]

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

    def read_many(
        self, paths: Iterable[VirtualPath]
    ) -> Iterator[tuple[VirtualPath, FileContent | MemoryStoreError | PathError | OSError]]:
        """`read` of many files, each directory opened once (a scan of a whole workspace
        reads thousands). Yields every path with its content, or with the error it met:
        one file that cannot be read stops nothing."""
        by_parent: dict[VirtualPath, list[VirtualPath]] = {}
        for path in paths:
            by_parent.setdefault(path.parent, []).append(path)
        for folder, files in by_parent.items():
            try:
                parent = self._open_directory(folder, target=folder)
            except (OSError, MemoryStoreError, PathError) as error:
                for path in files:
                    yield path, error
                continue
            with parent:
                for path in files:
                    try:
                        content: FileContent | MemoryStoreError | OSError = read_in(parent, path)[0]
                    except (OSError, MemoryStoreError) as error:
                        content = error
                    yield path, content

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
            raise NotEditableError(not_text_message(str(path)))
        return current.content

    def is_pinned(self, path: VirtualPath, entries: dict[str, MetaEntry] | None = None) -> bool:
        entries = self.meta.load() if entries is None else entries
        entry = entries.get(self.meta_key(path))
        return bool(entry and entry.pinned)

    def pinned_within(self, path: VirtualPath) -> list[str]:
        """Meta keys of pinned files at or below `path` (a pinned file, or a dir holding one)."""
        subtree = self.meta_key(path)
        return [k for k, e in self.meta.load().items() if e.pinned and key_in_subtree(k, subtree)]

    # --- usage (docs/formats.md §7) -------------------------------------------------------

    def record_read(self, path: VirtualPath) -> None:
        """Count an agent read of `path`; best effort (see `_update_meta`), and never a
        wait: when another process holds memory-meta.json's lock longer than
        READ_LOCK_WAIT_S, the use goes uncounted rather than keep the read waiting."""

        def count() -> None:
            try:
                self.meta.record_reads([self.meta_key(path)], lock_timeout_s=READ_LOCK_WAIT_S)
            except LockUnavailableError as busy:
                logger.debug("A read of %s was not counted: %s", path, busy)

        self._update_meta(path, count)

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

    # --- history reads ------------------------------------------------------------------

    def meta_snapshot(self) -> dict[str, dict[str, object]]:
        """Pins and usage of every file, to keep with the versions of removed files."""
        if self.history is None:
            return {}
        try:
            return {key: entry.to_json() for key, entry in self.meta.load().items()}
        except (OSError, MemoryStoreError) as error:
            logger.warning("Cannot read memory-meta.json for history: %s", error)
            return {}

    def read_whole(self, raw_path: str) -> bytes | None:
        """The whole content of a file (not capped: for history), None when missing.
        MemoryStoreError when it cannot be read whole."""
        path = parse_file_path(raw_path)
        try:
            parent = self._open_parent(path)
        except NotFoundError:
            return None
        with parent, reporting_os_errors(path, "read"):
            if kind_in(parent, path.name) != "file":
                return None
            return read_whole(parent, path.name)
