"""What the MCP server's `list` and `search` see: the session's memory files and the other agents'
it reads, listed by stat walk and searched on the home's index on disk, kept fresh by a watch of the
scope roots and a stat of the other agents' files each call (`SourceProbe`) (docs/formats.md §22.3,
§22.11); a first call indexes within `INDEXING_BUDGET_S`, the rest in the background."""

from __future__ import annotations

import contextlib
import gc
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
from memtab.sources.codex.imports import IMPORT_EXTENSION, link_imports, shown_once
from memtab.sources.config import SourceContext
from memtab.sources.listing import SourceFileRow, list_source
from memtab.sources.model import Discovery, Source, SourceFile
from memtab.store.description_cache import DescriptionCache, KnownEntry, KnownFiles
from memtab.store.files import FileEntry, ScopeListing, described_file
from memtab.store.paths import PathError, Scope, VirtualPath, parse_virtual_path
from memtab.store.scopes.file_rows import FileRow, file_rows
from memtab.store.scopes.memory import MemoryStore
from memtab.watch.observers import CHANGE_EVENTS, watching_any_depth


def fold_copies(hits: Sequence[SearchHit]) -> list[SearchHit]:
    """`hits` with each copy whose original is among them folded into it, in order."""
    original_of = {hit.path: hit.imported_from for hit in hits if hit.imported_from}
    folded = shown_once((hit.path for hit in hits), original_of)
    if not folded:
        return list(hits)
    copies: dict[str, tuple[str, ...]] = {}
    for hit in hits:
        if hit.path in folded:
            copies[folded[hit.path]] = (*copies.get(folded[hit.path], ()), hit.path)
    return [
        hit.replaced(imported_as=copies[hit.path]) if hit.path in copies else hit
        for hit in hits
        if hit.path not in folded
    ]


def copy_words(
    discovery: Discovery, source: Source, file: SourceFile, serves: Callable[[Source], bool]
) -> str | None:
    """What `view` says after Codex's copy of a Claude Code memory: its original among the sources
    served (None: no copy)."""
    if source.agent != "codex" or f"/{IMPORT_EXTENSION}/" not in f"/{file.relative}":
        return None
    claude = [s for s in discovery.sources if s.agent == "claude-code" and serves(s)]
    links = link_imports([list_source(s) for s in (source, *claude)])
    label = links.labels.get(file.id)
    if label is None:
        return None
    original = links.original_of.get(file.id)
    where = (
        f"its original, the file to edit, is {original}"
        if original is not None
        else "its original is not in the memory this session serves"
    )
    return f"({file.id} is Codex's copy of a Claude Code memory file, {label}: {where})"


logger = logging.getLogger(__name__)

# How long a call may index files no index holds yet before it answers (an answer within 1 s).
INDEXING_BUDGET_S = 0.5
ANSWER_WITHIN_S = 0.7
# How long background work waits after the first answer: its way out would share the interpreter.
ANSWER_OUT_S = 0.3
FULL_RELIST_S = 30.0
# A re-listing by age shares the interpreter with the calls (230–260 ms of CPU on 20,000 files, the
# searches under it slower): it waits for them to pause this long, at most `FULL_RELIST_S` more.
CALLS_PAUSE_S = 0.5
DEFAULT_LIMIT = 10
MAX_LIMIT = 100


