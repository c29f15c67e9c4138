"""Working inside a directory tree without ever following a symbolic link: each component opened
`O_NOFOLLOW` from its parent's descriptor (`LinkInPathError`), the tree walks with an explicit stack
so no depth overflows Python's."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Sequence

from memtab.fs.atomic import Directory
from memtab.fs.private import AGENT_FOLDER_MODE
from memtab.fs.readable import read_readable

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_SUBDIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW | _CLOEXEC


class LinkInPathError(OSError):
    """A component of the path is a symbolic link, which confined paths never follow."""

    def __init__(self, path: str) -> None:
        super().__init__(errno.ELOOP, "a symbolic link is in the way", path)


def open_subdirectory(parent: Directory, name: str, *, create: bool = False) -> Directory:
    """Directory `name` in `parent`, never through a symlink (`create` makes it). LinkInPathError,
    NotADirectoryError, FileNotFoundError or another OSError."""
    path, at = parent.at(name)
    for _ in range(2):
        try:
            if parent.fd is None:  # pragma: no cover - Windows: check, then use the path
                _check_directory(parent, name)
                return Directory(None, path)
            return Directory(os.open(path, _SUBDIR_FLAGS, **at), parent.display(name))
        except FileNotFoundError:
            if not create:
                raise
            with contextlib.suppress(FileExistsError):  # made by someone else: open theirs
                os.mkdir(path, AGENT_FOLDER_MODE, **at)
        except NotADirectoryError:
            _check_directory(parent, name)
            raise
    raise FileNotFoundError(errno.ENOENT, "Directory vanished while opening", path)


def _check_directory(parent: Directory, name: str) -> None:
    """Raise the precise error for an entry that could not be opened as a directory."""
    info = parent.lstat(name)
    if info is None:
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", parent.display(name))
    if stat.S_ISLNK(info.st_mode):
        raise LinkInPathError(parent.display(name))
    if not stat.S_ISDIR(info.st_mode):
        raise NotADirectoryError(errno.ENOTDIR, "Not a directory", parent.display(name))


def entries_of(directory: Directory) -> list[os.DirEntry[str]]:
    """Every entry of an open directory (may be called again: scandir rewinds its own copy)."""
    with os.scandir(directory.path if directory.fd is None else directory.fd) as iterator:
        return list(iterator)


def _identity(directory: Directory) -> tuple[int, int]:
    info = os.fstat(directory.fd) if directory.fd is not None else os.stat(directory.path)
    return info.st_dev, info.st_ino


def _open_parent(child: Directory, expected: tuple[int, int]) -> Directory:
    """The directory `child` sits in, if it is still the one we came down from."""
    if child.fd is None:  # pragma: no cover - Windows
        return Directory(None, os.path.dirname(child.path))
    parent = Directory(os.open("..", _SUBDIR_FLAGS, dir_fd=child.fd), os.path.dirname(child.path))
    if _identity(parent) != expected:
        parent.close()
        raise OSError(errno.ESTALE, "The tree moved while it was being removed", child.path)
    return parent


def _remove_entries_but_directories(directory: Directory) -> list[str]:
    """Unlink every file and link in `directory`; the names of its subdirectories."""
    subdirectories = []
    for entry in entries_of(directory):
        if entry.is_dir(follow_symlinks=False):
            subdirectories.append(entry.name)
        else:
            path, at = directory.at(entry.name)
            os.unlink(path, **at)
    return subdirectories


def remove_entry(parent: Directory, name: str, *, directory: bool) -> None:
    """Delete `name` in `parent`: a directory with all it holds, else the file or link itself."""
    if directory:
        remove_tree(parent, name)
    else:
        path, at = parent.at(name)
        os.unlink(path, **at)


def remove_tree(parent: Directory, name: str) -> None:
    """Delete directory `name` in `parent` and all it holds, never following links, at any depth
    (back up by a checked `..`). What was removed before an error stays removed."""
    current = open_subdirectory(parent, name)
    # From `parent` down to `current`: each level's name, identity and remaining subdirectories.
    levels = [(name, _identity(current), _remove_entries_but_directories(current))]
    try:
        while levels:
            pending = levels[-1][2]
            if pending:
                child_name = pending.pop()
                child = open_subdirectory(current, child_name)
                current.close()
                current = child
                levels.append(
                    (child_name, _identity(child), _remove_entries_but_directories(child))
                )
                continue
            done, _, _ = levels.pop()
            owner = parent
            if levels:
                owner = _open_parent(current, expected=levels[-1][1])
                current.close()
                current = owner
            path, at = owner.at(done)
            os.rmdir(path, **at)
    finally:
        current.close()


def descend(directory: Directory, parts: Sequence[str], *, create: bool = False) -> Directory:
    """The directory `directory/parts…`, opened without following links (`create` makes them); takes
    `directory` over, the caller closes the one returned."""
    try:
        for part in parts:
            child = open_subdirectory(directory, part, create=create)
            directory.close()
            directory = child
    except BaseException:
        directory.close()
        raise
    return directory


def _open_path(parent: Directory, parts: Sequence[str]) -> Directory:
    """The directory `parent/parts…`, never through a symlink (the caller closes it)."""
    return descend(open_subdirectory(parent, parts[0]), parts[1:])


def copy_tree(source_parent: Directory, name: str, target_parent: Directory, new_name: str) -> int:
    """Copy directory `name` to a new `new_name` in `target_parent` (FileExistsError if it exists),
    links as links, at most four descriptors open at any depth; the files copied."""
    path, at = target_parent.at(new_name)
    os.mkdir(path, AGENT_FOLDER_MODE, **at)
    copied = 0
    pending: list[tuple[str, ...]] = [()]
    while pending:
        parts = pending.pop()
        with (
            _open_path(source_parent, (name, *parts)) as source,
            _open_path(target_parent, (new_name, *parts)) as target,
        ):
            for entry in entries_of(source):
                if _copy_entry(source, target, entry):
                    copied += 1
                elif entry.is_dir(follow_symlinks=False):
                    pending.append((*parts, entry.name))
    return copied


def _copy_entry(source: Directory, target: Directory, entry: os.DirEntry[str]) -> bool:
    """Copy one entry (a directory is only created); True for a copied file."""
    source_path, source_at = source.at(entry.name)
    target_path, target_at = target.at(entry.name)
    if entry.is_symlink():
        os.symlink(os.readlink(source_path, **source_at), target_path, **target_at)
        return False
    if entry.is_dir(follow_symlinks=False):
        os.mkdir(target_path, AGENT_FOLDER_MODE, **target_at)
        return False
    if not entry.is_file(follow_symlinks=False):
        return False  # sockets, fifos: not memory
    data, info = read_readable(source, entry.name, limit=None)
    target.create_new(entry.name, data)
    with contextlib.suppress(OSError):
        os.utime(target_path, ns=(info.st_atime_ns, info.st_mtime_ns), **target_at)
    return True
