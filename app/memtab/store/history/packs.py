"""Packs: many history blobs in one file (`<16 hex>.pack`: compressed contents, an index of sha256,
offset and length, then the index's offset, count and `MAGIC`), for a pass that copies thousands;
written whole and never changed, dissolved by pruning."""

from __future__ import annotations

import contextlib
import logging
import os
import struct
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from memtab.fs.atomic import Directory, make_directory_durably
from memtab.fs.private import PRIVATE_FILE_MODE, private_folders
from memtab.store.scope_walk import remove_if_stale_temp

logger = logging.getLogger(__name__)

PACK_MIN = 64  # new contents in a batch; fewer are written as loose blobs
PACK_MAX_BYTES = 4 * 1024 * 1024  # compressed, held in memory before a pack is written
MAGIC = b"MTPACK01"
SUFFIX = ".pack"
_ENTRY = struct.Struct(">32sQI")
_FOOTER = struct.Struct(">QI8s")


@dataclass(frozen=True)
class PackEntry:
    pack: Path
    offset: int
    length: int  # compressed


@dataclass(frozen=True)
class _Index:
    identity: tuple[int, int, int]  # inode, size, ctime: a pack is never rewritten
    entries: dict[str, PackEntry]


_cache: dict[Path, _Index] = {}
_cache_lock = threading.Lock()


def write_pack(
    directory: Path,
    contents: list[tuple[str, bytes]],
    *,
    durable: bool = True,
    own: Path | None = None,
) -> Path:
    """Write `contents` ((sha256, compressed) pairs) as a new private pack in `directory`, durably
    unless the caller's flush makes it so; its path. OSError."""
    if durable:
        make_directory_durably(directory)
    # Folders made here are durable by that flush too.
    private_folders(directory, below=own if own is not None else directory)
    body, index = bytearray(), bytearray()
    for digest, compressed in contents:
        index += _ENTRY.pack(bytes.fromhex(digest), len(body), len(compressed))
        body += compressed
    footer = _FOOTER.pack(len(body), len(contents), MAGIC)
    name = f"{os.urandom(8).hex()}{SUFFIX}"
    with Directory.open(directory) as packs:
        packs.replace(name, bytes(body + index + footer), durable=durable, mode=PRIVATE_FILE_MODE)
    return directory / name


def pack_paths(directory: Path) -> list[Path]:
    try:
        names = os.listdir(directory)
    except (FileNotFoundError, NotADirectoryError):
        return []
    return [directory / name for name in sorted(names) if name.endswith(SUFFIX)]


def locate(directory: Path, sha256: str) -> PackEntry | None:
    """Where a pack in `directory` holds this content, if one does."""
    found = (index_of(path).get(sha256) for path in pack_paths(directory))
    return next((entry for entry in found if entry is not None), None)


def all_entries(directory: Path) -> Iterator[tuple[str, PackEntry, float]]:
    """(sha256, where, the pack's mtime) of every content in every pack."""
    for path in pack_paths(directory):
        try:
            mtime = path.stat().st_mtime
        except OSError:
            continue
        for digest, entry in index_of(path).items():
            yield digest, entry, mtime


def entry_reader(entry: PackEntry, handle: BinaryIO) -> Callable[[int], bytes]:
    """`read(n)` of the compressed content at `entry` in the open pack, within its index's size."""
    handle.seek(entry.offset)
    left = entry.length

    def read(size: int) -> bytes:
        nonlocal left
        data = handle.read(min(size, left))
        if left and not data:
            raise OSError(f"{entry.pack.name} is cut short")
        left -= len(data)
        return data

    return read


def index_of(path: Path) -> dict[str, PackEntry]:
    """The pack's contents by sha256; empty, with a warning, when unreadable or gone."""
    try:
        info = path.stat()
    except OSError:
        return {}
    identity = (info.st_ino, info.st_size, info.st_ctime_ns)
    with _cache_lock:
        cached = _cache.get(path)
    if cached is not None and cached.identity == identity:
        return cached.entries
    try:
        entries = _read_index(path, info.st_size)
    except OSError as error:
        if not isinstance(error, FileNotFoundError):
            logger.warning("History's pack %s cannot be read: %s", path.name, error)
        entries = {}
    with _cache_lock:
        _cache[path] = _Index(identity, entries)
    return entries


def _read_index(path: Path, size: int) -> dict[str, PackEntry]:
    with path.open("rb") as handle:
        if size < _FOOTER.size:
            raise OSError("too short to be a pack")
        handle.seek(size - _FOOTER.size)
        index_at, count, magic = _FOOTER.unpack(handle.read(_FOOTER.size))
        if magic != MAGIC or index_at + count * _ENTRY.size + _FOOTER.size != size:
            raise OSError("not a whole pack")
        handle.seek(index_at)
        raw = handle.read(count * _ENTRY.size)
    entries: dict[str, PackEntry] = {}
    for digest, offset, length in _ENTRY.iter_unpack(raw):
        if offset + length > index_at:
            raise OSError("an entry lies outside the pack")
        entries[digest.hex()] = PackEntry(path, offset, length)
    return entries


def touch(entry: PackEntry) -> None:
    """Mark the pack holding `entry` as in use (see the module doc)."""
    with contextlib.suppress(FileNotFoundError):
        os.utime(entry.pack)


def remove_pack(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    with _cache_lock:
        _cache.pop(path, None)


def remove_stale_temps(directory: Path, older_than: float) -> None:
    """Remove temps of packs a killed process left before `older_than`."""
    try:
        with os.scandir(directory) as entries:
            for entry in list(entries):
                remove_if_stale_temp(entry, older_than, max_age_s=0)
    except OSError:
        return
