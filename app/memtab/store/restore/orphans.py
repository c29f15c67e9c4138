"""Orphaned project memory: a dir under `memory/project/` no registered project maps to
(docs/formats.md §2.3), deleted whole through history; its identity recovered where mux or Memtab
wrote it, so pins and usage go and come back with the files."""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from memtab.fs.atomic import Directory
from memtab.fs.clock import Clock, now_ms
from memtab.fs.confined import remove_tree
from memtab.store.errors import MemoryStoreError, NotFoundError, ScopeUnavailableError
from memtab.store.files import count_files
from memtab.store.history.capture import capture_tree, relocate
from memtab.store.history.recorder import FileChange
from memtab.store.history.versions import ScopeHistory
from memtab.store.home import Home
from memtab.store.paths import Scope, VirtualPath, project_dir_name
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.scope_view import kind_in
from memtab.store.sidecars.journal import Journal
from memtab.store.sidecars.meta import MetaStore, project_key, unescape_key_component
from memtab.store.sidecars.registry import known_project_dirs, load_registry, orphan_project_dirs

logger = logging.getLogger(__name__)

_ONLY_PROJECT = "An orphaned project dir has only a project scope"
_META_PREFIX = "project:"
# Kept in a deleted file's version `meta`: the project identity it belonged to.
_IDENTITY_FIELD = "projectPath"


def orphan_identity(home: Home, dir_name: str) -> str | None:
    """The project identity whose dir is `dir_name`, by memory-meta.json or the journal, or None."""
    candidates = [  # the files this module deleted, newest first
        str(version.meta[_IDENTITY_FIELD])
        for version in reversed(ScopeHistory(home, f"project-{dir_name}").versions())
        if version.meta and isinstance(version.meta.get(_IDENTITY_FIELD), str)
    ]
    candidates += Journal(home).load().projects  # these read without raising
    for key in MetaStore(home).load():
        identity, separator, _ = key.removeprefix(_META_PREFIX).partition(":")
        if key.startswith(_META_PREFIX) and separator:
            candidates.append(unescape_key_component(identity))
    return next((path for path in candidates if project_dir_name(path) == dir_name), None)


class OrphanProjectStore(MemoryStore):
    """The project scope of one orphaned project dir (global and workspace unavailable)."""

    def __init__(
        self,
        home: Home,
        dir_name: str,
        *,
        identity: str | None = None,
        actor: str = "user",
        clock: Clock = now_ms,
    ) -> None:
        if not dir_name or dir_name.startswith(".") or any(c in dir_name for c in "/\\\0"):
            raise ScopeUnavailableError(f"{dir_name!r} is not a project memory dir name")
        super().__init__(home, None, actor=actor, clock=clock)
        self.dir_name = dir_name
        self.identity = identity if identity is not None else orphan_identity(home, dir_name)

    @property
    def project_path(self) -> str | None:
        return self.identity

    def unavailable_reason(self, scope: Scope) -> str | None:
        return None if scope is Scope.PROJECT else _ONLY_PROJECT

    def root(self, scope: Scope) -> Path:
        if scope is not Scope.PROJECT:
            raise ScopeUnavailableError(_ONLY_PROJECT)
        return self.home.projects_root / self.dir_name

    def history_key(self, scope: Scope) -> str:
        if scope is not Scope.PROJECT:
            raise ScopeUnavailableError(_ONLY_PROJECT)
        return f"project-{self.dir_name}"

    def meta_key(self, path: VirtualPath) -> str:
        if path.scope is not Scope.PROJECT:
            raise ScopeUnavailableError(_ONLY_PROJECT)
        if self.identity is not None:
            return project_key(self.identity, path.relative)
        # No identity: no memory-meta entry can be this file's; the key only has to match nothing.
        return f"orphan:{self.dir_name}:{path.relative}"

    def _update_meta(self, path: VirtualPath, update: Callable[[], None]) -> None:
        if self.identity is not None:
            super()._update_meta(path, update)

    def delete_all(self) -> list[VirtualPath]:
        """Delete the whole dir, every file recorded in history first (renamed hidden first, put
        back with MemoryStoreError if any file cannot be kept); the files deleted."""
        root = VirtualPath(Scope.PROJECT)
        label = f"memory/project/{self.dir_name}"
        with self.writing(Scope.PROJECT), _open(self.home.projects_root, label) as projects:
            if kind_in(projects, self.dir_name) != "dir":
                raise NotFoundError(f"{label} is not a directory")
            doomed = f".{self.dir_name}.deleting-{os.urandom(4).hex()}"
            projects.rename_no_replace(self.dir_name, projects, doomed)
            try:
                removed = self._record_all(projects, doomed, root, label)
                remove_tree(projects, doomed)
            except BaseException:
                _put_back(projects, doomed, self.dir_name)
                raise
        paths = [path for path, _ in removed]
        keys = [self.meta_key(path) for path in paths]  # their pins and usage are in history
        self._update_meta(root, functools.partial(self.meta.drop_subtrees, keys))
        return paths

    def _record_all(
        self, projects: Directory, doomed: str, root: VirtualPath, label: str
    ) -> list[tuple[VirtualPath, bytes]]:
        hidden = VirtualPath(Scope.PROJECT, (doomed,))
        real = VirtualPath(Scope.PROJECT, (self.dir_name,))  # what messages name
        captured = [
            (relocate(path, real, root), data)
            for path, data in capture_tree(projects, hidden, shown_as=real)
        ]
        expected = count_files(self.home.projects_root / doomed)
        if len(captured) != expected:
            raise MemoryStoreError(
                f"Cannot keep {expected - len(captured)} of the {expected} files of {label} "
                "in history (unreadable, too large or hard-linked; see the log); nothing "
                "was deleted"
            )
        meta = self.meta_snapshot()
        changes = [
            FileChange(str(path), data, None, "delete", meta=self._kept_meta(meta, path))
            for path, data in captured
        ]
        if len(self.record_changes(Scope.PROJECT, changes)) != len(captured):
            unrecorded = "in history (see the log); nothing was deleted"
            raise MemoryStoreError(f"Cannot record the files of {label} {unrecorded}")
        return captured

    def _kept_meta(
        self, meta: dict[str, dict[str, object]], path: VirtualPath
    ) -> dict[str, object] | None:
        """The pins, usage and identity kept with a deleted file, for a later restore."""
        entry = meta.get(self.meta_key(path))
        return entry if self.identity is None else {**(entry or {}), _IDENTITY_FIELD: self.identity}


