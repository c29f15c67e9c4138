"""Folders and files only their user may read (docs/formats.md §15.5): what holds memory text
outside the home is 0600 in a 0700 folder whatever the umask, and never written through a link
Memtab did not make."""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import stat
import threading
from pathlib import Path

logger = logging.getLogger(__name__)

PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600
_OPEN_TO_OTHERS = 0o077  # what a private file or folder lets others do: nothing
# A memory file Memtab makes is as open as the umask says, but never writable by every user.
AGENT_FILE_MODE = 0o664
AGENT_FOLDER_MODE = 0o775
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def private_dir(path: Path) -> Path:
    """Make `path` a folder only this user may enter: made 0700, or closed to others with all it
    holds (`close_tree`). PermissionError for another user's folder or one in it; a link of another
    user's there is removed and the folder made anew."""
    path.parent.mkdir(parents=True, exist_ok=True)
    above = os.stat(path.parent)
    if _untrusted(above):
        raise PermissionError(
            errno.EPERM, f"the folder above belongs to another user (uid {above.st_uid}), who "
            "could swap this one for theirs: its files would not be private", os.fspath(path),
        )  # fmt: skip
    with contextlib.suppress(FileExistsError):
        os.mkdir(path, PRIVATE_DIR_MODE)
    link = os.lstat(path)
    if stat.S_ISLNK(link.st_mode) and _untrusted(link):
        os.unlink(path)
        logger.warning("%s was a link of another user (uid %d): removed", path, link.st_uid)
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
        closed = close_tree(path)  # what it holds was written while it was open: closed now
        logger.info("%s was open to others (%04o): made private, and %d entries in it",
                    path, stat.S_IMODE(info.st_mode), closed)  # fmt: skip
    return path


def clear_entry(path: Path) -> str | None:
    """Make `path` safe to open as a file Memtab writes: a link, FIFO, socket or device removed
    (never followed), a file open to others made 0600; what was removed, in words. IsADirectoryError
    for a folder."""
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
    return f"{entry_kind(mode)}: removed, never followed"


def create_private_file(path: Path) -> bool:
    """Make `path` a new empty 0600 file, never through a link; False when a file is there."""
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


def anothers(path: Path) -> str | None:
    """Why the file at `path` (or a link's target) is not to be trusted: another user's; None when
    the user's, root's or missing."""
    try:
        entry = os.lstat(path)
    except FileNotFoundError:
        return None
    if _untrusted(entry):
        kind = "a link" if stat.S_ISLNK(entry.st_mode) else "a file"
        return f"is {kind} of another user (uid {entry.st_uid})"
    if stat.S_ISLNK(entry.st_mode):
        try:
            target = os.stat(path)
        except OSError:
            return None  # a dangling link: read as missing, or failing, as it would
        if _untrusted(target):
            return f"is a link to a file of another user (uid {target.st_uid})"
    return None


def closed_to_others(info: os.stat_result) -> bool:
    """Whether an entry is this user's alone, open to no other."""
    return not _owner_differs(info) and not stat.S_IMODE(info.st_mode) & _OPEN_TO_OTHERS


def _untrusted(info: os.stat_result) -> bool:
    return _owner_differs(info) and info.st_uid != 0


def _owner_differs(info: os.stat_result) -> bool:
    return hasattr(os, "getuid") and info.st_uid != os.getuid()


def entry_kind(mode: int) -> str:
    """What an entry that is no file or folder is, in words (a link, a FIFO…)."""
    if stat.S_ISLNK(mode):
        return "a link"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"


PRIVATE_UMASK = 0o077  # the umask of a program Memtab runs to write memory's text (git, for sync)
_made_private: set[str] = set()  # folders made private by this process: not looked at again
_made_private_lock = threading.Lock()


def private_folders(path: Path, *, below: Path) -> Path:
    """Make `path` and every folder from `below` down to it private; `below` found open is closed
    whole first. ValueError when `path` is not under `below`."""
    key = os.fspath(path)
    if key in _made_private:
        try:
            os.mkdir(path, PRIVATE_DIR_MODE)  # one call: is it still there?
        except FileExistsError:
            return path
        except FileNotFoundError:
            pass  # gone with a folder above it
        with _made_private_lock:
            _made_private.discard(key)  # removed since: made private again, as at first
    parts = path.relative_to(below).parts
    private_dir(below)  # found open to others, closed whole (`private_dir`)
    current = below
    for part in parts:
        current = private_dir(current / part)
    with _made_private_lock:
        _made_private.add(key)
    return path


def close_tree(folder: Path) -> int:
    """Close to others every folder (0700) and file (0600) of this user's under `folder`, never
    following links; how many were closed."""
    closed = 0
    for top, folders, files in os.walk(folder, followlinks=False):
        for name in (*folders, *files):
            path = os.path.join(top, name)
            try:
                info = os.lstat(path)
            except OSError:
                continue
            mode = stat.S_IMODE(info.st_mode)
            if _owner_differs(info) or not mode & _OPEN_TO_OTHERS:
                continue
            if stat.S_ISDIR(info.st_mode):
                target = PRIVATE_DIR_MODE
            elif stat.S_ISREG(info.st_mode):
                target = mode & PRIVATE_FILE_MODE
            else:
                continue
            try:
                os.chmod(path, target)
            except OSError:
                continue
            closed += 1
    return closed


def open_private_append(path: Path) -> int:
    """A descriptor appending to private file `path` (made 0600, closed to others, never through a
    link); its folder is not made here."""
    clear_entry(path)
    create_private_file(path)
    return os.open(path, os.O_WRONLY | os.O_APPEND | _NOFOLLOW | _CLOEXEC)


def make_agent_folders(path: Path) -> None:
    """Make folder `path` and its parents, each `AGENT_FOLDER_MODE` less the umask."""
    missing = []
    for folder in (path, *path.parents):
        if folder.exists():
            break
        missing.append(folder)
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):  # or another process made it meanwhile
            os.mkdir(folder, AGENT_FOLDER_MODE)


def kept_permissions(info: os.stat_result | None) -> int | None:
    """The permissions a replaced file keeps: a regular file's own, else None (a new file's)."""
    if info is None or not stat.S_ISREG(info.st_mode):
        return None
    return stat.S_IMODE(info.st_mode) & 0o777
