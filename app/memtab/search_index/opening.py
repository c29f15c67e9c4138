"""How the search index is opened (docs/formats.md §22.11, §15.5): a private folder holding
tantivy's regular files alone, never through a link, checked before each write and reload, rebuilt
when damaged or of another version, in memory when unusable."""

from __future__ import annotations

import array
import contextlib
import errno
import logging
import os
import re
import stat
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import tantivy

from memtab.fs.locking.locks import interprocess_lock
from memtab.fs.memo import Stamp
from memtab.fs.private import (
    PRIVATE_DIR_MODE,
    clear_entry,
    close_tree,
    closed_to_others,
    entry_kind,
    private_dir,
)
from memtab.fs.sidecar import corrupt_copy_name
from memtab.search_index.documents import term

MANIFEST_FIELD = "manifest"
"""The root a manifest document is of (raw; no file's document has it)."""
STAMPS_FIELD = "stamps"
NO_STAMP = 2**64 - 1
"""The size a file without a stamp is kept with (no file is that long)."""
_HEAD = 8  # the byte length of the ids, little-endian
_ITEM = 8  # each array's item (`Q`, `q`)


class ManifestDamagedError(ValueError):
    """A manifest that cannot be read back: the index is damaged (rebuilt: "corrupt")."""


def encode(rows: Mapping[str, Stamp | None]) -> bytes:
    """`rows` (id → stamp) as stored."""
    ids = "\0".join(rows).encode("utf-8", "surrogatepass")
    stamps = [(NO_STAMP, 0, 0, 0) if stamp is None else stamp for stamp in rows.values()]
    sizes, mtimes, ctimes, inodes = zip(*stamps, strict=True) if stamps else ((), (), (), ())
    return b"".join(
        [
            len(ids).to_bytes(_HEAD, "little"),
            ids,
            array.array("Q", sizes).tobytes(),
            array.array("q", mtimes).tobytes(),
            array.array("q", ctimes).tobytes(),
            array.array("Q", inodes).tobytes(),
        ]
    )


def _ids_in(blob: bytes) -> list[str]:
    """The ids `encode` stored in `blob`; ManifestDamagedError otherwise."""
    length = int.from_bytes(blob[:_HEAD], "little")
    try:
        ids = blob[_HEAD : _HEAD + length].decode("utf-8", "surrogatepass").split("\0")
    except UnicodeDecodeError as error:
        raise ManifestDamagedError(f"search index manifest corrupt ({error})") from error
    if length == 0:
        ids = []
    if len(blob) != _HEAD + length + 4 * _ITEM * len(ids):
        raise ManifestDamagedError(f"search index manifest corrupt ({len(blob)} bytes)")
    return ids


def decode(blob: bytes) -> dict[str, Stamp | None]:
    """The rows `encode` stored; ManifestDamagedError when `blob` is not such."""
    ids = _ids_in(blob)
    count = len(ids)
    at, size = len(blob) - 4 * _ITEM * count, _ITEM * count
    columns = [
        array.array(kind, blob[at + n * size : at + (n + 1) * size])
        for n, kind in enumerate("QqqQ")
    ]
    rows: dict[str, Stamp | None] = dict(zip(ids, zip(*columns, strict=True), strict=True))
    if NO_STAMP in columns[0]:
        for key, stamp in rows.items():
            if stamp is not None and stamp[0] == NO_STAMP:
                rows[key] = None
    return rows


def manifest_document(root: str, rows: Mapping[str, Stamp | None]) -> Any:
    """The document that says what the index holds under `root`."""
    document = tantivy.Document()
    document.add_text(MANIFEST_FIELD, term(root))
    document.add_bytes(STAMPS_FIELD, encode(rows))
    return document


def manifests_query(schema: Any, roots: list[str]) -> Any:
    """The manifest documents of `roots`."""
    return tantivy.Query.term_set_query(schema, MANIFEST_FIELD, [term(root) for root in roots])


def read_manifest(searcher: Any, schema: Any, root: str) -> dict[str, Stamp | None]:
    """What `searcher`'s commit holds under `root` (id → stamp; empty when nothing)."""
    blob = _stored(searcher, schema, root)
    return decode(blob) if blob is not None else {}


def read_ids(searcher: Any, schema: Any, root: str) -> list[str]:
    """The ids `searcher`'s commit holds under `root`."""
    blob = _stored(searcher, schema, root)
    return _ids_in(blob) if blob is not None else []


