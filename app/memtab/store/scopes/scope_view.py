"""Reading a workspace's memory scopes (`ScopeView`) without the writing side, so the first paint
can list and read a home; reads take no lock, stop at the cap and never follow a symlink on the
way."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Literal

from memtab.fs.atomic import Directory
from memtab.fs.confined import LinkInPathError, entries_of, open_subdirectory
from memtab.fs.private import make_agent_folders
from memtab.fs.readable import HardLinkedFileError
from memtab.store.errors import (
    AlreadyExistsError,
    CapError,
    MemoryStoreError,
    NotEditableError,
    NotFoundError,
    ScopeUnavailableError,
    not_text_message,
    over_cap_message,
)
from memtab.store.files import FileContent, ScopeListing, list_scope, read_file_in
from memtab.store.home import Home
from memtab.store.paths import (
    SCOPE_ORDER,
    SHARED_SCOPES,
    PathError,
    Scope,
    VirtualPath,
    is_within_directory,
    real_path,
    require_file_path,
    resolve_inside_root,
)
from memtab.store.scope_walk import is_listable_name
from memtab.store.sidecars.meta import global_key, project_key, session_key, workspace_key
from memtab.store.sidecars.registry import Workspace
from memtab.store.xum_locks import WorkspaceRemovedError, owner_of_root, refuse_if_removed

PROJECT_UNAVAILABLE = (
    "Project memory is unavailable: multi-project workspaces have no single project identity"
)
NO_WORKSPACE = "Workspace memory is unavailable: no workspace is selected"
NO_SESSION = "Session memory is unavailable: no workspace is selected"


class ScopeView:
    """The scopes as one workspace sees them, read only; constructing one touches no disk. Without a
    workspace, `project` names a project identity (docs/formats.md §2.2, §22.9)."""

    def __init__(
        self, home: Home, workspace: Workspace | None = None, *, project: str | None = None
    ) -> None:
        self.home = home
        self.workspace = workspace
        self._project = project if workspace is None else None

    @property
    def project_path(self) -> str | None:
        """The project identity, or None (no workspace nor project, or multi-project)."""
        return self.workspace.project_identity if self.workspace else self._project

    def unavailable_reason(self, scope: Scope) -> str | None:
        """Why a scope cannot be used here, or None when it can."""
        if scope is Scope.WORKSPACE and self.workspace is None:
            return NO_WORKSPACE
        if scope is Scope.SESSION and self.workspace is None:
            return NO_SESSION
        if scope is Scope.PROJECT:
            if self.workspace is None and self._project is None:
                return "Project memory is unavailable: no workspace is selected"
            if self.project_path is None:
                return PROJECT_UNAVAILABLE
        return None

    def root(self, scope: Scope) -> Path:
        """The physical root of a scope (may not exist yet); ScopeUnavailableError if none."""
        if reason := self.unavailable_reason(scope):
            raise ScopeUnavailableError(reason)
        if scope is Scope.GLOBAL:
            return self.home.global_root
        if scope is Scope.PROJECT:
            assert self.project_path is not None
            return self.home.project_root(self.project_path)
        assert self.workspace is not None
        if scope is Scope.SESSION:
            return self.home.session_root(self.workspace.id)
        return self.home.workspace_root(self.workspace.notebook_id)

    def workspace_holding(self, scope: Scope) -> str | None:
        """The workspace whose session dir holds a scope: the notebook's owner (docs/formats.md
        §2.5), the acting one for the session scope (§3.1); None otherwise."""
        if self.workspace is None or scope not in (Scope.SESSION, Scope.WORKSPACE):
            return None
        return self.workspace.id if scope is Scope.SESSION else self.workspace.notebook_id

    def scopes(self) -> tuple[Scope, ...]:
        """The scopes this workspace shows, in order; the session scope when its folder exists."""
        if self.workspace is not None and self.root(Scope.SESSION).is_dir():
            return SCOPE_ORDER
        return SHARED_SCOPES

    def refuse_if_removed(self, scope: Scope = Scope.WORKSPACE) -> None:
        """WorkspaceRemovedError when xum removed this workspace or its notebook's owner
        (docs/formats.md §21.3)."""
        if self.workspace is not None:
            self._refuse_if_removed_at(self.root(scope))

    def _refuse_if_removed_at(self, root: Path) -> None:
        """`refuse_if_removed` of the scope whose root is `root`."""
        if self.workspace is None:
            return
        refuse_if_removed(self.home, [self.workspace.id, owner_of_root(self.home, root)])

    def removed_reason(self, scope: Scope = Scope.WORKSPACE) -> str | None:
        """Why this workspace's notebook or session scope takes no writes, or None."""
        try:
            self.refuse_if_removed(scope)
        except WorkspaceRemovedError as removed:
            return str(removed)
        return None

    def physical(self, path: VirtualPath) -> Path:
        """Where a virtual path lives on disk, refusing symlink escapes (PathError)."""
        if path.scope is None:
            raise PathError(f"{path} is not inside a scope")
        return resolve_inside_root(self.root(path.scope), path.segments, str(path))

    def resolved(self, path: VirtualPath) -> VirtualPath:
        """The virtual path of what `path` really names once every symlink is followed; PathError
        when in no scope here."""
        roots = {s: self.root(s) for s in SCOPE_ORDER if not self.unavailable_reason(s)}
        return resolve_in_scopes(self.physical(path), roots, display=str(path))

    def meta_key(self, path: VirtualPath) -> str:
        """The memory-meta.json key of a path (docs/formats.md §7)."""
        if path.scope is Scope.GLOBAL:
            return global_key(path.relative)
        workspace = self.workspace
        if path.scope is Scope.PROJECT and self.project_path is not None:
            return project_key(self.project_path, path.relative)
        if path.scope is Scope.WORKSPACE and workspace is not None:
            return workspace_key(workspace.notebook_id, path.relative)
        if path.scope is Scope.SESSION and workspace is not None:
            return session_key(workspace.id, path.relative)
        reason = self.unavailable_reason(path.scope or Scope.GLOBAL)
        raise ScopeUnavailableError(reason or f"No key for {path}")

    def _open_directory(
        self, path: VirtualPath, *, target: VirtualPath, create: bool = False
    ) -> Directory:
        """Directory `path`, never through a symlink (see `open_scope_directory`)."""
        assert path.scope is not None
        self.physical(target)  # links out are refused with the known message first
        return open_scope_directory(self.root(path.scope), path, target=target, create=create)

    def _open_parent(self, path: VirtualPath, *, create: bool = False) -> Directory:
        return self._open_directory(path.parent, target=path, create=create)

    def list_scope(
        self,
        scope: Scope,
        *,
        read_files: bool = True,
        stats: dict[VirtualPath, os.stat_result] | None = None,
    ) -> ScopeListing:
        """Every visible file and directory of a scope (an unavailable one empty); without
        `read_files`, from directory entries alone (each file's `lstat` put in `stats`)."""
        if self.unavailable_reason(scope):
            return ScopeListing(scope)
        return list_scope(scope, self.root(scope), read_files=read_files, stats=stats)

    def list_all(
        self, *, read_files: bool = True, scopes: Iterable[Scope] | None = None
    ) -> list[ScopeListing]:
        """The scopes this workspace shows (`scopes()`), or `scopes`, in display order."""
        wanted = self.scopes() if scopes is None else scopes
        return [self.list_scope(scope, read_files=read_files) for scope in wanted]

    def kind_of(self, path: VirtualPath) -> Literal["file", "dir"] | None:
        """ "file", "dir" or None (a symlink is missing); PathError for a path through a symlink."""
        if path.is_scope_root:
            self.physical(path)
            return "dir"
        try:
            with self._open_parent(path) as parent:
                return kind_in(parent, path.name)
        except NotFoundError:
            return None

    def entries(self, path: VirtualPath) -> list[tuple[str, bool]]:
        """The visible entries of directory `path` as (name, is_dir), as a listing shows them; []
        when missing."""
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
                if not is_listable_name(entry.name):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    visible.append((entry.name, True))
                elif entry.is_file(follow_symlinks=False):
                    visible.append((entry.name, False))
            except OSError:
                continue  # vanished while listing
        return visible

    def read(self, path: VirtualPath) -> FileContent:
        """Read a file for the editor (not usage): at most the cap (see `FileContent`)."""
        with self._open_parent(require_file_path(path)) as parent:
            return read_in(parent, path)[0]

    def read_many(
        self, paths: Iterable[VirtualPath]
    ) -> Iterator[tuple[VirtualPath, FileContent | MemoryStoreError | PathError | OSError]]:
        """`read` of many files, each folder opened once; each path with its content or error."""
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

    def read_text(self, path: VirtualPath) -> str:
        """A memory file's text within the cap; CapError (mux's message) over it, NotEditableError
        for a binary one."""
        return self._text_of(path, self.read(path))

    @staticmethod
    def _text_of(path: VirtualPath, current: FileContent) -> str:
        if current.over_cap:
            raise CapError(over_cap_message(path))
        if current.binary:
            raise NotEditableError(not_text_message(str(path)))
        return current.content