class SearchHit(Record, write_only=True):
    """A file `search` found (docs/formats.md §22.2): path, scope, description, score, its best line
    (None: only name or description matched), and Codex's copies of Claude Code memory folded
    (`fold_copies`)."""

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
    """The files one store and the other agents' sources hold, listed and indexed; thread-safe
    (`_lock` guards listing and index, `_listing` one listing at a time)."""

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
        # Set once a call has its answer: background work starts `ANSWER_OUT_S` after.
        self._answered = threading.Event()
        self._lock = threading.Lock()
        self._listing = threading.Lock()
        self._aging = threading.Lock()  # held while a re-listing by age waits or runs
        self._called_at = clock()  # when the last call began
        self._rows: tuple[object, list[FileRow]] | None = None  # the full rows, of a listing
        self._known: dict[str, dict[str, KnownEntry]] | None = None  # per root, as last seen
        self._observer: BaseObserver | None = None
        self._watched: dict[str, Folder | None] | None = None  # each root's, as watched
        self._watching: threading.Thread | None = None
        # Files presumed as the index holds them (a first search's): the walk after the watch stats
        # them.
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
        """This server changed the files at `paths`: re-stat them before the next answer (everything
        relisted when none is given or a folder came or went)."""
        written = self._written(paths)
        if written is None:
            self._listed_at = None
        else:
            self._changes.report(written)

    def _written(self, paths: Sequence[str]) -> list[str] | None:
        """Where the files at `paths` are on disk; None when everything must be listed again."""
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
        """What the listing left out and why (no home folder §22.1, past the depth §5, not indexed
        yet §22.11), for an answer."""
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
        """Whether every file is searched, after waiting at most `timeout_s` for the background
        indexing."""
        if (indexing := self._indexing) is not None:
            indexing.join(timeout_s)
        return not self._unindexed

    def rows(self, *, scope: str | None = None) -> list[FileRow]:
        """Every file (in `scope`) as `memtab list --json` shows it, relisted with every stat when
        files changed."""
        if self._files.presumed:
            self._listed_at = None
        self._fresh()
        with self._listing:
            files = self._files
            if self._rows is None or self._rows[0] is not files:
                self._rows = (files, self._full_rows(files))
                self._keep_out_of_collections()
            rows = self._rows[1]
        self._answered.set()
        return [row for row in rows if scope is None or in_scope(row.scope, scope)]

    def search(self, query: str, *, scope: str | None, limit: int) -> list[SearchHit]:
        """The files best matching `query`, best first, with their best line; searched again when
        the index was rebuilt under the search."""
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
        lines: dict[str, tuple[int, str] | None] = {}  # look-alike notes: one text's line once
        for hit in ranked:
            listed = files.get(hit.id)
            if listed is None:
                continue  # indexed by another process since this listing
            # The listing's description, as the index read it.
            description: str | None = hit.label.partition("\n")[2]
            if listed.row is not None:
                description = listed.row.description
            row = listed.row if isinstance(listed.row, SourceFileRow) else None
            if hit.text not in lines:
                lines[hit.text] = best_line(hit.text, query)
            found = lines[hit.text]
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
        """List now when nothing is listed, a change of ours, a reported folder or another agent's
        file asks, or nothing watches; re-stat what the watch reported; list in the background when
        merely old. The answer to `query` when a listing now found the index whole, else None."""
        if self._closing.is_set():  # a call racing the server's end lists nothing again
            raise CatalogClosedError
        self._called_at = self._clock()
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
        due = self._aging.acquire(blocking=False)  # released by the re-listing
        if due and self._start(self._relist_once_calls_pause, "memtab-mcp-listing") is None:
            self._aging.release()
        return None

    def _start(
        self, target: Callable[..., None], name: str, *args: object
    ) -> threading.Thread | None:
        """`target(*args)` on a thread unless closing (None), kept under `_lock` for `close` to
        join."""
        with self._lock:
            if self._closing.is_set():
                return None
            thread = threading.Thread(target=target, args=args, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)
            return thread

    def _relist_once_calls_pause(self) -> None:
        """Background: list everything again once no call began for `CALLS_PAUSE_S` (at most
        `FULL_RELIST_S` after it was due), unless a listing came meanwhile."""
        try:
            due = self._clock()
            while not self._closing.is_set():
                now = self._clock()
                quiet = now - self._called_at
                if quiet >= CALLS_PAUSE_S or now - due >= FULL_RELIST_S:
                    break
                self._closing.wait(CALLS_PAUSE_S - quiet)
            with self._listing:
                listed_at = self._listed_at
                stale = listed_at is not None and self._clock() - listed_at >= FULL_RELIST_S
                if stale and not self._closing.is_set():
                    self._relist()
        except Exception:  # the next call tries again; this one's answer stands
            logger.exception("catalog: re-listing failed")
        finally:
            self._aging.release()

    def _relist(self, query: _Query | None = None, attempt: int = 0) -> list[Hit] | None:
        """List by a stat walk, then index what changed (the caller holds `_listing`); with a
        `query`, its answer when the index's rows are the listing's."""
        started = self._clock()
        self._changes.take()
        if self._index is None:
            self._index = SearchIndex.of_home(self.store.home.root)
        index = self._index
        self._generation = index.generation
        kept = kept_sources(self._sources, self._keep)
        folders = SourceProbe.folders_before(kept, self._probe)
        by_scope = scope_roots(self.store)
        # Each listed root with its files' scope (a source's: its id).
        guessed = {root: scope.value for scope, root in by_scope.items()}
        guessed.update((source.id, source.id) for source in kept)
        # A fresh server's first search: the walk with every stat follows after the watch begins.
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
        # In the listing's order: a budget indexes the first ones.
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
        self._keep_out_of_collections()
        return answered

    def _apply_changes(self) -> None:
        """Re-stat and re-index only what the watch reported; list again for a folder, too many
        files or lost track."""
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
        index.update(changed, [(files[key].root, key) for key in gone if key in files])
        if index.generation != self._generation:  # started again: index every file
            self._relist()
            return
        with self._lock:
            self._files = files.changed(listed, gone)
        logger.debug("catalog: %d files re-stat'ed, %d (re)indexed", len(paths), len(changed))

    def _start_watching(self) -> None:
        """Background, after the first answer: watch the scope roots, walk them once more reporting
        what changed meanwhile, and drop the rows of roots gone."""
        self._after_answer()
        try:
            observer = self._watch()
            if observer is not None:
                if not self._kept(observer):
                    return
                # Changed, new, gone or racy: re-stat'ed next call.
                self._changes.report(self._files.differing(list_files(self.store, [])))
                self._presumed = False  # what it presumed is stat'ed and reported
            index = self._index
            if index is not None and not self._closing.is_set():
                index.forget_missing_roots()
        except Exception:  # unwatched: every call lists again
            logger.exception("catalog: watching failed")

    def _after_answer(self) -> None:
        """Background: wait for the first answer and its way out (at once when closing)."""
        self._answered.wait()
        self._closing.wait(ANSWER_OUT_S)

    def _index_the_rest(self, index: SearchIndex, files: list[IndexedFile]) -> None:
        """Background: index what the first call's budget left, then have the next call list
        again."""
        self._after_answer()
        try:
            index.update(files, (), stop=self._closing)
        except Exception:  # the next listing tries again
            logger.exception("catalog: indexing failed")
        self._unindexed = 0
        self._changes.everything()

    def _watch(self) -> BaseObserver | None:
        """An observer of the existing scope roots, started; None when it cannot start."""
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
        """Watch the scope roots anew, the dead watch stopped, and list everything before
        answering."""
        with self._lock:
            dead, self._observer = self._observer, None
        if dead is not None:
            self._start(stop_observer, "memtab-mcp-unwatch", dead)
        self._kept(self._watch())
        self._listed_at = None

    def _kept(self, observer: BaseObserver | None) -> bool:
        """Keep `observer` as the watch unless the catalog closed meanwhile (then stopped); whether
        kept."""
        with self._lock:
            if not self._closing.is_set():
                self._observer = observer
                return True
        if observer is not None:
            stop_observer(observer)
        return False

    def _keep_out_of_collections(self) -> None:
        """A server's listing and rows live until the next: out of the cycle collector's sight
        (`gc.freeze`), whose full passes over 20,000 files' objects held a search 80–220 ms."""
        if self._background:
            gc.freeze()

    def _full_rows(self, files: ListedFiles) -> list[FileRow]:
        """Every file's row: the store's files described (`_store_listings`), the sources'."""
        rows = file_rows(self._store_listings(files), self.store)
        return rows + [file.row for file in files.values() if file.row is not None]

    def _store_listings(self, files: ListedFiles) -> list[ScopeListing]:
        """The store's scopes as `list_scope` lists them from the stat'ed files, each read only if
        its stat changed (the home's description cache recalled and saved)."""
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
    """A fresh server's first listing by names alone, the answer read with the manifests, each
    answering file stat'ed."""
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
    """The index's answer to `query` and its rows, read once the expected roots are listed (else
    None), on the call's own thread."""
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
