"""The search index on disk: one tantivy index per home shared by every process that searches
(docs/formats.md §22.11), a document per file and a manifest per root; refreshed by stamps, never
answering stale text, one writer at a time across processes, rebuilt when damaged and moved to
memory when unusable. BM25 with block-max WAND (§22.3)."""

from __future__ import annotations

import bisect
import functools
import hashlib
import heapq
import itertools
import logging
import os
import threading
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import tantivy

from memtab.fs.config.config_dir import cache_dir, home_digest
from memtab.fs.memo import Stamp
from memtab.search_index.documents import IndexedFile, document_of, first, term, words_query
from memtab.search_index.opening import (
    MANIFEST_FIELD,
    VERSION,
    Folder,
    FolderChangedError,
    IndexUnusableError,
    check_folder,
    commit_seen,
    debug_words,
    is_damaged,
    is_unusable,
    manifest_document,
    manifests_query,
    open_in_memory,
    open_index,
    read_ids,
    read_manifest,
    why_unusable,
    writing,
)
from memtab.search_index.ranking import query_terms

logger = logging.getLogger(__name__)

# Files indexed between two looks at the budget and the stop.
CHUNK_FILES = 200
# A commit at least every so many files or seconds: each writes and syncs a segment.
COMMIT_FILES = 5000
COMMIT_S = 1.0
# A tie running past the hits asked is answered by asking for the tied files' ids in order, so many
# per file wanted each time, before every tied match is read and ordered (notes made from one
# template tie by the thousand). First the ids wanted alone: where every note ties they are the
# answer, and a probe costs the engine in proportion to the ids it names.
TIE_PROBES = (1, 4, 64)

T = TypeVar("T")
Key = tuple[str, str]
"""A file in the index: the root it was listed under and its id there."""
Stamps = Mapping[str, Stamp | None]
"""A root's files, by id, each with its stamp (None: none to trust)."""
Rows = Mapping[str, Stamp | None]
"""A root's documents as the index holds them (its manifest): each file's id and stamp."""


@dataclass(frozen=True, slots=True)
class Hit:
    """A ranked match: the file's id, its BM25 score, and its label and text as indexed."""

    id: str
    score: float
    label: str = ""
    text: str = ""


@dataclass(frozen=True, slots=True)
class Ahead:
    """A search read with the rows it was answered from."""

    hits: list[Hit]
    rows: Mapping[str, Rows]


@dataclass(frozen=True, slots=True)
class Refreshed:
    """What a refresh did: files (re)read, and changed files it left for the next one."""

    read: int
    pending: int


def index_file_for(home_root: Path) -> Path:
    """Where the home's index lives in Memtab's cache dir (never in a scope); its name holds the
    schema's version."""
    return cache_dir() / f"search-v{VERSION}-{home_digest(home_root)}"


def file_number(root: str, key: str) -> int:
    """The number the index knows the file `key` under `root` by: 63 bits of a digest."""
    digest = hashlib.blake2b(f"{root}\0{key}".encode("utf-8", "surrogatepass"), digest_size=8)
    return int.from_bytes(digest.digest(), "little") >> 1


