"""Reading what a change is about to replace or remove, for history, through the descriptors the
change uses; a file history cannot keep is left out with a warning."""

from __future__ import annotations

import errno
import logging
from collections.abc import Sequence
from typing import TypeVar

from memtab.fs.atomic import Directory
from memtab.fs.confined import entries_of, open_subdirectory
from memtab.fs.readable import HardLinkedFileError, read_readable
from memtab.store.paths import MAX_PATH_DEPTH, VirtualPath, entries_too_deep
from memtab.store.scope_walk import is_hidden_name, is_listable_name

logger = logging.getLogger(__name__)
T = TypeVar("T")

MB = 1024 * 1024  # mux's cap is 100 KiB; larger files written by hand are kept up to this
MAX_HISTORY_FILE_BYTES = 16 * MB


def file_stat(directory: Directory, name: str) -> tuple[int, int] | None:
    """(size, mtime_ns) of `name`, what `record_external` compares, or None."""
    info = directory.lstat(name)
    return (info.st_size, info.st_mtime_ns) if info is not None else None


class TooLargeForHistoryError(OSError):
    """A file over `MAX_HISTORY_FILE_BYTES`: history keeps no copy of it."""

    def __init__(self, path: str) -> None:
        super().__init__(errno.EFBIG, f"larger than {MAX_HISTORY_FILE_BYTES // MB} MB", path)


def read_whole(directory: Directory, name: str) -> bytes | None:
    """The whole content of file `name`, or None when missing; OSError (TooLargeForHistoryError,
    HardLinkedFileError) when it cannot be read whole."""
    try:
        data, _ = read_readable(directory, name, limit=MAX_HISTORY_FILE_BYTES + 1)
    except FileNotFoundError:
        return None
    if len(data) > MAX_HISTORY_FILE_BYTES:
        raise TooLargeForHistoryError(directory.display(name))
    return data


def capture_file(
    directory: Directory, path: VirtualPath, *, unkept: list[tuple[VirtualPath, str]] | None = None
) -> bytes | None:
    """The content of file `path` for history; None, with a warning, when it cannot be kept.
    `unkept` collects (path, why) of content that would be lost instead of the warning."""
    try:
        return read_whole(directory, path.name)
    except OSError as error:  # a hard-linked file is never one whose content is lost
        if unkept is None or isinstance(error, HardLinkedFileError):
            logger.warning("History cannot keep %s: %s", path, error.strerror or error)
        else:
            unkept.append((path, str(error.strerror or error)))
    return None


def capture_tree(
    parent: Directory,
    path: VirtualPath,
    *,
    shown_as: VirtualPath | None = None,
    unkept: list[tuple[VirtualPath, str]] | None = None,
) -> list[tuple[VirtualPath, bytes]]:
    """Every listable file below directory `path` with its content; `shown_as` names them where the
    tree really belongs (an orphan's hidden rename). `unkept`: as `capture_file`."""
    captured: list[tuple[VirtualPath, bytes]] = []
    named = shown_as or path
    try:
        root = open_subdirectory(parent, path.name)
    except OSError as error:
        logger.warning("History cannot keep %s: %s", named, error.strerror or error)
        return captured
    pending: list[tuple[Directory, VirtualPath]] = [(root, named)]
    while pending:
        directory, where = pending.pop()
        with directory:
            try:
                entries = entries_of(directory)
            except OSError:
                continue
            for entry in entries:
                if not is_listable_name(entry.name) or entry.is_symlink():
                    continue
                child = where.child(entry.name)
                try:
                    if entry.is_dir(follow_symlinks=False):
                        if entries_too_deep(child.segments):
                            _not_kept_too_deep(directory, entry.name, child, unkept)
                        else:
                            pending.append((open_subdirectory(directory, entry.name), child))
                    elif entry.is_file(follow_symlinks=False):
                        data = capture_file(directory, child, unkept=unkept)
                        if data is not None:
                            captured.append((child, data))
                except OSError as error:
                    logger.warning("History cannot keep %s: %s", child, error.strerror or error)
    return captured


def _not_kept_too_deep(
    directory: Directory, name: str, path: VirtualPath, unkept: list[tuple[VirtualPath, str]] | None
) -> None:
    """A directory at the depth (docs/formats.md §5): its contents not kept, said if any."""
    try:
        with open_subdirectory(directory, name) as below:
            if all(is_hidden_name(entry.name) for entry in entries_of(below)):
                return
    except OSError:
        return
    why = f"what it holds is more than {MAX_PATH_DEPTH} levels deep"
    if unkept is None:
        logger.warning("History cannot keep %s: %s", path, why)
    else:
        unkept.append((path, why))


def removes_nothing(before: bytes, after: bytes) -> bool:
    """Whether `after` is `before` with one run of bytes inserted: it destroys nothing, so it may go
    on when history cannot keep `before` (docs/formats.md §14.2)."""
    return len(after) >= len(before) and after.endswith(
        before[common_prefix_length(before, after) :]
    )


def common_prefix_length(first: Sequence[T], second: Sequence[T]) -> int:
    """How many leading items `first` and `second` share (a binary search over slices)."""
    low, high = 0, min(len(first), len(second))
    while low < high:
        middle = (low + high + 1) // 2
        if first[:middle] == second[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def relocate(path: VirtualPath, old_root: VirtualPath, new_root: VirtualPath) -> VirtualPath:
    """Where `path` (at or below `old_root`) is after `old_root` moved to `new_root`."""
    tail = path.segments[len(old_root.segments) :]
    return VirtualPath(new_root.scope, (*new_root.segments, *tail))
