"""One protocol for every memory file, mux's or another agent's.

Whoever reads, saves, restores, copies or lists the history of a memory file holds a
`MemoryFile` and never asks which kind it is: a mux file (`MuxFile`, through the
workspace's `MemoryStore`: scope locks, history recorded by the store) or another agent's
file (`memtab.sources.agent_file.AgentFile`: a lock per file, history recorded in the
home's index of its source). `memtab.sources.open_file.open_memory_file` is the one place
that turns a `MemoryFileRef` into one — the only place that looks at which kind a file is.

Every method reads or writes the disk (the properties do not): call them off the GUI
thread. The values are frozen and hold no Qt, so they may be handed to a worker.

Errors are the same for both kinds: `MemoryFileMissingError` (the file is not on disk),
the store's `SaveConflictError` (the disk no longer holds what the caller saw) and
`UnkeptChangeError` (the change would destroy what history cannot keep; `allow_unkept=True`
when the user chose to go on), and `MemoryFileError` (one line for the user) for
everything else.
"""

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

__all__ = [
    "Commit",
    "MemoryFile",
    "MemoryFileError",
    "MemoryFileMissingError",
    "MuxFile",
    "Restored",
    "SaveConflictError",
    "UnkeptChangeError",
]


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
    """The file that holds the version now: the one restored, or — a deleted mux file
    whose name a newer file took — the file beside it (`notes-restored.md`)."""
    before: Version | None
    """The version the file held before (None, or a deletion: there was no file)."""
    sha256: str
    """What the file holds now."""
    unchanged: bool = False
    """It held that version already: nothing was written."""
    created: bool = False
    """There was no file: the restore made it."""


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
        """The memory type its listing read (a Claude Code topic's `type:`), or None: what
        a copy into Claude Code's auto memory is offered first."""
        ...

    def physical(self) -> Path | None:
        """Where it is on disk (None when that cannot be said)."""
        ...

    def read(self) -> FileContent:
        """What is on disk now, as the editor shows it (at most the cap).
        MemoryFileMissingError, MemoryFileError."""
        ...

    def read_whole(self) -> bytes | None:
        """What it holds now as history compares it (None: there is no file).
        MemoryFileError when it is there but cannot be read."""
        ...

    def source_text(self) -> str | None:
        """The file's own text when what `read` gives is rendered from it (loki-mode's
        JSON, shown as Markdown), else None. MemoryFileError when it cannot be read."""
        ...

    def save(
        self,
        content: str,
        expected_sha256: str | None,
        *,
        allow_unkept: bool = False,
        count_as_write: bool = True,
    ) -> str:
        """Write `content` if the disk holds `expected_sha256` (None: nothing yet);
        returns the sha written. `count_as_write`: one use of a mux file (False: Trust's
        Combine and its undo, which leave the kept file's usage as it was).
        SaveConflictError, UnkeptChangeError (unless `allow_unkept`), MemoryFileError."""
        ...

    def history_index(self) -> str | None:
        """The history index whose change means this file's history changed."""
        ...

    def versions(self) -> list[Version]:
        """Every version history keeps of it, newest first. MemoryFileError."""
        ...

    def commits(self) -> tuple[Commit, ...]:
        """The commits of its agent's own repository touching it (Codex's memories;
        none for the others)."""
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
        """Make it hold one of its versions again (a recorded change; a deleted file
        comes back). `expected_sha256`: only if it holds that content now (an undo).
        `count_as_write`: the write is one use of a mux file (False: a removal taken back,
        its usage what its deletion kept — none if it had none; Trust's Combine taken back).
        SaveConflictError, UnkeptChangeError, MemoryFileError."""
        ...

    def in_store(self, store: MemoryStore | None) -> MemoryFile | None:
        """This file as seen once the window shows `store`'s workspace instead: itself
        when that changes nothing (another agent's file, the same workspace), None when
        it is not there any more (a mux file of another workspace)."""
        ...

    def remove_created(
        self, expected_sha256: str, *, created_folders: int = 0, allow_unkept: bool = False
    ) -> None:
        """Take back a file Memtab created (a copy, a restore that brought it back):
        remove it only while it holds `expected_sha256` (a recorded change), then the
        `created_folders` innermost folders made for it, each only while empty (mux's
        scopes keep theirs). SaveConflictError (changed or gone, nothing removed),
        UnkeptChangeError, MemoryFileError."""
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
    """A file of one of a workspace's three scopes (or of an orphaned project dir),
    through its store. Two are equal when they name the same file of the same
    workspace of the same home."""

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
        """Why the file takes no save: its workspace was removed in xum (a stat; asked on
        the editor's worker, docs/formats.md §21.3)."""
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
            saved = self.store.save(
                self.path,
                content,
                expected_sha256,
                allow_unkept=allow_unkept,
                count_as_write=count_as_write,
            )
            return saved.sha256

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
        """`store.restore.from_history.restore` (a deleted file may come back beside a newer one
        of the same name), or — `expected_sha256` — the version's content in place, only
        over that content."""
        path = self.path
        with store_errors(), self.store.collecting_changes() as changes:
            if expected_sha256 is not None:
                version = find_version(self.store, path, version_id)
                data = None if version.deleted else content_of(self.store.home, version)
                self.store.restore_content(
                    self.path,
                    data,
                    expected_sha256=expected_sha256,
                    op="restore" if data is not None else "delete",
                    restored_from=version.id if data is not None else None,
                    allow_unkept=allow_unkept,
                    count_as_write=count_as_write,
                )
                restored_path = self.path
            else:
                result = restore(
                    self.store,
                    path,
                    version_id,
                    allow_unkept=allow_unkept,
                    count_as_write=count_as_write,
                )
                restored_path = parse_file_path(result.path)
                if result.unchanged:
                    sha = result.version.sha256
                    return Restored(MuxFile(self.store, restored_path), None, sha, unchanged=True)
        change = next((c for c in reversed(changes) if c.after.op in ("restore", "delete")), None)
        if change is None:  # history is not kept here: say what is known
            data = self.store.read_whole(restored_path)
            return Restored(MuxFile(self.store, restored_path), None, sha256_of(data or b""))
        before = change.before
        return Restored(
            MuxFile(self.store, restored_path),
            before,
            change.after.sha256,
            created=before is None or before.deleted,
        )

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
