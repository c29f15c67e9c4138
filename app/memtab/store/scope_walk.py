"""The one walk of a scope root by the listing rules of docs/formats.md §4 (`walk_scope`), and
the rules it applies to each name: which entries are hidden, which are listable, which temp
files a killed write left behind.

Every view of a scope (`store.files`: the listing, the outline, the stat walk, the count)
reads the names one walk saw. A walk reads names and entry types alone (`scandir`, no file
stat'ed), so an outline's walk — made before the window's first paint — can be handed to
the full listing that follows it (`store.files.list_scope`'s `walked`), which stats each
file then instead of walking again.
"""

import logging
import os
import stat
import time
from pathlib import Path

from memtab.fs.atomic import is_temp_name, is_write_temp
from memtab.fs.slotted import Slotted
from memtab.store.paths import (
    MAX_PATH_DEPTH,
    PLAIN_LISTED_NAME,
    is_addressable_name,
)

logger = logging.getLogger(__name__)

# A temp file of Memtab's own pattern this old was left by a process that died mid-write
# (a write takes milliseconds); the next listing removes it.
STALE_TEMP_AGE_S = 60.0


class Folder(Slotted):
    """One directory a walk went into: its path, its segments under the root, and the
    names of its listable files and directories, in the order the system gave them, with
    each file's inode as its entry gave it (no stat on POSIX: `d_ino`)."""

    __slots__ = ("directories", "files", "inodes", "path", "segments")

    path: str
    segments: tuple[str, ...]
    files: list[str]
    directories: list[str]
    inodes: list[int]

    def __init__(
        self,
        path: str,
        segments: tuple[str, ...],
        files: list[str],
        directories: list[str],
        inodes: list[int] | None = None,
    ) -> None:
        self.path = path
        self.segments = segments
        self.files = files
        self.directories = directories
        self.inodes = [] if inodes is None else inodes


class ScopeWalk(Slotted):
    """What one walk of a scope root saw (`walk_scope`)."""

    __slots__ = ("error", "folders", "root", "too_deep", "unaddressable")

    root: str
    folders: tuple[Folder, ...]
    error: str | None
    """Why the root could not be read, if it could not."""
    unaddressable: tuple[tuple[tuple[str, ...], str, bool], ...]
    """(parent segments, name, is a dir) of entries no virtual path can name (not
    dotfiles: those are hidden on purpose), not descended into."""
    too_deep: tuple[tuple[str, ...], ...]
    """The segments of directories at `MAX_PATH_DEPTH` that hold entries (not walked)."""

    def __init__(
        self,
        root: str,
        folders: tuple[Folder, ...],
        error: str | None = None,
        unaddressable: tuple[tuple[tuple[str, ...], str, bool], ...] = (),
        too_deep: tuple[tuple[str, ...], ...] = (),
    ) -> None:
        self.root = root
        self.folders = folders
        self.error = error
        self.unaddressable = unaddressable
        self.too_deep = too_deep


def walk_scope(root: Path | str, *, remove_stale_temps: bool = False) -> ScopeWalk:
    """Every listable entry below a scope root, a folder at a time.

    Hidden entries (`is_hidden_name`) and entries with invalid names are skipped;
    symlinks are neither listed nor followed (a link is neither a file nor a dir here);
    sockets, FIFOs and devices are not listed; an unreadable directory lists nothing, and
    `error` says so when it is the root. Nothing past `MAX_PATH_DEPTH` is listed: a
    directory at that depth is not descended into, and `too_deep` names it when it holds
    anything. With `remove_stale_temps`, temp files an interrupted write left behind
    (Memtab's pattern, over a minute old) are removed on the way: the walk sees them anyway.
    """
    top = os.fspath(root)
    folders: list[Folder] = []
    error: str | None = None
    unaddressable: list[tuple[tuple[str, ...], str, bool]] = []
    too_deep: list[tuple[str, ...]] = []
    # An explicit stack, not recursion: a deeply nested tree must not overflow it.
    pending: list[tuple[str, tuple[str, ...]]] = [(top, ())]
    now = time.time()
    plain = PLAIN_LISTED_NAME.fullmatch  # a listing's hot path: most names pass it
    while pending:
        directory, segments = pending.pop()
        try:
            with os.scandir(directory) as iterator:
                entries = list(iterator)
        except FileNotFoundError:
            continue
        except OSError as failure:
            if not segments:
                error = f"Cannot read {directory}: {failure.strerror or failure}"
            continue
        folder = Folder(directory, segments, [], [])
        for entry in entries:
            name = entry.name
            try:
                if plain(name) is None and not is_listable_name(name):
                    if remove_stale_temps:
                        remove_if_stale_temp(entry, now)
                    if not is_hidden_name(name):
                        if entry.is_dir(follow_symlinks=False):
                            unaddressable.append((segments, name, True))
                        elif entry.is_file(follow_symlinks=False):
                            unaddressable.append((segments, name, False))
                elif entry.is_file(follow_symlinks=False):
                    inode = entry.inode()
                    folder.files.append(name)
                    folder.inodes.append(inode)
                elif entry.is_dir(follow_symlinks=False):
                    folder.directories.append(name)
                    child = (*segments, name)
                    if len(child) < MAX_PATH_DEPTH:
                        pending.append((entry.path, child))
                    elif holds_entries(entry.path):
                        too_deep.append(child)
            except OSError:
                continue  # vanished or unreadable while listing
        folders.append(folder)
    return ScopeWalk(top, tuple(folders), error, tuple(unaddressable), tuple(too_deep))


def remove_if_stale_temp(
    entry: os.DirEntry[str], now: float, *, max_age_s: float = STALE_TEMP_AGE_S
) -> bool:
    """Delete a temp file a killed Memtab process left behind: named by Memtab's pattern,
    a regular file, older than `max_age_s` at `now` (a time). Whether it went; best effort.
    The one rule for the scopes (listings), the home's own files (`store.leftovers`) and
    history's packs."""
    if not is_temp_name(entry.name):
        return False
    try:
        info = entry.stat(follow_symlinks=False)
        if not (stat.S_ISREG(info.st_mode) and now - info.st_mtime > max_age_s):
            return False
        os.unlink(entry.path)
    except OSError:
        return False
    logger.info("Removed %s, left behind by an interrupted write", entry.path)
    return True


def is_hidden_name(name: str) -> bool:
    """Whether an entry is left out of every listing on purpose, whatever its name says:
    a dotfile (docs/formats.md §4.2), or the temp file an atomic write puts beside its
    target, Memtab's or xum's (`fs.atomic.is_write_temp`, §16) — never a memory file,
    so never listed, recorded, badged, synced or consolidated."""
    return name.startswith(".") or is_write_temp(name)


def is_listable_name(name: str) -> bool:
    """Whether a directory entry may appear in listings: not hidden, an addressable name."""
    if PLAIN_LISTED_NAME.fullmatch(name):
        return True
    return not is_hidden_name(name) and is_addressable_name(name)


def holds_entries(directory: str) -> bool:
    """Whether a directory holds anything but hidden entries (False when it cannot be
    read)."""
    try:
        with os.scandir(directory) as iterator:
            return any(not is_hidden_name(entry.name) for entry in iterator)
    except OSError:
        return False
