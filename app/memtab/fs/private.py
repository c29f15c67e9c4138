"""Folders and files only their user may read: what Memtab keeps outside the memory home
that holds memory text or its words — the search index, the description cache, sync's
cache of files seen (docs/formats.md §15.5) — is 0600 in a 0700 folder, whatever the
umask, and is never written through a link Memtab did not make.

The one place for it: `private_dir` makes a folder private (made 0700, or an existing
one of the user's tightened to 0700 with what it holds, as one made by an older Memtab
under the default umask); `clear_entry` makes a name in such a folder safe to open as a
file (a link, a FIFO, a socket or a device there is removed, never followed; a file of
looser mode is tightened); `create_private_file` makes a new empty file 0600 that no link
can redirect.

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
import threading
from pathlib import Path

logger = logging.getLogger(__name__)

PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600
# What a private file or folder lets others do: nothing.
_OPEN_TO_OTHERS = 0o077
# A memory file or folder Memtab makes is the agent's, as open as the umask makes it — but
# never writable by every user (umask 000): anyone could then put words in every agent's
# context, or plant a link where the next memory is written.
AGENT_FILE_MODE = 0o664
AGENT_FOLDER_MODE = 0o775
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def private_dir(path: Path) -> Path:
    """Make `path` a folder only this user may enter: made 0700 (its parents as the umask
    says), or, when it is there already and this user's, closed to others (0755 becomes
    0700; the user's own bits are kept: a read-only folder stays read-only), and then
    everything in it too, at any depth (`close_tree`: a cache an older Memtab left 0666
    holds memory's words now, not once it is next written). A link to a
    folder counts as that folder (the path is the user's choice). PermissionError for a
    folder of another user, or in a folder of another user (root's are the user's too):
    they could swap it for a link to theirs at any moment; NotADirectoryError when it is
    no folder. A link of another user's at `path` is not the user's choice: planted while
    the folder above was open to others (a history shard's name pointing to their folder),
    it is removed, never followed, and the folder made anew."""
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
        # What it holds was written while it was open (by an older Memtab, under the umask):
        # closed now, not when each file is next written (a cache a session rewrites later).
        closed = close_tree(path)
        logger.info("%s was open to others (%04o): made private, and %d entries in it",
                    path, stat.S_IMODE(info.st_mode), closed)  # fmt: skip
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
    return f"{entry_kind(mode)}: removed, never followed"


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


def anothers(path: Path) -> str | None:
    """Why the file at `path` is not to be trusted, in words: it, or the file a link there
    leads to, is another user's — planted while its folder was open to others; None when
    it is the user's (or root's, who may do anything) or missing. For a file whose
    contents decide what Memtab does (settings.json: where memory is sent)."""
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
    """Whether an entry's stat says it is this user's alone: no other user's, nothing open
    to others (as `private_dir` and `clear_entry` leave a folder and a file)."""
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


# --- Memtab's own folders, and the files it appends to --------------------------------
# (history and proposals in a home's `memtab/` folder, the log, the trace dumps: §16.2)

PRIVATE_UMASK = 0o077
"""The umask of a program Memtab runs to write memory's text (git, for sync): its files 0600
in 0700 folders whatever the user's umask."""
_made_private: set[str] = set()  # folders made private by this process: not looked at again
_made_private_lock = threading.Lock()


def private_folders(path: Path, *, below: Path) -> Path:
    """Make `path` a private folder, and every folder from `below` (a folder that is
    Memtab's own, as a home's `memtab/`) down to it (`private_dir` each: made 0700, or
    closed to others). `below` found open to others — an older Memtab made it under the
    umask — is closed whole first (`close_tree`): what it holds was written then. Once a
    process for each `path` (after, one `mkdir` says it is still there). OSError as
    `private_dir`; ValueError when `path` is not under `below`."""
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
    """Close to others every folder (to 0700) and regular file (to 0600) of this user's
    under `folder`, at any depth; links are never followed nor changed. How many were
    closed; what cannot be read or changed is left as it is."""
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
    """A descriptor appending to the private file `path`: made 0600 when missing
    (whatever the umask), closed to others when it is open, never through a link — a
    link, a FIFO or a device at its name is removed first (`clear_entry`). Its folder is
    not made here. OSError when it cannot be had (IsADirectoryError for a folder there)."""
    clear_entry(path)
    create_private_file(path)
    return os.open(path, os.O_WRONLY | os.O_APPEND | _NOFOLLOW | _CLOEXEC)


def make_agent_folders(path: Path) -> None:
    """Make folder `path` and its missing parents, each `AGENT_FOLDER_MODE` less the umask
    (`Path.mkdir(parents=True)` makes the parents 0777 less the umask). A file in the way
    is left for what opens the folder next to find (NotADirectoryError)."""
    missing = []
    for folder in (path, *path.parents):
        if folder.exists():
            break
        missing.append(folder)
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):  # or another process made it meanwhile
            os.mkdir(folder, AGENT_FOLDER_MODE)


def kept_permissions(info: os.stat_result | None) -> int | None:
    """The permissions a file replaced keeps (`info`: its `lstat`): a regular file's own —
    an agent's memory file kept 0600 stays 0600 —, else None (a new file:
    `AGENT_FILE_MODE` less the umask)."""
    if info is None or not stat.S_ISREG(info.st_mode):
        return None
    return stat.S_IMODE(info.st_mode) & 0o777
