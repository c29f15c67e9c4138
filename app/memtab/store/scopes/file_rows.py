"""Memory files as `memtab list --json` and the MCP server's `list` show them: one JSON
row per file with its path, scope, description, pin, usage, size and age."""

from __future__ import annotations

from typing import Any

from memtab.store.conflict_copies import find_copies
from memtab.store.files import ScopeListing
from memtab.store.scopes.scope_store import ScopeStore
from memtab.store.xum_notes import adopted_child, is_checkpoint


def file_rows(listings: list[ScopeListing], store: ScopeStore) -> list[dict[str, Any]]:
    """One row per listed file, as `memtab list --json` prints it (a stable contract)."""
    entries = store.meta_entries()
    rows = []
    for listing in listings:
        copies = find_copies(file.path for file in listing.files)
        for file in listing.files:
            meta = entries.get(store.meta_key(file.path))
            copy = copies.get(file.path)
            rows.append(
                {
                    "path": str(file.path),
                    "scope": listing.scope.value,
                    "description": file.description,
                    "pinned": bool(meta and meta.pinned),
                    "accessCount": meta.access_count if meta else 0,
                    "lastAccessedAt": meta.last_accessed_at if meta else None,
                    "sizeBytes": file.size_bytes,
                    "modifiedAt": file.modified_at_ms,
                    # A file-sync tool's conflict copy names its original (docs/formats.md §18.5).
                    "conflictOf": str(copy.original) if copy else None,
                    "notEditable": file.not_editable_reason,
                    # xum adopted it from a sub-agent's old notebook (docs/formats.md §2.5).
                    "adoptedFrom": adopted_child(file.path),
                    # An agent's rollover checkpoint, which xum rewrites (§2.5).
                    "checkpoint": is_checkpoint(file.path),
                }
            )
    return rows
