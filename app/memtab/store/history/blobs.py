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
  short (written without a sync, below) is written again, durably; an intact one is
  fsynced, in case it was still only in memory.
- `batch()` (`sync_external`: the baseline and `external` copies of files that are still
  on disk) writes each blob without an fsync, then makes every blob it was given durable
  with one sync of the file system when the batch ends — the ones it found already there
  too, as another batch may have written them and crashed before its sync — and only
  then does the caller index them. A crash before that sync loses only copies no index
  refers to (the files themselves are on disk, and the next sync copies them again,
  rewriting any blob the crash cut short); one after it loses nothing. Where the file
  system cannot be synced at once (`FILESYSTEM_SYNC`: not on macOS or Windows), each
  blob of a batch is written durably, as `put` does.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from memtab.fs.atomic import FILESYSTEM_SYNC, Directory, sync_filesystem

logger = logging.getLogger(__name__)

_SUFFIX = ".z"
_COMPRESSION_LEVEL = 6


class BlobError(Exception):
    """A content history should hold is missing or damaged; the message says which."""


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class BlobInfo:
    sha256: str
    size_bytes: int  # on disk, compressed
    mtime: float


class BlobStore:
    """The blobs directory of one home."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def path_of(self, sha256: str) -> Path:
        return self.directory / sha256[:2] / f"{sha256[2:]}{_SUFFIX}"

    def put(self, data: bytes, sha256: str | None = None) -> str:
        """Store `data` durably (once per content) and return its sha256. Raises OSError."""
        digest = sha256 or sha256_of(data)
        with _open_shard(self.directory, digest) as shard:
            _store(shard, digest, data, durable=True)
        return digest

    @contextlib.contextmanager
    def batch(self) -> Iterator[BlobBatch]:
        """Blobs stored together, made durable at once when the block ends without an
        error (see the module doc): index them only after it."""
        batch = BlobBatch(self.directory)
        try:
            yield batch
        finally:
            batch.close()
        batch.sync()

    def get(self, sha256: str) -> bytes:
        """The content with this sha256. BlobError when it is missing or damaged."""
        path = self.path_of(sha256)
        try:
            data = zlib.decompress(path.read_bytes())
        except FileNotFoundError:
            raise BlobError(f"the stored content {sha256[:12]} is missing from history") from None
        except (OSError, zlib.error) as error:
            raise BlobError(f"the stored content {sha256[:12]} cannot be read: {error}") from None
        if sha256_of(data) != sha256:
            raise BlobError(f"the stored content {sha256[:12]} is damaged")
        return data

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

    def remove(self, sha256: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path_of(sha256).unlink()


class BlobBatch:
    """Blobs written without a sync each (`BlobStore.batch`); the shard directories stay
    open until the batch ends."""

    def __init__(self, directory: Path) -> None:
        self._directory = directory
        self._shards: dict[str, Directory] = {}
        self._unsynced = False

    def put(self, data: bytes, sha256: str | None = None) -> str:
        """Store `data` (once per content) and return its sha256. Raises OSError."""
        digest = sha256 or sha256_of(data)
        shard = self._shards.get(digest[:2])
        if shard is None:
            shard = self._shards[digest[:2]] = _open_shard(self._directory, digest)
        _store(shard, digest, data, durable=not FILESYSTEM_SYNC)
        self._unsynced = FILESYSTEM_SYNC
        return digest

    def close(self) -> None:
        shards, self._shards = self._shards, {}
        for shard in shards.values():
            shard.close()

    def sync(self) -> None:
        """Make every blob of this batch durable: one sync of the file system."""
        if self._unsynced:
            sync_filesystem(self._directory)
            self._unsynced = False


def _open_shard(directory: Path, digest: str) -> Directory:
    path = directory / digest[:2]
    path.mkdir(parents=True, exist_ok=True)
    return Directory.open(path)


def _store(shard: Directory, digest: str, data: bytes, *, durable: bool) -> None:
    """Write the blob of `data` in its shard unless an intact one is there (a durable
    store fsyncs one it finds: it may be one a batch wrote and has not synced yet)."""
    name = f"{digest[2:]}{_SUFFIX}"
    existing = _intact_fd(shard, name, digest)
    if existing is not None:
        try:
            # Mark it as in use (see the module doc).
            os.utime(existing if os.utime in os.supports_fd else shard.display(name))
            if durable:
                os.fsync(existing)
                shard.fsync()
        finally:
            os.close(existing)
        return
    shard.replace(name, zlib.compress(data, _COMPRESSION_LEVEL), durable=durable)


def _intact_fd(shard: Directory, name: str, digest: str) -> int | None:
    """A descriptor of the blob `name` if it holds its content, else None (missing, or
    damaged: cut short by a crash before it was synced, say)."""
    try:
        fd = shard.open_file(name)
    except FileNotFoundError:
        return None
    except OSError as error:  # not a regular file: replacing it will say what is wrong
        logger.warning("History's copy %s cannot be read: %s", digest[:12], error)
        return None
    try:
        with open(fd, "rb", closefd=False) as handle:
            intact = sha256_of(zlib.decompress(handle.read())) == digest
    except (OSError, zlib.error):
        intact = False
    if not intact:
        os.close(fd)
        logger.warning("History's copy %s was damaged; it is written again", digest[:12])
        return None
    return fd
