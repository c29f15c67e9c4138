"""One protocol for every memory file, mux's (`MuxFile`) or another agent's (`AgentFile`), so no
caller asks which kind it is; `sources.open_file.open_memory_file` makes one. Methods read the
disk (off the GUI thread); errors are the same for both kinds."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.store.errors import (
    MemoryStoreError,
    NotFoundError,
    SaveConflictError,
    UnkeptChangeError,
)
from memtab.store.files import FileContent
from memtab.store.history.blobs import sha256_of
from memtab.store.history.versions import Version
from memtab.store.home import Home
from memtab.store.paths import PathError, Scope, VirtualPath, parse_file_path
from memtab.store.restore.from_history import content_of, file_history, find_version, restore
from memtab.store.scopes.memory import MemoryStore

logger = logging.getLogger(__name__)


class MemoryFileError(Exception):
    """The file cannot be read or changed; the message is one line for the user."""


class MemoryFileMissingError(MemoryFileError):
    """The file is not on disk (deleted or moved away)."""


@dataclass(frozen=True)
class Commit:
    """One commit of a file's agent's own git log (Codex keeps `memories/` in git)."""

    sha: str
    committed_at_ms: int
    subject: str
    files: tuple[str, ...] = ()


@dataclass(frozen=True)
class Restored:
    """What a restore did."""

    file: MemoryFile
    """The file that holds the version now: the one restored, or the file beside it when a newer
    file took its name."""
    before: Version | None
    """The version the file held before (None, or a deletion: there was no file)."""
    sha256: str  # what the file holds now
    unchanged: bool = False  # it held that version already: nothing was written
    created: bool = False  # there was no file: the restore made it


class MemoryFile(Protocol):
    """One memory file, whichever agent's (see the module docstring)."""

    @property
    def ref(self) -> MemoryFileRef:
        """Which file it is (its `key`: a virtual path, or another agent's file id)."""
        ...

    @property
    def home(self) -> Home:
        """The home whose history keeps its versions."""
        ...

    @property
    def title(self) -> str:
        """How the editor's header names it (a virtual path, or where it is on disk)."""
        ...

    @property
    def name(self) -> str: ...

    @property
    def label(self) -> str:
        """Its path inside its scope or source (`notes.md`, `rules/testing.md`)."""
        ...

    @property
    def read_only_reason(self) -> str | None:
        """Why it never opens for editing (who writes it), or None."""
        ...

    @property
    def note(self) -> str | None:
        """Something to say when it opens (e.g. over an agent's load limit), or None."""
        ...

    @property
    def memory_type(self) -> str | None:
        """The memory type its listing read (a Claude Code topic's `type:`), or None."""
        ...

    def physical(self) -> Path | None:
        """Where it is on disk (None when that cannot be said)."""
        ...

    def read(self) -> FileContent:
        """What is on disk now, as the editor shows it. MemoryFileMissingError, MemoryFileError."""
        ...

    def read_whole(self) -> bytes | None:
        """What it holds now as history compares it (None: no file); MemoryFileError."""
        ...

    def source_text(self) -> str | None:
        """The file's own text when `read` renders it (loki-mode's JSON), else None."""
        ...

    def save(
        self,
        content: str,
        expected_sha256: str | None,
        *,
        allow_unkept: bool = False,
        count_as_write: bool = True,
    ) -> str:
        """Write `content` if the disk holds `expected_sha256` (None: nothing yet); the sha
        written. `count_as_write`: one use of a mux file. SaveConflictError, UnkeptChangeError
        (unless `allow_unkept`), MemoryFileError."""
        ...

    def history_index(self) -> str | None:
        """The history index whose change means this file's history changed."""
        ...

    def versions(self) -> list[Version]:
        """Every version history keeps of it, newest first. MemoryFileError."""
        ...

    def commits(self) -> tuple[Commit, ...]:
        """The commits of its agent's own repository touching it (Codex's memories)."""
        ...

    def commit_text(self, sha: str) -> str:
        """The file as of one of those commits. MemoryFileError."""
        ...

    def restore(
        self,
        version_id: str,
        *,
        expected_sha256: str | None = None,
        allow_unkept: bool = False,
        count_as_write: bool = True,
    ) -> Restored:
        """Make it hold one of its versions again (`expected_sha256`: only over that content);
        `count_as_write`: one use of a mux file. SaveConflictError, UnkeptChangeError,
        MemoryFileError."""
        ...

    def in_store(self, store: MemoryStore | None) -> MemoryFile | None:
        """This file once the window shows `store`'s workspace: itself, or None when not there."""
        ...

    def remove_created(
        self, expected_sha256: str, *, created_folders: int = 0, allow_unkept: bool = False
    ) -> None:
        """Take back a file Memtab created: removed only while it holds `expected_sha256`, then its
        `created_folders` while empty. SaveConflictError, UnkeptChangeError, MemoryFileError."""
        ...


