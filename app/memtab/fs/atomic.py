"""Crash-safe writes: a temp written whole and fsynced, then published in one step; `Directory`
works by name in an open directory (a swapped-in symlink cannot redirect a write); `durable=False`,
for copies whose reader checks them, leaves the flush to one `make_filesystem_durable` later."""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import json
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memtab.fs.lazy_re import LazyPattern
from memtab.fs.private import AGENT_FILE_MODE, kept_permissions, make_agent_folders

_LONE_SURROGATE = LazyPattern("[\ud800-\udfff]")

MAX_NAME_BYTES = 255
TEMP_SUFFIX = ".tmp"
# `.<name>.<8 hex>.tmp`, or `.<32 hex>.<8 hex>.tmp` when the name is too long to repeat.
TEMP_NAME = LazyPattern(r"\..+\.[0-9a-f]{8}\.tmp")

_BINARY = getattr(os, "O_BINARY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
# Where the platform can work relative to a directory descriptor (not Windows).
DIR_FD_SUPPORTED = (
    # os.replace takes the same dir fds as os.rename, but is not listed on its own.
    {os.open, os.stat, os.mkdir, os.rename, os.unlink, os.link} <= os.supports_dir_fd
    and os.scandir in os.supports_fd
    and hasattr(os, "O_DIRECTORY")
)
# Hard links cannot be made here; fall back to a checked rename (see `create_new`).
_NO_HARD_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.EXDEV}
# What rename says when its destination is taken by something it will not replace.
_TAKEN = {errno.EEXIST, errno.ENOTEMPTY, errno.ENOTDIR, errno.EISDIR}


def encode_utf8(text: str) -> bytes:
    """`text` as UTF-8, each lone surrogate written as U+FFFD (as JavaScript and mux encode it)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _LONE_SURROGATE.sub("\ufffd", text).encode("utf-8")


def temp_name_for(name: str) -> str:
    """A hidden unique temp name beside `name`, within the 255-byte limit (a long name hashed)."""
    token = os.urandom(4).hex()
    candidate = f".{name}.{token}{TEMP_SUFFIX}"
    if len(encode_utf8(candidate)) <= MAX_NAME_BYTES:
        return candidate
    digest = hashlib.sha256(encode_utf8(name)).hexdigest()[:32]
    return f".{digest}.{token}{TEMP_SUFFIX}"


def is_temp_name(name: str) -> bool:
    """Whether `name` follows Memtab's temp-file pattern (`.<name>.<8 hex>.tmp`)."""
    return name.startswith(".") and name.endswith(TEMP_SUFFIX) and bool(TEMP_NAME.fullmatch(name))


XUM_TEMP_HEX_DIGITS = 12
_LOWER_HEX = frozenset("0123456789abcdef")


def is_xum_temp_name(name: str) -> bool:
    """Whether `name` is xum's atomic-write temp sibling, `<target>.<12 lowercase hex>`
    (docs/formats.md §16)."""
    cut = len(name) - XUM_TEMP_HEX_DIGITS - 1
    return cut > 0 and name[cut] == "." and _LOWER_HEX.issuperset(name[cut + 1 :])


def is_write_temp(name: str) -> bool:
    """Whether `name` is Memtab's or xum's atomic-write temp: never a memory file (formats §16)."""
    return is_temp_name(name) or is_xum_temp_name(name)


