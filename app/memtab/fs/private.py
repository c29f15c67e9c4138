"""Folders and files only their user may read: what Memtab keeps outside the memory home
that holds memory text or its words — the search index, the description cache, sync's
cache of files seen (docs/formats.md §15.5) — is 0600 in a 0700 folder, whatever the
umask, and is never written through a link Memtab did not make.

The one place for it: `private_dir` makes a folder private (made 0700, or an existing
one of the user's tightened to 0700, as one made by an older Memtab under the default
umask); `clear_entry` makes a name in such a folder safe to open as a file (a link, a
FIFO, a socket or a device there is removed, never followed; a file of looser mode is
tightened); `create_private_file` makes a new empty file 0600 that no link can redirect.

Inside a private folder no other user can plant anything, so a check then an open does
not race another user; the checks keep the user's own mistakes (a link left at the
index's name, a folder restored 0755) from sending memory text elsewhere.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import stat
from pathlib import Path

logger = logging.getLogger(__name__)

PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600
# What a private file or folder lets others do: nothing.
_OPEN_TO_OTHERS = 0o077
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def private_dir(path: Path) -> Path:
    """Make `path` a folder only this user may enter: made 0700 (its parents as the umask
    says), or, when it is there already and this user's, closed to others (0755 becomes
    0700; the user's own bits are kept: a read-only folder stays read-only). A link to a
    folder counts as that folder (the path is the user's choice). PermissionError for a
    folder of another user; NotADirectoryError when it is no folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.mkdir(path, PRIVATE_DIR_MODE)
    info = os.stat(path)
    if not stat.S_ISDIR(info.st_mode):
        raise NotADirectoryError(errno.ENOTDIR, "Not a directory", os.fspath(path))
    if _owner_differs(info):
        raise PermissionError(
            errno.EPERM, "the folder belongs to another user: its files would not be private",
            os.fspath(path),
        )  # fmt: skip
    if stat.S_IMODE(info.st_mode) & _OPEN_TO_OTHERS:
        os.chmod(path, stat.S_IMODE(info.st_mode) & PRIVATE_DIR_MODE)  # a read-only one stays so
        logger.info("%s was open to others (%04o): made private", path, stat.S_IMODE(info.st_mode))
    return path


def clear_entry(path: Path) -> str | None:
    """Make `path` (in a private folder) safe to open as a file Memtab writes: a link
    (dangling or not), a FIFO, a socket or a device there is removed — a link's target is
    never touched or made — and a regular file open to others is chmodded to 0600 (said
    in the log). What was removed, in words (None: nothing). IsADirectoryError for a
    folder there (the user's: never removed)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "a folder is where a file belongs", os.fspath(path))
    if stat.S_ISREG(mode):
        if _owner_differs(info):
            os.unlink(path)
            return "a file of another user: removed"
        if stat.S_IMODE(mode) & _OPEN_TO_OTHERS:
            os.chmod(path, PRIVATE_FILE_MODE)
            logger.info("%s was open to others (%04o): made private", path, stat.S_IMODE(mode))
        return None
    os.unlink(path)
    return f"{_kind(mode)}: removed, never followed"


def create_private_file(path: Path) -> bool:
    """Make `path` a new empty file only this user reads (0600 whatever the umask; never
    through a link: one there is an error, EEXIST or ELOOP). False when a file is there
    already (left as it is)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC
    try:
        fd = os.open(path, flags, PRIVATE_FILE_MODE)
    except FileExistsError:
        if stat.S_ISLNK(os.lstat(path).st_mode):
            raise
        return False
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, PRIVATE_FILE_MODE)
    finally:
        os.close(fd)
    return True


def keep_private(path: Path) -> None:
    """Before a private file is read: its folder made private and the file made safe to
    open (`private_dir`, `clear_entry`), what was done logged. A failure is logged, never
    raised: the reader reads it as it is, or fails as it would have."""
    try:
        done = clear_entry(private_dir(path.parent) / path.name)
    except OSError as error:
        logger.info("Could not make %s private: %s", path, error)
        return
    if done is not None:
        logger.info("%s was %s", path, done)


def _owner_differs(info: os.stat_result) -> bool:
    return hasattr(os, "getuid") and info.st_uid != os.getuid()


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a link"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"
