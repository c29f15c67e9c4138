"""What the offline consolidator plans over, read as data from the store.

The model-driven consolidator learns the store through the memory tool's `view`; the
offline one does not parse that text (a change to `view`'s format must not change what
consolidation does). It lists the three scopes through the store, takes pins and usage
from memory-meta.json, and reads each Markdown file — at most the 100 KiB cap, never a
byte more — through `read_capped`, the one place it reads file content (the store's
capped, symlink-confined read).

Only Markdown memory files (`.md`) are read and planned over. Everything else (JSON
sidecars an agent keeps, images, over-cap or binary files, symlinks the listing skips) is
listed as left alone, with the reason, and never changed.

Reading here does not count as usage: memory-meta.json's access counts say how often
agents read a file, and a consolidation run reading every file would flatten them.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from memtab.store.files import MAX_FILE_BYTES, FileContent, FileEntry
from memtab.store.memory import MemoryStore, MemoryStoreError
from memtab.store.paths import PathError, Scope, VirtualPath

logger = logging.getLogger(__name__)

MARKDOWN_SUFFIX = ".md"
NOT_MARKDOWN = "not a Markdown memory file"
OVER_CAP = f"larger than the {MAX_FILE_BYTES:,}-byte cap"
BINARY = "not a text file"
UNREADABLE = "cannot be read"


@dataclass(frozen=True)
class MemoryFile:
    """One memory file as the planner sees it.

    `lines` is the text split on newlines (without the final newline), or None when the
    file is left alone (`skipped` says why). `sha256` is that of the bytes read, so a
    change made on disk after the snapshot can be noticed before the file is touched.
    """

    path: str
    scope: Scope
    lines: tuple[str, ...] | None
    size: int = 0
    pinned: bool = False
    uses: int = 0
    sha256: str = ""
    skipped: str | None = None

    @property
    def readable(self) -> bool:
        return self.lines is not None

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


def is_markdown(name: str) -> bool:
    return name.lower().endswith(MARKDOWN_SUFFIX)


def read_capped(store: MemoryStore, path: VirtualPath) -> FileContent | None:
    """A memory file as the store reads it, or None when it holds more than the cap.

    The store never reads past the 100 KiB cap, refuses symlinks and hard links, and
    resolves the path inside its scope root. Raises OSError, MemoryStoreError or
    PathError when the file cannot be read.
    """
    content = store.read(str(path))
    return None if content.over_cap else content


def split_lines(text: str) -> tuple[str, ...]:
    """A file's lines as an editor shows them: split on newlines, the final one dropped."""
    if not text:
        return ()
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return tuple(lines)


def collect_memory_files(store: MemoryStore) -> list[MemoryFile]:
    """Every file of the workspace's scopes, Markdown ones with their content."""
    entries = store.meta_entries()
    files: list[MemoryFile] = []
    for listing in store.list_all():
        for entry in listing.files:
            scope = entry.path.scope
            if scope is None:
                continue
            meta = entries.get(store.meta_key(entry.path))
            files.append(
                _file(
                    store,
                    entry,
                    scope,
                    pinned=bool(meta and meta.pinned),
                    uses=meta.access_count if meta else 0,
                )
            )
    return files


def _file(
    store: MemoryStore, entry: FileEntry, scope: Scope, *, pinned: bool, uses: int
) -> MemoryFile:
    path = str(entry.path)

    def skipped(reason: str) -> MemoryFile:
        return MemoryFile(path, scope, None, entry.size_bytes, pinned, uses, skipped=reason)

    if not is_markdown(entry.path.name):
        return skipped(NOT_MARKDOWN)
    if entry.over_cap:
        return skipped(OVER_CAP)
    if entry.binary:
        return skipped(BINARY)
    try:
        content = read_capped(store, entry.path)
    except (OSError, MemoryStoreError, PathError) as error:
        logger.info("offline consolidator leaves %s alone: %s", path, error)
        return skipped(UNREADABLE)
    if content is None:
        return skipped(OVER_CAP)  # it grew past the cap since it was listed
    if content.binary:
        return skipped(BINARY)
    return MemoryFile(
        path,
        scope,
        split_lines(content.content),
        content.size_bytes,
        pinned,
        uses,
        sha256=content.sha256,
    )


def current_sha256(store: MemoryStore, path: VirtualPath) -> str | None:
    """The sha256 of a file as it is now (None when missing, unreadable or over the cap)."""
    try:
        content = read_capped(store, path)
    except (OSError, MemoryStoreError, PathError):
        return None
    return None if content is None else content.sha256
