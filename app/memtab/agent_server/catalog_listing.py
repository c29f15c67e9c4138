"""What the catalog lists before it answers: every file a session's search may find, from a
stat walk alone (docs/formats.md §22.11).

A search needs a file's place and stamp (size, mtime, ctime, inode) to know whether the
index holds it as it is: `list_files` walks the store's scopes by the listing's rules
(`store.files.stat_scope`) and opens no file; the description a result shows comes from
the index, which read it with the file's text. Other agents' sources are listed whole
(their listing gives their rows). What the watch of the scope roots reports
(`WatchedChanges`) is re-stat'ed file by file (`restat`); everything is listed again when
it reports a folder that came, went or moved (what it holds brings no event of its own
when it moved in), more files than `MAX_REPORTED_FILES`, or the kernel's queue of events
overflowing (the events lost).

A file modified within the racy margin of the walk (docs/formats.md §15.4) gets no stamp:
a write right after it could keep the same mtime, so it is read again every time.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

from watchdog.events import (
    EVENT_TYPE_ATTRIB,
    EVENT_TYPE_CLOSED_NO_WRITE,
    EVENT_TYPE_OPENED,
    DirCreatedEvent,
    DirDeletedEvent,
    DirModifiedEvent,
    DirMovedEvent,
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)

from memtab.search_index.documents import IndexedFile, Stamp
from memtab.sources.codex.imports import link_imports
from memtab.sources.config import SourceContext
from memtab.sources.discovery import discover, is_shown
from memtab.sources.listing import list_source, source_file_row
from memtab.sources.model import Source
from memtab.store import description_cache
from memtab.store.files import MAX_FILE_BYTES, read_description, stat_listed_file, stat_scope
from memtab.store.paths import SCOPE_ORDER, Scope, VirtualPath, too_deep_words
from memtab.store.scopes.file_rows import FileRow
from memtab.store.scopes.memory import MemoryStore


class Listed(NamedTuple):
    """A file a search may find: the root it is listed under (a scope root's path, a
    source's id), the scope a result names, where it is, whether `view` may read its text
    (not over the cap; the index checks the rest), its stamp (None: read every time),
    whether it is read through a link another agent's layout allows, its row when its
    listing gave one (other agents' files), and its stat as walked (the store's files:
    `list`'s rows are described from it, with no walk of their own). A tuple: 20,000 are
    made per listing (a frozen dataclass takes five times as long)."""

    root: str
    scope: str
    physical: str
    readable: bool
    stamp: Stamp | None
    linked: bool = False
    row: FileRow | None = None
    info: os.stat_result | None = None

    def indexed(self, key: str) -> IndexedFile:
        """The file as the index takes it: labelled by its path and description (a store
        file's description read only if the index reads the file)."""
        physical = self.physical if self.readable else None
        if self.row is not None:
            label = f"{key}\n{self.row.description or ''}"
            return IndexedFile(self.root, key, label, physical, self.stamp, self.linked)
        where = self.physical

        def labelled() -> str:
            return f"{key}\n{read_description(where)}"

        return IndexedFile(self.root, key, "", physical, self.stamp, labelled=labelled)


class Listing(NamedTuple):
    """Every file listed, by key (virtual path or source file id; the store's scopes first,
    in `SCOPE_ORDER`), what the walk left out (for answers to say), every root listed
    (each available scope root, listed files or not, and each source's id), and each
    root's files' stamps by key (what `SearchIndex.stale_by_root` compares)."""

    files: dict[str, Listed]
    notes: tuple[str, ...]
    roots: tuple[str, ...]
    stamps: dict[str, dict[str, Stamp | None]]


def kept_sources(
    sources: Callable[[], SourceContext] | None, keep: Callable[[Source], bool] | None
) -> list[Source]:
    """The other agents' sources found that the session reads (none without `sources`):
    a session reads its project's, not every one."""
    if sources is None:
        return []
    return [source for source in discover(sources()).sources if keep is None or keep(source)]


def list_files(store: MemoryStore, kept: list[Source]) -> Listing:
    """Stat every file of the store's available scopes and list the `kept` sources."""
    racy_after_ns = time.time_ns() - description_cache.RACY_MARGIN_NS
    files: dict[str, Listed] = {}
    notes: list[str] = []
    roots: list[str] = []
    stamps: dict[str, dict[str, Stamp | None]] = {}
    new = tuple.__new__  # a Listed made without its Python-level __new__
    for scope, root in scope_roots(store).items():
        walked = stat_scope(scope, Path(root))
        prefix, name, base = scope.virtual_root + "/", scope.value, root + os.sep
        stamped = stamps.setdefault(root, {})
        for relative, info in walked.files.items():  # the hot loop: 20,000 files, no call
            mtime_ns, ctime_ns = info.st_mtime_ns, info.st_ctime_ns
            racy = mtime_ns >= racy_after_ns or ctime_ns >= racy_after_ns
            size = info.st_size
            stamp = None if racy else (size, mtime_ns, ctime_ns, info.st_ino)
            key = prefix + relative
            stamped[key] = stamp
            files[key] = new(
                Listed,
                (root, name, base + relative, size <= MAX_FILE_BYTES, stamp, False, None, info),
            )
        notes += [f"Not listed or searched: {too_deep_words(path)}" for path in walked.too_deep]
        roots.append(root)
    if kept:
        listings = [shown for s in kept if is_shown(shown := list_source(s))]
        links = link_imports(listings)  # Codex's copies of Claude Code memory, both ways
        for listing in listings:
            roots.append(listing.source.id)
            stamped = stamps.setdefault(listing.source.id, {})
            for source_file in listing.files:
                # Sources are stamped by their listing's size and time alone.
                stamp = (source_file.size_bytes, source_file.modified_at_ms, 0, 0)
                stamped[source_file.id] = stamp
                files[source_file.id] = Listed(
                    source_file.source_id,
                    source_file.source_id,
                    os.fspath(source_file.physical),
                    source_file.size_bytes <= MAX_FILE_BYTES,
                    stamp,
                    source_file.linked,
                    source_file_row(source_file, links),
                )
    return Listing(files, tuple(notes), tuple(dict.fromkeys(roots)), stamps)


def scope_roots(store: MemoryStore) -> dict[Scope, str]:
    """The store's available scopes and their roots' paths, in `SCOPE_ORDER`."""
    return {
        scope: os.fspath(store.root(scope))
        for scope in SCOPE_ORDER
        if not store.unavailable_reason(scope)
    }


def folder_came_or_went(files: dict[str, Listed], path: VirtualPath) -> bool:
    """Whether a write at `path` (no file listed there) made or removed a folder: a folder
    was listed there, or none is listed where it goes (no file beside it below its scope's
    root)."""
    inside, beside = f"{path}/", f"{path.parent}/"
    near = len(path.segments) == 1
    for key in files:
        if key.startswith(inside):
            return True
        near = near or key.startswith(beside)
    return not near


def in_scope(value: str, scope: str | None) -> bool:
    """A file is in `scope` when its scope is it, or its agent is (`claude-code` covers
    `claude-code:user` and every project of Claude Code's)."""
    return scope is None or value == scope or value.split(":", 1)[0] == scope


class NeedsListingError(Exception):
    """What a watch reported needs a listing of everything (a folder came, went or moved)."""


def restat(roots: dict[Scope, str], paths: Iterable[str]) -> tuple[dict[str, Listed], set[str]]:
    """The store files at `paths` (absolute, under `roots`) as they are now: listed again,
    and the keys of those no longer listed. NeedsListingError when one is a folder or a
    scope's root."""
    racy_after_ns = time.time_ns() - description_cache.RACY_MARGIN_NS
    listed: dict[str, Listed] = {}
    gone: set[str] = set()
    for path in paths:
        for scope, root in roots.items():
            if path == root:
                raise NeedsListingError(path)
            if not path.startswith(root + os.sep):
                continue
            segments = tuple(path[len(root) + 1 :].split(os.sep))
            key = f"{scope.virtual_root}/{'/'.join(segments)}"
            try:
                info = stat_listed_file(root, segments)
            except IsADirectoryError:
                raise NeedsListingError(path) from None
            if info is None:
                gone.add(key)
                listed.pop(key, None)
            else:
                listed[key] = _listed(root, scope, path, info, racy_after_ns)
                gone.discard(key)
            break
    return listed, gone


def _listed(
    root: str, scope: Scope, physical: str, info: os.stat_result, racy_after_ns: int
) -> Listed:
    racy = max(info.st_mtime_ns, info.st_ctime_ns) >= racy_after_ns
    stamp = None if racy else (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
    return Listed(
        root, scope.value, physical, info.st_size <= MAX_FILE_BYTES, stamp, False, None, info
    )


# More files than this in one report: listing everything again costs less than one
# stat each with its folders checked.
MAX_REPORTED_FILES = 1000
_NOT_CHANGES = frozenset({EVENT_TYPE_OPENED, EVENT_TYPE_CLOSED_NO_WRITE, EVENT_TYPE_ATTRIB})
# What the watch asks the kernel for: changes only. Every read of a watched file (the
# catalog's own, for snippets and indexing) would otherwise wake the watcher, and an
# event in its hands when it stops makes watchdog log an ERROR for a normal close.
CHANGES = [
    FileCreatedEvent,
    DirCreatedEvent,
    FileModifiedEvent,
    DirModifiedEvent,
    FileDeletedEvent,
    DirDeletedEvent,
    FileMovedEvent,
    DirMovedEvent,
    FileClosedEvent,
]
# watchdog tells an overflow of the kernel's queue only in its log, at WARNING.
_OVERFLOW_LOGGER = "watchdog.observers.inotify_c"
_OVERFLOW_WORDS = "Inotify queue overflowed"


class WatchedChanges(FileSystemEventHandler):
    """Observer thread: a file's change adds its path, a folder's (or an overflow) asks
    for everything; opening, reading and attributes are no change (indexing a file just
    written updates its atime). `reported` is set while anything waits to be taken."""

    def __init__(self) -> None:
        super().__init__()
        self.reported = threading.Event()
        self._lock = threading.Lock()
        self._paths: set[str] = set()
        self._everything = False
        _LISTENING.add(self)

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in _NOT_CHANGES:
            return
        if event.is_directory:
            if isinstance(event, DirModifiedEvent):
                return  # its files' own events say what changed in it
            self.everything()
            return
        with self._lock:
            self._paths.add(os.fsdecode(event.src_path))
            if event.dest_path:
                self._paths.add(os.fsdecode(event.dest_path))
            if len(self._paths) > MAX_REPORTED_FILES:
                self._everything = True
            self.reported.set()

    def report(self, paths: list[str]) -> None:
        """Report files changed as the watch would (none: nothing reported)."""
        if not paths:
            return
        with self._lock:
            self._paths.update(paths)
            if len(self._paths) > MAX_REPORTED_FILES:
                self._everything = True
            self.reported.set()

    def everything(self) -> None:
        """Have the next call list everything again."""
        with self._lock:
            self._everything = True
            self.reported.set()

    def take(self) -> tuple[set[str], bool]:
        """The paths reported since the last take, and whether everything must be listed
        again (then the paths do not matter)."""
        with self._lock:
            paths, everything = self._paths, self._everything
            self._paths, self._everything = set(), False
            self.reported.clear()
        return paths, everything


_LISTENING: weakref.WeakSet[WatchedChanges] = weakref.WeakSet()


class _OverflowFilter(logging.Filter):
    """Tells every watch's changes that events were lost (lets the record through)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().startswith(_OVERFLOW_WORDS):
            for changes in list(_LISTENING):
                changes.everything()
        return True


logging.getLogger(_OVERFLOW_LOGGER).addFilter(_OverflowFilter())