def open_scope_directory(
    root: Path, path: VirtualPath, *, target: VirtualPath, create: bool
) -> Directory:
    """Directory `path` in the scope rooted at `root` (`create` makes it); `target` for messages.
    PathError, NotFoundError, AlreadyExistsError, MemoryStoreError."""
    assert path.scope is not None
    try:
        if create:
            make_agent_folders(root)
        directory = Directory.open(root)
    except FileNotFoundError:
        raise NotFoundError(f"No memory file or directory at {target}") from None
    except OSError as error:
        raise MemoryStoreError(f"Cannot open {path}: {error.strerror or error}") from None
    walked = VirtualPath(path.scope)
    try:
        for segment in path.segments:
            walked = VirtualPath(path.scope, (*walked.segments, segment))
            child = open_subdirectory(directory, segment, create=create)
            directory.close()
            directory = child
    except OSError as error:
        directory.close()
        raise _directory_error(error, walked, target, create) from None
    except BaseException:
        directory.close()
        raise
    return directory


def _directory_error(
    error: OSError, walked: VirtualPath, target: VirtualPath, create: bool
) -> MemoryStoreError | PathError:
    """The store error for failing to open directory `walked` on the way to `target`."""
    if isinstance(error, LinkInPathError):
        link = "is a symbolic link, and memory paths never go through links"
        return PathError(f"Invalid memory path {str(target)!r}: {walked} {link}")
    if isinstance(error, NotADirectoryError) and create:
        return AlreadyExistsError(f"{walked} is a file, not a directory")
    if isinstance(error, NotADirectoryError | FileNotFoundError):
        return NotFoundError(f"No memory file or directory at {target}")
    return MemoryStoreError(f"Cannot open {walked}: {error.strerror or error}")


