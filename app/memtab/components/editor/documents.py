"""What the editor opens: a mux memory file or another agent's file, read and saved alike.

The editor (`gui.editor.editor`) works on a `Document`: it reads the file as a
`FileContent` (text and the sha guarding the next save) and saves the buffer against
that sha. `MuxDocument` goes through the workspace's `MemoryStore` (history recorded,
scope locks); `SourceDocument` through `memtab.sources.content` (the same sha-checked
save, under a lock per file, only for files the source's layout marks writable). Both
raise the store's `SaveConflictError` when the disk no longer holds what was loaded,
`DocumentMissingError` when the file is gone, `DocumentUnkeptError` when the save would
destroy content history cannot keep (`save(..., allow_unkept=True)`: the user chose to
save without a copy) and `DocumentError` (one line) otherwise, so the editor's rules
(`components.editor.session`) need not know which kind it has.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from memtab.components.tree.tree import file_key
from memtab.humanize import display_path
from memtab.store.errors import SaveConflictError, UnkeptChangeError
from memtab.store.files import FileContent
from memtab.store.memory import MemoryStore, MemoryStoreError, NotFoundError
from memtab.store.paths import PathError, VirtualPath

if TYPE_CHECKING:  # loaded with the first file of another agent opened
    from memtab.sources.model import Source, SourceFile
    from memtab.sources.versions import SourceVersions

logger = logging.getLogger(__name__)

__all__ = [
    "Document",
    "DocumentError",
    "DocumentMissingError",
    "DocumentUnkeptError",
    "MuxDocument",
    "SaveConflictError",
    "SourceDocument",
]


class DocumentError(Exception):
    """The file cannot be read or saved; the message is one line for the user."""


class DocumentMissingError(DocumentError):
    """The file is not on disk (deleted or moved away)."""


class DocumentUnkeptError(DocumentError):
    """Not saved: history cannot keep a copy of what the save would replace."""


class Document(Protocol):
    """One file the editor can show (see the module docstring)."""

    @property
    def key(self) -> str:
        """The file's row in the tree."""
        ...

    @property
    def title(self) -> str:
        """How the editor's header names it (a virtual path or a file id)."""
        ...

    @property
    def name(self) -> str: ...

    @property
    def read_only_reason(self) -> str | None:
        """Why it never opens for editing (who writes it), or None."""
        ...

    @property
    def note(self) -> str | None:
        """Something to say when it opens (e.g. over an agent's load limit), or None."""
        ...

    def physical(self) -> Path | None:
        """Where it is on disk (None when that cannot be said)."""
        ...

    def read(self) -> FileContent:
        """What is on disk now. DocumentMissingError, DocumentError."""
        ...

    def save(self, content: str, expected_sha256: str | None, *, allow_unkept: bool = False) -> str:
        """Write `content` if the disk holds `expected_sha256` (None: nothing yet);
        returns the sha written. SaveConflictError, DocumentUnkeptError (unless
        `allow_unkept`), DocumentError."""
        ...


@dataclass(frozen=True)
class MuxDocument:
    """A file of one of the workspace's three scopes, through its store."""

    store: MemoryStore
    path: VirtualPath

    @property
    def key(self) -> str:
        return file_key(self.path)

    @property
    def title(self) -> str:
        return str(self.path)

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def read_only_reason(self) -> str | None:
        return None

    @property
    def note(self) -> str | None:
        return None

    def physical(self) -> Path | None:
        try:
            return self.store.physical(self.path)
        except (MemoryStoreError, PathError, OSError):
            return None

    def read(self) -> FileContent:
        try:
            return self.store.read(str(self.path))
        except NotFoundError as error:
            raise DocumentMissingError(str(error)) from None
        except (MemoryStoreError, PathError) as error:
            raise DocumentError(str(error)) from None

    def save(self, content: str, expected_sha256: str | None, *, allow_unkept: bool = False) -> str:
        try:
            path = str(self.path)
            return self.store.save(path, content, expected_sha256, allow_unkept=allow_unkept).sha256
        except SaveConflictError:
            raise
        except UnkeptChangeError as error:
            raise DocumentUnkeptError(str(error)) from None
        except (MemoryStoreError, PathError, OSError) as error:
            raise DocumentError(str(error)) from None


@dataclass(frozen=True)
class SourceDocument:
    """A file of another agent's source (Claude Code, Codex, loki-mode)."""

    source: Source
    file: SourceFile
    history: SourceVersions | None = None
    """Where a save is recorded (the window's home; None: not recorded)."""

    @property
    def key(self) -> str:
        from memtab.components.sources.tree import source_file_key

        return source_file_key(self.file.id)

    @property
    def title(self) -> str:
        # Where the file really is, as its agent and the user know it (the id is for the CLI).
        return display_path(self.file.physical)

    @property
    def name(self) -> str:
        return self.file.name

    @property
    def read_only_reason(self) -> str | None:
        return self.file.read_only_reason

    @property
    def note(self) -> str | None:
        return self.file.warning

    def physical(self) -> Path | None:
        return self.file.physical

    def read(self) -> FileContent:
        from memtab.sources.content import read_source_file
        from memtab.sources.model import SourceError

        try:
            shown = read_source_file(self.source, self.file)
        except SourceError as error:
            if not os.path.lexists(self.file.physical):
                raise DocumentMissingError(f"{self.file.id} is not on disk") from None
            raise DocumentError(str(error)) from None
        return FileContent(shown.text, shown.sha256, shown.size_bytes, shown.binary, shown.over_cap)

    def save(self, content: str, expected_sha256: str | None, *, allow_unkept: bool = False) -> str:
        from memtab.sources.content import save_source_file
        from memtab.sources.model import SourceError

        try:
            return save_source_file(
                self.source,
                self.file,
                content,
                expected_sha256,
                history=self.history,
                allow_unkept=allow_unkept,
            )
        except SaveConflictError:
            raise
        except UnkeptChangeError as error:
            raise DocumentUnkeptError(str(error)) from None
        except (SourceError, MemoryStoreError, OSError) as error:
            raise DocumentError(str(error)) from None
