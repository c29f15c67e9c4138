"""File contents kept by history: one zlib-compressed file per distinct content.

A blob is named by the sha256 of the content it holds (`blobs/ab/abcdef….z`), so a
content saved a hundred times is stored once. Blobs are written atomically and never
changed; storing a content that is already there refreshes the blob's mtime instead,
which keeps pruning (`prune.py`) from removing a blob a version is being recorded for.
A blob that does not decompress to its own sha is reported, never returned.

Durability. A version may only be indexed once its blob is on disk, so a crash never
leaves an index pointing at a lost content:

- `put` (a Memtab change: the content it replaces or removes, and the new one) is
  written and fsynced at once. A blob already there is read back first: one a crash cut
  short (written without an fsync, below) is written again, durably; an intact one is
  fsynced, in case it was still only in memory.
- `batch()` (`record_external`: the baseline and `external` copies of files that are still
  on disk) writes each blob, and each folder it makes, without an fsync, then makes every
  blob it was given durable with one flush of the file system when the batch ends — the
  ones it found already there too, as another batch may have written them and crashed
  before its flush — and only then does the caller index them. A crash before that flush
  loses only copies no index refers to (the files themselves are on disk, and the next
  recording pass copies them again, rewriting any blob the crash cut short); one after it
  loses nothing. Where the file
  system cannot be flushed at once (`FILESYSTEM_FLUSH_WORKS`: not on macOS or Windows), each
  blob of a batch is written durably, as `put` does.

Reading. A blob is expanded as it is read, a chunk at a time, and never to more than
history keeps (`MAX_HISTORY_FILE_BYTES`, formats §14.2): a damaged or planted blob that
would expand further (a megabyte of zlib can hold a gigabyte) is refused in words having held
at most that much — every reader of a content (restore, blame, a diff, sync, the doctor)
goes through `BlobStore.get`.

Packs. A batch with many new contents (the first sight of thousands of files) writes them
into a few pack files instead of one file each (`packs.py`), made durable by the batch's
flush as its loose blobs are (a content found in a pack counts as found loose: flushed
again), or fsynced before it gets its name where there is no such flush. Reading, listing
and pruning see packed contents as they see loose blobs; `put` never relies on a pack (it
writes a loose blob).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import zlib
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from memtab.fs.atomic import (
    FILESYSTEM_FLUSH_WORKS,
    Directory,
    make_directory_durably,
    make_filesystem_durable,
    on_one_file_system,
)
from memtab.fs.private import PRIVATE_FILE_MODE, private_folders
from memtab.store.history import packs
from memtab.store.history.capture import MAX_HISTORY_FILE_BYTES, MB
from memtab.store.history.packs import PackEntry

logger = logging.getLogger(__name__)

_SUFFIX = ".z"
_COMPRESSION_LEVEL = 6
_CHUNK = 64 * 1024
_MAX_COMPRESSED = MAX_HISTORY_FILE_BYTES + MAX_HISTORY_FILE_BYTES // 64  # zlib adds < 0.1 %


class BlobError(Exception):
    """A content history should hold is missing or damaged; the message says which."""


class OversizedBlobError(Exception):
    """A blob that expands past what history keeps: damaged, or planted."""


def expand(read: Callable[[int], bytes]) -> bytes:
    """The content of a compressed blob, read `_CHUNK` bytes at a time (`read(n)`, b"" at
    its end) and expanded as they come. Raises OversizedBlobError as soon as it would
    expand past `MAX_HISTORY_FILE_BYTES` (or its compressed form is larger than any of
    those), zlib.error when it is not whole zlib, OSError when it cannot be read."""
    inflater = zlib.decompressobj()
    content = bytearray()
    taken = 0
    while not inflater.eof:
        chunk = read(_CHUNK)
        if not chunk:
            raise zlib.error("incomplete or truncated stream")
        taken += len(chunk)
        if taken > _MAX_COMPRESSED:
            raise OversizedBlobError
        content += inflater.decompress(chunk, MAX_HISTORY_FILE_BYTES + 1 - len(content))
        if len(content) > MAX_HISTORY_FILE_BYTES:
            raise OversizedBlobError
    return bytes(content)


def _expand_file(path: Path) -> bytes:
    with path.open("rb") as handle:
        return expand(handle.read)


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def compress(data: bytes) -> bytes:
    """`data` as a blob holds it: zlib at `_COMPRESSION_LEVEL`, its window and hash table no
    larger than the content needs. Set up at zlib's defaults (~256 KB, cleared at every
    call) they cost ~10× the compression of a 2 KB note; a window as large as the content
    finds the matches the default would (as many bytes, within 0.01 %; a content of 16 KB
    or more is compressed exactly as at the defaults), and any reader expands it (a
    stream names its window: `expand`)."""
    wbits = min(max(len(data).bit_length(), 9), 15)
    memory = min(max(wbits - 6, 1), 8)  # at most zlib's default memLevel, as its window
    compressor = zlib.compressobj(_COMPRESSION_LEVEL, zlib.DEFLATED, wbits, memory)
    return compressor.compress(data) + compressor.flush()


@dataclass(frozen=True)
class BlobInfo:
    sha256: str
    size_bytes: int  # on disk, compressed
    mtime: float
    packed: bool = False  # in a pack (removed by `dissolve_packs`, not `remove`)


class BlobStore:
    """The blobs directory of one home; `own`: the folder of Memtab's own it is in (the
    home's `memtab/`), made private with every folder down to a blob's before it is
    written (None: the blobs directory's own folders alone). Blobs are memory's text:
    0600 in 0700 folders (docs/formats.md §16.2)."""

    def __init__(self, directory: Path, *, own: Path | None = None) -> None:
        self.directory = directory
        self.packs_dir = directory / "packs"
        self.own = own if own is not None else directory

    def path_of(self, sha256: str) -> Path:
        return self.directory / sha256[:2] / f"{sha256[2:]}{_SUFFIX}"

    def put(self, data: bytes, sha256: str | None = None) -> str:
        """Store `data` durably (once per content) and return its sha256. Raises OSError."""
        digest = sha256 or sha256_of(data)
        with _open_shard(self.directory, digest, own=self.own) as shard:
            if not _refresh_intact(shard, digest, durable=True):
                _write(shard, digest, compress(data), durable=True)
        return digest

    @contextlib.contextmanager
    def batch(self, *, flushed_with: Path | None = None) -> Iterator[BlobBatch]:
        """Blobs stored together, made durable at once when the block ends without an
        error (see the module doc): index them only after it. `flushed_with`: the caller
        flushes the file system holding that path before it indexes them
        (`make_filesystem_durable`, where `FILESYSTEM_FLUSH_WORKS`), so the batch does not
        flush it too — unless history is on another file system (a project's scope on
        another disk), which that flush would not reach."""
        batch = BlobBatch(self)
        try:
            yield batch
            batch.finish()
        finally:
            batch.close()
        if not self._flushed_by_caller(flushed_with):
            batch.make_durable()

    def _flushed_by_caller(self, flushed_with: Path | None) -> bool:
        """Whether the caller's flush of the file system holding `flushed_with` covers
        this store's folder."""
        if flushed_with is None or not FILESYSTEM_FLUSH_WORKS:
            return False
        try:
            return on_one_file_system(self.directory, flushed_with)
        except OSError:
            return False  # cannot tell: flushed here

    def get(self, sha256: str) -> bytes:
        """The content with this sha256, from its loose blob or else a pack. BlobError when
        it is missing or damaged in both."""
        problem = "is missing from history"
        for read in (lambda: _expand_file(self.path_of(sha256)), lambda: self._packed(sha256)):
            try:
                data = read()
            except FileNotFoundError:
                continue
            except OversizedBlobError:
                problem = (
                    f"expands past {MAX_HISTORY_FILE_BYTES // MB} MB, more than history keeps "
                    "(damaged, or not Memtab's): it is not read"
                )
                continue
            except (OSError, zlib.error) as error:
                problem = f"cannot be read: {error}"
                continue
            if sha256_of(data) == sha256:
                return data
            problem = "is damaged"
        raise BlobError(f"the stored content {sha256[:12]} {problem}")

    def _packed(self, sha256: str) -> bytes:
        """The content from its pack (see `expand`). FileNotFoundError when no pack has it,
        even as a loose blob again (a pack dissolved meanwhile)."""
        entry = packs.locate(self.packs_dir, sha256)
        if entry is not None:
            with contextlib.suppress(FileNotFoundError), entry.pack.open("rb") as handle:
                return expand(packs.entry_reader(entry, handle))
        return _expand_file(self.path_of(sha256))

    def all(self) -> Iterator[BlobInfo]:
        """Every blob on disk (for pruning)."""
        try:
            shards = list(os.scandir(self.directory))
        except FileNotFoundError:
            return
        for shard in shards:
            if len(shard.name) != 2 or not shard.is_dir(follow_symlinks=False):
                continue
            try:
                entries = list(os.scandir(shard.path))
            except OSError:
                continue
            for entry in entries:
                if not entry.name.endswith(_SUFFIX) or entry.name.startswith("."):
                    continue
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                digest = shard.name + entry.name[: -len(_SUFFIX)]
                yield BlobInfo(digest, info.st_size, info.st_mtime)
        for digest, where, mtime in packs.all_entries(self.packs_dir):
            yield BlobInfo(digest, where.length, mtime, packed=True)

    def remove(self, sha256: str) -> None:
        """Remove the loose blob of this content (packs: `dissolve_packs`)."""
        with contextlib.suppress(FileNotFoundError):
            self.path_of(sha256).unlink()

    def dissolve_packs(self, referenced: Collection[str], older_than: float) -> int:
        """Remove each pack (last used before `older_than`, a time) that holds a content
        not in `referenced`, storing the ones it holds that are as loose blobs first;
        returns how many contents went. A pack one of whose referenced contents cannot
        be read is kept."""
        packs.remove_stale_temps(self.packs_dir, older_than)
        removed = 0
        for path in packs.pack_paths(self.packs_dir):
            held = packs.index_of(path)
            unreferenced = [digest for digest in held if digest not in referenced]
            if not unreferenced or _mtime(path) >= older_than:
                continue
            try:
                for digest in held:
                    if digest in referenced:
                        self.put(self.get(digest), digest)
            except (BlobError, OSError) as error:
                logger.warning("History's pack %s is kept: %s", path.name, error)
                continue
            packs.remove_pack(path)
            removed += len(unreferenced)
        return removed


class BlobBatch:
    """Contents stored together (`BlobStore.batch`): new ones are held until the batch
    ends, then written as packs when there are many, else as loose blobs without an fsync
    each; the shard directories stay open until the batch ends."""

    def __init__(self, store: BlobStore) -> None:
        self._store = store
        self._shards: dict[str, Directory] = {}
        self._missing_shards: set[str] | None = None
        self._packed: dict[str, PackEntry] | None = None
        self._touched: set[Path] = set()  # packs marked in use
        self._pack_files: dict[Path, BinaryIO] = {}  # packs open for reading
        self._seen: set[str] = set()
        self._new: list[tuple[str, bytes]] = []
        self._new_bytes = 0
        self._not_durable = False

    def put(self, data: bytes, sha256: str | None = None) -> str:
        """Store `data` (once per content) and return its sha256. Raises OSError."""
        digest = sha256 or sha256_of(data)
        if digest in self._seen:
            return digest
        self._seen.add(digest)
        shard = self._shard(digest, create=False)
        if shard is not None and _refresh_intact(shard, digest, durable=not FILESYSTEM_FLUSH_WORKS):
            self._not_durable = FILESYSTEM_FLUSH_WORKS  # a batch's that crashed before its flush?
            return digest
        if self._in_a_pack(digest):
            return digest
        compressed = compress(data)
        self._new.append((digest, compressed))
        self._new_bytes += len(compressed)
        if self._new_bytes >= packs.PACK_MAX_BYTES and len(self._new) >= packs.PACK_MIN:
            self._write_new()
        return digest

    def finish(self) -> None:
        """Write the contents still held."""
        self._write_new()

    def _write_new(self) -> None:
        new, self._new, self._new_bytes = self._new, [], 0
        if len(new) >= packs.PACK_MIN:
            # Durable by the batch's one flush, with its loose blobs (and whatever else the
            # caller wrote on the file system: a sync's temps), not by fsyncs of its own.
            packs.write_pack(
                self._store.packs_dir,
                new,
                durable=not FILESYSTEM_FLUSH_WORKS,
                own=self._store.own,
            )
            self._not_durable = FILESYSTEM_FLUSH_WORKS
            return
        for digest, compressed in new:
            shard = self._shard(digest, create=True)
            assert shard is not None
            _write(shard, digest, compressed, durable=not FILESYSTEM_FLUSH_WORKS)
            self._not_durable = FILESYSTEM_FLUSH_WORKS

    def _in_a_pack(self, digest: str) -> bool:
        """Whether a pack holds this content intact (its pack is then marked in use)."""
        if self._packed is None:
            self._packed = {d: entry for d, entry, _ in packs.all_entries(self._store.packs_dir)}
        entry = self._packed.get(digest)
        if entry is None:
            return False
        try:
            handle = self._pack_files.get(entry.pack)
            if handle is None:
                handle = self._pack_files[entry.pack] = entry.pack.open("rb")
            intact = sha256_of(expand(packs.entry_reader(entry, handle))) == digest
        except (OSError, zlib.error, OversizedBlobError):
            intact = False
        if intact:  # maybe a batch's that crashed before its flush, as a loose blob
            self._not_durable = FILESYSTEM_FLUSH_WORKS
        if intact and entry.pack not in self._touched:
            packs.touch(entry)
            self._touched.add(entry.pack)
        return intact

    def _shard(self, digest: str, *, create: bool) -> Directory | None:
        """The open shard directory of `digest` (None if it is missing and not `create`)."""
        shard = self._shards.get(digest[:2])
        if self._missing_shards is None:  # one listing, not an open failing for each shard
            self._missing_shards = _missing_shards(self._store.directory)
        if shard is None and (create or digest[:2] not in self._missing_shards):
            try:
                shard = _open_shard(
                    self._store.directory,
                    digest,
                    create=create,
                    durable=not FILESYSTEM_FLUSH_WORKS,
                    own=self._store.own,
                )
            except FileNotFoundError:
                self._missing_shards.add(digest[:2])  # gone since the listing
                return None
            self._shards[digest[:2]] = shard
        return shard

    def close(self) -> None:
        shards, self._shards = self._shards, {}
        for shard in shards.values():
            shard.close()
        pack_files, self._pack_files = self._pack_files, {}
        for handle in pack_files.values():
            handle.close()

    def make_durable(self) -> None:
        """Make every loose blob of this batch durable: one flush of the file system."""
        if self._not_durable:
            make_filesystem_durable(self._store.directory)
            self._not_durable = False


_SHARDS = frozenset(f"{n:02x}" for n in range(256))


def _missing_shards(directory: Path) -> set[str]:
    """The shard folders `directory` does not hold (all of them when it is missing or
    cannot be listed: opening one says more)."""
    try:
        with os.scandir(directory) as entries:
            return set(_SHARDS - {entry.name for entry in entries})
    except FileNotFoundError:
        return set(_SHARDS)
    except OSError:
        return set()  # each is opened, and its error said


def _open_shard(
    directory: Path, digest: str, *, create: bool = True, durable: bool = True, own: Path
) -> Directory:
    """The shard folder of `digest`, made if missing and `create`: fsynced into its parents
    if `durable`, else made durable by the flush that makes its blobs durable; private
    from `own` down."""
    path = directory / digest[:2]
    if create and durable:
        make_directory_durably(path)
    if create:
        private_folders(path, below=own)
    return Directory.open(path)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return float("inf")  # gone: nothing to do


def _write(shard: Directory, digest: str, compressed: bytes, *, durable: bool) -> None:
    shard.replace(f"{digest[2:]}{_SUFFIX}", compressed, durable=durable, mode=PRIVATE_FILE_MODE)


def _refresh_intact(shard: Directory, digest: str, *, durable: bool) -> bool:
    """Whether the loose blob of `digest` is there intact; if so it is marked in use (see
    the module doc) and, `durable`, fsynced: it may be one a batch wrote and has not
    made durable yet."""
    name = f"{digest[2:]}{_SUFFIX}"
    existing = _intact_fd(shard, name, digest)
    if existing is None:
        return False
    try:
        os.utime(existing if os.utime in os.supports_fd else shard.display(name))
        if durable:
            os.fsync(existing)
            shard.fsync()
    finally:
        os.close(existing)
    return True


def _intact_fd(shard: Directory, name: str, digest: str) -> int | None:
    """A descriptor of the blob `name` if it holds its content, else None (missing, or
    damaged: cut short by a crash before it was made durable, say)."""
    try:
        fd = shard.open_file(name)
    except FileNotFoundError:
        return None
    except OSError as error:  # not a regular file: replacing it will say what is wrong
        logger.warning("History's copy %s cannot be read: %s", digest[:12], error)
        return None
    try:
        with open(fd, "rb", closefd=False) as handle:
            intact = sha256_of(expand(handle.read)) == digest
    except (OSError, zlib.error, OversizedBlobError):
        intact = False
    if not intact:
        os.close(fd)
        logger.warning("History's copy %s was damaged; it is written again", digest[:12])
        return None
    return fd
