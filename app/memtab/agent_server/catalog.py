"""What the MCP server's `list` and `search` see: the session's memory files (mux's scopes,
through the store) and the other agents' memory Memtab found (`memtab.sources`) that the
session reads (`keep`).

The first call lists everything, brings the home's search index on disk up to date
(`memtab.search_index`: only the files changed since any Memtab last indexed them are
read) and starts watching the scope roots (watchdog). A later call lists again first when
a watched root reported a change (or, unwatched, every call), so a file changed or
deleted outside is answered as it is now; every `FULL_RELIST_S` a re-listing also re-reads
the other agents' sources, in the background (docs/formats.md §22.3, §22.11). A change
this server made is listed again at once, before the next answer (`invalidate`). A
re-listing reads only the files whose stat changed: their descriptions are remembered per
root (`store.description_cache.KnownFiles`, first loaded from the home's cache, which the
first listing saves too), their
texts by the index's stamps. Indexing what no index holds yet takes at most
`INDEXING_BUDGET_S` of a call: the rest goes on in the background, and answers say how
many files are not searched yet. A file's text is what `view` would show of it (by the
one readability rule): a file over the cap, binary, with other hard links, or no longer
a regular file is found by its path and description only, never snippeted.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

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
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver

from memtab.fs.records import Record
from memtab.search_index.index import IndexedFile, SearchIndex, Stamp
from memtab.search_index.postings import Document, Postings
from memtab.search_index.ranking import best_line
from memtab.sources.config import SourceContext
from memtab.sources.discovery import discover, is_shown
from memtab.sources.listing import list_source, source_file_row
from memtab.sources.model import Source
from memtab.store.description_cache import DescriptionCache, KnownFiles
from memtab.store.files import MAX_FILE_BYTES, ScopeListing, list_scope
from memtab.store.paths import SCOPE_ORDER, too_deep_words
from memtab.store.scopes.file_rows import FileRow, file_rows
from memtab.store.scopes.memory import MemoryStore
from memtab.watch.observers import watching_any_depth

logger = logging.getLogger(__name__)

# How long a call may spend indexing files no index holds yet before it answers.
INDEXING_BUDGET_S = 2.0
_NOT_CHANGES = frozenset({EVENT_TYPE_OPENED, EVENT_TYPE_CLOSED_NO_WRITE, EVENT_TYPE_ATTRIB})
# What the watch asks the kernel for: changes only. Every read of a watched file (the
# catalog's own, for snippets and indexing) would otherwise wake the watcher, and an
# event in its hands when it stops makes watchdog log an ERROR for a normal close.
_CHANGES = [
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
FULL_RELIST_S = 30.0
DEFAULT_LIMIT = 10
MAX_LIMIT = 100


@dataclass(frozen=True, slots=True)
class _Entry:
    """A listed file: its row (as `list` shows it), the root it was listed under, where
    its text is (None: unread; `linked`: a link another agent's layout lets Memtab read
    through) and its stamp (None: not to be trusted, `search_index.IndexedFile`)."""

    row: FileRow
    root: str
    physical: str | None
    stamp: Stamp | None
    linked: bool = False


class SearchHit(Record, write_only=True):
    """A file `search` found (docs/formats.md §22.2): its path, scope and description, its
    score, and the line that holds most of the query's words (None: only the name or the
    description did)."""

    path: str
    scope: str
    description: str | None
    score: float
    line: int | None
    snippet: str | None


class MemoryCatalog:
    """The files one store and the other agents' sources hold, listed and indexed.

    Thread-safe: calls come from the server's loop, re-listings from one background
    thread; `_lock` guards the entries and the index, `_listing` keeps one listing at a
    time."""

    def __init__(
        self,
        store: MemoryStore,
        *,
        sources: Callable[[], SourceContext] | None = None,
        keep: Callable[[Source], bool] | None = None,
        clock: Callable[[], float] = time.monotonic,
        background: bool = True,
    ) -> None:
        self.store = store
        self._sources = sources
        self._keep = keep
        self._clock = clock
        self._background = background
        self._entries: dict[str, _Entry] = {}
        self._notes: tuple[str, ...] = ()
        self._listed_at: float | None = None
        self._index: SearchIndex | None = None  # opened by the first listing
        self._roots: tuple[str, ...] = ()
        self._indexing: threading.Thread | None = None
        self._unindexed = 0  # files left to the background indexing
        self._closing = threading.Event()
        self._postings: Postings | None = None  # the warm ranking, once filled
        self._warming: threading.Thread | None = None
        self._lock = threading.Lock()
        self._listing = threading.Lock()
        self._known: dict[str, dict[str, object]] | None = None  # per root, as last seen
        self._observer: BaseObserver | None = None
        self._changed = threading.Event()  # a watched root reported a change

    def close(self) -> None:
        """Stop watching and indexing (the server ends)."""
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=2)
            self._observer = None
        self._closing.set()  # the indexing stops after its transaction, the postings at once
        for thread in (self._indexing, self._warming):
            if thread is not None:
                thread.join()
        if self._index is not None:
            self._index.close()
            self._index = None

    def invalidate(self) -> None:
        """List again before the next answer (this server changed a file)."""
        self._listed_at = None

    @property
    def warm(self) -> bool:
        """Whether calls rank in memory (the postings are filled) rather than in the file."""
        return self._postings is not None

    def notes(self) -> tuple[str, ...]:
        """What the listing left out and why (folders past the depth memory paths go to,
        docs/formats.md §5; files not indexed yet, §22.11), for an answer to say."""
        unindexed = self._unindexed
        if not unindexed:
            return self._notes
        words = (
            f"Still indexing: {unindexed} file{'s' if unindexed != 1 else ''} not searched "
            "yet (the first search of this home); search again in a moment for all of them"
        )
        return (*self._notes, words)

    def rows(self, *, scope: str | None = None) -> list[FileRow]:
        """Every file (in `scope`, when given), as `memtab list --json` shows it (other
        agents' files with their own fields)."""
        self._fresh()
        with self._lock:
            entries = list(self._entries.values())
        return [entry.row for entry in entries if scope is None or _in_scope(entry.row, scope)]

    def search(self, query: str, *, scope: str | None, limit: int) -> list[SearchHit]:
        """The files best matching `query`, best first: path, scope, score and the line
        that holds most of its words (`line` None when only the name or description did)."""
        self._fresh()
        with self._lock:
            among = None
            if scope:
                among = {k for k, entry in self._entries.items() if _in_scope(entry.row, scope)}
            entries, roots, index = self._entries, self._roots, self._index
            ranked = None
            if self._postings is not None:
                ranked = self._postings.search(query, limit=limit, among=among)
        assert index is not None  # opened by the first listing
        if ranked is None:
            ranked = index.search(query, roots, limit=limit, among=among)
        hits = [
            (hit, entries[hit.id])
            for hit in ranked
            if hit.id in entries  # indexed by another process since this listing
        ]
        results = []
        for hit, entry in hits:
            found = best_line(index.text(entry.root, hit.id), query)
            results.append(
                SearchHit(
                    path=hit.id,
                    scope=entry.row.scope,
                    description=entry.row.description,
                    score=round(hit.score, 3),
                    line=found[0] if found else None,
                    snippet=found[1] if found else None,
                )
            )
        return results

    def _fresh(self) -> None:
        """List now when nothing (or a change of ours, or one a watched root reported) is
        listed, or when nothing watches; in the background when the listing is merely old.
        While the first indexing goes on in the background, answer from what it did."""
        if self._indexing is not None and self._indexing.is_alive():
            return
        listed_at = self._listed_at
        if listed_at is None or self._changed.is_set() or self._observer is None:
            with self._listing:
                if (
                    self._listed_at is None
                    or self._changed.is_set()
                    or (self._observer is None and self._listed_at == listed_at)
                ):
                    self._relist()
            return
        stale = self._clock() - listed_at >= FULL_RELIST_S
        if not stale or not self._background:
            return
        if self._listing.acquire(blocking=False):
            thread = threading.Thread(
                target=self._relist_in_background, name="memtab-mcp-listing", daemon=True
            )
            thread.start()

    def _relist_in_background(self) -> None:
        try:
            self._relist()
        except Exception:  # the next call tries again; this one's answer stands
            logger.exception("catalog: re-listing failed")
        finally:
            self._listing.release()

    def _relist(self) -> None:
        """List, then index what changed (the caller holds `_listing`)."""
        started = self._clock()
        self._changed.clear()
        entries, notes = self._list()
        files = [
            IndexedFile(
                entry.root,
                key,
                f"{key}\n{entry.row.description}",
                entry.physical,
                entry.stamp,
                entry.linked,
            )
            for key, entry in entries.items()
        ]
        roots = tuple(dict.fromkeys(entry.root for entry in entries.values()))
        if self._index is None:
            self._index = SearchIndex.of_home(self.store.home.root)
        index = self._index
        refreshed = index.refresh(files, roots, budget_s=INDEXING_BUDGET_S)
        with self._lock:
            self._entries = entries
            self._notes = notes
            self._roots = roots
            self._unindexed = refreshed.pending
            if self._postings is not None:
                self._postings.update(_documents(entries), _text_of(index, entries))
        if not refreshed.pending:
            self._start_warming(index)
        self._listed_at = started
        logger.debug("catalog: %d files, %d (re)indexed", len(entries), refreshed.read)
        if refreshed.pending:
            self._indexing = threading.Thread(
                target=self._index_the_rest,
                args=(self._index, files, roots),
                name="memtab-mcp-indexing",
                daemon=True,
            )
            self._indexing.start()
        if self._observer is None and self._background:
            self._watch()

    def _start_warming(self, index: SearchIndex) -> None:
        """Fill the postings in the background, once everything is indexed."""
        with self._lock:  # the indexing's thread and a listing may both get here
            if self._warming is None and self._background and not self._closing.is_set():
                self._warming = threading.Thread(
                    target=self._warm, args=(index,), name="memtab-mcp-postings", daemon=True
                )
                self._warming.start()

    def _warm(self, index: SearchIndex) -> None:
        """Background: fill the postings warm calls rank by, from the texts the index holds
        (no file is read), then bring them to the latest listing."""
        postings = Postings()
        entries = self._entries
        try:
            postings.update(_documents(entries), _text_of(index, entries, self._closing))
            with self._lock:
                if self._entries is not entries:
                    entries = self._entries
                    postings.update(_documents(entries), _text_of(index, entries))
                self._postings = postings
        except _ClosingError:
            return

    def _index_the_rest(
        self, index: SearchIndex, files: list[IndexedFile], roots: tuple[str, ...]
    ) -> None:
        """Background: index what the first call's budget left, then have the next call
        list again (what changed meanwhile)."""
        try:
            refreshed = index.refresh(files, roots, stop=self._closing)
        except Exception:  # the next listing tries again
            logger.exception("catalog: indexing failed")
        else:
            if not refreshed.pending:
                self._start_warming(index)
        self._unindexed = 0
        self._changed.set()

    def _watch(self) -> None:
        """Watch the available scope roots that exist (recursively); others are re-listed
        by age."""
        roots = [
            self.store.root(scope)
            for scope in SCOPE_ORDER
            if not self.store.unavailable_reason(scope)
        ]
        observer = Observer()
        observer.daemon = True
        handler = _ChangeFlag(self._changed)
        try:
            with watching_any_depth(*roots):
                for root in roots:
                    if root.is_dir():
                        observer.schedule(
                            handler, os.fspath(root), recursive=True, event_filter=_CHANGES
                        )
                observer.start()
        except OSError as error:  # out of inotify watches, a tree too deep: re-listed by age
            logger.info("catalog: not watching the scopes (%s)", error)
            with contextlib.suppress(Exception):
                observer.stop()
            return
        self._observer = observer

    def _list(self) -> tuple[dict[str, _Entry], tuple[str, ...]]:
        entries: dict[str, _Entry] = {}
        listings, roots = self._store_listings()
        notes = [
            f"Not listed or searched: {too_deep_words(path)}"
            for listing in listings
            for path in listing.too_deep
        ]
        # file_rows keeps the listings' order: each row is its listed file's.
        files = [
            (roots[listing.scope.value], file) for listing in listings for file in listing.files
        ]
        known = self._known or {}
        for (root, file), row in zip(files, file_rows(listings, self.store), strict=True):
            readable = file.editable  # view refuses a binary or over-cap file
            physical = os.path.join(root, *file.path.segments) if readable else None
            seen = known.get(root, {}).get("/".join(file.path.segments))
            entries[row.path] = _Entry(row, root, physical, _stamp(seen))
        if self._sources is not None:
            # Only the sources kept are listed: a session reads its project's, not every one.
            found = discover(self._sources()).sources
            kept = [source for source in found if self._keep is None or self._keep(source)]
            source_listings = [shown for s in kept if is_shown(shown := list_source(s))]
            for listing in source_listings:
                for source_file in listing.files:
                    readable = source_file.size_bytes <= MAX_FILE_BYTES
                    physical = os.fspath(source_file.physical) if readable else None
                    row = source_file_row(source_file)
                    # Sources are stamped by their listing's size and time alone.
                    stamp = (source_file.size_bytes, source_file.modified_at_ms, 0, 0)
                    entries[source_file.id] = _Entry(
                        row, source_file.source_id, physical, stamp, source_file.linked
                    )
        return entries, tuple(notes)

    def _store_listings(self) -> tuple[list[ScopeListing], dict[str, str]]:
        """The store's scopes listed, each file read only if its stat changed since the
        last listing (the first one recalls the home's description cache, the window's
        and the last server's, and saves what it read: the next server reads none)."""
        cache = DescriptionCache.of_home(self.store.home.root) if self._known is None else None
        known_now: dict[str, dict[str, object]] = {}
        listings: list[ScopeListing] = []
        roots: dict[str, str] = {}
        for scope in SCOPE_ORDER:
            if self.store.unavailable_reason(scope):
                listings.append(ScopeListing(scope))
                continue
            root = self.store.root(scope)
            key = os.fspath(root)
            known = cache.for_root(root) if cache is not None else None
            if known is None:
                known = KnownFiles((self._known or {}).get(key, {}))
            listings.append(list_scope(scope, root, known=known))
            known_now[key] = known.seen
            roots[scope.value] = key
        self._known = known_now
        if cache is not None:
            cache.save()
        return listings, roots


class _ChangeFlag(FileSystemEventHandler):
    """Observer thread: a change of a file or folder sets the flag; opening, reading and
    attributes do not (indexing a file just written updates its atime)."""

    def __init__(self, flag: threading.Event) -> None:
        super().__init__()
        self._flag = flag

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type not in _NOT_CHANGES:
            self._flag.set()


class _ClosingError(Exception):
    """The catalog closes: the postings are not filled."""


def _documents(entries: dict[str, _Entry]) -> list[Document]:
    return [
        Document(key, f"{key}\n{entry.row.description}", entry.stamp)
        for key, entry in entries.items()
    ]


def _text_of(
    index: SearchIndex, entries: dict[str, _Entry], closing: threading.Event | None = None
) -> Callable[[str], str]:
    """How the postings read a file's text: from the index (_ClosingError once `closing` is set)."""

    def text(key: str) -> str:
        if closing is not None and closing.is_set():
            raise _ClosingError
        return index.text(entries[key].root, key)

    return text


def _stamp(seen: object) -> Stamp | None:
    """A store file's stamp, from what its listing remembered of it (`KnownFiles.seen`:
    size, mtime, ctime, inode first); None when it did not (changed too recently)."""
    if type(seen) is not list or len(seen) < 4:
        return None
    size, mtime_ns, ctime_ns, inode = seen[:4]
    return int(size), int(mtime_ns), int(ctime_ns), int(inode)


def _in_scope(row: FileRow, scope: str) -> bool:
    """A row is in `scope` when its scope is it, or its agent is (`claude-code` covers
    `claude-code:user` and every project of Claude Code's)."""
    value = row.scope
    return value == scope or value.split(":", 1)[0] == scope
