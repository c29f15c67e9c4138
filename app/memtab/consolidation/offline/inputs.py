"""What the offline consolidator plans over, read as data from the store. The model-driven
consolidator learns the store through the memory tool's `view`; the offline one does not parse that
text (a change to `view`'s format must not change what consolidation does)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from memtab.store.conflict_copies import find_copies
from memtab.store.files import MAX_FILE_BYTES, FileContent, FileEntry
from memtab.store.paths import SHARED_SCOPES, PathError, Scope, VirtualPath
from memtab.store.scopes.memory import MemoryStore, MemoryStoreError

logger = logging.getLogger(__name__)

MARKDOWN_SUFFIX = ".md"
NOT_MARKDOWN = "not a Markdown memory file"
OVER_CAP = f"larger than the {MAX_FILE_BYTES:,}-byte cap"
BINARY = "not a text file"
UNREADABLE = "cannot be read"


@dataclass(frozen=True)
class MemoryFile:
    """One memory file as the planner sees it. `lines` is the text split on newlines (without the
    final newline), or None when the file is left alone (`skipped` says why)."""

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
    """A memory file as the store reads it, or None when it holds more than the cap. The store never
    reads past the 100 KiB cap, refuses symlinks and hard links, and resolves the path inside its
    scope root. Raises OSError, MemoryStoreError or PathError when the file cannot be read."""
    content = store.read(path)
    return None if content.over_cap else content


def read_all_capped(
    store: MemoryStore, paths: Iterable[VirtualPath]
) -> Iterator[tuple[VirtualPath, FileContent | Exception | None]]:
    """`read_capped` of many files at once: each with its content, None when over the
    cap, or the error that kept it from being read."""
    for path, content in store.read_many(paths):
        if isinstance(content, FileContent) and content.over_cap:
            yield path, None
        else:
            yield path, content


def split_lines(text: str) -> tuple[str, ...]:
    """A file's lines as an editor shows them: split on newlines, the final one dropped."""
    if not text:
        return ()
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return tuple(lines)


def collect_memory_files(
    store: MemoryStore, scopes: Sequence[Scope] = SHARED_SCOPES
) -> list[MemoryFile]:
    """Every file of the workspace's scopes (or of `scopes`: a run of one scope alone),
    Markdown ones with their content."""
    entries = store.meta_entries()
    listed: dict[VirtualPath, MemoryFile] = {}  # in listing order, content still to read
    wanted: list[VirtualPath] = []
    for listing in store.list_all(read_files=False, scopes=scopes):  # read next
        copies = find_copies(entry.path for entry in listing.files)
        for entry in listing.files:
            scope = entry.path.scope
            if scope is None or entry.path in copies:
                continue  # a file-sync tool's conflict copy waits for the user
            meta = entries.get(store.meta_key(entry.path))
            pinned, uses = bool(meta and meta.pinned), meta.access_count if meta else 0
            skipped = _left_alone_as_listed(entry)
            listed[entry.path] = MemoryFile(
                str(entry.path), scope, None, entry.size_bytes, pinned, uses, skipped=skipped
            )
            if skipped is None:
                wanted.append(entry.path)
    for path, content in read_all_capped(store, wanted):  # each text dropped once split
        file = listed[path]
        reason = _left_alone_as_read(file.path, content)
        if reason is not None or not isinstance(content, FileContent):
            listed[path] = replace(file, skipped=reason)
        else:  # (built whole, not `replace`d: this runs for every file of a big home)
            listed[path] = MemoryFile(
                file.path,
                file.scope,
                split_lines(content.content),
                content.size_bytes,
                file.pinned,
                file.uses,
                content.sha256,
            )
    return list(listed.values())


def _left_alone_as_listed(entry: FileEntry) -> str | None:
    """Why a listed file is not read at all, or None."""
    if not is_markdown(entry.path.name):
        return NOT_MARKDOWN
    if entry.over_cap:
        return OVER_CAP
    if entry.binary:
        return BINARY
    return None


def _left_alone_as_read(path: str, content: FileContent | Exception | None) -> str | None:
    """Why a file read is left alone after all, or None."""
    if isinstance(content, Exception):
        logger.info("offline consolidator leaves %s alone: %s", path, content)
        return UNREADABLE
    if content is None:
        return OVER_CAP  # it grew past the cap since it was listed
    if content.binary:
        return BINARY
    return None


def current_sha256(store: MemoryStore, path: VirtualPath) -> str | None:
    """The sha256 of a file as it is now (None when missing, unreadable or over the cap)."""
    try:
        content = read_capped(store, path)
    except (OSError, MemoryStoreError, PathError):
        return None
    return None if content is None else content.sha256