def resolve_in_scopes(physical: Path, roots: dict[Scope, Path], *, display: str) -> VirtualPath:
    """The virtual path of `physical` in the innermost scope whose real root holds it; PathError."""
    real = real_path(physical, display)
    holders = [
        (len(real_root), scope, real_root)
        for scope, root in roots.items()
        if is_within_directory(real, real_root := real_path(root, display))
    ]
    if not holders:
        raise PathError(f"Invalid memory path {display!r}: path escapes the memory root")
    _, scope, real_root = max(holders, key=lambda holder: holder[0])
    relative = os.path.relpath(real, real_root)
    return VirtualPath(scope, () if relative == "." else tuple(relative.split(os.sep)))


def kind_in(directory: Directory, name: str) -> Literal["file", "dir"] | None:
    """What `name` is in `directory`; a symlink (or anything else) counts as missing."""
    info = directory.lstat(name)
    if info is None or stat.S_ISDIR(info.st_mode):
        return None if info is None else "dir"
    return "file" if stat.S_ISREG(info.st_mode) else None


def read_in(directory: Directory, path: VirtualPath) -> tuple[FileContent, bytes]:
    """Read file `path` in its open parent, at most the cap, and the bytes read; NotFoundError,
    MemoryStoreError."""
    if kind_in(directory, path.name) != "file":
        raise NotFoundError(f"No memory file at {path}")
    try:
        return read_file_in(directory, path.name)
    except FileNotFoundError:
        raise NotFoundError(f"No memory file at {path}") from None
    except OSError as error:  # HardLinkedFileError says why in its strerror
        why = error.strerror if isinstance(error, HardLinkedFileError) else error.strerror or error
        raise MemoryStoreError(f"Cannot read {path}: {why}") from None
