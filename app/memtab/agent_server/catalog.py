"""What the MCP server's `list` and `search` see: the session's memory files (mux's scopes,
through the store) and the other agents' memory Memtab found (`memtab.sources`) that the
session reads (`keep`).

A search needs no file's row: the first call lists the files by their names and inodes
(`catalog_listing.list_presumed`), brings the home's search index on disk up to date by the
files' stamps (`memtab.search_index`: only the files changed since any Memtab last indexed
them are read) and answers from it on the call's own thread; then, in the background once
the answer is on its way out (`ANSWER_OUT_S`), it watches the scope roots (watchdog) and
walks them once more, every file stat'ed (what changed before the watch began, and what was
written over in place while none ran; a call meanwhile waits for it). A later call re-stats
and re-indexes only the files the watch reported (`catalog_listing.WatchedChanges`), and
lists everything again when it reported a folder, too many files or lost events, or when
nothing watches (every call), so a file changed or deleted outside is answered as it is
now. The other agents' sources are not watched: a call stats their files and folders
(`SourceProbe`) and lists everything again first when one changed; a re-listing every
`FULL_RELIST_S` finds them anew, in the background (docs/formats.md §22.3, §22.11). The
files this server wrote are re-stat'ed before the next answer, as the watch's are
(`invalidate`). `list`'s full rows are built when it asks (`rows`). Indexing what no index
holds yet takes at most `INDEXING_BUDGET_S` of a call: the rest goes on in the background,
and answers say how many files are not searched yet. A file `view` refuses is found by its
path and description only, never snippeted (`search_index.documents.readable_text`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated

from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver

from memtab.agent_server.catalog_listing import (
    Folder,
    Listed,
    ListedFiles,
    Listing,
    NeedsListingError,
    SourceProbe,
    WatchedChanges,
    confirm_answer,
    folder_came_or_went,
    folder_identity,
    in_scope,
    kept_sources,
    list_files,
    list_presumed,
    missing_home_words,
    restat,
    scope_roots,
    stop_observer,
    watch_lost,
)
from memtab.fs.records import OmitEmpty, OmitNone, Record
from memtab.humanize import plural
from memtab.search_index.documents import IndexedFile
from memtab.search_index.index import Ahead, Hit, Rows, SearchIndex
from memtab.search_index.ranking import best_line
from memtab.sources.config import SourceContext
from memtab.sources.listing import SourceFileRow
from memtab.sources.model import Source
from memtab.store.description_cache import DescriptionCache, KnownEntry, KnownFiles
from memtab.store.files import FileEntry, ScopeListing, described_file
from memtab.store.paths import PathError, Scope, VirtualPath, parse_virtual_path
from memtab.store.scopes.file_rows import FileRow, file_rows
from memtab.store.scopes.memory import MemoryStore
from memtab.watch.observers import CHANGE_EVENTS, watching_any_depth

logger = logging.getLogger(__name__)

# How long a call may spend indexing files no index holds yet before it answers, at most,
# and what the call aims at with the walk before it (the commit and the search after it
# take the rest of a second: an answer within 1 s, issue 73, a busy machine's walk too).
INDEXING_BUDGET_S = 0.5
ANSWER_WITHIN_S = 0.7
# How long the background work waits after the first answer is made: its way out (the
# SDK's serialization, the write) would share the interpreter with a walk.
ANSWER_OUT_S = 0.3
FULL_RELIST_S = 30.0
DEFAULT_LIMIT = 10
MAX_LIMIT = 100


class SearchHit(Record, write_only=True):
    """A file `search` found (docs/formats.md §22.2): its path, scope and description, its
    score, and the line that holds most of the query's words (None: only the name or the
    description did); Codex's copy of a Claude Code memory file, what it is (`imported`:
    the project's cwd) and its original (`importedFrom`), and an original, the copies found
    with it (`importedAs`, `pages.imports.fold_copies`)."""

    path: str
    scope: str
    description: str | None
    score: float
    line: int | None
    snippet: str | None
    imported_from: Annotated[str | None, OmitNone] = None
    imported_as: Annotated[tuple[str, ...], OmitEmpty] = ()
    imported: Annotated[str | None, OmitNone] = None


class MemoryCatalog:
    """The files one store and the other agents' sources hold, listed and indexed.

    Thread-safe: calls come from the server's loop, re-listings and the watch's start from
    background threads; `_lock` guards the listing and the index, `_listing` keeps one."""

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
        self._files = ListedFiles({})
        self._notes: tuple[str, ...] = ()
        self._listed_at: float | None = None
        self._index: SearchIndex | None = None  # opened by the first listing
        self._generation = 0  # the index's as the last listing indexed it
        self._roots: dict[str, str] = {}  # each root listed: the scope its files are in
        self._scope_roots: dict[Scope, str] = {}
        self._indexing: threading.Thread | None = None
        self._unindexed = 0  # files left to the background indexing
        self._closing = threading.Event()
        # Set once a call has its answer: the background work (watching, the rest of the
        # indexing) starts `ANSWER_OUT_S` after, not while the first answer is made or on
        # its way out (`_after_answer`).
        self._answered = threading.Event()
        self._lock = threading.Lock()
        self._listing = threading.Lock()
        self._rows: tuple[object, list[FileRow]] | None = None  # the full rows, of a listing
        self._known: dict[str, dict[str, KnownEntry]] | None = None  # per root, as last seen
        self._observer: BaseObserver | None = None
        self._watched: dict[str, Folder | None] | None = None  # each root's, as watched
        self._watching: threading.Thread | None = None
        # The listing presumed files as the index holds them (a first search's): the walk
        # after the watch began stats them all.
        self._presumed = False
        self._threads: list[threading.Thread] = []  # every background thread started
        self._changes = WatchedChanges()
        self._changed = self._changes.reported  # a watched root reported a change
        self._probe: SourceProbe | None = None  # the other agents' files, as last listed

    def close(self) -> None:
        """Stop watching and indexing (the server ends); a racing call fails on the index."""
        self._closing.set()  # the indexing stops after its commit
        self._answered.set()
        with self._lock:  # none starts once closing is set (`_start`)
            threads = list(self._threads)
        for thread in threads:
            thread.join()
        with self._lock:
            observer, self._observer = self._observer, None
        if observer is not None:
            stop_observer(observer)
        if self._index is not None:
            self._index.close()

    def invalidate(self, paths: Sequence[str] = ()) -> None:
        """This server changed the files at `paths` (virtual paths; a rename's both): re-stat
        them before the next answer; list everything when none is given, or a folder came
        or went with them."""
        written = self._written(paths)
        if written is None:
            self._listed_at = None
        else:
            self._changes.report(written)

    def _written(self, paths: Sequence[str]) -> list[str] | None:
        """Where the files at `paths` are on disk (the listed scopes'); None: list all."""
        if not paths:
            return None
        with self._lock:
            files, roots = self._files, self._scope_roots
        written: list[str] = []
        for raw in paths:
            try:
                path = parse_virtual_path(raw)
            except PathError:
                continue  # refused by the tool: nothing written there
            if path.scope is None or not path.segments:
                return None
            root = roots.get(path.scope)
            if root is None:
                continue  # a scope not listed
            if str(path) not in files and folder_came_or_went(files, path):
                return None
            written.append(os.path.join(root, *path.segments))
        return written

    def notes(self) -> tuple[str, ...]:
        """What the listing left out and why, for an answer to say (a home that is no
        folder, §22.1; folders too deep, docs/formats.md §5; files not indexed yet, §22.11)."""
        notes = self._notes
        if (missing := missing_home_words(self.store.home.root)) is not None:
            notes = (missing, *notes)
        if self._index is not None and self._index.problem:
            notes += (f"Searched without the index on disk: {self._index.problem}; the files "
                      "are read into memory instead, slower to start",)  # fmt: skip
        if unindexed := self._unindexed:
            notes += (
                f"Still indexing: {plural(unindexed, 'file')} not searched yet (the first "
                "search of this home); search again in a moment for all of them",
            )
        return notes

    def wait_until_indexed(self, timeout_s: float) -> bool:
        """Whether every file is searched, after waiting at most `timeout_s` for a first
        search's background indexing (`memtab search` answers from every file)."""
        if (indexing := self._indexing) is not None:
            indexing.join(timeout_s)
        return not self._unindexed

    def rows(self, *, scope: str | None = None) -> list[FileRow]:
        """Every file (in `scope`, when given), as `memtab list --json` shows it: the full
        rows, built from a listing of their own when the files changed since the last were
        (every file stat'ed: a first search presumed some as the index holds them)."""
        if self._files.presumed:
            self._listed_at = None
        self._fresh()
        with self._listing:
            files = self._files
            if self._rows is None or self._rows[0] is not files:
                self._rows = (files, self._full_rows(files))
            rows = self._rows[1]
        self._answered.set()
        return [row for row in rows if scope is None or in_scope(row.scope, scope)]

    def search(self, query: str, *, scope: str | None, limit: int) -> list[SearchHit]:
        """The files best matching `query`, best first: path, scope, score and the line
        that holds most of its words (`line` None when only the name or description did);
        listed, indexed and searched again when the index started again under the search
        (found damaged or gone: rebuilt, empty), never that empty index's answer."""
        for _ in range(3):
            ranked = self._fresh(_Query(query, scope, limit))
            with self._lock:
                files, roots, index = self._files, self._roots, self._index
            assert index is not None  # opened by the first listing
            if ranked is None:
                within = [root for root, of in roots.items() if in_scope(of, scope)]
                ranked = self._searched(index, files, query, within, limit)
            if index.generation == self._generation:
                break
        assert ranked is not None  # the loop ran
        results = []
        for hit in ranked:
            listed = files.get(hit.id)
            if listed is None:
                continue  # indexed by another process since this listing
            # The listing's description, as the index read it with the text.
            description: str | None = hit.label.partition("\n")[2]
            if listed.row is not None:
                description = listed.row.description
            row = listed.row if isinstance(listed.row, SourceFileRow) else None
            found = best_line(hit.text, query)
            results.append(
                SearchHit(
                    path=hit.id,
                    scope=listed.scope,
                    description=description,
                    score=round(hit.score, 3),
                    line=found[0] if found else None,
                    snippet=found[1] if found else None,
                    imported_from=row.imported_from if row is not None else None,
                    imported=row.imported if row is not None else None,
                )
            )
        self._answered.set()
        return results

    def _searched(
        self, index: SearchIndex, files: ListedFiles, query: str, within: list[str], limit: int
    ) -> list[Hit]:
        """The index's answer, the presumed files it names stat'ed (again when one changed)."""
        ranked = index.search(query, within, limit=limit)
        for _ in range(3):
            if not self._presumed or not confirm_answer(files, index, [h.id for h in ranked]):
                break
            ranked = index.search(query, within, limit=limit)
        return ranked

    def _fresh(self, query: _Query | None = None) -> list[Hit] | None:
        """List now when nothing (or a change of ours, a folder a watched root reported,
        another agent's file) is listed, or nothing watches; re-stat what a watch reported;
        list in the background when merely old (during a first indexing: answer from it).
        The answer to `query` when a listing now found the index as the files are."""
        if self._closing.is_set():  # a call racing the server's end lists nothing again
            raise CatalogClosedError
        if self._indexing is not None and self._indexing.is_alive():
            return None
        watching = self._watching
        if self._presumed and self._observer is not None and watching is not None:
            watching.join()  # its walk stats what the first listing presumed: reported first
        lost = watching is not None and not watching.is_alive()
        if lost and watch_lost(self._watched, self._observer):
            self._rewatch()  # a root's folder went or came: the old watch sees nothing
        if self._index is not None and self._index.generation != self._generation:
            self._listed_at = None  # the index was started again: every file indexed anew
        if (probe := self._probe) is not None and probe.changed(self._clock()):
            self._changes.everything()  # another agent's file changed: listed again first
        listed_at = self._listed_at
        if listed_at is None or self._changed.is_set() or self._observer is None:
            with self._listing:
                if self._listed_at is None or (
                    self._observer is None and self._listed_at == listed_at
                ):
                    return self._relist(query)
                if self._changed.is_set():
                    self._apply_changes()
            return None
        stale = self._clock() - listed_at >= FULL_RELIST_S
        if not stale or not self._background:
            return None
        relisting = self._listing.acquire(blocking=False)  # released by the re-listing
        if relisting and self._start(self._relist_in_background, "memtab-mcp-listing") is None:
            self._listing.release()
        return None

    def _start(
        self, target: Callable[..., None], name: str, *args: object
    ) -> threading.Thread | None:
        """`target(*args)` on a thread, unless closing (None); started and kept under `_lock`
        as `close` reads them: it joins every thread started, never one not yet started."""
        with self._lock:
            if self._closing.is_set():
                return None
            thread = threading.Thread(target=target, args=args, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)
            return thread

    def _relist_in_background(self) -> None:
        try:
            self._relist()
        except Exception:  # the next call tries again; this one's answer stands
            logger.exception("catalog: re-listing failed")
        finally:
            self._listing.release()

    def _relist(self, query: _Query | None = None, attempt: int = 0) -> list[Hit] | None:
        """List by a stat walk, then index what changed (the caller holds `_listing`).
        With a `query`, the index answers it in one read with its rows,
        after the walk: the answer stands (returned) when the rows are the listing's."""
        started = self._clock()
        self._changes.take()
        if self._index is None:
            self._index = SearchIndex.of_home(self.store.home.root)
        index = self._index
        self._generation = index.generation
        kept = kept_sources(self._sources, self._keep)
        folders = SourceProbe.folders_before(kept, self._probe)
        by_scope = scope_roots(self.store)
        # The roots a listing lists, each with the scope its files are in (a source's: its id).
        guessed = {root: scope.value for scope, root in by_scope.items()}
        guessed.update((source.id, source.id) for source in kept)
        # A fresh server's first search: the walk with every stat after the watch begins
        # follows (none without the background: `memtab search` stats every file).
        presumed = query is not None and not self._files and self._background
        if presumed:
            assert query is not None
            listing, ahead = _presumed(self.store, kept, index, query, guessed)
        else:
            listing = list_files(self.store, kept)
            ahead = None if query is None else _search_ahead(index, query, guessed, listing.roots)
        files = listing.files
        stale, gone = index.stale_by_root(
            listing.stamps, held=ahead.rows if ahead is not None else None
        )
        answered = ahead.hits if ahead is not None and not stale and not gone else None
        # In the listing's order (scopes, then paths): a budget indexes the first ones.
        order = {root: place for place, root in enumerate(listing.roots)}
        keys = sorted((order[root], key) for root, key in stale if key in files)
        changed = [files.indexed(key) for _, key in keys]
        budget_s = min(INDEXING_BUDGET_S, max(0.0, ANSWER_WITHIN_S - (self._clock() - started)))
        refreshed = index.update(changed, gone, budget_s=budget_s)
        if index.generation != self._generation:  # started again: index every file
            return self._relist(query, attempt + 1) if attempt < 2 else None
        with self._lock:
            self._files = files
            self._presumed = presumed
            self._notes = listing.notes
            self._roots = {root: guessed.get(root, root) for root in listing.roots}
            self._scope_roots = by_scope
            self._unindexed = refreshed.pending
            self._probe = SourceProbe.after(listing, kept, folders)
        self._listed_at = started
        logger.debug("catalog: %d files, %d (re)indexed", len(files), refreshed.read)
        if refreshed.pending:
            rest = changed[len(changed) - refreshed.pending :]
            self._indexing = self._start(self._index_the_rest, "memtab-mcp-indexing", index, rest)
        if self._watching is None and self._background:
            self._watching = self._start(self._start_watching, "memtab-mcp-watch")
        return answered

    def _apply_changes(self) -> None:
        """Re-stat and re-index only the files the watch reported (the caller holds
        `_listing`); list everything again when it reported a folder, too many files, or
        lost track."""
        paths, everything = self._changes.take()
        if everything:
            self._relist()
            return
        try:
            listed, gone = restat(self._scope_roots, paths)
        except NeedsListingError:
            self._relist()
            return
        index = self._index
        assert index is not None  # opened by the first listing
        stale = index.stale({(file.root, key): file.stamp for key, file in listed.items()})
        changed = [file.indexed(key) for key, file in listed.items() if (file.root, key) in stale]
        files = self._files
        out = [(files[key].root, key) for key in gone if key in files]
        index.update(changed, out)
        if index.generation != self._generation:  # started again: index every file
            self._relist()
            return
        with self._lock:
            self._files = files.changed(listed, gone)
        logger.debug("catalog: %d files re-stat'ed, %d (re)indexed", len(paths), len(changed))

    def _start_watching(self) -> None:
        """Background, after the first answer: watch the scope roots, then walk them once
        more and report what changed between the first walk and the watch (and what was
        too recent to trust, and what a first search presumed and was written over in
        place) as the watch would; take the rows of roots no longer on disk out of the
        index."""
        self._after_answer()
        try:
            observer = self._watch()
            if observer is not None:
                if not self._kept(observer):
                    return
                # Changed, new, gone, or too recent to trust (racy): re-stat'ed next call.
                self._changes.report(self._files.differing(list_files(self.store, [])))
                self._presumed = False  # what it presumed is stat'ed and reported
            index = self._index
            if index is not None and not self._closing.is_set():
                index.forget_missing_roots()
        except Exception:  # unwatched: every call lists again
            logger.exception("catalog: watching failed")

    def _after_answer(self) -> None:
        """Background: wait for the first answer, then for its way out (at once when the
        catalog closes)."""
        self._answered.wait()
        self._closing.wait(ANSWER_OUT_S)

    def _index_the_rest(self, index: SearchIndex, files: list[IndexedFile]) -> None:
        """Background: index what the first call's budget left, then have the next call
        list again (what changed meanwhile)."""
        self._after_answer()
        try:
            index.update(files, (), stop=self._closing)
        except Exception:  # the next listing tries again
            logger.exception("catalog: indexing failed")
        self._unindexed = 0
        self._changes.everything()

    def _watch(self) -> BaseObserver | None:
        """An observer of the available scope roots that exist (recursively), started;
        None when it cannot start (others are re-listed by age)."""
        roots = list(scope_roots(self.store).values())
        self._watched = {root: folder_identity(root) for root in roots}  # `watch_lost`
        observer = Observer()
        observer.daemon = True
        try:
            with watching_any_depth(*roots):
                for root in roots:
                    if os.path.isdir(root):
                        observer.schedule(
                            self._changes, root, recursive=True, event_filter=CHANGE_EVENTS
                        )
                observer.start()
        except OSError as error:  # out of inotify watches, a tree too deep: re-listed by age
            logger.info("catalog: not watching the scopes (%s)", error)
            with contextlib.suppress(Exception):
                observer.stop()
            return None
        return observer

    def _rewatch(self) -> None:
        """Watch the scope roots as they are now, the dead watch stopped (in the
        background), and list everything again before answering."""
        with self._lock:
            dead, self._observer = self._observer, None
        if dead is not None:
            self._start(stop_observer, "memtab-mcp-unwatch", dead)
        self._kept(self._watch())
        self._listed_at = None

    def _kept(self, observer: BaseObserver | None) -> bool:
        """`observer` kept as the catalog's watch, unless it closed meanwhile (then
        stopped): whether it was."""
        with self._lock:
            if not self._closing.is_set():
                self._observer = observer
                return True
        if observer is not None:
            stop_observer(observer)
        return False

    def _full_rows(self, files: ListedFiles) -> list[FileRow]:
        """Every file's row: the store's files described (`_store_listings`), the sources'."""
        rows = file_rows(self._store_listings(files), self.store)
        return rows + [file.row for file in files.values() if file.row is not None]

    def _store_listings(self, files: ListedFiles) -> list[ScopeListing]:
        """The store's scopes as `list_scope` lists them, from the files as listed (their
        stat as walked or re-stat'ed: no walk again), each file read only if its stat
        changed since it was last read (the first time recalls the home's description
        cache, the window's and the last server's, and saves what it read: the next
        server reads none)."""
        cache = DescriptionCache.of_home(self.store.home.root) if self._known is None else None
        with self._lock:
            roots = self._scope_roots
        by_scope: dict[str, list[tuple[str, Listed]]] = {scope.value: [] for scope in roots}
        for key, file in files.items():
            if file.row is None and file.info is not None and file.scope in by_scope:
                by_scope[file.scope].append((key, file))
        known_now: dict[str, dict[str, KnownEntry]] = {}
        listings: list[ScopeListing] = []
        for scope, root in roots.items():
            known = cache.for_root(self.store.root(scope)) if cache is not None else None
            if known is None:
                known = KnownFiles((self._known or {}).get(root, {}))
            skip = len(scope.virtual_root) + 1
            entries: list[FileEntry] = []
            for key, file in sorted(by_scope[scope.value]):
                assert file.info is not None  # kept above
                path = VirtualPath(scope, tuple(key[skip:].split("/")))
                if (entry := described_file(file.physical, path, file.info, known)) is not None:
                    entries.append(entry)
            listings.append(ScopeListing(scope, tuple(entries)))
            known_now[root] = known.seen
        self._known = known_now
        if cache is not None:
            cache.save()
        return listings


@dataclass(frozen=True, slots=True)
class _Query:
    """A search to answer: its words, the scope it is limited to, how many results."""

    text: str
    scope: str | None
    limit: int


def _presumed(
    store: MemoryStore, kept: list[Source], index: SearchIndex, query: _Query, roots: dict[str, str]
) -> tuple[Listing, Ahead | None]:
    """A fresh server's first listing, by names alone (`list_presumed`): the answer read
    with the manifests it is compared with, each file it answers with stat'ed."""
    ahead: list[Ahead | None] = [None]

    def held_for(listed: tuple[str, ...]) -> Mapping[str, Rows] | None:
        ahead[0] = _search_ahead(index, query, roots, listed)
        return ahead[0].rows if ahead[0] is not None else None

    listing = list_presumed(store, kept, held_for)
    if ahead[0] is not None:
        listing.files.confirm(hit.id for hit in ahead[0].hits)
    return listing, ahead[0]


def _search_ahead(
    index: SearchIndex, query: _Query, roots: dict[str, str], listed: tuple[str, ...]
) -> Ahead | None:
    """The index's answer to `query` and its rows, read at one moment once the files are
    listed, when the roots listed are the ones expected (None otherwise, or when the read
    failed: the search after the listing answers then). On the call's own thread: beside
    a walk, a thread reading row after row hands the interpreter back and forth with it at
    every `lstat` (the two took longer together than one after the other)."""
    if set(listed) != set(roots):
        return None
    within = [root for root, scope in roots.items() if in_scope(scope, query.scope)]
    try:
        return index.search_ahead(query.text, roots, limit=query.limit, within=within)
    except Exception:  # the search after the listing answers instead
        logger.exception("catalog: searching ahead failed")
        return None


class CatalogClosedError(Exception):
    """The catalog is closed or closing (its server ends): it answers no call."""