class Directory:
    """An open directory; every operation names an entry directly inside it, relative to its
    descriptor where the platform allows (POSIX). A context manager."""

    def __init__(self, fd: int | None, path: str) -> None:
        self.fd = fd
        self.path = path  # for messages (and the path fallback)
        self.closed = False

    @classmethod
    def open(cls, path: Path | str) -> Directory:
        """Open a directory by path (symlinks on the way are followed: the path is trusted)."""
        text = os.fspath(path)
        if not DIR_FD_SUPPORTED:  # pragma: no cover - Windows
            if not os.path.isdir(text):
                missing = not os.path.lexists(text)
                error = FileNotFoundError if missing else NotADirectoryError
                raise error(errno.ENOENT if missing else errno.ENOTDIR, "Not a directory", text)
            return cls(None, text)
        return cls(os.open(text, os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC), text)

    def __enter__(self) -> Directory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        fd, self.fd, self.closed = self.fd, None, True
        if fd is not None:
            os.close(fd)

    def at(self, name: str) -> tuple[str, dict[str, Any]]:
        """`(path, kwargs)` for an os call on `name`: `dir_fd=` where supported."""
        if self.closed:
            raise ValueError(f"{self.path} was closed")
        if self.fd is None:
            return os.path.join(self.path, name), {}
        return name, {"dir_fd": self.fd}

    def display(self, name: str) -> str:
        return os.path.join(self.path, name)

    def exists_error(self, name: str) -> FileExistsError:
        return FileExistsError(errno.EEXIST, "File exists", self.display(name))

    # --- reading ------------------------------------------------------------------------

    def lstat(self, name: str) -> os.stat_result | None:
        """The entry's own stat (a symlink is not followed), or None when it does not exist."""
        path, at = self.at(name)
        try:
            return os.stat(path, follow_symlinks=False, **at)
        except (FileNotFoundError, NotADirectoryError):
            return None

    def open_file(self, name: str) -> int:
        """A read-only descriptor of a regular file (never through a symlink). Raises OSError."""
        path, at = self.at(name)
        # Without blocking: a FIFO in a scope would wait for a writer for ever (refused below).
        flags = os.O_RDONLY | _BINARY | _CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0), **at)
        try:
            mode = os.fstat(fd).st_mode
        except BaseException:
            os.close(fd)
            raise
        if not stat.S_ISREG(mode):
            os.close(fd)
            kind = errno.EISDIR if stat.S_ISDIR(mode) else errno.EINVAL
            raise OSError(kind, "Not a regular file", self.display(name))
        return fd

    # --- writing ------------------------------------------------------------------------

    def write_temp(
        self, name: str, data: bytes, *, mode: int | None = None, durable: bool = True
    ) -> str:
        """Write `data` to a new hidden temp for `name` (fsynced if `durable`); the temp's name."""
        temp = temp_name_for(name)
        self._write_new(temp, data, mode=mode, durable=durable, stat=False)
        return temp

    def write_new(self, name: str, data: bytes) -> os.stat_result:
        """Write a new file `name` (FileExistsError if taken), not fsynced and not atomic: only in a
        folder no reader sees yet; its stat."""
        info = self._write_new(name, data, mode=None, durable=False, stat=True)
        assert info is not None
        return info

    def _write_new(
        self, name: str, data: bytes, *, mode: int | None, durable: bool, stat: bool
    ) -> os.stat_result | None:
        """Create `name` holding `data`, never through a link or over an entry; its stat when
        asked."""
        path, at = self.at(name)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY | _CLOEXEC  # a link: EEXIST
        fd = os.open(path, flags, AGENT_FILE_MODE if mode is None else mode, **at)
        try:
            try:  # plain writes on the descriptor: a buffered file asks the kernel more, per file
                write_all(fd, data)
                if mode is not None and hasattr(os, "fchmod"):
                    os.fchmod(fd, mode)
                if durable:
                    os.fsync(fd)
                return os.fstat(fd) if stat else None
            finally:
                os.close(fd)
        except BaseException:
            self.discard(name)
            raise

    def discard(self, name: str) -> None:
        """Remove an entry if it is there (temp-file cleanup; errors ignored)."""
        path, at = self.at(name)
        with contextlib.suppress(OSError):
            os.unlink(path, **at)

    def fsync(self) -> None:
        """Make renames in this directory durable (not possible, or needed, on Windows)."""
        if self.fd is not None:
            os.fsync(self.fd)

    def replace(
        self, name: str, data: bytes, *, mode: int | None = None, durable: bool = True
    ) -> None:
        """Replace (or create) `name` with `data` atomically."""
        self.replace_if_unchanged(name, data, unchanged=None, mode=mode, durable=durable)

    def replace_if_unchanged(
        self,
        name: str,
        data: bytes,
        *,
        unchanged: Callable[[], bool] | None,
        mode: int | None = None,
        durable: bool = True,
    ) -> bool:
        """Replace `name` with `data` atomically if `unchanged()` still holds right before the
        rename and the entry's identity is the one seen before that read (else False, nothing
        written); its mode kept."""
        mode = kept_permissions(self.lstat(name)) if mode is None else mode  # an agent's 0600
        temp = self.write_temp(name, data, mode=mode, durable=durable)
        if not self.publish(temp, name, unchanged=unchanged):
            return False
        if durable:
            self.fsync()
        return True

    def publish(
        self, temp: str, name: str, *, unchanged: Callable[[], bool] | None, create: bool = False
    ) -> bool:
        """Put `temp` in place of `name` if `unchanged()` holds (else False), or with `create` only
        where nothing is (FileExistsError); the directory is not fsynced, the temp gone either
        way."""
        if create:
            renamed = False
            try:
                renamed = self._publish_new(temp, name)
            finally:
                if not renamed:
                    self.discard(temp)
            return True
        try:
            src, dst, at = self._pair(temp, self, name)
            if unchanged is not None:
                before = _identity(self.lstat(name))
                if not unchanged() or _identity(self.lstat(name)) != before:
                    self.discard(temp)
                    return False
            os.replace(src, dst, **at)
        except BaseException:
            self.discard(temp)
            raise
        return True

    def exchange(self, name: str, other: str) -> None:
        """Swap entries `name` and `other` in one step, neither ever missing. OSError (ENOSYS,
        EINVAL, ENOTSUP) where the platform or file system cannot."""
        swap = _exchange_call() if self.fd is not None else None
        if swap is None:
            raise OSError(errno.ENOSYS, "exchanging two files is not supported here", self.path)
        code = swap(self.fd, os.fsencode(name), self.fd, os.fsencode(other), _RENAME_EXCHANGE)
        if code != 0:
            number = _errno()
            raise OSError(number, os.strerror(number), self.display(name))

    def create_new(self, name: str, data: bytes) -> None:
        """Create `name` holding `data`; FileExistsError if anything is there, even a moment ago
        (rename without replace, else a hard link; else a check then a rename)."""
        self.publish(self.write_temp(name, data), name, unchanged=None, create=True)
        self.fsync()

    def _publish_new(self, temp: str, name: str) -> bool:
        """`temp` as `name`, never over an entry; whether `temp` is gone (renamed)."""
        if self.move_whole(temp, self, name):
            return True
        try:
            self._link(temp, self, name)
        except OSError as error:
            if error.errno not in _NO_HARD_LINKS:
                raise
            if self.lstat(name) is not None:
                raise self.exists_error(name) from None
            src, dst, at = self._pair(temp, self, name)
            os.rename(src, dst, **at)
            return True
        return False

    def move_whole(self, name: str, target: Directory, new_name: str) -> bool:
        """Move file or folder `name` to `target/new_name` in one step that never replaces anything
        (renameat2 RENAME_NOREPLACE; FileExistsError if taken); False where no such rename is to be
        had. Nothing is fsynced."""
        call = _no_replace_call() if self.fd is not None and target.fd is not None else None
        if call is None:
            return False
        old, new = os.fsencode(name), os.fsencode(new_name)
        if call(self.fd, old, target.fd, new, _RENAME_NOREPLACE) == 0:
            return True
        number = _errno()
        if number in _NO_RENAME_FLAGS:
            return False
        if number == errno.EEXIST:
            raise target.exists_error(new_name)
        raise OSError(number, os.strerror(number), target.display(new_name))

    def rename_no_replace(self, name: str, target: Directory, new_name: str) -> None:
        """Move `name` to `target/new_name`; FileExistsError if anything is there. A file is linked
        then unlinked (a crash leaves both names); a directory is renamed after a check, so at worst
        an empty directory made in that instant is replaced."""
        info = self.lstat(name)
        if info is None:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", self.display(name))
        if target.lstat(new_name) is not None:
            raise target.exists_error(new_name)
        if not stat.S_ISDIR(info.st_mode):
            try:
                self._link(name, target, new_name)
            except OSError as error:
                if error.errno not in _NO_HARD_LINKS:
                    raise
            else:
                path, at_source = self.at(name)
                os.unlink(path, **at_source)
                self._fsync_both(target)
                return
        src, dst, at = self._pair(name, target, new_name)
        try:
            os.rename(src, dst, **at)
        except OSError as error:
            # A non-empty directory or a file that appeared at the destination.
            if error.errno in _TAKEN and target.lstat(new_name) is not None:
                raise target.exists_error(new_name) from None
            raise
        self._fsync_both(target)

    def _fsync_both(self, target: Directory) -> None:
        target.fsync()
        if target is not self:
            self.fsync()

    def _pair(self, name: str, target: Directory, new_name: str) -> tuple[str, str, dict[str, Any]]:
        """Arguments of os.rename/replace/link from `name` here to `new_name` in `target`."""
        src, src_at = self.at(name)
        dst, dst_at = target.at(new_name)
        if not src_at or not dst_at:  # pragma: no cover - Windows
            return self.display(name), target.display(new_name), {}
        return src, dst, {"src_dir_fd": self.fd, "dst_dir_fd": target.fd}

    def _link(self, name: str, target: Directory, new_name: str) -> None:
        """Hard-link `name` as `target/new_name` (EEXIST if taken), never following a symlink."""
        src, dst, at = self._pair(name, target, new_name)
        if at:
            os.link(src, dst, follow_symlinks=False, **at)
        else:  # pragma: no cover - Windows
            os.link(src, dst)


