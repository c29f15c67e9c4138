"""A workspace's memory scopes with what every change needs on top of `ScopeView`: usage counts,
history and write-ahead, the scope locks and the caps (`MemoryStore` adds the changes)."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import stat
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Self

from memtab.fs.atomic import encode_utf8
from memtab.fs.clock import Clock, now_ms
from memtab.fs.locking.locks import LockUnavailableError, interprocess_lock
from memtab.store.errors import (
    CapError,
    MemoryStoreError,
    NotFoundError,
    ScopeBusyError,
    ScopeUnavailableError,
    file_cap_message,
)
from memtab.store.files import MAX_FILE_BYTES
from memtab.store.history.capture import read_whole
from memtab.store.history.recorder import ContentKeeper, FileChange, HistoryRecorder, RecordedChange
from memtab.store.history.versions import scope_key
from memtab.store.history.xum_journal import advance_after_change
from memtab.store.home import Home
from memtab.store.paths import PathError, Scope, VirtualPath, require_file_path
from memtab.store.scopes.scope_access import reporting_os_errors
from memtab.store.scopes.scope_dir import ScopeDir
from memtab.store.scopes.scope_view import ScopeView, kind_in
from memtab.store.sidecars.meta import (
    CREATE,
    DROP,
    WRITE,
    Counted,
    MetaEntry,
    MetaStore,
    key_in_subtree,
)
from memtab.store.sidecars.registry import Registry, Workspace, load_registry
from memtab.store.xum_locks import holding_targets, owner_of_root

logger = logging.getLogger(__name__)

# Scope locks are held for one edit; waiting longer means something is stuck.
SCOPE_LOCK_TIMEOUT_S = 10.0
# How long a read waits for a bookkeeping lock (a use counted, outside changes recorded) before
# going on without it.
READ_LOCK_WAIT_S = 0.25


def check_file_size(size: int) -> None:
    """CapError (mux's message) when a file of `size` bytes would pass the cap."""
    if size > MAX_FILE_BYTES:
        raise CapError(file_cap_message(size))


class ScopeStore(ScopeView):
    """The scopes as one workspace sees them, with what every change needs."""

    def __init__(
        self,
        home: Home,
        workspace: Workspace | None = None,
        *,
        project: str | None = None,
        clock: Clock = now_ms,
        actor: str = "user",
        run_id: str | None = None,
        record_history: bool = True,
    ) -> None:
        """`actor`/`run_id`: who its changes are recorded as; `project`: a project to see without a
        workspace."""
        super().__init__(home, workspace, project=project)
        self.clock = clock
        self.meta = MetaStore(home, clock)
        self._counted_later: list[tuple[VirtualPath, str, Counted]] | None = None
        self.history: HistoryRecorder | None = None
        if record_history:
            workspace_id = workspace.id if workspace else None
            self.history = HistoryRecorder(
                home, actor=actor, run_id=run_id, workspace_id=workspace_id, clock=clock
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

    @classmethod
    def of(cls, view: ScopeView) -> Self:
        """The store of the scopes `view` reads (`view` itself if one), recording as the user."""
        if isinstance(view, cls):
            return view
        project = view.project_path if view.workspace is None else None
        return cls(view.home, view.workspace, project=project)

    def history_key(self, scope: Scope) -> str:
        """The history index of a scope (ScopeUnavailableError when it has none here)."""
        try:
            return scope_key(
                scope, project_path=self.project_path, workspace_id=self.workspace_holding(scope)
            )
        except ValueError:
            raise ScopeUnavailableError(self.unavailable_reason(scope) or str(scope)) from None

    def scope_dir(self, scope: Scope) -> ScopeDir:
        """What a change of `scope` needs, resolved once; ScopeUnavailableError when unavailable."""
        root = self.root(scope)
        real_root = os.path.realpath(root)
        lock, key = self._lock_path(scope, real_root), self.history_key(scope)
        return ScopeDir(scope, root, real_root, lock, key, self.meta_key(VirtualPath(scope)))

    def _history_key_of(self, where: Scope | ScopeDir) -> str:
        return where.history_key if isinstance(where, ScopeDir) else self.history_key(where)

    def keep_before(
        self,
        scope: Scope | ScopeDir,
        contents: Sequence[tuple[VirtualPath, bytes]],
        *,
        label: VirtualPath,
        done: str,
        destroys: bool,
        allow_unkept: bool,
    ) -> bool:
        """Write-ahead, under the scope lock: keep these contents in history before a change
        replaces them; whether kept (pass as `before_kept`). See `HistoryRecorder.keep_before`."""
        if self.history is None:
            return False
        paths = {str(path): path for path, _ in contents}
        return self.history.keep_before(
            self._history_key_of(scope),
            [(str(path), data) for path, data in contents],
            label=str(label),
            done=done,
            destroys=destroys,
            allow_unkept=allow_unkept,
            stat_of=lambda text: self._stat_now(scope, paths[text]),
        )

    def _stat_now(self, scope: Scope | ScopeDir, path: VirtualPath) -> tuple[int, int] | None:
        """(size, mtime_ns) of file `path` now (None: no file)."""
        try:
            where = scope.physical(path) if isinstance(scope, ScopeDir) else self.physical(path)
            info = os.lstat(where)
        except (OSError, PathError):
            return None
        return (info.st_size, info.st_mtime_ns) if stat.S_ISREG(info.st_mode) else None

    def keep_contents(
        self, contents: Sequence[bytes], *, each: bool, flushed_with: Path | None = None
    ) -> list[str] | None:
        """Durable copies in history of contents a change will write, made before it takes the scope
        (`each` fsynced, else one flush; `flushed_with`: the caller's); their sha256 (pass as
        `after_kept`), or None."""
        if self.history is None:
            return None
        return self.history.keep_contents(contents, each=each, flushed_with=flushed_with)

    @contextmanager
    def keeping_contents(self, *, flushed_with: Path | None = None) -> Iterator[ContentKeeper]:
        """`keep_contents` a content at a time (`HistoryRecorder.keeping_contents`)."""
        if self.history is None:
            yield ContentKeeper(None)
            return
        with self.history.keeping_contents(flushed_with=flushed_with) as keeper:
            yield keeper

    def record_changes(
        self,
        scope: Scope | ScopeDir,
        changes: Sequence[FileChange],
        *,
        before_kept: bool = False,
        after_kept: bool = False,
    ) -> list[RecordedChange]:
        """Record changes of one scope in history; never raises. `before_kept`/`after_kept` from
        `keep_before`/`keep_contents`."""
        if self.history is None:
            return []
        key = self._history_key_of(scope)
        return self.history.record(key, changes, before_kept=before_kept, after_kept=after_kept)

    @contextmanager
    def collecting_changes(self) -> Iterator[list[RecordedChange]]:
        """What this store records during the block, on this thread."""
        if self.history is None:
            yield []
            return
        with self.history.collecting() as changes:
            yield changes

    def scope_lock_path(self, scope: Scope) -> Path:
        """The lock file of a scope root, named after its real path."""
        return self._lock_path(scope, os.path.realpath(self.root(scope)))

    def _lock_path(self, scope: Scope, real_root: str) -> Path:
        return self.home.lock_path(f"memory-{scope.value}-{root_lock_digest(real_root)}")

    @contextmanager
    def writing(
        self, *scopes: Scope, timeout_s: float = SCOPE_LOCK_TIMEOUT_S, changes_home: bool = True
    ) -> Iterator[tuple[ScopeDir, ...]]:
        """Hold these scope roots' locks (in one order, each up to `timeout_s`, then
        ScopeBusyError), giving each scope's `ScopeDir`. `changes_home`: also xum's target locks, a
        removed workspace refused, and xum's notebook clock advanced after."""
        dirs = tuple(self.scope_dir(scope) for scope in scopes)
        lock_paths = sorted({where.lock_path for where in dirs})
        with self._holding_scope_locks(lock_paths, timeout_s):
            if not changes_home:
                yield dirs
                return
            with holding_targets(self.home, [where.root for where in dirs]):
                for where in dirs:
                    if where.scope is Scope.SESSION:
                        self._refuse_if_removed_at(where.root)
                workspace = next((w for w in dirs if w.scope is Scope.WORKSPACE), None)
                if workspace is None:
                    yield dirs
                    return
                self._refuse_if_removed_at(workspace.root)
                try:
                    yield dirs
                finally:
                    self._advance_notebook_clock(workspace.root)

    def _advance_notebook_clock(self, root: Path) -> None:
        """Advance xum's clock of the notebook at `root`, if its owner keeps one."""
        owner = owner_of_root(self.home, root)
        if owner is not None:
            advance_after_change(self.home, owner, self.clock)

    @contextmanager
    def _holding_scope_locks(self, lock_paths: list[Path], timeout_s: float) -> Iterator[None]:
        with ExitStack() as held:
            for lock_path in lock_paths:
                try:
                    held.enter_context(interprocess_lock(lock_path, timeout_s=timeout_s))
                except LockUnavailableError as error:
                    stuck = "Another program may be stuck while holding it; try again"
                    raise ScopeBusyError(f"The memory scope is busy: {error}. {stuck}") from None
                except OSError as error:
                    why = error.strerror or error
                    raise MemoryStoreError(f"Cannot lock {lock_path}: {why}") from None
            yield

    def meta_entries(self) -> dict[str, MetaEntry]:
        return self.meta.load()

    def is_pinned(self, path: VirtualPath, entries: dict[str, MetaEntry] | None = None) -> bool:
        entries = self.meta.load() if entries is None else entries
        entry = entries.get(self.meta_key(path))
        return bool(entry and entry.pinned)

    def pinned_within(self, path: VirtualPath) -> list[str]:
        """Meta keys of pinned files at or below `path` (a pinned file, or a dir holding one)."""
        subtree = self.meta_key(path)
        return [k for k, e in self.meta.load().items() if e.pinned and key_in_subtree(k, subtree)]

    # usage (docs/formats.md §7)

    def record_read(self, path: VirtualPath) -> None:
        """Count an agent read of `path`; best effort, never waiting past READ_LOCK_WAIT_S."""

        def count() -> None:
            try:
                self.meta.record_reads([self.meta_key(path)], lock_timeout_s=READ_LOCK_WAIT_S)
            except LockUnavailableError as busy:
                logger.debug("A read of %s was not counted: %s", path, busy)

        self._update_meta(path, count)

    def record_write(
        self, path: VirtualPath, *, where: ScopeDir | None = None, created: bool = False
    ) -> None:
        """Count a write of `path`; best effort. `created`: a fresh entry (`meta.CREATE`). Inside
        `writes_counted_once`, when it ends."""
        key = (self.meta_key if where is None else where.meta_key)(path)
        counted = CREATE if created else WRITE
        if self._counted_later is not None:
            self._counted_later.append((path, key, counted))
            return
        self._update_meta(path, lambda: self.meta.record_write(key, created=created))

    def forget_meta(self, path: VirtualPath, *, where: ScopeDir | None = None) -> None:
        """Forget the pins and usage of removed file `path`; best effort."""
        key = (self.meta_key if where is None else where.meta_key)(path)
        if self._counted_later is not None:
            self._counted_later.append((path, key, DROP))
            return
        self._update_meta(path, lambda: self.meta.drop_subtree(key))

    def forget_metas(self, paths: Sequence[VirtualPath]) -> None:
        """`forget_meta` of each of `paths` in one update of memory-meta.json."""
        if self._counted_later is not None:
            self._counted_later += [(path, self.meta_key(path), DROP) for path in paths]
        elif paths:
            keys = [self.meta_key(path) for path in paths]
            self._update_meta(paths[0], lambda: self.meta.drop_subtrees(keys))

    @contextlib.contextmanager
    def writes_counted_once(self) -> Iterator[None]:
        """The writes and removals made inside, counted in one update of memory-meta.json when it
        ends."""
        if self._counted_later is not None:  # already inside one
            yield
            return
        self._counted_later = []
        try:
            yield
        finally:
            counted, self._counted_later = self._counted_later, None
            if counted:
                changes = [(key, kind) for _path, key, kind in counted]
                self._update_meta(counted[0][0], lambda: self.meta.record_writes_and_drops(changes))

    def give_back_meta(self, kept: Sequence[tuple[VirtualPath, Mapping[str, object]]]) -> None:
        """Give files about to come back from history their kept pins and usage, in one update
        before they are there; best effort."""
        if kept:
            update = {self.meta_key(path): meta for path, meta in kept}
            self._update_meta(kept[0][0], lambda: self.meta.restore_entries(update))

    def take_back_meta(self, paths: Sequence[VirtualPath]) -> None:
        """`give_back_meta` undone for files that were not brought back after all."""
        if paths:
            keys = [self.meta_key(path) for path in paths]
            self._update_meta(paths[0], lambda: self.meta.drop_subtrees(keys))

    def _update_meta(self, path: VirtualPath, update: Callable[[], None]) -> None:
        # The operation happened: a meta failure must not report it failed (an agent would retry).
        try:
            update()
        except (OSError, MemoryStoreError) as error:
            logger.warning("Could not update memory-meta.json for %s: %s", path, error)

    def meta_snapshot(self) -> dict[str, dict[str, object]]:
        """Pins and usage of every file, to keep with the versions of removed files."""
        if self.history is None:
            return {}
        try:
            return self.meta.snapshot()
        except (OSError, MemoryStoreError) as error:
            logger.warning("Cannot read memory-meta.json for history: %s", error)
            return {}

    def read_whole(self, path: VirtualPath) -> bytes | None:
        """A file's whole content (uncapped, for history), None when missing; MemoryStoreError."""
        require_file_path(path)
        try:
            parent = self._open_parent(path)
        except NotFoundError:
            return None
        with parent, reporting_os_errors(path, "read"):
            if kind_in(parent, path.name) != "file":
                return None
            return read_whole(parent, path.name)


def root_lock_digest(real_root: str) -> str:
    """16 hex digits of the sha256 of a scope root's real path: its lock's name."""
    return hashlib.sha256(encode_utf8(real_root)).hexdigest()[:16]
