"""The search index on disk: one SQLite file per home, with FTS5, shared by every process
that searches (docs/formats.md §22.11).

A server starting anew finds what the last one indexed: a `refresh` compares each listed
file's stamp (size, mtime, ctime, inode) with the row it has and reads only the files that
changed, so a first search costs a stat walk, not a read of every file. Nothing it answers
is stale: a refresh takes out the rows of the files gone or changed before it reads
anything, in its first transaction; with a time budget it stops reading when the budget
is spent and says how many files are left (`Refreshed.pending`), which are then missing,
never answered from their old text. A file's text is what `view` would show of it (the one
readability rule, `store.files.read_file_content`): a file `view` refuses is indexed by its
name and description only.

Several processes share the file: WAL (readers never wait for the writer), one writer at a
time (`BEGIN IMMEDIATE`, a busy timeout), writes in short transactions of at most
`CHUNK_FILES` files, each checking again what another writer may have indexed meanwhile.
A file of another schema version, or one SQLite finds damaged, is rebuilt, saying so in
the log; a kill mid-write loses only the transaction it was in.

Ranking is today's Okapi BM25 (`search_index.ranking`), from FTS5's scores
(`search_index.scoring`). A caller that lists its files by their stat alone asks which are
`stale` and `update`s those; `search_ahead` answers a query with the rows it was answered
from, so a caller whose listing matches them needs no second read.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path
from typing import TypeVar

from memtab.fs.config.config_dir import cache_dir
from memtab.search_index.opening import (
    IndexUnusableError,
    connect,
    create_schema,
    delete_index,
    file_uri,
    is_unusable,
    memory_uri,
    prepare,
    schema_problem,
    why_unusable,
)
from memtab.search_index.ranking import LABEL_WEIGHT, has_cjk, query_terms, tokens
from memtab.search_index.scoring import best_files
from memtab.store.files import read_file_content

logger = logging.getLogger(__name__)

# Files read and written per transaction: another writer waits at most this long.
CHUNK_FILES = 200
# No stamp a row holds: a file the index has no row of.
_ABSENT = object()
# SQLite's result codes for a file it cannot use: damaged, or not a database.
_DAMAGED = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})

Stamp = tuple[int, int, int, int]
"""What any write to a file or over it changes: (size, mtime_ns, ctime_ns, inode)."""
T = TypeVar("T")
Key = tuple[str, str]
"""A file in the index: the root it was listed under and its id there."""

# A row's texts as they are, whichever way FTS5 reads them.
_TEXTS = "coalesce(label_text, label), coalesce(body_text, body)"


@dataclass(frozen=True, slots=True)
class IndexedFile:
    """A listed file as the index takes it: the root it was listed under (a scope root's
    path, a source's id) and its id there (virtual path or source file id), the words that
    name it (path, description), where its text is (None: `view` refuses it, indexed by
    its label only; `linked`: read through a link another agent's layout allows), and its
    stamp (None: changed too recently to trust one, read every time)."""

    root: str
    id: str
    label: str
    physical: str | None
    stamp: Stamp | None
    linked: bool = False
    labelled: Callable[[], str] | None = None
    """When given, the label is this call's answer, asked only if the file is indexed (a
    stat walk's listing reads no description it need not)."""


@dataclass(frozen=True, slots=True)
class Hit:
    """A ranked match: the file's id and its BM25 score."""

    id: str
    score: float


Row = tuple[object, ...]
"""A file's row as a stale check compares it: (id, size, mtime_ns, ctime_ns, inode)."""
Stamps = Mapping[str, Stamp | None]
"""A root's files, by id, each with its stamp (None: none to trust; a row holds Nones)."""


@dataclass(frozen=True, slots=True)
class Ahead:
    """A search read with the rows it was answered from (`SearchIndex.search_ahead`): each
    root's stamps by id."""

    hits: list[Hit]
    rows: Mapping[str, Stamps]


@dataclass(frozen=True, slots=True)
class Refreshed:
    """What a refresh did: files (re)read, and changed files it left for the next one."""

    read: int
    pending: int


def index_file_for(home_root: Path) -> Path:
    """Where the index of the home at `home_root` lives: Memtab's cache dir, never a scope
    (nothing syncs it)."""
    digest = hashlib.sha256(os.fsencode(str(home_root))).hexdigest()[:20]
    return cache_dir() / f"search-{digest}.sqlite3"


class SearchIndex:
    """One home's index file. Thread-safe: queries and refreshes each have their own
    connection, so a query answers while a refresh writes."""

    def __init__(self, path: Path, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.path = path
        self._clock = clock
        self._write_lock = threading.Lock()
        self._read_lock = threading.Lock()
        self.problem: str | None = None
        """Why the file cannot be used (None: it is): the index is then in memory, read
        from the files by this process alone (`opening`)."""
        self.generation = 0
        """Counts the times the index was started again (rebuilt, or moved to memory): a
        caller that wrote only some files refreshes all of them when it changed."""
        self._uri = file_uri(path)
        try:
            self._writer = self._open()
        except (sqlite3.Error, IndexUnusableError) as error:
            if not is_unusable(error):
                raise
            self._writer = self._in_memory(error)
        self._reader = self.connect()

    @classmethod
    def of_home(cls, home_root: Path) -> SearchIndex:
        return cls(index_file_for(home_root))

    def close(self) -> None:
        with self._write_lock, self._read_lock:
            self._writer.close()
            self._reader.close()

    def __len__(self) -> int:
        return self._read(lambda connection: int(
            connection.execute("SELECT count(*) FROM files").fetchone()[0]
        ))  # fmt: skip

    # --- keeping it fresh ---------------------------------------------------------------

    def refresh(
        self,
        files: Sequence[IndexedFile],
        roots: Collection[str],
        *,
        budget_s: float | None = None,
        stop: threading.Event | None = None,
    ) -> Refreshed:
        """Make the index hold exactly `files` under `roots` (other roots' rows are other
        processes' business: another workspace's server shares the file): rows of files
        gone or changed out first, then the changed files read and indexed, a transaction of
        `CHUNK_FILES` at a time, until `budget_s` is spent (None: all) or `stop` is set."""
        return self._written(lambda: self._refresh(files, roots, budget_s, stop))

    def _refresh(
        self,
        files: Sequence[IndexedFile],
        roots: Collection[str],
        budget_s: float | None,
        stop: threading.Event | None,
    ) -> Refreshed:
        stale, gone = _stale(
            self._writer, {(file.root, file.id): file.stamp for file in files}, roots
        )
        changed = [file for file in files if (file.root, file.id) in stale]
        return self._update(changed, gone, budget_s, stop)

    def stale(
        self,
        listed: Mapping[Key, Stamp | None],
        roots: Collection[str],
        *,
        held: Mapping[str, Stamps] | None = None,
    ) -> tuple[set[Key], list[Key]]:
        """What of `listed` ((root, id) → stamp) the index does not hold as it is now (new,
        changed, or without a stamp to trust), and the rows under `roots` of files not in
        `listed` (gone); with `held`, as they were when read (`Ahead.rows`). Reads only: a
        refresh's first half, for a caller that builds the `IndexedFile`s of the stale
        files alone (`update`)."""
        return self._read(lambda connection: _stale(connection, listed, roots, held))

    def stale_by_root(
        self, listed: Mapping[str, Stamps], *, held: Mapping[str, Stamps] | None = None
    ) -> tuple[set[Key], list[Key]]:
        """`stale` for a listing of whole roots, each root's files by id (root → id →
        stamp): what the index does not hold as listed, and its rows under those roots of
        files not listed (gone); with `held`, as they were when read (`Ahead.rows`)."""
        return self._read(lambda connection: _stale_by_root(connection, listed, held))

    def update(
        self,
        files: Sequence[IndexedFile],
        gone: Collection[Key],
        *,
        budget_s: float | None = None,
        stop: threading.Event | None = None,
    ) -> Refreshed:
        """Take out the rows of `gone` and of `files`, then index `files` (a refresh's
        second half, `refresh`'s rules: a transaction of `CHUNK_FILES` at a time, until
        `budget_s` is spent or `stop` is set)."""
        return self._written(lambda: self._update(files, gone, budget_s, stop))

    def _written(self, write: Callable[[], T]) -> T:
        """`write()` under the write lock; on a damaged file, the file rebuilt, on one that
        cannot be used, the index moved to memory, and `write` run once more."""
        with self._write_lock:
            try:
                return write()
            except (sqlite3.DatabaseError, IndexUnusableError) as error:
                self._recover(error)
                return write()

    def _recover(self, error: BaseException) -> None:
        """After `error` (the caller holds the write lock): a damaged file rebuilt, one that
        cannot be used left for an index in memory; any other error raised."""
        if isinstance(error, sqlite3.DatabaseError) and is_damaged(error):
            self._rebuild(f"damaged ({error})")
        elif is_unusable(error) and self.problem is None:
            with self._read_lock:
                self._writer.close()
                self._reader.close()
                self._writer = self._in_memory(error)
                self._reader = self.connect()
        else:
            raise error

    def forget_missing_roots(self) -> int:
        """Take out the rows of every root that is a folder no longer on disk (a workspace
        removed, a project's memory deleted): no listing names it again, and its rows
        would stay for good. Roots that are no path (another agent's source) are kept.
        Safe beside other writers: each root is checked again inside the transaction that
        takes it out. How many rows went."""
        return self._written(self._forget_missing_roots)

    def _forget_missing_roots(self) -> int:
        roots = [str(row[0]) for row in self._writer.execute("SELECT DISTINCT root FROM files")]
        missing = [root for root in roots if os.path.isabs(root) and not os.path.isdir(root)]
        if not missing:
            return 0
        removed = 0
        with self._transaction():
            for root in missing:
                if os.path.isdir(root):
                    continue  # made again meanwhile: its server indexes it
                self._writer.execute(
                    "DELETE FROM docs WHERE rowid IN (SELECT rowid FROM files WHERE root = ?)",
                    (root,),
                )
                removed += self._writer.execute(
                    "DELETE FROM files WHERE root = ?", (root,)
                ).rowcount
        return removed

    def _update(
        self,
        changed: Sequence[IndexedFile],
        gone: Collection[Key],
        budget_s: float | None,
        stop: threading.Event | None,
    ) -> Refreshed:
        started = self._clock()
        connection = self._writer
        if not changed and not gone:
            return Refreshed(0, 0)
        with self._transaction():
            for root, key in [*gone, *((file.root, file.id) for file in changed)]:
                _remove(connection, root, key)
        read = 0
        for first in range(0, len(changed), CHUNK_FILES):
            with self._transaction():
                for file in changed[first : first + CHUNK_FILES]:
                    read += _index(connection, file)
            spent = budget_s is not None and self._clock() - started >= budget_s
            if spent or (stop is not None and stop.is_set()):
                return Refreshed(read, max(0, len(changed) - first - CHUNK_FILES))
        return Refreshed(read, 0)

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """One writer at a time across processes (`BEGIN IMMEDIATE` waits its turn)."""
        self._writer.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._writer.rollback()
            raise
        self._writer.commit()

    # --- searching ----------------------------------------------------------------------

    def search(
        self,
        query: str,
        roots: Collection[str],
        *,
        limit: int,
        among: Collection[str] | None = None,
    ) -> list[Hit]:
        """The best `limit` files under `roots` for `query` (only the ids `among` when
        given), best first; ties by id, so the order is stable."""
        terms = query_terms(query)
        if not terms:
            return []
        # The counts and the scores of one moment.
        best = self._read(_snapshot(lambda connection: best_files(
            connection, terms, limit, set(roots), among
        )))  # fmt: skip
        return [Hit(key, score) for key, score in best]

    def search_ahead(
        self, query: str, roots: Collection[str], *, limit: int, within: Collection[str]
    ) -> Ahead:
        """`search` under the roots `within`, and the rows of every root in `roots`, read
        at one moment: a caller listing the files meanwhile that finds them as those rows
        say (`stale`) has the answer of its listing, with no second read."""
        terms = query_terms(query)

        def read(connection: sqlite3.Connection) -> Ahead:
            best = best_files(connection, terms, limit, set(within), None) if terms else []
            rows = {root: _stamps_of(connection, root) for root in roots}
            return Ahead([Hit(key, score) for key, score in best], rows)

        return self._read(_snapshot(read))  # one snapshot for the search and the rows

    def words(self, root: str, key: str) -> str:
        """Every word the index holds of `key` under `root`, its label as weighted and its
        text, as one text ("" when not indexed): what the postings count of it, with an
        empty label (`postings.Postings`)."""
        row = self._row(_TEXTS, root, key)
        return f"{row[0]}\n{row[1]}" if row else ""

    def document(self, root: str, key: str) -> tuple[str, str] | None:
        """The label and the text indexed for `key` under `root` (None: not indexed)."""
        row = self._row(_TEXTS, root, key)
        if row is None:
            return None
        weighted = str(row[0])  # the label LABEL_WEIGHT times, a line break between
        return weighted[: (len(weighted) - LABEL_WEIGHT + 1) // LABEL_WEIGHT], str(row[1])

    def text(self, root: str, key: str) -> str:
        """The text indexed for `key` under `root` ("" when none: refused by `view`, or not
        indexed)."""
        row = self._row("coalesce(body_text, body)", root, key)
        return str(row[0]) if row else ""

    def _row(self, columns: str, root: str, key: str) -> Row | None:
        """`columns` of the `docs` row of `key` under `root` (None: not indexed)."""
        query = (
            f"SELECT {columns} FROM docs WHERE rowid ="
            " (SELECT rowid FROM files WHERE root = ? AND id = ?)"
        )
        return self._read(lambda connection: connection.execute(query, (root, key)).fetchone())

    def _read(self, read: Callable[[sqlite3.Connection], T]) -> T:
        """`read(connection)` under the read lock; on a damaged file, the file rebuilt, on
        one that cannot be used, the index moved to memory, and `read` run once more (on
        an index started again: the caller sees `generation` change)."""
        try:
            with self._read_lock:
                return read(self._reader)
        except (sqlite3.DatabaseError, IndexUnusableError) as error:
            with self._write_lock:
                self._recover(error)
        with self._read_lock:
            return read(self._reader)

    def rebuild(self, problem: str) -> None:
        """Start the file again: another connection to it found it `problem` (damaged)."""
        with self._write_lock:
            self._rebuild(problem)

    # --- the file -----------------------------------------------------------------------

    def changes(self) -> int:
        """How many rows this index's writer has changed since it was opened."""
        return self._writer.total_changes

    def connect(self) -> sqlite3.Connection:
        """A new connection to the index, wherever it is (the file, or memory)."""
        return connect(self._uri)

    def _open(self) -> sqlite3.Connection:
        """The writer's connection to a file of this schema version: made when missing
        (private, `opening.prepare`), rebuilt when of another version or damaged."""
        prepare(self.path)
        connection = self.connect()
        try:
            problem = schema_problem(connection)
        except sqlite3.DatabaseError as error:
            if not is_damaged(error):
                connection.close()
                raise
            problem = f"damaged ({error})"
        if problem is None:
            return connection
        connection.close()
        if problem != "new":
            logger.warning("Search index %s is %s: rebuilt", self.path, problem)
            delete_index(self.path)
            prepare(self.path)
        connection = self.connect()
        create_schema(connection)
        return connection

    def _in_memory(self, error: BaseException) -> sqlite3.Connection:
        """The writer's connection to a new index in memory, the file being unusable
        (`error`): said once in the log, and by `problem` to every answer."""
        self.problem = f"the search index {self.path} cannot be used ({why_unusable(error)})"
        logger.warning("Search index %s cannot be used (%s): searching the files from memory",
                       self.path, why_unusable(error))  # fmt: skip
        self._uri = memory_uri()
        self.generation += 1
        connection = self.connect()
        create_schema(connection)
        return connection

    def _rebuild(self, problem: str) -> None:
        """Start the file again (the caller holds the write lock)."""
        logger.warning("Search index %s is %s: rebuilt", self.path, problem)
        self.generation += 1
        with self._read_lock:
            self._writer.close()
            self._reader.close()
            try:
                delete_index(self.path)
                self._writer = self._open()
            except (sqlite3.Error, IndexUnusableError) as error:
                if not is_unusable(error):
                    raise
                self._writer = self._in_memory(error)
            self._reader = self.connect()


def _snapshot(read: Callable[[sqlite3.Connection], T]) -> Callable[[sqlite3.Connection], T]:
    """`read` inside one read transaction: what it reads is of one moment."""

    def within(connection: sqlite3.Connection) -> T:
        connection.execute("BEGIN")
        try:
            return read(connection)
        finally:
            connection.execute("COMMIT")

    return within


def _stamps_of(connection: sqlite3.Connection, root: str) -> dict[str, Stamp | None]:
    """The stamps of the rows under `root`, by id (20,000 rows gathered by C loops alone:
    no Python step per row)."""
    rows = connection.execute(
        "SELECT id, size, mtime_ns, ctime_ns, inode FROM files WHERE root = ?", (root,)
    ).fetchall()
    return dict(zip(map(itemgetter(0), rows), map(itemgetter(slice(1, 5)), rows), strict=True))


def _stale(
    connection: sqlite3.Connection,
    listed: Mapping[Key, Stamp | None],
    roots: Collection[str],
    held: Mapping[str, Stamps] | None = None,
) -> tuple[set[Key], list[Key]]:
    """`SearchIndex.stale`, on `connection`: the files under `roots` compared root by root
    (`_stale_by_root`), any other listed file's row by itself."""
    by_root: dict[str, dict[str, Stamp | None]] = {root: {} for root in roots}
    stale: set[Key] = set()
    for where, stamp in listed.items():
        mine = by_root.get(where[0])
        if mine is not None:
            mine[where[1]] = stamp
            continue
        row = connection.execute(
            "SELECT size, mtime_ns, ctime_ns, inode FROM files WHERE root = ? AND id = ?", where
        ).fetchone()
        if stamp is None or row is None or tuple(row) != stamp:
            stale.add(where)
    changed, gone = _stale_by_root(connection, by_root, held)
    return stale | changed, gone


def _stale_by_root(
    connection: sqlite3.Connection,
    listed: Mapping[str, Stamps],
    held: Mapping[str, Stamps] | None = None,
) -> tuple[set[Key], list[Key]]:
    """`SearchIndex.stale_by_root`, on `connection`: each root's rows read at once and
    compared as one mapping with its files (20,000 in a few milliseconds when none
    changed: a file without a stamp never equals a row), file by file only when they
    differ."""
    stale: set[Key] = set()
    gone: list[Key] = []
    for root, mine in listed.items():
        rows = held[root] if held is not None and root in held else _stamps_of(connection, root)
        if mine == rows:
            continue
        stale.update(
            (root, key)
            for key, stamp in mine.items()
            if stamp is None or rows.get(key, _ABSENT) != stamp
        )
        gone += [(root, key) for key in rows if key not in mine]
    return stale, gone


def is_damaged(error: sqlite3.DatabaseError) -> bool:
    """Whether `error` says the file is damaged or no database (then it is rebuilt); a
    misuse (sqlite3.ProgrammingError: a closed connection) carries no code and is not."""
    return getattr(error, "sqlite_errorcode", None) in _DAMAGED


def _remove(connection: sqlite3.Connection, root: str, key: str) -> None:
    row = connection.execute(
        "SELECT rowid FROM files WHERE root = ? AND id = ?", (root, key)
    ).fetchone()
    if row is not None:
        connection.execute("DELETE FROM docs WHERE rowid = ?", row)
        connection.execute("DELETE FROM files WHERE rowid = ?", row)


def _index(connection: sqlite3.Connection, file: IndexedFile) -> int:
    """Index `file` unless another writer just did (inside a transaction); 1 if read."""
    row = connection.execute(
        "SELECT size, mtime_ns, ctime_ns, inode FROM files WHERE root = ? AND id = ?",
        (file.root, file.id),
    ).fetchone()
    if row is not None:
        if file.stamp is not None and tuple(row) == file.stamp:
            return 0
        _remove(connection, file.root, file.id)
    size, mtime_ns, ctime_ns, inode = file.stamp or (None, None, None, None)
    cursor = connection.execute(
        "INSERT INTO files (root, id, size, mtime_ns, ctime_ns, inode) VALUES (?, ?, ?, ?, ?, ?)",
        (file.root, file.id, size, mtime_ns, ctime_ns, inode),
    )
    label = "\n".join([file.label if file.labelled is None else file.labelled()] * LABEL_WEIGHT)
    body = _readable_text(file)
    connection.execute(
        "INSERT INTO docs (rowid, label, label_text, body, body_text) VALUES (?, ?, ?, ?, ?)",
        (cursor.lastrowid, *_fed(label), *_fed(body)),
    )
    return 1


def _fed(text: str) -> tuple[str, str | None]:
    """What FTS5 reads of `text`, and the text when that is not it: a text holding CJK is
    fed as its words, unicode61 splitting them as they are (docs/formats.md §22.11)."""
    if not has_cjk(text):
        return text, None
    return " ".join(tokens(text)), text


def _readable_text(file: IndexedFile) -> str:
    """The text `view` would show of `file` (the one readability rule, the cap, no NUL),
    "" when it would refuse it."""
    if file.physical is None:
        return ""
    try:
        content = read_file_content(file.physical, follow_link=file.linked)
    except OSError:
        return ""
    return "" if content.over_cap or content.binary else content.content
