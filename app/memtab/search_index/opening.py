"""How the search index file is opened (docs/formats.md §22.11, §15.5): private, never
through a link, and what is done when it cannot be used.

The file is the memory's words, so it is 0600 in Memtab's 0700 cache dir whatever the
umask: made by Memtab itself (`create_private_file`) before SQLite opens it, and opened
with `mode=rw` so SQLite never creates it (a dangling link's target is never made);
SQLite gives its `-wal` and `-shm` the file's own mode. A link, a FIFO, a socket or a
device at the file's name or its `-wal`, `-shm` or `-journal` is removed first, never
followed; an index made looser by an older Memtab is chmodded.

An index that cannot be used — a folder at its name, a read-only cache dir, a full disk,
an I/O error (`is_unusable`) — is not fatal: the index is built in memory from the files
instead (`memory_uri`: one per `SearchIndex`, shared by its connections), slower to fill,
and the caller says why (`SearchIndex.problem`).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import sqlite3
import urllib.parse
from pathlib import Path

from memtab.fs.private import clear_entry, create_private_file, private_dir

logger = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 10_000
# What SQLite says of a file it cannot use, whatever it holds (the primary result codes):
# no permission, read-only, an I/O error, a full disk, cannot open.
_UNUSABLE = frozenset({3, 8, 10, 13, 14})
# What SQLite adds beside the index: where a link must never be followed.
SIDE_FILES = ("-wal", "-shm", "-journal")
_MEMORY_NAMES = itertools.count(1)

SCHEMA_VERSION = 2
_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE files (rowid INTEGER PRIMARY KEY, root TEXT NOT NULL, id TEXT NOT NULL,"
    " size INTEGER, mtime_ns INTEGER, ctime_ns INTEGER, inode INTEGER, UNIQUE (root, id))",
    # `label` and `body` are what FTS5 reads: the texts, or for a text holding CJK its words
    # (`ranking.tokens`, which unicode61 cannot split), the text then in `*_text`.
    "CREATE VIRTUAL TABLE docs USING fts5(label, body, label_text UNINDEXED, body_text UNINDEXED,"
    " tokenize = 'unicode61 remove_diacritics 0')",
)


class IndexUnusableError(Exception):
    """The index file cannot be used (see the module docstring); the words say why."""


def is_unusable(error: BaseException) -> bool:
    """Whether `error` says the file cannot be used (rather than damaged or busy)."""
    if isinstance(error, IndexUnusableError):
        return True
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(error, sqlite3.Error) and code is not None and code & 0xFF in _UNUSABLE


def why_unusable(error: BaseException) -> str:
    """`error` in the words an answer's note gives."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


def prepare(path: Path) -> None:
    """Make `path` safe to open as the index: its folder private, nothing but a regular
    file of this user's at its names (each thing removed said in the log), the file made
    when missing (0600). IndexUnusableError when that cannot be done."""
    try:
        private_dir(path.parent)
        for name in (path.name, *(path.name + suffix for suffix in SIDE_FILES)):
            done = clear_entry(path.parent / name)
            if done is not None:
                logger.warning("Search index file %s was %s", path.parent / name, done)
        create_private_file(path)
    except OSError as error:
        raise IndexUnusableError(f"{why_unusable(error)} ({error.filename or path})") from error


def file_uri(path: Path) -> str:
    """The URI SQLite opens the index at: read-write, never created by SQLite."""
    return f"file:{urllib.parse.quote(os.fspath(path))}?mode=rw"


def memory_uri() -> str:
    """A new index in memory, shared by the connections of this process that open it."""
    return f"file:memtab-search-{os.getpid()}-{next(_MEMORY_NAMES)}?mode=memory&cache=shared"


def connect(uri: str) -> sqlite3.Connection:
    """A connection to the index at `uri` (a reader of one in memory reads what its
    writer has not committed yet: shared memory has no busy wait, and a search while the
    files are read in answers from what is there)."""
    connection = sqlite3.connect(
        uri, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False,
        uri=True,
    )  # fmt: skip
    connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    if "mode=memory" in uri:
        connection.execute("PRAGMA read_uncommitted = true")
    return connection


def schema_problem(connection: sqlite3.Connection) -> str | None:
    """None when the file is an index of this version, "new" when it holds nothing yet,
    else what is wrong with it."""
    connection.execute("PRAGMA journal_mode = WAL")
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    if not tables:
        return "new"
    if "meta" not in tables:
        return "not Memtab's search index"
    row = connection.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if row is None or row[0] != str(SCHEMA_VERSION):
        return f"of another version ({row[0] if row else 'none'}, not {SCHEMA_VERSION})"
    return None


def create_schema(connection: sqlite3.Connection) -> None:
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("BEGIN IMMEDIATE")
    try:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        if "meta" not in tables:  # another process may have made it meanwhile
            for statement in _SCHEMA:
                connection.execute(statement)
            connection.execute(
                "INSERT INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
            )
    except BaseException:
        connection.rollback()
        raise
    connection.commit()


def delete_index(path: Path) -> None:
    for suffix in ("", *SIDE_FILES):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{path}{suffix}")