def _stored(searcher: Any, schema: Any, root: str) -> bytes | None:
    """The manifest of `root` in `searcher`'s commit, as stored (None: none)."""
    query = tantivy.Query.term_query(schema, MANIFEST_FIELD, term(root))
    hits = searcher.search(query, 1, count=False).hits
    if not hits:
        return None
    values = searcher.doc(hits[0][1]).get_all(STAMPS_FIELD)
    return bytes(values[0]) if values else None


logger = logging.getLogger(__name__)

# The schema's version, in the index folder's name (`index.index_file_for`).
VERSION = 5
# What one writer may hold in memory before it writes a segment.
WRITER_HEAP_BYTES = 64_000_000
# How long a writer waits for another process's.
WRITE_WAIT_S = 60.0
TOKENIZER = "memtab"
# What tantivy makes in an index's folder.
_TANTIVY_NAME = re.compile(
    r"(meta\.json|\.managed\.json|\.tantivy-(meta|writer)\.lock|[0-9a-f]{32}(\.[0-9]+)?\.[a-z]+"
    r"|\.tmp[0-9A-Za-z]+|.*\.tmp)"
)
# What the OS says of a disk Memtab cannot write, in the words a note gives (formats §22.11).
_PLAIN_WORDS = {
    errno.ENOSPC: "the cache's disk is full: free some space on it, and the next search "
    "builds the index again",
    errno.EDQUOT: "the disk quota of the cache's disk is used up: free some space, and the "
    "next search builds the index again",
    errno.EROFS: "the cache's disk is read-only",
    errno.EACCES: "Memtab may not write in the cache folder (permission denied)",
    errno.EPERM: "Memtab may not write in the cache folder (not permitted)",
    errno.EIO: "the cache's disk could not be read or written (an I/O error)",
    errno.EFBIG: "a file of the index would grow past the largest file this system allows",
}
# How Rust's std says one: by number (`os error 28`) or by kind (`kind: StorageFull`).
_RUST_KINDS = {
    "StorageFull": errno.ENOSPC,
    "QuotaExceeded": errno.EDQUOT,
    "ReadOnlyFilesystem": errno.EROFS,
    "PermissionDenied": errno.EACCES,
    "FileTooLarge": errno.EFBIG,
}
_OS_ERROR = re.compile(r"os error ([0-9]+)")
# A folder gone is damaged too: rebuilt where it was, never followed.
_DAMAGED_WORDS = re.compile(
    r"corrupt|does not exist|Failed to open|not ?found|No such file|deserializ|checksum"
    r"|Data corrupted|incompatib|Index format|version|truncat|unexpected end",
    re.IGNORECASE,
)


Folder = tuple[int, int]
"""The index's folder as opened: its device and inode."""


class IndexUnusableError(Exception):
    """The index cannot be used (see the module docstring); the words say why."""


class FolderChangedError(ValueError):
    """The index's folder is not as it was opened (`check_folder`); the words say how."""


def is_unusable(error: BaseException) -> bool:
    """Whether `error` says the index's folder cannot be written or read (not damaged)."""
    if isinstance(error, IndexUnusableError):
        return True
    return isinstance(error, ValueError | OSError) and _errno_in(error) is not None


def is_damaged(error: BaseException) -> bool:
    """Whether `error` (tantivy's, reading or writing the index) says it is damaged."""
    return isinstance(error, ValueError | OSError) and bool(_DAMAGED_WORDS.search(str(error)))


def why_unusable(error: BaseException) -> str:
    """`error` in an answer's plain words (tantivy's own text is for the log)."""
    number = _errno_in(error)
    if number is not None:
        return _PLAIN_WORDS[number]
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


def debug_words(error: BaseException) -> str:
    """`error` as raised, with what raised it (tantivy's text, for the log)."""
    cause = error.__cause__
    words = str(error) or type(error).__name__
    return f"{words}: {cause}" if cause is not None and str(cause) not in words else words


def _errno_in(error: BaseException) -> int | None:
    """Which of the disk's errors `error` is, or None."""
    if isinstance(error, OSError) and error.errno in _PLAIN_WORDS:
        return error.errno
    text = str(error)
    said = [int(number) for number in _OS_ERROR.findall(text)]
    said += [number for kind, number in _RUST_KINDS.items() if kind in text]
    return next((number for number in said if number in _PLAIN_WORDS), None)


