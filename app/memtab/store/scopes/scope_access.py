"""Changing files inside a scope root with store errors, through directories opened without
following links: the one sha-checked save (docs/formats.md §6) and a move across scopes."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from memtab.fs.atomic import Directory
from memtab.fs.confined import copy_tree, remove_entry, remove_tree
from memtab.fs.readable import read_readable
from memtab.store.errors import (
    AlreadyExistsError,
    MemoryStoreError,
    NotEditableError,
    SaveConflictError,
    not_text_message,
)
from memtab.store.files import MAX_FILE_BYTES, FileContent, count_files, read_file_in
from memtab.store.paths import VirtualPath
from memtab.store.scopes.scope_dir import ScopeDir
from memtab.store.scopes.scope_view import kind_in

logger = logging.getLogger(__name__)


@contextmanager
def reporting_os_errors(path: VirtualPath, verb: str) -> Iterator[None]:
    """Turn a file system error of a write into a store error naming the memory path."""
    try:
        yield
    except OSError as error:
        raise store_error(path, verb, error) from None


def store_error(path: VirtualPath, verb: str, error: OSError) -> MemoryStoreError:
    """The store error an OSError of a write of `path` is."""
    return MemoryStoreError(f"Cannot {verb} {path}: {error.strerror or error}")


def still_holds(directory: Directory, name: str, read_bytes: bytes) -> Callable[[], bool]:
    """A check that file `name` still holds `read_bytes` (read the same way, capped)."""

    def check() -> bool:
        try:
            return read_file_in(directory, name)[1] == read_bytes
        except OSError:
            return False  # gone, or replaced by something unreadable: not what was read

    return check


def replace_loaded_in(
    parent: Directory,
    name: str,
    data: bytes,
    expected_sha256: str,
    *,
    label: str,
    before_replacing: Callable[[bytes], None] | None = None,
) -> bytes:
    """Replace file `name` in `parent` with `data` if it still holds what the editor loaded,
    rechecked before the rename (docs/formats.md §6): the one sha-checked save, memory's and other
    agents'. `before_replacing` gets the bytes to go; returns them. SaveConflictError,
    NotEditableError, MemoryStoreError."""
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
        over = f"over the {MAX_FILE_BYTES}-byte cap; it cannot be edited through Memtab"
        raise NotEditableError(f"{label} is {current.size_bytes} bytes, {over}")


def missing_conflict(label: str) -> SaveConflictError:
    """The conflict of saving over a file that is gone (`label` names it)."""
    return SaveConflictError("missing", f"{label} no longer exists; it may have been deleted")


def copy_across_scopes(
    source_at: tuple[ScopeDir, VirtualPath],
    target_at: tuple[ScopeDir, VirtualPath],
    kind: str,
    taken: AlreadyExistsError,
) -> None:
    """Move `kind` ("file" or "dir") across scopes: copied, then the original removed; `taken` when
    something is at the target. Never replaces anything."""
    (source_dir, old), (target_dir, new) = source_at, target_at
    adding = 1 if kind == "file" else count_files(source_dir.physical(old))
    target_dir.check_room(adding)
    with source_dir.open_parent(old) as source, target_dir.open_parent(new, create=True) as target:
        try:
            if kind == "file":
                target.create_new(new.name, read_readable(source, old.name, limit=None)[0])
            else:
                copy_tree(source, old.name, target, new.name)
        except FileExistsError:
            raise taken from None
        except OSError as error:
            if kind == "dir":  # best effort: the source is still whole
                try:
                    remove_tree(target, new.name)
                except OSError as left:
                    logger.warning(
                        "Could not remove the partial copy %s: %s", target.display(new.name), left
                    )
            raise MemoryStoreError(
                f"Cannot copy {old} to {new}: {error.strerror or error}"
            ) from None
        try:
            remove_entry(source, old.name, directory=kind == "dir")
        except OSError as error:
            kept = f"but cannot remove the original: {error.strerror or error}"
            raise MemoryStoreError(f"Copied {old} to {new}, {kept}") from None
