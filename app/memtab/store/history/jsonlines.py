"""Append-only JSON-lines files shared by processes (history's indexes, the runs log): appends under
the lock in one `O_APPEND` write, readers lock-free over complete lines, a bad line skipped with one
warning, each file's records cached per process by offset. Private (docs/formats.md §16.2)."""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from memtab.fs.atomic import atomic_write_bytes, encode_utf8, write_all
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.locking.locks import interprocess_lock
from memtab.fs.private import PRIVATE_FILE_MODE, open_private_append, private_folders
from memtab.fs.user_files import read_at_most

logger = logging.getLogger(__name__)

T = TypeVar("T")
LOCK_TIMEOUT_S = 10.0
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)


_LINE_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
"""`json.dumps` with these arguments builds an encoder a call: a batch's 1,000 lines, 1,000."""


def dump_line(record: dict[str, Any]) -> bytes:
    """One record as a line: compact JSON, UTF-8, newline-terminated."""
    return encode_utf8(_LINE_ENCODER.encode(record) + "\n")


@dataclass
class _Cache(Generic[T]):
    identity: tuple[int, int] | None = None
    offset: int = 0
    records: list[T] = field(default_factory=list)
    skipped: int = 0
    tail: bytes = b""  # the last bytes read (at most `_TAIL`), ending at `offset`


_caches: dict[str, _Cache[Any]] = {}
_caches_lock = threading.Lock()


class JsonLinesFile(Generic[T]):
    """A JSON-lines file whose lines `parse` makes records (None: skipped), private from `own`."""

    def __init__(
        self,
        path: Path,
        lock_path: Path,
        parse: Callable[[dict[str, Any]], T | None],
        *,
        own: Path | None = None,
    ):
        self.path = path
        self.lock_path = lock_path
        self._parse = parse
        self._own = own
        self._key = f"{os.path.abspath(path)}|{id(parse)}"

    def records(self) -> list[T]:
        """Every valid record, in the order appended (a fresh list; records are shared)."""
        with _caches_lock:
            cache: _Cache[T] = _caches.setdefault(self._key, _Cache())
            self._refresh(cache)
            return list(cache.records)

    def _refresh(self, cache: _Cache[T]) -> None:
        try:
            fd = os.open(self.path, os.O_RDONLY | _BINARY | _CLOEXEC)
        except FileNotFoundError:
            cache.identity, cache.offset, cache.records = None, 0, []
            return
        except OSError as error:
            logger.warning("Cannot read %s: %s", self.path, error.strerror or error)
            return
        try:
            info = os.fstat(fd)
            identity = (info.st_dev, info.st_ino)
            if not _holds_what_was_read(fd, identity, info.st_size, cache):
                cache.identity, cache.offset, cache.records, cache.skipped = identity, 0, [], 0
                cache.tail = b""
            if info.st_size == cache.offset:
                return
            os.lseek(fd, cache.offset, os.SEEK_SET)
            data = read_at_most(fd, info.st_size - cache.offset)
        except OSError as error:
            logger.warning("Cannot read %s: %s", self.path, error.strerror or error)
            return
        finally:
            os.close(fd)
        end = data.rfind(b"\n") + 1  # only complete lines; a partial one is read next time
        skipped_before = cache.skipped
        for line in data[:end].splitlines():
            if not line.strip():
                continue
            record = self._parse_line(line)
            if record is None:
                cache.skipped += 1
            else:
                cache.records.append(record)
        cache.offset += end
        cache.tail = (cache.tail + data[max(0, end - _TAIL) : end])[-_TAIL:]
        if skipped := cache.skipped - skipped_before:
            logger.warning(
                "Skipped %d unreadable line(s) of %s (kept as they are)", skipped, self.path
            )

    def _parse_line(self, line: bytes) -> T | None:
        try:
            value = parse_json(line)
            return self._parse(value) if isinstance(value, dict) else None
        except (JsonError, TypeError, ValueError, KeyError):
            return None

    @contextmanager
    def locked(self, *, timeout_s: float = LOCK_TIMEOUT_S) -> Iterator[None]:
        """Hold the file's lock: records read inside are current until the block ends."""
        self._private_folder()
        with interprocess_lock(self.lock_path, timeout_s=timeout_s):
            yield

    def append_locked(self, records: list[dict[str, Any]], *, durable: bool = True) -> None:
        """Append records, the caller holding `locked()`; not `durable`: not fsynced. OSError."""
        if not records:
            return
        data = b"".join(dump_line(record) for record in records)
        self._private_folder()
        fd = open_private_append(self.path)
        try:
            size = os.fstat(fd).st_size
            if size and not _ends_with_newline(self.path, size):
                data = b"\n" + data  # close a line a crashed writer left open
            write_all(fd, data)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)

    def append(self, records: list[dict[str, Any]], *, durable: bool = True) -> None:
        """Append records under the lock. OSError or LockUnavailableError."""
        with self.locked():
            self.append_locked(records, durable=durable)

    def rewrite_locked(self, records: list[dict[str, Any]]) -> None:
        """Replace the whole file atomically (pruning); the caller holds `locked()`."""
        self._private_folder()
        data = b"".join(dump_line(record) for record in records)
        atomic_write_bytes(self.path, data, mode=PRIVATE_FILE_MODE)

    def _private_folder(self) -> None:
        folder = self.path.parent
        private_folders(folder, below=self._own if self._own is not None else folder)

    def drop(self, goes: Callable[[T], bool], to_json: Callable[[T], dict[str, Any]]) -> int:
        """Rewrite the file without the records `goes` picks, under the lock; how many went."""
        if not any(goes(record) for record in self.records()):
            return 0
        with self.locked():
            records = self.records()
            kept = [record for record in records if not goes(record)]
            self.rewrite_locked([to_json(record) for record in kept])
        return len(records) - len(kept)


_TAIL = 256  # bytes kept of what was read last: a line's worth, times and hashes in it


def _holds_what_was_read(fd: int, identity: tuple[int, int], size: int, cache: _Cache[T]) -> bool:
    """Whether the open file is the one `cache` read: same inode, no shorter, the last bytes read
    still where they ended."""
    if identity != cache.identity or size < cache.offset:
        return False
    if not cache.tail:
        return True
    os.lseek(fd, cache.offset - len(cache.tail), os.SEEK_SET)
    return read_at_most(fd, len(cache.tail)) == cache.tail


def _ends_with_newline(path: Path, size: int) -> bool:
    with open(path, "rb") as handle:
        handle.seek(size - 1)
        return handle.read(1) == b"\n"