def _identity(info: os.stat_result | None) -> tuple[int, ...] | None:
    """What changes when a file is written in place or another file is renamed over it."""
    if info is None:
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def atomic_write_bytes(
    target: Path, data: bytes, *, mode: int | None = None, durable: bool = True
) -> None:
    """Replace `target` with `data` atomically in its directory, parents created; on failure the old
    content stays. `mode` sets the permissions; not `durable`: nothing is fsynced."""
    make_agent_folders(target.parent)
    with Directory.open(target.parent) as directory:
        directory.replace(target.name, data, mode=mode, durable=durable)


def make_file_durable(path: Path) -> None:
    """Make file `path`, written not durably, durable: the file fsynced, then its folder."""
    fd = os.open(os.fspath(path), os.O_RDWR | _BINARY | _CLOEXEC)  # Windows fsyncs writers only
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    with Directory.open(path.parent) as parent:
        parent.fsync()


def on_one_file_system(path: Path, other: Path) -> bool:
    """Whether two paths are on one file system (one flush covers both); a path not made yet is on
    its nearest existing folder's."""
    return _device_of(path) == _device_of(other)


def _device_of(path: Path) -> int:
    for candidate in (path, *path.parents):
        try:
            return os.stat(candidate).st_dev
        except FileNotFoundError:
            continue
    raise FileNotFoundError(errno.ENOENT, "No such file or directory", os.fspath(path))


