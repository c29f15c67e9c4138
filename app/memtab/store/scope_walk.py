"""The one walk of a scope root by the listing rules of docs/formats.md §4, names and entry types
alone, and the rules for each name (hidden, listable, stale temps)."""

import logging
import os
import stat
import time
from pathlib import Path

from memtab.fs.atomic import is_temp_name, is_write_temp
from memtab.fs.slotted import Slotted
from memtab.store.paths import MAX_PATH_DEPTH, PLAIN_LISTED_NAME, is_addressable_name

logger = logging.getLogger(__name__)

STALE_TEMP_AGE_S = 60.0  # a Memtab temp this old was left by a process that died mid-write


class Folder(Slotted):
    """One directory a walk went into: its path, segments, and listable files and directories with
    each file's inode."""

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
        self.path, self.segments, self.files, self.directories = path, segments, files, directories
        self.inodes = [] if inodes is None else inodes


class ScopeWalk(Slotted):
    """What one walk of a scope root saw (`walk_scope`)."""

    __slots__ = ("error", "folders", "root", "too_deep", "unaddressable")

    root: str
    folders: tuple[Folder, ...]
    error: str | None  # why the root could not be read, if it could not
    unaddressable: tuple[tuple[tuple[str, ...], str, bool], ...]
    """(parent segments, name, is a dir) of entries no virtual path can name, not descended into."""
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
        self.root, self.folders, self.error = root, folders, error
        self.unaddressable, self.too_deep = unaddressable, too_deep


def walk_scope(root: Path | str, *, remove_stale_temps: bool = False) -> ScopeWalk:
    """Every listable entry below a scope root, a folder at a time: hidden, invalid, linked and
    special entries skipped, nothing past `MAX_PATH_DEPTH` (`too_deep`), an unreadable root in
    `error`; `remove_stale_temps` removes dead writes' temps on the way."""
    top = os.fspath(root)
    folders: list[Folder] = []
    error: str | None = None
    unaddressable: list[tuple[tuple[str, ...], str, bool]] = []
    too_deep: list[tuple[str, ...]] = []
    # An explicit stack: deep trees must not overflow recursion.
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
    """Delete a temp a killed Memtab left (its pattern, a regular file, older than `max_age_s`);
    whether it went. The one rule for scopes, the home and history."""
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
    """Whether an entry is left out of every listing on purpose: a dotfile (docs/formats.md §4.2) or
    an atomic write's temp (§16)."""
    return name.startswith(".") or is_write_temp(name)


def is_listable_name(name: str) -> bool:
    """Whether a directory entry may appear in listings: not hidden, an addressable name."""
    return bool(PLAIN_LISTED_NAME.fullmatch(name)) or (
        not is_hidden_name(name) and is_addressable_name(name)
    )


def holds_entries(directory: str) -> bool:
    """Whether a directory holds anything but hidden entries (False when unreadable)."""
    try:
        with os.scandir(directory) as iterator:
            return any(not is_hidden_name(entry.name) for entry in iterator)
    except OSError:
        return False
