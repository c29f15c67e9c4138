"""One scope's directory as a change needs it, resolved once per operation by `ScopeStore.writing`
(docs/formats.md §3.2)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from memtab.fs.atomic import Directory
from memtab.store.errors import NotFoundError, scope_full_error
from memtab.store.files import MAX_FILES_PER_SCOPE, count_files
from memtab.store.paths import Scope, VirtualPath, resolve_inside_root
from memtab.store.scopes.scope_view import kind_in, open_scope_directory
from memtab.store.sidecars.meta import escape_key_component


@dataclass(frozen=True, slots=True)
class ScopeDir:
    """One scope resolved for one operation: its root as seen and its real path, the lock file named
    after it, its history index and its memory-meta.json key prefix."""

    scope: Scope
    root: Path
    real_root: str
    lock_path: Path
    history_key: str
    meta_prefix: str

    def meta_key(self, path: VirtualPath) -> str:
        """The memory-meta.json key of `path`, a path in this scope (docs/formats.md §7)."""
        return self.meta_prefix + escape_key_component(path.relative)

    def physical(self, path: VirtualPath) -> Path:
        """Where `path` lives on disk, refusing symlink escapes (PathError)."""
        return resolve_inside_root(self.root, path.segments, str(path), real_root=self.real_root)

    def open_directory(
        self, path: VirtualPath, *, target: VirtualPath, create: bool = False
    ) -> Directory:
        """Directory `path` of this scope, opened from the root without following a link; `target`
        must not lead out through a link (PathError)."""
        self.physical(target)
        return open_scope_directory(self.root, path, target=target, create=create)

    def open_parent(self, path: VirtualPath, *, create: bool = False) -> Directory:
        """The directory holding `path` (`open_directory`)."""
        return self.open_directory(path.parent, target=path, create=create)

    def kind_of(self, path: VirtualPath) -> Literal["file", "dir"] | None:
        """Whether `path` is a file, a directory, or missing, as `ScopeView.kind_of`."""
        if not path.segments:
            self.physical(path)
            return "dir"
        try:
            with self.open_parent(path) as parent:
                return kind_in(parent, path.name)
        except NotFoundError:
            return None

    def check_room(self, adding: int = 1) -> None:
        """CapError when `adding` more files would pass the scope's cap (docs/formats.md §4.3)."""
        if count_files(self.root) + adding > MAX_FILES_PER_SCOPE:
            raise scope_full_error(self.scope)
