"""A scope with no files yet brought in whole: staged in a folder of its own on its file system,
made durable by one flush, then published under the scope's locks by one rename that never replaces
anything (docs/formats.md §18.3); otherwise the caller writes the files one by one."""

from __future__ import annotations

import contextlib
import logging
import os
import stat
from collections.abc import Callable, Generator, Iterable, Sequence
from pathlib import Path

from memtab.fs.atomic import (
    FILESYSTEM_FLUSH_WORKS,
    Directory,
    moves_whole_folders,
    on_one_file_system,
)
from memtab.fs.confined import remove_tree
from memtab.fs.private import AGENT_FOLDER_MODE, make_agent_folders
from memtab.store.errors import MemoryStoreError
from memtab.store.files import MAX_FILES_PER_SCOPE
from memtab.store.history.recorder import FileChange
from memtab.store.paths import PathError, Scope, VirtualPath, require_listed
from memtab.store.restore.bulk_restore import (
    FSYNC_AT_MOST,
    RestoreResult,
    make_durable_before_publishing,
)
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.scope_access import store_error
from memtab.store.scopes.scope_view import open_scope_directory

logger = logging.getLogger(__name__)


def restore_new_scope(
    store: MemoryStore,
    scope: Scope,
    paths: Sequence[VirtualPath],
    contents: Callable[[], Generator[bytes, None, None]],
    *,
    staging: Path,
    unflushed: Sequence[Path] = (),
) -> RestoreResult | None:
    """Create the new files `paths` of `scope` staged in `staging` and published by renaming it to
    the root; None, nothing published, where that does not apply. `contents()` yields each file's
    content in order. MemoryStoreError as `restore_contents`."""
    root = store.root(scope)
    if not _applies(len(paths), root, staging):
        return None
    result = RestoreResult()
    listed = [_listed(path, result) for path in paths]
    discard_staging(staging)
    try:
        os.mkdir(staging, AGENT_FOLDER_MODE)
        make_agent_folders(root.parent)  # made durable by the flush below
    except OSError as error:
        logger.info("The %s memory is written file by file: %s", scope.value, error)
        discard_staging(staging)
        return None
    try:
        # Copied into history as each is staged, durable by the same flush.
        with (
            store.keeping_contents(flushed_with=staging) as keeper,
            contextlib.closing(contents()) as taken,
        ):
            staged = _write_staged(staging, paths, taken, listed, keeper.keep, result)
        make_durable_before_publishing(scope, unflushed, flushing=staging)
        with store.writing(scope):
            published = _moved_into_place(staging, root, scope)
            if published:
                changes = [
                    FileChange(str(path), None, data, "create", seen, digest)
                    for path, data, seen, digest in staged
                ]
                result.written += [path for path, _, _, _ in staged]
                result.recorded += store.record_changes(scope, changes, after_kept=keeper.kept)
    except Exception:
        discard_staging(staging)
        raise
    if not published:
        discard_staging(staging)
        return None
    return result


def discard_staging(staging: Path) -> None:
    """Remove a staging folder and what it holds (a link removed, never followed); best effort."""
    try:
        with Directory.open(staging.parent) as parent:
            if parent.lstat(staging.name) is not None:
                remove_tree(parent, staging.name)
    except FileNotFoundError:
        return
    except OSError as error:
        logger.warning("Cannot remove the staging folder %s: %s", staging, error)


def _applies(count: int, root: Path, staging: Path) -> bool:
    """Whether `count` files are staged whole: many, a root missing or empty, staging beside it."""
    if not FSYNC_AT_MOST < count <= MAX_FILES_PER_SCOPE:
        return False
    if not FILESYSTEM_FLUSH_WORKS or not moves_whole_folders():
        return False
    try:
        return _missing_or_empty(root) and on_one_file_system(staging.parent, root)
    except OSError:
        return False


def _missing_or_empty(root: Path) -> bool:
    try:
        info = os.lstat(root)
    except FileNotFoundError:
        return True
    if not stat.S_ISDIR(info.st_mode):
        return False  # a link to a folder too: written through, file by file
    with os.scandir(root) as entries:
        return next(entries, None) is None


def _listed(path: VirtualPath, result: RestoreResult) -> bool:
    """Whether a file at `path` is one a listing shows (else it fails)."""
    try:
        require_listed(path, "restore")
    except PathError as error:
        result.failed[path] = str(error)
        return False
    return True


def _write_staged(
    staging: Path,
    paths: Sequence[VirtualPath],
    contents: Iterable[bytes],
    listed: Sequence[bool],
    keep: Callable[[bytes], str | None],
    result: RestoreResult,
) -> list[tuple[VirtualPath, bytes, tuple[int, int], str | None]]:
    """Each listed file written in the staging folder, not fsynced, its content kept first; those
    written, with content, stat and copy sha256."""
    written: list[tuple[VirtualPath, bytes, tuple[int, int], str | None]] = []
    folders: dict[VirtualPath, Directory | str] = {}  # each folder open, or why it cannot be
    try:
        for path, data, listing in zip(paths, contents, listed, strict=True):
            if not listing:
                continue  # taken all the same: the next content is the next path's
            digest = keep(data)
            directory = folders.get(path.parent)
            if directory is None:
                directory = folders[path.parent] = _opened(staging, path.parent)
            if isinstance(directory, str):
                result.failed[path] = directory
                continue
            try:
                info = directory.write_new(path.name, data)
            except OSError as error:
                result.failed[path] = str(store_error(path, "restore", error))
                continue
            written.append((path, data, (info.st_size, info.st_mtime_ns), digest))
    finally:
        for directory in folders.values():
            if not isinstance(directory, str):
                directory.close()
    return written


def _opened(staging: Path, folder: VirtualPath) -> Directory | str:
    """A folder of the staged scope, made where missing, or why it cannot be."""
    try:
        return open_scope_directory(staging, folder, target=folder, create=True)
    except (MemoryStoreError, PathError) as error:
        return str(error)


def _moved_into_place(staging: Path, root: Path, scope: Scope) -> bool:
    """Under the scope's locks: the staging folder renamed to an empty or missing `root`, both
    fsynced; whether it was."""
    try:
        os.rmdir(root)
    except FileNotFoundError:
        pass  # missing: made by the rename
    except OSError:
        return False  # not empty (someone wrote meanwhile), not a folder, or in use
    try:
        with Directory.open(staging.parent) as source, Directory.open(root.parent) as target:
            if not source.move_whole(staging.name, target, root.name):
                return False
            target.fsync()
            source.fsync()
    except FileExistsError:
        return False  # made meanwhile, by a program that takes no lock
    except OSError as error:
        raise MemoryStoreError(f"Cannot write the {scope.value} memory: {error}") from None
    return True