def make_directory_durably(path: Path) -> None:
    """Create directory `path` and its parents, each fsynced into its parent."""
    if path.is_dir():
        return
    make_directory_durably(path.parent)
    make_agent_folders(path)  # or another process makes it meanwhile
    with Directory.open(path.parent) as parent:
        parent.fsync()


# `syncfs` makes writes durable on Linux only; elsewhere write durably.
FILESYSTEM_FLUSH_WORKS = sys.platform.startswith("linux")


def make_filesystem_durable(path: Path) -> None:
    """Make every write so far to the file system holding `path` durable (Linux `syncfs`); OSError
    when the kernel reports a failed write."""
    fd = os.open(os.fspath(path), os.O_RDONLY | _CLOEXEC)
    try:
        code = _syncfs(fd)
    finally:
        os.close(fd)
    if code == errno.ENOSYS:
        os.sync()
    elif code:
        raise OSError(code, os.strerror(code), os.fspath(path))


def _syncfs(fd: int) -> int:
    """syncfs(2) on `fd`: 0, or the error number (ENOSYS where there is none)."""
    import ctypes  # lazy: platform — syncfs(2), which the os module does not offer

    syncfs = getattr(_libc(), "syncfs", None)
    if syncfs is None:
        return errno.ENOSYS
    return 0 if syncfs(fd) == 0 else ctypes.get_errno()


