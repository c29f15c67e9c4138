"""Reaching files inside a scope root without following a symlink, with store errors.

`MemoryStore` does every operation through these: a directory of a scope is opened
component by component from the root (`memtab.fs.confined`), and the operation then
works relative to it, so a directory swapped for a symlink after a check cannot redirect
it. The root itself is trusted (a home reached through a symlink works). `replace_loaded_in`
is the one sha-checked save (docs/formats.md §6), of memory files and other agents' alike.
"""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

from memtab.fs.atomic import Directory
from memtab.fs.confined import (
    HardLinkedFileError,
    LinkInPathError,
    open_subdirectory,
    remove_tree,
)
from memtab.store.errors import (
    AlreadyExistsError,
    MemoryStoreError,
    NotEditableError,
    NotFoundError,
    SaveConflictError,
    not_text_message,
)
from memtab.store.files import MAX_FILE_BYTES, FileContent, read_file_in
from memtab.store.paths import PathError, Scope, VirtualPath, is_within_directory, real_path

logger = logging.getLogger(__name__)


def open_scope_directory(
    root: Path, path: VirtualPath, *, target: VirtualPath, create: bool
) -> Directory:
    """The directory `path` (a scope root, or a directory in the scope rooted at `root`).

    `target` is what the caller works on, for messages. `create` makes missing
    directories. Raises PathError (a symlink on the way), NotFoundError (missing),
    AlreadyExistsError (a file in the way, when creating), MemoryStoreError.
    """
    assert path.scope is not None
    try:
        if create:
            root.mkdir(parents=True, exist_ok=True)
        directory = Directory.open(root)
    except FileNotFoundError:
        raise NotFoundError(f"No memory file or directory at {target}") from None
    except OSError as error:
        raise MemoryStoreError(f"Cannot open {path}: {error.strerror or error}") from None
    walked = VirtualPath(path.scope)
    try:
        for segment in path.segments:
            walked = VirtualPath(path.scope, (*walked.segments, segment))
            child = open_subdirectory(directory, segment, create=create)
            directory.close()
            directory = child
    except OSError as error:
        directory.close()
        raise _directory_error(error, walked, target, create) from None
    except BaseException:
        directory.close()
        raise
    return directory


def _directory_error(
    error: OSError, walked: VirtualPath, target: VirtualPath, create: bool
) -> MemoryStoreError | PathError:
    """The store error for failing to open directory `walked` on the way to `target`."""
    if isinstance(error, LinkInPathError):
        return PathError(
            f"Invalid memory path {str(target)!r}: {walked} is a symbolic link, and memory "
            "paths never go through links"
        )
    if isinstance(error, NotADirectoryError):
        if create:
            return AlreadyExistsError(f"{walked} is a file, not a directory")
        return NotFoundError(f"No memory file or directory at {target}")
    if isinstance(error, FileNotFoundError):
        return NotFoundError(f"No memory file or directory at {target}")
    return MemoryStoreError(f"Cannot open {walked}: {error.strerror or error}")


def resolve_in_scopes(physical: Path, roots: dict[Scope, Path], *, display: str) -> VirtualPath:
    """The virtual path of `physical` once every symlink is followed: in the scope whose
    real root holds it (the innermost, should roots nest). PathError if none does."""
    real = real_path(physical, display)
    holders = [
        (len(real_root), scope, real_root)
        for scope, root in roots.items()
        if is_within_directory(real, real_root := real_path(root, display))
    ]
    if not holders:
        raise PathError(f"Invalid memory path {display!r}: path escapes the memory root")
    _, scope, real_root = max(holders, key=lambda holder: holder[0])
    relative = os.path.relpath(real, real_root)
    return VirtualPath(scope, () if relative == "." else tuple(relative.split(os.sep)))


@contextmanager
def reporting_os_errors(path: VirtualPath, verb: str) -> Iterator[None]:
    """Turn a file system error of a write into a store error naming the memory path (the
    directory may have been removed or replaced while the write went on)."""
    try:
        yield
    except OSError as error:
        raise MemoryStoreError(f"Cannot {verb} {path}: {error.strerror or error}") from None


