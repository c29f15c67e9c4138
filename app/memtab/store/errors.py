"""Why a store operation could not be done: one exception per reason, in mux's words where mux has
them."""

from __future__ import annotations

from typing import Literal

from memtab.store.files import MAX_FILE_BYTES, MAX_FILES_PER_SCOPE
from memtab.store.paths import Scope, VirtualPath


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


class ToolArgumentError(Exception):
    """A memory-tool call whose arguments are missing or of the wrong type."""


class ScopeBusyError(MemoryStoreError):
    """Another process held the scope's lock for longer than an edit takes."""


class ChangedDuringEditError(MemoryStoreError):
    """Another program kept changing the file while an edit was being made."""


class HistoryUnavailableError(MemoryStoreError):
    """History cannot keep a copy right now; `cause` says why, in words."""

    def __init__(self, cause: str) -> None:
        super().__init__(f"history cannot keep a copy ({cause})")
        self.cause = cause


class UnkeptChangeError(MemoryStoreError):
    """A change that would destroy content history cannot keep: refused, nothing changed
    (docs/formats.md §14.2); the caller may ask, then pass `allow_unkept=True`. `label`, `done` and
    `cause` say the file, the change and why."""

    def __init__(self, label: str, done: str, cause: str) -> None:
        super().__init__(
            f"{label} was not {done}: history cannot keep a copy of what it holds ({cause})"
        )
        self.label, self.done, self.cause = label, done, cause


ConflictKind = Literal["exists", "missing", "changed"]


class SaveConflictError(MemoryStoreError):
    """A save refused because the file on disk is not what the editor loaded."""

    def __init__(self, kind: ConflictKind, message: str) -> None:
        super().__init__(message)
        self.kind: ConflictKind = kind


def file_cap_message(size: int) -> str:
    """Refusing to write `size` bytes (mux's wording)."""
    return (
        f"Memory files are limited to {MAX_FILE_BYTES} bytes (got {size}); "
        "split the content into smaller files"
    )


def scope_full_error(scope: Scope) -> CapError:
    """Refusing one more file in a scope at `MAX_FILES_PER_SCOPE` (docs/formats.md §4.3)."""
    full = f"({MAX_FILES_PER_SCOPE} files); delete unused files first"
    return CapError(f"The {scope.value} memory scope is full {full}")


def over_cap_message(path: VirtualPath) -> str:
    """Refusing to read or edit a file found over the cap on disk (mux's wording)."""
    return (
        f"{path} exceeds the {MAX_FILE_BYTES}-byte memory file cap (likely edited outside "
        "Xum, bypassing write caps); shrink or delete it"
    )


def not_text_message(label: str) -> str:
    """Refusing to edit a binary file; `label` names it (a virtual path, a file id)."""
    return f"{label} is not a text file (it contains NUL bytes)"
