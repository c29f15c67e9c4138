"""Files named from outside — a command's FILE option, a project's manifest, a transcript:
read boundedly, written into, never replaced (docs/formats.md §16.1).

Such a path may be anything: a FIFO nothing writes to (an open would wait forever), a
device (`/dev/zero` never ends, `/dev/tty` waits for a key), a directory, a file of
gigabytes. `read_regular_file` opens without blocking, checks the open file is a regular
file before reading a byte, and reads at most `limit` bytes: every answer comes at once,
and the message says why in one line.

An output path the user names is theirs: `write_output_file` replaces a regular file
atomically (temp file + rename, `fs.atomic`), but writes *into* a FIFO or a character
device (`/dev/null`, `/dev/stdout`) as any program would — a rename over it would put a
regular file where the device was (as root: `/dev/null` broken for every program) — and
refuses a directory, a block device or a socket.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

from memtab.fs.atomic import atomic_write_bytes

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_BINARY = getattr(os, "O_BINARY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CHUNK_BYTES = 1 << 20


def size_words(limit: int) -> str:
    """`100 KiB (102,400 bytes)`: a cap as a message says it."""
    if limit >= 1 << 20 and limit % (1 << 20) == 0:
        return f"{limit >> 20} MiB ({limit:,} bytes)"
    if limit >= 1 << 10 and limit % (1 << 10) == 0:
        return f"{limit >> 10} KiB ({limit:,} bytes)"
    return f"{limit:,} bytes"


def not_regular_error(info: os.stat_result, path: str) -> OSError:
    """The error for a path that is no regular file, its kind in words."""
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        return IsADirectoryError(errno.EISDIR, "it is a directory, not a file", path)
    if stat.S_ISFIFO(mode):
        kind = "a FIFO (named pipe)"
    elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        kind = "a device"
    elif stat.S_ISSOCK(mode):
        kind = "a socket"
    else:
        kind = "something"
    return OSError(errno.EINVAL, f"it is {kind}, not a regular file", path)


def read_regular_file(
    path: Path | str,
    *,
    limit: int,
    follow_links: bool = True,
    truncate: bool = False,
    dir_fd: int | None = None,
) -> bytes:
    """At most `limit` bytes of the regular file `path`, without ever blocking.

    Raises OSError: the open's own (missing, permission), or one whose `strerror` says
    in words that the path is not a regular file (a FIFO, a device, a directory) or holds
    more than `limit` bytes (with `truncate`, its first `limit` bytes are returned
    instead). `follow_links=False` refuses a symbolic link (ELOOP). `dir_fd`: `path` is
    a name in that open directory (`fs.atomic.Directory.at`).
    """
    name = os.fspath(path)
    flags = os.O_RDONLY | _NONBLOCK | _CLOEXEC | _BINARY | (0 if follow_links else _NOFOLLOW)
    fd = os.open(name, flags, dir_fd=dir_fd)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise not_regular_error(info, name)
        if info.st_size > limit and not truncate:
            raise _too_large(name, limit)
        data = _read_at_most(fd, limit + 1)  # one more: the file may have grown
    finally:
        os.close(fd)
    if len(data) > limit:
        if not truncate:
            raise _too_large(name, limit)
        data = data[:limit]
    return data


def open_regular_file(path: Path | str) -> BinaryIO:
    """The regular file `path` opened for reading (a buffered binary stream, to read line
    by line), without ever blocking; OSError as `read_regular_file` for anything else."""
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
    """All of the regular file `path` (a file Memtab keeps, which another program may have
    replaced with a FIFO or a device): never waited for; OSError as `read_regular_file`."""
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


def _read_at_most(fd: int, count: int) -> bytes:
    chunks: list[bytes] = []
    remaining = count
    while remaining > 0:
        chunk = os.read(fd, min(remaining, _CHUNK_BYTES))
        if not chunk:
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def write_output_file(path: Path | str, data: bytes) -> None:
    """Write `data` to the output file a user named (see the module doc).

    A missing or regular file (through a link: the file it names) is replaced
    atomically; a FIFO or character device is written into. Raises OSError whose
    `strerror` says why not (a directory, a block device, a FIFO nothing reads).
    """
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
        # Non-blocking: a FIFO with no reader fails at once (ENXIO) instead of waiting.
        fd = os.open(name, os.O_WRONLY | _NONBLOCK | _CLOEXEC | _BINARY)
    except OSError as error:
        if error.errno == errno.ENXIO:
            raise OSError(errno.ENXIO, "it is a FIFO nothing reads from", name) from None
        raise
    try:
        if _NONBLOCK:
            os.set_blocking(fd, True)  # opened: now wait for the reader as it reads
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)
