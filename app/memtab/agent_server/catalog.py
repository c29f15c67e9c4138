"""What the MCP server's `list` and `search` see: the workspace's memory files (mux's three
scopes, through the store) and the other agents' memory Memtab found (`memtab.sources`).

The listing is re-read at most every `REFRESH_S` seconds (and at once after a write this
server made, `invalidate`): a model searching twice in a row gets the second answer from
memory, and a change made outside shows within that time (docs/formats.md §22.3). A file
over `MAX_INDEXED_BYTES`, binary, or that its listing could not read is found by its path
and description only.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from memtab.agent_server.ranked_search import Document, RankedIndex, best_line
from memtab.sources.config import SourceContext
from memtab.sources.discovery import scan
from memtab.sources.listing import file_json
from memtab.store.file_rows import file_rows
from memtab.store.files import MAX_FILE_BYTES
from memtab.store.memory import MemoryStore

logger = logging.getLogger(__name__)

REFRESH_S = 2.0
MAX_INDEXED_BYTES = 4 * MAX_FILE_BYTES
DEFAULT_LIMIT = 10
MAX_LIMIT = 100


@dataclass(frozen=True, slots=True)
class _Entry:
    """A listed file: its row (as `list` shows it) and where its text is (None: unread)."""

    row: dict[str, Any]
    physical: str | None


class MemoryCatalog:
    """The files one store and the other agents' sources hold, listed and indexed."""

    def __init__(
        self,
        store: MemoryStore,
        *,
        sources: Callable[[], SourceContext] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self._sources = sources
        self._clock = clock
        self._entries: dict[str, _Entry] = {}
        self._listed_at: float | None = None
        self._index = RankedIndex()

    def invalidate(self) -> None:
        """Re-list on the next call (this server changed a file)."""
        self._listed_at = None

    def rows(self, *, scope: str | None = None) -> list[dict[str, Any]]:
        """Every file (in `scope`, when given), as `memtab list --json` shows it (other
        agents' files with their own fields)."""
        self._refresh()
        return [
            entry.row
            for entry in self._entries.values()
            if scope is None or _in_scope(entry.row, scope)
        ]

    def search(self, query: str, *, scope: str | None, limit: int) -> list[dict[str, Any]]:
        """The files best matching `query`, best first: path, scope, score and the line
        that holds most of its words (`line` None when only the name or description did)."""
        self._refresh()
        among = None
        if scope:
            among = {key for key, entry in self._entries.items() if _in_scope(entry.row, scope)}
        results = []
        for hit in self._index.search(query, limit=limit, among=among):
            entry = self._entries[hit.id]
            found = best_line(self._text(entry.physical), query)
            results.append(
                {
                    "path": hit.id,
                    "scope": entry.row["scope"],
                    "description": entry.row["description"],
                    "score": round(hit.score, 3),
                    "line": found[0] if found else None,
                    "snippet": found[1] if found else None,
                }
            )
        return results

    def _refresh(self) -> None:
        now = self._clock()
        if self._listed_at is not None and now - self._listed_at < REFRESH_S:
            return
        self._entries = self._list()
        documents = (
            Document(key, f"{key}\n{entry.row['description']}", _stamp(entry.row))
            for key, entry in self._entries.items()
        )
        read = self._index.update(documents, lambda key: self._text(self._entries[key].physical))
        self._listed_at = self._clock()
        logger.debug("catalog: %d files, %d (re)indexed", len(self._entries), read)

    def _list(self) -> dict[str, _Entry]:
        entries: dict[str, _Entry] = {}
        listings = self.store.list_all()
        # file_rows keeps the listings' order: each row is its listed file's.
        files = [
            (os.fspath(self.store.root(listing.scope)), file)
            for listing in listings
            for file in listing.files
        ]
        for (root, file), row in zip(files, file_rows(listings, self.store), strict=True):
            readable = not file.binary and file.size_bytes <= MAX_INDEXED_BYTES
            physical = os.path.join(root, *file.path.segments) if readable else None
            entries[row["path"]] = _Entry(row, physical)
        if self._sources is not None:
            _, source_listings = scan(self._sources())
            for listing in source_listings:
                for source_file in listing.files:
                    readable = source_file.size_bytes <= MAX_INDEXED_BYTES
                    physical = os.fspath(source_file.physical) if readable else None
                    entries[source_file.id] = _Entry(file_json(source_file), physical)
        return entries

    @staticmethod
    def _text(physical: str | None) -> str:
        if physical is None:
            return ""
        try:
            with open(physical, "rb") as handle:
                data = handle.read(MAX_INDEXED_BYTES + 1)
        except OSError:
            return ""
        if len(data) > MAX_INDEXED_BYTES or b"\0" in data:
            return ""
        return data.decode("utf-8", "replace")


def _stamp(row: dict[str, Any]) -> tuple[int, int]:
    return int(row["sizeBytes"]), int(row["modifiedAt"] or 0)


def _in_scope(row: dict[str, Any], scope: str) -> bool:
    """A row is in `scope` when its scope is it, or its agent is (`claude-code` covers
    `claude-code:user` and every project of Claude Code's)."""
    value = str(row["scope"])
    return value == scope or value.split(":", 1)[0] == scope
