"""The one readability rule (docs/formats.md §3.3, §4.3): a file is read only when, opened without
blocking or following a link, it is a regular file with no other hard link (a temp of Memtab's own
beside it excepted), and never past the caller's cap."""

from __future__ import annotations

import errno
import os
import stat
from typing import Any

from memtab.fs.atomic import Directory, is_temp_name
from memtab.fs.user_files import not_regular_error, read_at_most

_READ_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


class HardLinkedFileError(OSError):
    """A file with other hard links (one may be outside the tree): not read nor copied; `info` is
    its stat."""

    def __init__(self, path: str, info: os.stat_result | None = None) -> None:
        why = "it has other hard links (one may be outside the memory home), so Memtab does not"
        super().__init__(errno.EPERM, f"{why} read it", path)
        self.info = info


def open_readable(directory: Directory, name: str) -> tuple[int, os.stat_result]:
    """A read-only descriptor of file `name` in `directory` and its stat, if the rule allows.
    FileNotFoundError, OSError saying why in words, HardLinkedFileError."""
    path, at = directory.at(name)
    return _opened(path, at, directory, name)


def open_readable_path(path: str) -> tuple[int, os.stat_result]:
    """`open_readable` of a file by its path (its folder trusted as it is)."""
    parent, name = os.path.split(path)
    return _opened(path, {}, None, name, parent)


def _opened(
    path: str, at: dict[str, Any], directory: Directory | None, name: str, parent: str = ""
) -> tuple[int, os.stat_result]:
    shown = directory.display(name) if directory is not None else path
    try:
        fd = os.open(path, _READ_FLAGS, **at)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise OSError(errno.ELOOP, "it is a symbolic link", shown) from None
        if error.errno == errno.ENXIO:  # a socket cannot be opened: say what it is
            raise not_regular_error(os.stat(path, follow_symlinks=False, **at), shown) from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise not_regular_error(info, shown)
        if info.st_nlink > 1 and not _linked_only_to_own_temp(
            directory or Directory(None, parent or "."), info
        ):
            raise HardLinkedFileError(shown, info)
    except BaseException:
        os.close(fd)
        raise
    return fd, info


def read_readable(
    directory: Directory, name: str, *, limit: int | None
) -> tuple[bytes, os.stat_result]:
    """Up to `limit` bytes (None: all) of file `name` and its stat, if the rule allows."""
    fd, info = open_readable(directory, name)
    try:
        return read_at_most(fd, limit), info
    finally:
        os.close(fd)


def read_readable_path(
    path: str | os.PathLike[str], *, limit: int | None, follow_link: bool = False
) -> bytes:
    """`read_readable` by path; `follow_link` reads a link as the file it names (by the rule)."""
    text = os.path.realpath(path) if follow_link else os.fspath(path)
    fd, _ = open_readable_path(text)  # no folder opened, nor its path joined again
    try:
        return read_at_most(fd, limit)
    finally:
        os.close(fd)


def _linked_only_to_own_temp(directory: Directory, info: os.stat_result) -> bool:
    """Whether a file's one other link is a Memtab temp in its directory (a killed create's)."""
    if info.st_nlink != 2:
        return False
    try:
        with os.scandir(directory.path if directory.fd is None else directory.fd) as entries:
            return any(
                is_temp_name(entry.name) and entry.inode() == info.st_ino for entry in entries
            )
    except OSError:
        return False