# RENAME_EXCHANGE (Linux) and RENAME_SWAP (macOS) are both 2, in calls of one shape.
_RENAME_EXCHANGE = 2


_RENAME_NOREPLACE = 1  # Linux's renameat2 flag (macOS's RENAME_EXCL differs: not used)
# The kernel or the file system has no such rename.
_NO_RENAME_FLAGS = {
    errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EPERM, errno.EXDEV
}  # fmt: skip


@functools.cache
def _no_replace_call() -> Any:
    """Linux's renameat2, or None where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    return getattr(_libc(), "renameat2", None)


def moves_whole_folders() -> bool:
    """Whether `Directory.move_whole` can be had here at all (a file system may still refuse it)."""
    return _no_replace_call() is not None


@functools.cache
def _exchange_call() -> Any:
    """The C library's exchanging rename, or None where it has none."""
    libc = _libc()
    return getattr(libc, "renameat2", None) or getattr(libc, "renameatx_np", None)


def _errno() -> int:
    import ctypes  # lazy: platform — the error of a C library call (exchange, syncfs)

    return ctypes.get_errno()


@functools.cache
def _libc() -> Any:
    import ctypes  # lazy: platform (the C library, where there is one)

    return ctypes.CDLL(None, use_errno=True)


def write_all(fd: int, data: bytes) -> None:
    """Write all of `data` to `fd`, however short each write is (a signal, a full disk)."""
    written = os.write(fd, data)
    if written < len(data):  # mostly one write: a view only for the rest
        view = memoryview(data)
        while written < len(view):
            written += os.write(fd, view[written:])


def overwrite_in_place(target: Path, data: bytes) -> None:
    """Write `data` over regular file `target`, already that size, in place and fsynced: allocates
    nothing, so a full disk takes it; not atomic. OSError when missing, a link, not regular or of
    another size."""
    fd = os.open(target, os.O_WRONLY | _BINARY | _CLOEXEC | getattr(os, "O_NOFOLLOW", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size != len(data):
            raise OSError(errno.EINVAL, "not a file of that size", str(target))
        write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_text(target: Path, text: str, *, mode: int | None = None) -> None:
    """Replace `target` with UTF-8 `text` atomically (see `atomic_write_bytes`)."""
    atomic_write_bytes(target, encode_utf8(text), mode=mode)


def json_document(value: Any) -> str:
    """`value` as the JSON files Memtab writes hold it: 2-space indent, trailing newline."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def compact_json(value: Any) -> bytes:
    """`value` as one line of UTF-8 JSON, as a program reading a pipe is given it (json's C
    encoder; a lone surrogate written as U+FFFD)."""
    return encode_utf8(json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n")


def atomic_write_json(
    target: Path, value: Any, *, mode: int | None = None, compact: bool = False
) -> None:
    """Write `value` as pretty-printed JSON (`json_document`) atomically; `compact`: on one
    line, for a cache no person reads (json's C encoder, several times faster on megabytes)."""
    text = (
        json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"
        if compact
        else json_document(value)
    )
    atomic_write_text(target, text, mode=mode)
