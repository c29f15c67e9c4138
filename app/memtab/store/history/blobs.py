"""File contents kept by history: one zlib-compressed file per distinct content.

A blob is named by the sha256 of the content it holds (`blobs/ab/abcdef….z`), so a
content saved a hundred times is stored once. Blobs are written atomically and never
changed; storing a content that is already there refreshes the blob's mtime instead,
which keeps pruning (`prune.py`) from removing a blob a version is being recorded for.
A blob that does not decompress to its own sha is reported, never returned.
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

from memtab.fs.atomic import atomic_write_bytes

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
        """Store `data` (once per content) and return its sha256. Raises OSError."""
        digest = sha256 or sha256_of(data)
        path = self.path_of(digest)
        try:
            os.utime(path)  # already stored: mark it as in use (see module doc)
            return digest
        except FileNotFoundError:
            pass
        atomic_write_bytes(path, zlib.compress(data, _COMPRESSION_LEVEL))
        return digest

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
