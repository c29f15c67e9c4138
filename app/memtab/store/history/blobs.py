"""File contents kept by history: one zlib file per distinct sha256, written atomically and never
changed, durable before any index names it (`put` fsyncs; a `batch` flushes once at its end, many
new contents into packs); a read never expands past `MAX_HISTORY_FILE_BYTES` (formats §14.2)."""

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
    """The content of a compressed blob, expanded as read; OversizedBlobError past
    `MAX_HISTORY_FILE_BYTES`, zlib.error when not whole zlib."""
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
    """`data` as a blob holds it: zlib with its window and hash table no larger than the content
    needs (any reader expands it)."""
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
    """A home's blobs directory, private from `own` down (0600 in 0700, docs/formats.md §16.2)."""

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
        """Blobs stored together, made durable at once when the block ends without an error: index
        them only after. `flushed_with`: the caller flushes that file system, unless history is on
        another."""
        batch = BlobBatch(self)
        try:
            yield batch
            batch.finish()
        finally:
            batch.close()
        if not self._flushed_by_caller(flushed_with):
            batch.make_durable()

    def _flushed_by_caller(self, flushed_with: Path | None) -> bool:
        """Whether the caller's flush of `flushed_with`'s file system covers this store."""
        if flushed_with is None or not FILESYSTEM_FLUSH_WORKS:
            return False
        try:
            return on_one_file_system(self.directory, flushed_with)
        except OSError:
            return False  # cannot tell: flushed here

    def get(self, sha256: str) -> bytes:
        """The content with this sha256, loose or packed; BlobError when missing or damaged."""
        problem = "is missing from history"
        for read in (lambda: _expand_file(self.path_of(sha256)), lambda: self._packed(sha256)):
            try:
                data = read()
            except FileNotFoundError:
                continue
            except OversizedBlobError:
                keeps = f"{MAX_HISTORY_FILE_BYTES // MB} MB, more than history keeps"
                problem = f"expands past {keeps} (damaged, or not Memtab's): it is not read"
                continue
            except (OSError, zlib.error) as error:
                problem = f"cannot be read: {error}"
                continue
            if sha256_of(data) == sha256:
                return data
            problem = "is damaged"
        raise BlobError(f"the stored content {sha256[:12]} {problem}")

    def _packed(self, sha256: str) -> bytes:
        """The content from its pack; FileNotFoundError when no pack has it."""
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
        """Remove each pack last used before `older_than` holding a content not `referenced`,
        keeping its referenced ones loose first; how many contents went."""
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
    """Contents stored together: held until the batch ends, then written as packs when many, else as
    loose blobs without an fsync each."""

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
            # Durable by the batch's one flush, with its loose blobs.
            packs.write_pack(
                self._store.packs_dir, new, durable=not FILESYSTEM_FLUSH_WORKS, own=self._store.own
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
            store, durable = self._store, not FILESYSTEM_FLUSH_WORKS
            try:
                shard = _open_shard(
                    store.directory, digest, create=create, durable=durable, own=store.own
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
    """The shard folders `directory` does not hold (all when unlistable)."""
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
    """The shard folder of `digest`, made if missing and `create` (fsynced if `durable`); private
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
    """Whether the loose blob of `digest` is intact; if so its mtime refreshed (pruning spares it)
    and, `durable`, fsynced."""
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
    """A descriptor of blob `name` if it holds its content, else None."""
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