class SearchIndex:
    """One home's index. Thread-safe: searches read a snapshot while a refresh writes."""

    def __init__(self, path: Path, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.path = path
        self._clock = clock
        self._write_lock = threading.Lock()
        self._state = threading.Lock()  # the index object and its searcher, swapped
        # `file_number`, remembered.
        self.number = functools.cache(file_number)
        self.problem: str | None = None
        """Why the index on disk cannot be used (None: it is); it is then in memory."""
        self.generation = 0
        """Counts restarts (rebuilt or moved to memory): a partial writer refreshes everything after
        one."""
        self._index: Any = None
        self._searcher: Any = None
        self._seen: object = None  # what the index's commit looked like when last read
        self._held_roots: tuple[Any, set[str]] | None = None  # of a searcher: `_roots_held`
        self._held_ids: dict[str, tuple[Any, list[str]]] = {}  # of a searcher: `_ids`
        self._held_named: tuple[Any, dict[tuple[str, ...], bool]] | None = None  # `_all_named`
        self.writes = 0
        """Counts this process's writes (what tells an index in memory changed)."""
        self.folder: Folder = (0, 0)
        """The index's folder as opened (`opening.check_folder`)."""
        try:
            self._index, self.folder = open_index(path)
        except IndexUnusableError as error:
            self._to_memory(error)

    @classmethod
    def of_home(cls, home_root: Path) -> SearchIndex:
        return cls(index_file_for(home_root))

    def close(self) -> None:
        with self._write_lock, self._state:
            self._searcher = None

    def refresh(
        self,
        files: Sequence[IndexedFile],
        roots: Collection[str],
        *,
        budget_s: float | None = None,
        stop: threading.Event | None = None,
    ) -> Refreshed:
        """Make the index hold exactly `files` under `roots` (others' roots untouched): gone and
        changed out first, then the changed indexed, `CHUNK_FILES` a commit, until `budget_s` is
        spent or `stop` set."""

        def write() -> Refreshed:
            listed: dict[str, dict[str, Stamp | None]] = {root: {} for root in roots}
            for file in files:
                listed.setdefault(file.root, {})[file.id] = file.stamp
            stale, gone = self._stale_by_root(self._fresh_searcher(), listed, None)
            changed = [file for file in files if (file.root, file.id) in stale]
            return self._update(changed, gone, budget_s, stop)

        return self._written(write)

    def stale(self, listed: Mapping[Key, Stamp | None]) -> set[Key]:
        """What of `listed` ((root, id) → stamp) the index does not hold as it is now."""
        by_root: dict[str, dict[str, Stamp | None]] = {}
        for (root, key), stamp in listed.items():
            by_root.setdefault(root, {})[key] = stamp

        def read(searcher: Any) -> set[Key]:
            return set().union(*(_stale_in(root, mine, self._manifest(searcher, root))
                                 for root, mine in by_root.items()))  # fmt: skip

        return self._read(read)

    def stale_by_root(
        self, listed: Mapping[str, Stamps], *, held: Mapping[str, Rows] | None = None
    ) -> tuple[set[Key], list[Key]]:
        """`stale` for whole roots (root → id → stamp)."""
        return self._read(lambda searcher: self._stale_by_root(searcher, listed, held))

    def update(
        self,
        files: Sequence[IndexedFile],
        gone: Collection[Key],
        *,
        budget_s: float | None = None,
        stop: threading.Event | None = None,
    ) -> Refreshed:
        """Take out `gone` and `files`, then index `files`."""
        return self._written(lambda: self._update(files, gone, budget_s, stop))

    def forget_missing_roots(self) -> None:
        """Take out every root that is a folder no longer on disk (sources' roots kept)."""

        def write() -> None:
            searcher = self._fresh_searcher()
            roots = {str(root) for root, _ in searcher.terms_with_prefix("root", "")}
            roots |= {str(root) for root, _ in searcher.terms_with_prefix(MANIFEST_FIELD, "")}
            missing = sorted(
                root for root in roots if os.path.isabs(root) and not os.path.isdir(root)
            )
            if not missing:
                return
            schema = self._index.schema
            with writing(self) as writer:
                writer.delete_documents_by_query(
                    tantivy.Query.term_set_query(schema, "root", missing)
                )
                writer.delete_documents_by_query(manifests_query(schema, missing))
                writer.commit()

        self._written(write)

    def _update(
        self,
        changed: Sequence[IndexedFile],
        gone: Collection[Key],
        budget_s: float | None,
        stop: threading.Event | None,
    ) -> Refreshed:
        """Under the write lock: out with `gone` and changed, in with changed, `CHUNK_FILES` at a
        time, committed every `COMMIT_FILES` or `COMMIT_S` and at the end; each checked against what
        another writer indexed meanwhile."""
        started = self._clock()
        if not changed and not gone:
            return Refreshed(0, 0)
        read = committed = 0
        committed_at = started
        with writing(self) as writer:
            # Read once the lock is held: another writer's commits count.
            searcher = self._fresh_searcher()
            affected = {file.root for file in changed} | {root for root, _ in gone}
            manifests = {root: self._manifest(searcher, root) for root in affected}
            todo = [
                file
                for file in changed
                if file.stamp is None or manifests[file.root].get(file.id, _ABSENT) != file.stamp
            ]
            if not todo and not any(key in manifests[root] for root, key in gone):
                return Refreshed(0, 0)  # another writer did it meanwhile
            # Only documents its manifest names: a new file has none.
            out = [self.number(root, key) for root, key in gone if key in manifests[root]]
            out += [self.number(file.root, file.id) for file in todo
                    if file.id in manifests[file.root]]  # fmt: skip
            if out:
                writer.delete_documents_by_query(
                    tantivy.Query.term_set_query(self._index.schema, "number", out)
                )
            for root, key in [*gone, *((file.root, file.id) for file in todo)]:
                manifests[root].pop(key, None)
            dirty = set(affected)
            for first in range(0, len(todo), CHUNK_FILES):
                self._check_folder()  # tantivy writes a segment's files as its heap fills
                for file in todo[first : first + CHUNK_FILES]:
                    _add(writer, document_of(file, self.number(file.root, file.id)))
                    manifests[file.root][file.id] = file.stamp
                    dirty.add(file.root)
                read = min(first + CHUNK_FILES, len(todo))
                now = self._clock()
                spent = budget_s is not None and now - started >= budget_s
                if read < len(todo) and (spent or (stop is not None and stop.is_set())):
                    self._commit(writer, manifests, dirty)
                    return Refreshed(read, len(todo) - read)
                if read - committed >= COMMIT_FILES or now - committed_at >= COMMIT_S:
                    self._commit(writer, manifests, dirty)  # for the searches meanwhile
                    committed, committed_at = read, now
            self._commit(writer, manifests, dirty)
        return Refreshed(read, 0)

    def _commit(self, writer: Any, manifests: Mapping[str, Rows], dirty: set[str]) -> None:
        """Commit with each written root's manifest: documents and manifest never differ."""
        writer.delete_documents_by_query(manifests_query(self._index.schema, sorted(dirty)))
        for root in sorted(dirty):
            if manifests[root]:
                _add(writer, manifest_document(root, manifests[root]))
        dirty.clear()
        self._check_folder()
        writer.commit()

    def search(self, query: str, roots: Collection[str], *, limit: int) -> list[Hit]:
        """The best `limit` files under `roots` for `query`, best first; ties by id."""
        return self._read(lambda searcher: self._best(searcher, query, roots, limit))

    def search_ahead(
        self, query: str, roots: Collection[str], *, limit: int, within: Collection[str]
    ) -> Ahead:
        """`search` under `within` and every root's rows in `roots`, from one snapshot."""

        def read(searcher: Any) -> Ahead:
            hits = self._best(searcher, query, within, limit)
            return Ahead(hits, {root: self._manifest(searcher, root) for root in roots})

        return self._read(read)

    def searcher(self) -> Any:
        """The newest snapshot of the index."""
        return self._read(lambda searcher: searcher)

    @property
    def schema(self) -> Any:
        return self._index.schema

    def version(self) -> object:
        """Changes whenever any process committed, or the index restarted."""
        self._read(lambda searcher: None)
        return (self.generation, self._seen)

    def scored(
        self, searcher: Any, query: str, roots: Collection[str], limit: int | None = None
    ) -> list[tuple[float, Any]]:
        """The documents under `roots` `query` matches (score, address), in no order: what
        `search` ranks (the best `limit` and their ties; None: all), for the window's search."""
        query_of = self._ranked_query(searcher, query, roots)
        return [] if query_of is None else _ranked(searcher, query_of, limit)

    def _ranked_query(self, searcher: Any, query: str, roots: Collection[str]) -> Any:
        """§22.3's BM25 query of `query`'s terms under `roots` (None: nothing to ask)."""
        terms = query_terms(query)
        if not terms or not roots:
            return None
        schema = self._index.schema
        words = [(tantivy.Occur.Should, words_query(schema, term)) for term in terms]
        within = [term(root) for root in roots]
        query_of = tantivy.Query.boolean_query(words)
        if not self._roots_held(searcher) <= set(within):  # a filter costs the engine half
            roots_query = tantivy.Query.term_set_query(schema, "root", within)
            query_of = query_of.and_must_match(tantivy.Query.const_score_query(roots_query, 0.0))
        return query_of

    def _best(self, searcher: Any, query: str, roots: Collection[str], limit: int) -> list[Hit]:
        query_of = self._ranked_query(searcher, query, roots) if limit > 0 else None
        if query_of is None:
            return []
        answered = self._answered(searcher, query_of, roots, limit)
        hits = []
        for score, address in answered:
            stored = searcher.doc(address)
            hits.append(
                Hit(first(stored, "id"), score, first(stored, "label"), first(stored, "body"))
            )
        hits.sort(key=lambda hit: (-hit.score, hit.id))
        return hits

    def _answered(
        self, searcher: Any, query_of: Any, roots: Collection[str], limit: int
    ) -> list[tuple[float, Any]]:
        """The best `limit` matches of `query_of` (score, address), those tied at the last place
        first by id."""
        asked = limit * 2 + 8
        ranked: list[tuple[float, Any]] = searcher.search(query_of, asked, count=False).hits
        if len(ranked) <= limit:
            return ranked
        lowest = -ranked[limit - 1][0]
        above = bisect.bisect_left(ranked, lowest, key=_lower)
        if len(ranked) == asked and ranked[-1][0] == ranked[limit - 1][0]:  # ties past the asked
            tied = self._tied_first_by_id(searcher, query_of, roots, -lowest, limit - above)
            if tied is not None:
                return ranked[:above] + tied
            ranked = _ranked(searcher, query_of, limit)
        tied = ranked[above : bisect.bisect_right(ranked, lowest, key=_lower)]
        return ranked[:above] + self._first_by_id(searcher, tied, roots, limit - above)

    def _tied_first_by_id(
        self, searcher: Any, query_of: Any, roots: Collection[str], score: float, wanted: int
    ) -> list[tuple[float, Any]] | None:
        """The `wanted` matches scoring `score` whose ids come first, asked for by the ids in order
        (`TIE_PROBES`); None when that did not find them, or a match may be named by no manifest."""
        if not self._all_named(searcher, roots):
            return None
        schema, number = self._index.schema, self.number
        in_order = heapq.merge(*(zip(self._ids(searcher, root), itertools.repeat(root))
                                 for root in roots))  # fmt: skip
        chosen: list[tuple[float, Any]] = []
        for per_wanted in TIE_PROBES:
            probed = itertools.islice(in_order, per_wanted * wanted)
            numbers = [number(root, key) for key, root in probed]
            if not numbers:
                return None
            # One term query a file: a term set costs the engine 8× as much.
            each_of = [tantivy.Query.term_query(schema, "number", each) for each in numbers]
            among = tantivy.Query.boolean_query([(tantivy.Occur.Should, one) for one in each_of])
            probe = query_of.and_must_match(tantivy.Query.const_score_query(among, 0.0))
            found = [hit for hit in searcher.search(probe, len(numbers), count=False).hits
                     if hit[0] == score]  # fmt: skip
            at = searcher.fast_field_values("number", [address for _, address in found])
            by_number = dict(zip(at, found, strict=True))
            chosen += [by_number[each] for each in numbers if each in by_number]
            if len(chosen) >= wanted:
                return chosen[:wanted]
        return None

    def _all_named(self, searcher: Any, roots: Collection[str]) -> bool:
        """Whether the manifests of `roots` name exactly the documents under them (read once a
        commit)."""
        key = tuple(sorted(roots))
        if self._held_named is None or self._held_named[0] is not searcher:
            self._held_named = (searcher, {})
        known = self._held_named[1]
        if key not in known:
            under = tantivy.Query.term_set_query(self._index.schema, "root", [term(r) for r in key])
            documents = searcher.search(under, 1, count=True).count
            known[key] = documents == sum(len(self._ids(searcher, root)) for root in key)
        return known[key]

    def _first_by_id(
        self, searcher: Any, tied: list[tuple[float, Any]], roots: Collection[str], wanted: int
    ) -> list[tuple[float, Any]]:
        """The `wanted` of `tied` whose ids come first, no document read."""
        if len(tied) <= wanted:
            return tied
        numbers = searcher.fast_field_values("number", [address for _, address in tied])
        places = dict(zip(numbers, range(len(tied)), strict=True))
        number = self.number
        chosen: list[tuple[str, tuple[float, Any]]] = []
        walks = [zip(self._ids(searcher, root), itertools.repeat(root)) for root in roots]
        for key, root in heapq.merge(*walks):
            place = places.pop(number(root, key), None)
            if place is not None:
                chosen.append((key, tied[place]))
                if len(chosen) == wanted:
                    return [hit for _, hit in chosen]
        # Tied documents no manifest names (never so): ids read from them.
        chosen += [(first(searcher.doc(tied[place][1]), "id"), tied[place])
                   for place in places.values()]  # fmt: skip
        return [hit for _, hit in heapq.nsmallest(wanted, chosen, key=lambda pair: pair[0])]

    def _ids(self, searcher: Any, root: str) -> list[str]:
        """The ids under `root` in `searcher`'s commit, sorted once a commit."""
        held = self._held_ids.get(root)
        if held is None or held[0] is not searcher:
            held = self._held_ids[root] = (searcher, sorted(read_ids(searcher, self.schema, root)))
        return held[1]

    def _roots_held(self, searcher: Any) -> set[str]:
        """Every root `searcher`'s commit holds documents under (read once a commit)."""
        held = self._held_roots
        if held is None or held[0] is not searcher:
            roots = {str(root) for root, _ in searcher.terms_with_prefix("root", "")}
            held = self._held_roots = (searcher, roots)
        return held[1]

    def _manifest(self, searcher: Any, root: str) -> dict[str, Stamp | None]:
        """Every document under `root` in `searcher`'s commit: its file's id and stamp."""
        return read_manifest(searcher, self._index.schema, root)

    def _stale_by_root(
        self, searcher: Any, listed: Mapping[str, Stamps], held: Mapping[str, Rows] | None
    ) -> tuple[set[Key], list[Key]]:
        """Each root's files compared with its manifest as one mapping, file by file only when they
        differ; no stamp is stale."""
        stale: set[Key] = set()
        gone: list[Key] = []
        for root, mine in listed.items():
            rows = held[root] if held and root in held else self._manifest(searcher, root)
            if mine == rows and None not in mine.values():
                continue
            stale |= _stale_in(root, mine, rows)
            gone += [(root, key) for key in rows if key not in mine]
        return stale, gone

    def _read(self, read: Callable[[Any], T]) -> T:
        """`read(searcher)` on the newest snapshot; on a damaged index rebuilt, an unusable one
        moved to memory, run once more."""
        try:
            return read(self._fresh_searcher())
        except (ValueError, OSError, IndexUnusableError):
            # Another process's commit may have merged the files just reloaded: read the newest once
            # more.
            with self._state:
                self._searcher = None
        try:
            return read(self._fresh_searcher())
        except (ValueError, OSError, IndexUnusableError) as error:
            with self._write_lock:
                self._recover(error)
        return read(self._fresh_searcher())

    def _written(self, write: Callable[[], T]) -> T:
        """`write()` under the write lock; `_read`'s recovery, and `write` run once more."""
        with self._write_lock:
            try:
                return write()
            except (ValueError, OSError, IndexUnusableError) as error:
                self._recover(error)
                return write()

    def _recover(self, error: BaseException) -> None:
        """After `error` (write lock held): a changed folder reopened, a damaged index rebuilt, an
        unusable one moved to memory; else raised."""
        changed = error if isinstance(error, FolderChangedError) else self._changed()
        if self.problem is None and changed is not None:
            why = f"changed under this process ({changed}): opened again where it was"
            self._start_again(why, rebuild=False)
        elif self.problem is None and is_unusable(error):
            self._to_memory(error)
        elif self.problem is None and is_damaged(error):
            self.rebuild(f"damaged ({error})")
        else:
            raise error

    def rebuild(self, problem: str) -> None:
        """Start the index again: it was found `problem` (damaged)."""
        self._start_again(f"is {problem}: rebuilt", rebuild=True)

    def _start_again(self, why: str, *, rebuild: bool) -> None:
        """Open the index anew (`rebuild`: empty), saying `why` in the log."""
        logger.warning("Search index %s %s", self.path, why)
        with self._state:
            self.generation += 1
            self._searcher = None
        try:
            index, folder = open_index(self.path, rebuild=rebuild)
        except IndexUnusableError as error:
            self._to_memory(error)
            return
        with self._state:
            self._index, self.folder = index, folder

    def _changed(self) -> FolderChangedError | None:
        """How the index's folder changed since opened (None: not, or cannot tell)."""
        try:
            self._check_folder()
        except FolderChangedError as changed:
            return changed
        except OSError:
            pass
        return None

    def _check_folder(self) -> None:
        """FolderChangedError when the index on disk is not in the folder opened."""
        if self.problem is None:
            check_folder(self.path, self.folder)

    def _to_memory(self, error: BaseException) -> None:
        """Go on in memory, the disk's index unusable (`error`): logged once, said by `problem`."""
        self.problem = f"the search index {self.path} cannot be used ({why_unusable(error)})"
        logger.warning("Search index %s cannot be used (%s): searching the files from memory",
                       self.path, debug_words(error))  # fmt: skip
        with self._state:
            self.generation += 1
            self._index = open_in_memory()
            self._searcher = None

    def _fresh_searcher(self) -> Any:
        """The searcher of the newest commit, reloaded when another process committed."""
        with self._state:
            seen = commit_seen(self.path) if self.problem is None else self.writes
            if self._searcher is None or seen != self._seen:
                self._check_folder()  # a reload reads `meta.json`, taking its lock
                self._index.reload()
                self._searcher = self._index.searcher()
                self._seen = seen
            return self._searcher


_ABSENT = object()


def _stale_in(root: str, mine: Stamps, rows: Rows) -> set[Key]:
    """The files of `mine` its manifest `rows` does not hold with the same stamp, or without one."""
    return {(root, key) for key, stamp in mine.items()
            if stamp is None or rows.get(key, _ABSENT) != stamp}  # fmt: skip


def _lower(hit: tuple[float, Any]) -> float:
    """What orders the engine's hits (best first) ascending: the score, negated."""
    return -hit[0]


def _ranked(searcher: Any, query: Any, limit: int | None) -> list[tuple[float, Any]]:
    """The best `limit` matches (score, address), and every one tied with the last (then ordered by
    id); every match when `limit` is None."""
    if limit is None:
        return list(searcher.search(query, max(1, int(searcher.num_docs)), count=False).hits)
    asked = limit * 2 + 8
    ranked: list[tuple[float, Any]] = searcher.search(query, asked, count=False).hits
    if len(ranked) == asked and ranked[-1][0] == ranked[limit - 1][0]:
        every = max(asked + 1, int(searcher.num_docs))
        ranked = searcher.search(query, every, count=False).hits
    return ranked


def _add(writer: Any, document: Any) -> None:
    """Add `document`; when the writer's thread died, the error it died of."""
    try:
        writer.add_document(document)
    except ValueError:
        writer.commit()
        raise