@dataclass(frozen=True)
class OrphanDeletion:
    """What deleting an orphaned project dir did."""

    dir_name: str
    files: tuple[VirtualPath, ...]
    versions: tuple[tuple[str, str], ...] = ()
    """(path, id of the version recording its deletion): what restores each file."""

    @property
    def message(self) -> str:
        count = len(self.files)
        files = f"{count} file{'s' if count != 1 else ''}"
        kept = f"; its {files} can be restored from history (memtab trash --orphan {self.dir_name})"
        kept = kept if count else ""
        return f"Deleted the orphaned project memory {self.dir_name}{kept}"


def delete_orphan_project_dir(home: Home, dir_name: str) -> OrphanDeletion:
    """Delete an orphaned project dir whole, recorded in history; MemoryStoreError for a dir no
    longer an orphan."""
    if dir_name not in orphan_project_dirs(home, load_registry(home)):
        raise MemoryStoreError(f"{dir_name} is not an orphaned project dir (any more)")
    store = OrphanProjectStore(home, dir_name)
    with store.collecting_changes() as changes:
        files = store.delete_all()
    versions = tuple((change.path, change.after.id) for change in changes if change.after.deleted)
    return OrphanDeletion(dir_name, tuple(files), versions)


def orphans_with_history(home: Home) -> list[str]:
    """The orphaned project dirs history has versions of, sorted."""
    prefix, suffix = "project-", ".jsonl"
    try:
        names = os.listdir(home.history_index_dir)
    except OSError:
        return []
    known = known_project_dirs(load_registry(home))
    dirs = (
        name[len(prefix) : -len(suffix)]
        for name in names
        if name.startswith(prefix) and name.endswith(suffix)
    )
    return sorted(name for name in dirs if name and name not in known)


def _open(path: Path, label: str) -> Directory:
    try:
        return Directory.open(path)
    except FileNotFoundError:
        raise NotFoundError(f"{label} is not a directory") from None
    except OSError as error:
        raise MemoryStoreError(f"Cannot open {path}: {error.strerror or error}") from None


def _put_back(projects: Directory, doomed: str, name: str) -> None:
    """Roll back the hiding rename after a failure (best effort: say where the files are)."""
    try:
        projects.rename_no_replace(doomed, projects, name)
    except OSError as error:
        where = doomed, name, error.strerror or error, projects.display(doomed)
        logger.error("Could not put %s back as %s (%s); its files are in %s", *where)
