"""Memory files as `memtab list --json` and the MCP `list` show them."""

from __future__ import annotations

from memtab.fs.records import Record
from memtab.store.conflict_copies import find_copies
from memtab.store.files import ScopeListing
from memtab.store.scopes.scope_store import ScopeStore
from memtab.store.xum_notes import adopted_child


class FileRow(Record, write_only=True):
    """A memory file as `memtab list --json` and MCP `list` show it (docs/formats.md §22.2)."""

    path: str
    scope: str
    description: str | None
    pinned: bool = False
    access_count: int = 0
    last_accessed_at: int | None = None
    size_bytes: int
    modified_at: int | None
    conflict_of: str | None = None
    """The original a file-sync tool's conflict copy is of (docs/formats.md §18.5)."""
    not_editable: str | None = None
    adopted_from: str | None = None
    """The sub-agent's old notebook xum adopted it from (docs/formats.md §2.5)."""


def file_rows(listings: list[ScopeListing], store: ScopeStore) -> list[FileRow]:
    """One row per listed file, in the listings' order."""
    entries = store.meta_entries()
    rows = []
    for listing in listings:
        copies = find_copies(file.path for file in listing.files)
        for file in listing.files:
            meta = entries.get(store.meta_key(file.path))
            copy = copies.get(file.path)
            rows.append(
                FileRow(
                    path=str(file.path),
                    scope=listing.scope.value,
                    description=file.description,
                    pinned=bool(meta and meta.pinned),
                    access_count=meta.access_count if meta else 0,
                    last_accessed_at=meta.last_accessed_at if meta else None,
                    size_bytes=file.size_bytes,
                    modified_at=file.modified_at_ms,
                    conflict_of=str(copy.original) if copy else None,
                    not_editable=file.not_editable_reason,
                    adopted_from=adopted_child(file.path),
                )
            )
    return rows