def schema() -> Any:
    """The index's fields (formats §22.11)."""
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("root", tokenizer_name="raw", index_option="basic")
    builder.add_unsigned_field("number", indexed=True, fast=True)
    # Without positions; a CJK run asked for needs them, kept in `cjk`.
    builder.add_text_field("words", tokenizer_name=TOKENIZER, index_option="freq")
    builder.add_text_field("cjk", tokenizer_name=TOKENIZER, index_option="position")
    # Stored, never indexed.
    builder.add_bytes_field("id", stored=True, indexed=False)
    builder.add_bytes_field("label", stored=True, indexed=False)
    builder.add_bytes_field("body", stored=True, indexed=False)
    # A root's manifest: its root, its files' ids and stamps.
    builder.add_text_field(MANIFEST_FIELD, tokenizer_name="raw", index_option="basic")
    builder.add_bytes_field(STAMPS_FIELD, stored=True, indexed=False)
    return builder.build()


def _analyzer() -> Any:
    """Words as `ranking.tokens` reads them: letters and digits, lowercased."""
    builder = tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
    return builder.filter(tantivy.Filter.lowercase()).build()


def open_in_memory() -> Any:
    """A new, empty index in memory (one process's own)."""
    index = tantivy.Index(schema())
    index.register_tokenizer(TOKENIZER, _analyzer())
    return index


def open_index(path: Path, *, rebuild: bool = False) -> tuple[Any, Folder]:
    """The index at `path` and its folder as opened: made, rebuilt when damaged, of another version
    or `rebuild`; made safe first. IndexUnusableError."""
    try:
        private_dir(path.parent)
        _forget_older_versions(path)
        cleared = clear_entry(lock_path(path))
        if cleared is not None:
            logger.warning("Search index lock %s was %s", lock_path(path), cleared)
        with interprocess_lock(lock_path(path), timeout_s=WRITE_WAIT_S):
            _prepare_folder(path)
            index = None if rebuild else _opened(path)
            if index is None:
                _empty_folder(path)
                index = tantivy.Index(schema(), path=os.fspath(path), reuse=False)
            close_tree(path)  # made by an older Memtab, or just now, as the umask says
            info = os.lstat(path)
    except OSError as error:
        raise IndexUnusableError(f"{why_unusable(error)} ({error.filename or path})") from error
    except ValueError as error:
        if is_unusable(error):
            raise IndexUnusableError(why_unusable(error)) from error
        raise
    index.register_tokenizer(TOKENIZER, _analyzer())
    return index, (info.st_dev, info.st_ino)