def kind_in(directory: Directory, name: str) -> Literal["file", "dir"] | None:
    """What `name` is in `directory`; a symlink (or anything else) counts as missing."""
    info = directory.lstat(name)
    if info is None:
        return None
    if stat.S_ISDIR(info.st_mode):
        return "dir"
    return "file" if stat.S_ISREG(info.st_mode) else None


def read_in(directory: Directory, path: VirtualPath) -> tuple[FileContent, bytes]:
    """Read file `path` in its open parent (at most the cap) and the bytes read.

    NotFoundError when it is not a file, MemoryStoreError when it cannot be read.
    """
    if kind_in(directory, path.name) != "file":
        raise NotFoundError(f"No memory file at {path}")
    try:
        return read_file_in(directory, path.name)
    except FileNotFoundError:
        raise NotFoundError(f"No memory file at {path}") from None
    except HardLinkedFileError as error:
        raise MemoryStoreError(f"Cannot read {path}: {error.strerror}") from None
    except OSError as error:
        raise MemoryStoreError(f"Cannot read {path}: {error.strerror or error}") from None


def still_holds(directory: Directory, name: str, read_bytes: bytes) -> Callable[[], bool]:
    """A check that file `name` still holds `read_bytes` (read the same way, capped)."""

    def check() -> bool:
        try:
            return read_file_in(directory, name)[1] == read_bytes
        except OSError:
            return False  # gone, or replaced by something unreadable: not what was read

    return check


def remove_partial_copy(directory: Directory, name: str) -> None:
    """Clean up after a failed copy (best effort: the source is still whole)."""
    try:
        remove_tree(directory, name)
    except OSError as error:
        logger.warning("Could not remove the partial copy %s: %s", directory.display(name), error)


def replace_loaded_in(
    parent: Directory,
    name: str,
    data: bytes,
    expected_sha256: str,
    *,
    label: str,
    before_replacing: Callable[[bytes], None] | None = None,
) -> bytes:
    """Replace file `name` in `parent` with `data` if it still holds what the editor loaded
    (docs/formats.md §6), re-checked right before the rename; a conflict never touches the file.

    The one sha-checked save, for memory files (`MemoryStore.save`) and the other agents'
    files (`memtab.sources`) alike. The caller holds the lock that serializes writers of
    the file and opened `parent` without following links; `label` names the file in
    messages. `before_replacing` gets the bytes about to be replaced, once the save is
    allowed and before the file is touched (history's write-ahead). Returns the bytes it
    replaced (for history). Raises SaveConflictError, NotEditableError or MemoryStoreError.
    """
    changed = SaveConflictError("changed", f"{label} changed since it was loaded")
    if kind_in(parent, name) != "file":
        raise missing_conflict(label)
    try:
        current, read_bytes = read_file_in(parent, name)
    except FileNotFoundError:
        raise missing_conflict(label) from None
    except OSError as error:
        raise MemoryStoreError(f"Cannot read {label}: {error.strerror or error}") from None
    if current.sha256 != expected_sha256:
        raise changed
    require_editable(label, current)
    if before_replacing is not None:
        before_replacing(read_bytes)
    if not parent.replace_if_unchanged(name, data, unchanged=still_holds(parent, name, read_bytes)):
        raise changed
    return read_bytes


def require_editable(label: str, current: FileContent) -> None:
    """NotEditableError for a binary file or one over the cap (`label` names it)."""
    if current.binary:
        raise NotEditableError(not_text_message(label))
    if current.over_cap:
        raise NotEditableError(
            f"{label} is {current.size_bytes} bytes, over the {MAX_FILE_BYTES}-byte cap; "
            "it cannot be edited through Memtab"
        )


def missing_conflict(label: str) -> SaveConflictError:
    """The conflict of saving over a file that is gone (`label` names it)."""
    return SaveConflictError("missing", f"{label} no longer exists; it may have been deleted")