@contextlib.contextmanager
def store_errors(*, missing: bool = False) -> Iterator[None]:
    """The store's errors as the protocol's (`missing`: a file not found is missing)."""
    try:
        yield
    except (SaveConflictError, UnkeptChangeError):
        raise
    except NotFoundError as error:
        if missing:
            raise MemoryFileMissingError(str(error)) from None
        raise MemoryFileError(str(error)) from None
    except (MemoryStoreError, PathError, OSError) as error:
        text = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise MemoryFileError(text) from None


@dataclass(frozen=True, eq=False)
class MuxFile:
    """A file of one of a workspace's scopes, through its store; equal when the same file of the
    same workspace and home."""

    store: MemoryStore
    path: VirtualPath

    def _place(self) -> tuple[object, ...]:
        store = self.store
        workspace = store.workspace.id if store.workspace is not None else None
        return (store.home.root, workspace, store.project_path, self.path)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MuxFile) and self._place() == other._place()

    def __hash__(self) -> int:
        return hash(self._place())

    @property
    def ref(self) -> MemoryFileRef:
        return MemoryFileRef.of_mux(self.path)

    @property
    def home(self) -> Home:
        return self.store.home

    @property
    def title(self) -> str:
        return str(self.path)

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def label(self) -> str:
        return self.path.relative

    @property
    def read_only_reason(self) -> str | None:
        """Why the file takes no save: its workspace was removed in xum (docs/formats.md §21.3)."""
        if self.path.scope in (Scope.WORKSPACE, Scope.SESSION):
            return self.store.removed_reason(self.path.scope)
        return None

    @property
    def note(self) -> str | None:
        return None

    @property
    def memory_type(self) -> str | None:
        return None

    def physical(self) -> Path | None:
        try:
            return self.store.physical(self.path)
        except (MemoryStoreError, PathError, OSError):
            return None

    def read(self) -> FileContent:
        with store_errors(missing=True):
            return self.store.read(self.path)

    def read_whole(self) -> bytes | None:
        with store_errors():
            return self.store.read_whole(self.path)

    def source_text(self) -> str | None:
        return None  # mux's files are shown as they are

    def save(
        self,
        content: str,
        expected_sha256: str | None,
        *,
        allow_unkept: bool = False,
        count_as_write: bool = True,
    ) -> str:
        with store_errors():
            return self.store.save(
                self.path,
                content,
                expected_sha256,
                allow_unkept=allow_unkept,
                count_as_write=count_as_write,
            ).sha256

    def history_index(self) -> str | None:
        try:
            return self.store.history_key(self.path.scope) if self.path.scope else None
        except MemoryStoreError:
            return None

    def versions(self) -> list[Version]:
        with store_errors():
            return file_history(self.store, self.path)

    def commits(self) -> tuple[Commit, ...]:
        return ()

    def commit_text(self, sha: str) -> str:
        raise MemoryFileError(f"{self.path} has no commits of its own: mux keeps no repository")

    def restore(
        self,
        version_id: str,
        *,
        expected_sha256: str | None = None,
        allow_unkept: bool = False,
        count_as_write: bool = True,
    ) -> Restored:
        """`store.restore.from_history.restore`, or with `expected_sha256` the version's content
        in place, only over that content."""
        store, path = self.store, self.path
        with store_errors(), store.collecting_changes() as changes:
            if expected_sha256 is not None:
                version = find_version(store, path, version_id)
                data = None if version.deleted else content_of(store.home, version)
                store.restore_content(
                    path,
                    data,
                    expected_sha256=expected_sha256,
                    op="restore" if data is not None else "delete",
                    restored_from=version.id if data is not None else None,
                    allow_unkept=allow_unkept,
                    count_as_write=count_as_write,
                )
            else:
                result = restore(
                    store,
                    path,
                    version_id,
                    allow_unkept=allow_unkept,
                    count_as_write=count_as_write,
                )
                path = parse_file_path(result.path)
                if result.unchanged:
                    return Restored(
                        MuxFile(store, path), None, result.version.sha256, unchanged=True
                    )
        restored = MuxFile(store, path)
        change = next((c for c in reversed(changes) if c.after.op in ("restore", "delete")), None)
        if change is None:  # history is not kept here: say what is known
            return Restored(restored, None, sha256_of(store.read_whole(path) or b""))
        before = change.before
        created = before is None or before.deleted
        return Restored(restored, before, change.after.sha256, created=created)

    def in_store(self, store: MemoryStore | None) -> MemoryFile | None:
        if store is None or store.home.root != self.store.home.root:
            return None
        mine, theirs = self.store.workspace, store.workspace
        same = (mine.id if mine else None) == (theirs.id if theirs else None)
        return MuxFile(store, self.path) if same else None

    def remove_created(
        self, expected_sha256: str, *, created_folders: int = 0, allow_unkept: bool = False
    ) -> None:
        with store_errors():
            self.store.restore_content(
                self.path,
                None,
                expected_sha256=expected_sha256,
                op="delete",
                allow_unkept=allow_unkept,
            )