def check_folder(path: Path, opened: Folder) -> None:
    """FolderChangedError when the folder at `path` is not `opened`, is open to others or another
    user's, or holds anything but regular files."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        raise FolderChangedError("its folder is gone") from None
    if not stat.S_ISDIR(info.st_mode):
        kind = "a file" if stat.S_ISREG(info.st_mode) else entry_kind(info.st_mode)
        raise FolderChangedError(f"{kind} at its folder's name")
    if (info.st_dev, info.st_ino) != opened:
        raise FolderChangedError("another folder at its folder's name")
    if not closed_to_others(info):
        raise FolderChangedError("its folder open to others, or another user's")
    for entry in _entries(path):
        if not entry.is_file(follow_symlinks=False):
            raise FolderChangedError(f"{entry.name} in it no regular file")


def lock_path(path: Path) -> Path:
    """The lock one writer at a time holds across processes (`fs/locking/locks.py`)."""
    return path.parent / f".{path.name}.lock"


def _opened(path: Path) -> Any | None:
    """The index at `path` when it opens (None: rebuild it; `path` names its version)."""
    if not (path / "meta.json").exists():
        return None
    try:
        return tantivy.Index.open(os.fspath(path))
    except (ValueError, OSError) as error:
        if is_unusable(error):
            raise
        logger.warning("Search index %s is damaged (%s): rebuilt", path, error)
        return None


def _prepare_folder(path: Path) -> None:
    """Make the index's folder safe: what is no folder at its name removed, the folder private,
    non-regular entries removed (a folder inside: `_set_aside`). IndexUnusableError for the user's
    files."""
    with contextlib.suppress(FileNotFoundError):
        mode = os.lstat(path).st_mode
        if not stat.S_ISDIR(mode):
            os.unlink(path)  # a link is removed, never followed; a FIFO is never opened
            kind = "a file" if stat.S_ISREG(mode) else entry_kind(mode)
            logger.warning("Search index %s was no folder (%s): removed", path, kind)
    private_dir(path)  # made 0700, or closed to others
    for entry in _entries(path):
        if not _TANTIVY_NAME.fullmatch(entry.name):
            raise IndexUnusableError(
                f"{path} is a folder holding files not of the index ({entry.name}): left alone"
            )
        if not entry.is_file(follow_symlinks=False):
            if entry.is_dir(follow_symlinks=False):
                _set_aside(path, entry.name)
                return
            os.unlink(entry.path)
            logger.warning("Search index file %s was a link or no file: removed", entry.path)


def _set_aside(path: Path, name: str) -> None:
    """The index holds a folder at one of tantivy's names: moved aside whole
    (`<folder>.corrupt-<UTC>`) and begun anew."""
    kept = corrupt_copy_name(path)
    os.rename(path, kept)
    logger.warning(
        "Search index %s is damaged (a folder at %s, where the index keeps a file): moved "
        "aside as %s, whatever that folder holds kept there (delete it once you have "
        "looked), and rebuilt", path, name, kept,
    )  # fmt: skip
    os.mkdir(path, PRIVATE_DIR_MODE)


def _empty_folder(path: Path) -> None:
    """Take out every file of a former index in the folder."""
    for entry in _entries(path):
        if _tantivys(entry):
            os.unlink(entry.path)


def _forget_older_versions(path: Path) -> None:
    """Remove the indexes an older Memtab kept of the same home."""
    digest = path.name.rpartition("-")[2]
    folders = [path.parent / f"search-v{version}-{digest}" for version in range(3, VERSION)]
    for folder in folders:
        _forget_folder(folder)
    sqlite = [
        path.parent / f"search-{digest}.sqlite3{end}" for end in ("", "-wal", "-shm", "-journal")
    ]
    for older in sqlite + [lock_path(folder) for folder in folders]:
        with contextlib.suppress(FileNotFoundError):
            if not stat.S_ISDIR(os.lstat(older).st_mode):  # a folder there is the user's
                os.unlink(older)


def _forget_folder(folder: Path) -> None:
    """Remove an older index's folder when it holds tantivy's files alone."""
    try:
        entries = _entries(folder) if stat.S_ISDIR(os.lstat(folder).st_mode) else None
    except OSError:
        return
    if entries is not None and all(_tantivys(entry) for entry in entries):
        for entry in entries:
            os.unlink(entry.path)
        os.rmdir(folder)


def _tantivys(entry: os.DirEntry[str]) -> bool:
    """Whether `entry` is a regular file at a name tantivy makes."""
    return bool(_TANTIVY_NAME.fullmatch(entry.name)) and entry.is_file(follow_symlinks=False)


def _entries(path: Path) -> list[os.DirEntry[str]]:
    with os.scandir(path) as entries:
        return list(entries)


def commit_seen(path: Path) -> object:
    """What identifies the index's last commit: its `meta.json` (replaced at each)."""
    try:
        info = os.stat(path / "meta.json")
    except OSError:
        return None
    return (info.st_ino, info.st_mtime_ns, info.st_size)


@contextlib.contextmanager
def writing(owner: Any) -> Iterator[Any]:
    """A writer of `owner`'s index for a block: the lock taken, the folder checked, rolled back on
    failure, merges waited for and new files made private after."""
    with contextlib.ExitStack() as held:
        if owner.problem is None:
            held.enter_context(interprocess_lock(lock_path(owner.path), timeout_s=WRITE_WAIT_S))
            check_folder(owner.path, owner.folder)
            held.callback(_close_files, owner.path, owner.folder)
        writer = owner._index.writer(WRITER_HEAP_BYTES, 1)
        try:
            yield writer
        except BaseException:
            writer.rollback()
            raise
        finally:
            owner.writes += 1
            writer.wait_merging_threads()


def _close_files(path: Path, opened: Folder) -> None:
    """Close to others what a writer made, when the folder is still `opened`."""
    with contextlib.suppress(OSError):
        info = os.lstat(path)
        if stat.S_ISDIR(info.st_mode) and (info.st_dev, info.st_ino) == opened:
            close_tree(path)
