"""Files named from outside, read boundedly and without blocking, written into but never replaced
(docs/formats.md §16.1): an output that is a FIFO or a device is written into, a regular file
replaced atomically."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

from memtab.fs.atomic import atomic_write_bytes, write_all

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_BINARY = getattr(os, "O_BINARY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CHUNK_BYTES = 1 << 20


def size_words(limit: int) -> str:
    """`100 KiB (102,400 bytes)`: a cap as a message says it."""
    for shift, unit in ((20, "MiB"), (10, "KiB")):
        if limit >= 1 << shift and limit % (1 << shift) == 0:
            return f"{limit >> shift} {unit} ({limit:,} bytes)"
    return f"{limit:,} bytes"


def not_regular_error(info: os.stat_result, path: str) -> OSError:
    """The error for a path that is no regular file, its kind in words."""
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        return IsADirectoryError(errno.EISDIR, "it is a directory, not a file", path)
    kinds = (
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISSOCK, "a socket"),
    )
    kind = next((name for test, name in kinds if test(mode)), "something")
    return OSError(errno.EINVAL, f"it is {kind}, not a regular file", path)


def read_regular_file(
    path: Path | str,
    *,
    limit: int,
    follow_links: bool = True,
    truncate: bool = False,
    dir_fd: int | None = None,
) -> bytes:
    """At most `limit` bytes of regular file `path`, never blocking. OSError saying in words what
    else it is or that it is too big (`truncate`: its first `limit` bytes); `follow_links=False`
    refuses a link."""
    name = os.fspath(path)
    flags = os.O_RDONLY | _NONBLOCK | _CLOEXEC | _BINARY | (0 if follow_links else _NOFOLLOW)
    fd = os.open(name, flags, dir_fd=dir_fd)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise not_regular_error(info, name)
        if info.st_size > limit and not truncate:
            raise _too_large(name, limit)
        data = read_at_most(fd, limit + 1)  # one more: the file may have grown
    finally:
        os.close(fd)
    if len(data) > limit:
        if not truncate:
            raise _too_large(name, limit)
        data = data[:limit]
    return data


def open_regular_file(path: Path | str) -> BinaryIO:
    """Regular file `path` opened for buffered reading, never blocking."""
    name = os.fspath(path)
    fd = os.open(name, os.O_RDONLY | _NONBLOCK | _CLOEXEC | _BINARY)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise not_regular_error(info, name)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def read_whole_regular_file(path: Path | str) -> bytes:
    """All of regular file `path` (one Memtab keeps, maybe replaced), never waited for."""
    with open_regular_file(path) as stream:
        return stream.read()


def read_stream(stream: BinaryIO, *, limit: int, name: str = "standard input") -> bytes:
    """At most `limit` bytes of `stream` (stdin); OSError when it holds more."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise _too_large(name, limit)
    return data


def _too_large(name: str, limit: int) -> OSError:
    return OSError(errno.EFBIG, f"it holds more than {size_words(limit)}", name)


def read_at_most(fd: int, limit: int | None) -> bytes:
    """At most `limit` bytes (None: all) from `fd`'s position."""
    chunks: list[bytes] = []
    remaining = limit
    while remaining is None or remaining > 0:
        chunk = os.read(fd, _CHUNK_BYTES if remaining is None else min(remaining, _CHUNK_BYTES))
        if not chunk:
            break
        chunks.append(chunk)
        if remaining is not None:
            remaining -= len(chunk)
    return b"".join(chunks)


def write_output_file(path: Path | str, data: bytes) -> None:
    """Write `data` to an output file a user named: a regular file replaced atomically, a FIFO or
    character device written into; OSError saying why not."""
    name = os.fspath(path)
    try:
        info = os.stat(name)
    except FileNotFoundError:
        info = None
    if info is None or stat.S_ISREG(info.st_mode):
        atomic_write_bytes(Path(os.path.realpath(name)), data)
        return
    if not (stat.S_ISFIFO(info.st_mode) or stat.S_ISCHR(info.st_mode)):
        raise not_regular_error(info, name)
    try:
        # A FIFO with no reader fails at once (ENXIO).
        fd = os.open(name, os.O_WRONLY | _NONBLOCK | _CLOEXEC | _BINARY)
    except OSError as error:
        if error.errno == errno.ENXIO:
            raise OSError(errno.ENXIO, "it is a FIFO nothing reads from", name) from None
        raise
    try:
        if _NONBLOCK:
            os.set_blocking(fd, True)  # opened: now wait for the reader as it reads
        write_all(fd, data)
    finally:
        os.close(fd)
