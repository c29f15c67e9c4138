"""Many files of one scope written at once with every guarantee of `MemoryStore.restore_content`,
made durable together: contents kept and temps staged before the lock, then chunks under short holds
of the scope (xum's waits get in between) check, keep, publish and record them."""

from __future__ import annotations

import contextlib
import logging
import os
import stat
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from memtab.fs.atomic import (
    FILESYSTEM_FLUSH_WORKS,
    Directory,
    make_file_durable,
    make_filesystem_durable,
    on_one_file_system,
)
from memtab.fs.confined import remove_entry
from memtab.fs.private import kept_permissions
from memtab.store.errors import MemoryStoreError, NotFoundError, UnkeptChangeError, scope_full_error
from memtab.store.files import MAX_FILES_PER_SCOPE, count_files
from memtab.store.history.blobs import sha256_of
from memtab.store.history.capture import file_stat, read_whole, removes_nothing
from memtab.store.history.recorder import FileChange, RecordedChange
from memtab.store.history.versions import Op
from memtab.store.paths import PathError, Scope, VirtualPath, require_listed
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.scope_access import reporting_os_errors
from memtab.store.scopes.scope_view import open_scope_directory

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Restore:
    """Make `path` hold `data` (None: removed) if it holds `expected_sha256` (None: no file)."""

    path: VirtualPath
    data: bytes | None
    """None: remove the file (only where it holds `expected_sha256`, which is then given)."""
    expected_sha256: str | None
    restored_from: str | None = None
    """The version it puts back, recorded as a `restore` of it (docs/formats.md §14.2); None: a
    sync's write."""
    meta: Mapping[str, object] | None = None
    """The pins and usage a deleted version kept, given back with the file it recreates."""


@dataclass
class RestoreResult:
    """What `restore_contents` did with each file."""

    written: list[VirtualPath] = field(default_factory=list)
    changed: list[VirtualPath] = field(default_factory=list)
    """Not what the caller saw (changed meanwhile): left as they are."""
    failed: dict[VirtualPath, str] = field(default_factory=dict)  # not written, and why
    recorded: list[RecordedChange] = field(default_factory=list)


@dataclass
class _Planned:
    item: Restore
    current: bytes | None
    temp: str | None = None
    copied: str | None = None
    """Its content's sha256, once it is in history already (`keep_contents`)."""
    meta_given: bool = False
    """Its `Restore.meta` is in memory-meta.json (taken back if it is not written)."""


_Entry = TypeVar("_Entry", Restore, _Planned)

CHUNK_HOLD_S = 0.2  # about how long one chunk holds the scope (xum waits 2 s for its target lock)
_GAP_S = 0.03  # the lock let go between chunks: longer than xum's retry
FSYNC_AT_MOST = 8
"""Up to this many temps or folders are fsynced each; more, one flush of the file system."""


def restore_contents(
    store: MemoryStore, scope: Scope, items: Sequence[Restore], *, unflushed: Sequence[Path] = ()
) -> RestoreResult:
    """Write `items` as `restore_content(count_as_write=False)` would, durable together; removed
    files forgotten in memory-meta.json. Never raises for one file; MemoryStoreError when the scope
    cannot be written. `unflushed`: the caller's files made durable first."""
    if any(item.data is None and item.expected_sha256 is None for item in items):
        raise ValueError("a removal names the content it removes (expected_sha256)")
    result = RestoreResult()
    staged = _stage(store, scope, items, result, unflushed)
    waiting: Sequence[_Planned] = staged
    try:
        while waiting:
            if waiting is not staged:
                time.sleep(_GAP_S)  # a waiting xum (or Memtab) takes the lock now
            try:
                waiting = _restore_chunk(store, scope, waiting, result)
            except MemoryStoreError as error:
                if waiting is staged:
                    raise  # nothing written: the scope cannot be written at all
                result.failed.update({entry.item.path: str(error) for entry in waiting})
                break
    finally:
        _discard_temps(store, staged)  # what was not published (changed, failed, stopped)
        written = set(result.written)
        given = [e.item.path for e in staged if e.meta_given and e.item.path not in written]
        store.take_back_meta(given)
        removed = {item.path for item in items if item.data is None}
        store.forget_metas([path for path in result.written if path in removed])
    return result


def remove_empty_folders(store: MemoryStore, scope: Scope, paths: Iterable[VirtualPath]) -> None:
    """Remove the empty folders of `paths` a batch made, deepest first, up to the scope root; best
    effort (docs/formats.md §18.3)."""
    folders = {path.parent for path in paths if path.parent.segments}
    for folder in list(folders):
        above = folder.parent
        while above.segments:
            folders.add(above)
            above = above.parent
    if not folders:
        return
    with contextlib.suppress(MemoryStoreError), store.writing(scope):
        for folder in sorted(folders, key=lambda f: len(f.segments), reverse=True):
            try:
                with _open_parent(store, folder) as parent:
                    path, at = parent.at(folder.name)
                    os.rmdir(path, **at)
            except (MemoryStoreError, PathError, OSError):
                continue  # not empty, not there, or not to be touched


def _stage(
    store: MemoryStore,
    scope: Scope,
    items: Sequence[Restore],
    result: RestoreResult,
    unflushed: Sequence[Path],
) -> list[_Planned]:
    """Every new content copied into history and staged as its temp, durable with `unflushed`,
    before the scope lock; the staged entries, a folder's together."""
    if not items:
        make_durable_before_publishing(scope, unflushed, flushing=None)
        return []
    root = store.root(scope)
    removals = [_Planned(item, None) for item in items if item.data is None]
    writes = [item for item in items if item.data is not None]
    if not writes:  # nothing to stage: removals need nothing durable before them
        make_durable_before_publishing(scope, unflushed, flushing=None)
        return removals
    few = len(writes) <= FSYNC_AT_MOST or not FILESYSTEM_FLUSH_WORKS
    contents = [item.data for item in writes if item.data is not None]
    planned = [_Planned(item, None) for item in writes]
    # Copies then temps on this thread (on two threads they fought for the interpreter); fsynced
    # each when few, else one flush.
    digests = store.keep_contents(contents, each=few, flushed_with=None if few else root)
    if digests is not None:
        for entry, digest in zip(planned, digests, strict=True):
            entry.copied = digest
    staged = _write_temps(root, planned, result, few=few)
    try:
        flushing = root if staged and not few else None
        make_durable_before_publishing(scope, unflushed, flushing=flushing)
    except MemoryStoreError:
        _discard_temps(store, staged)
        raise
    return staged + removals


def make_durable_before_publishing(
    scope: Scope, unflushed: Sequence[Path], *, flushing: Path | None
) -> None:
    """The staged temps and copies made durable by one flush of `flushing`'s file system (None:
    durable already), `unflushed` with them."""
    try:
        if flushing is not None:
            make_filesystem_durable(flushing)
        for path in unflushed:
            if flushing is None or not on_one_file_system(path, flushing):
                make_file_durable(path)
    except OSError as error:
        raise MemoryStoreError(f"Cannot write the {scope.value} memory: {error}") from None


def _restore_chunk(
    store: MemoryStore, scope: Scope, staged: Sequence[_Planned], result: RestoreResult
) -> list[_Planned]:
    """One chunk under one hold of the scope: checked for a third of `CHUNK_HOLD_S`, published to
    two thirds, then made durable and recorded; the entries left for the next."""
    with store.writing(scope):
        began = time.monotonic()
        planned, taken = _plan(store, scope, staged, result, began + CHUNK_HOLD_S / 3)
        kept = _keep_replaced(store, scope, planned, result)
        # The pins and usage of the files the chunk recreates: one update.
        giving = [e for e in planned if e.current is None and e.item.meta and not e.meta_given]
        store.give_back_meta([(e.item.path, e.item.meta) for e in giving if e.item.meta])
        for entry in giving:
            entry.meta_given = True
        root = store.root(scope)
        # The pins and usage of the files it removes: one read.
        meta = store.meta_snapshot() if any(e.item.data is None for e in planned) else {}
        until = began + CHUNK_HOLD_S * 2 / 3
        changes, unreached = _publish(root, planned, result, until, meta=meta, store=store)
        left = {id(entry) for entry in unreached}
        published = [entry for entry in planned if id(entry) not in left]
        _make_durable(store, scope, published)
        copied = all(e.copied is not None for e in published if e.item.data is not None)
        result.recorded += store.record_changes(scope, changes, before_kept=kept, after_kept=copied)
    return [*unreached, *staged[taken:]]


def _plan(
    store: MemoryStore,
    scope: Scope,
    staged: Sequence[_Planned],
    result: RestoreResult,
    until: float,
) -> tuple[list[_Planned], int]:
    """The entries that can be published (the file as seen, a listed name, room in the scope),
    checked until `until`; how many were."""
    root = store.root(scope)
    room = MAX_FILES_PER_SCOPE - count_files(root)
    planned: list[_Planned] = []
    taken = 0
    for folder, group in _by_folder(staged).items():
        if taken and time.monotonic() > until:
            break
        try:
            directory: Directory | None = open_scope_directory(
                root, folder, target=folder, create=False
            )
        except NotFoundError:
            directory = None  # no folder: no file
        except (MemoryStoreError, PathError) as error:
            result.failed.update({entry.item.path: str(error) for entry in group})
            taken += len(group)
            continue
        with directory or contextlib.nullcontext():
            for entry in group:
                if taken and time.monotonic() > until:
                    break
                taken += 1
                item = entry.item
                try:
                    # A file to create is not looked for: publishing never replaces one.
                    current = _read(directory, item.path) if item.expected_sha256 else None
                    sha = sha256_of(current) if current is not None else None
                    if sha != item.expected_sha256:
                        result.changed.append(item.path)
                        continue
                    if current is None:
                        require_listed(item.path, "restore")
                        if room <= 0:
                            raise scope_full_error(scope)
                        room -= 1
                except (MemoryStoreError, PathError) as error:
                    result.failed[item.path] = str(error)
                    continue
                entry.current = current
                planned.append(entry)
    return planned, taken


def _by_folder(entries: Sequence[_Entry]) -> dict[VirtualPath, list[_Entry]]:
    """The entries by the folder their file is in (each folder opened once a step)."""
    folders: dict[VirtualPath, list[_Entry]] = {}
    for entry in entries:
        folders.setdefault(_path_of(entry).parent, []).append(entry)
    return folders


def _path_of(entry: Restore | _Planned) -> VirtualPath:
    return entry.path if isinstance(entry, Restore) else entry.item.path


def _read(directory: Directory | None, path: VirtualPath) -> bytes | None:
    with reporting_os_errors(path, "restore"):
        info = directory.lstat(path.name) if directory is not None else None
        if directory is None or info is None:
            return None  # nothing there (most files a home joining brings)
        if stat.S_ISDIR(info.st_mode):
            raise MemoryStoreError(f"{path} is a directory")
        return read_whole(directory, path.name)


def _open_parent(store: MemoryStore, path: VirtualPath, *, create: bool = False) -> Directory:
    assert path.scope is not None
    return open_scope_directory(store.root(path.scope), path.parent, target=path, create=create)


def _keep_replaced(
    store: MemoryStore, scope: Scope, planned: list[_Planned], result: RestoreResult
) -> bool:
    """The contents the batch replaces, into history first; where history cannot keep them, a
    destroying change fails."""
    replaced = [p for p in planned if p.current is not None]
    contents = [(p.item.path, p.current) for p in replaced if p.current is not None]
    if not contents:
        return False
    removing = all(p.item.data is None for p in replaced)
    done = "restored" if any(p.item.restored_from for p in replaced) else "changed"
    done = "deleted" if removing else done
    try:
        return store.keep_before(
            scope, contents, label=contents[0][0], done=done, destroys=True,
            allow_unkept=False,
        )  # fmt: skip
    except UnkeptChangeError as error:
        for entry in replaced:
            assert entry.current is not None
            if not removes_nothing(entry.current, entry.item.data or b""):
                result.failed[entry.item.path] = str(error)
                planned.remove(entry)
        return False


def in_folders(
    root: Path, planned: Sequence[_Entry], result: RestoreResult, *, create: bool
) -> Iterator[tuple[Directory, _Entry]]:
    """Each entry with its folder open (once each); a folder that cannot be opened fails its own."""
    for folder, entries in _by_folder(planned).items():
        try:
            directory = open_scope_directory(root, folder, target=folder, create=create)
        except (MemoryStoreError, PathError) as error:
            result.failed.update({_path_of(entry): str(error) for entry in entries})
            continue
        with directory:
            for entry in entries:
                yield directory, entry


def _write_temps(
    root: Path, planned: list[_Planned], result: RestoreResult, *, few: bool
) -> list[_Planned]:
    """Each entry's temp file beside its file (its folder made), fsynced if `few`."""
    written = []
    for directory, entry in in_folders(root, planned, result, create=True):
        path = entry.item.path
        assert entry.item.data is not None  # removals are not staged
        try:
            with reporting_os_errors(path, "restore"):
                replaced = directory.lstat(path.name) if entry.current is not None else None
                mode = kept_permissions(replaced)  # a new file's: the umask's, never looked up
                entry.temp = directory.write_temp(
                    path.name, entry.item.data, mode=mode, durable=few
                )
        except MemoryStoreError as error:
            result.failed[path] = str(error)
            continue
        written.append(entry)
    return written


def _discard_temps(store: MemoryStore, planned: Sequence[_Planned]) -> None:
    left = [entry for entry in planned if entry.temp is not None]
    for entries in _by_folder(left).values():
        try:
            with _open_parent(store, entries[0].item.path) as parent:
                for entry in entries:
                    assert entry.temp is not None
                    parent.discard(entry.temp)
                    entry.temp = None
        except (MemoryStoreError, PathError):
            pass  # the next listing removes them


def _make_durable(store: MemoryStore, scope: Scope, planned: list[_Planned]) -> None:
    """Make the chunk's renames durable: each folder fsynced, or one flush when many."""
    folders = {entry.item.path.parent for entry in planned}
    if not folders:
        return
    root = store.root(scope)
    try:
        if len(folders) > FSYNC_AT_MOST and FILESYSTEM_FLUSH_WORKS:
            make_filesystem_durable(root)
            return
        for folder in folders:
            with open_scope_directory(root, folder, target=folder, create=False) as parent:
                parent.fsync()
    except (OSError, MemoryStoreError, PathError) as error:
        raise MemoryStoreError(f"Cannot write the {scope.value} memory: {error}") from None


def _publish(
    root: Path,
    planned: list[_Planned],
    result: RestoreResult,
    until: float,
    *,
    meta: Mapping[str, dict[str, object]],
    store: MemoryStore,
) -> tuple[list[FileChange], list[_Planned]]:
    """Publish (or remove) the planned entries in order until `until`; the changes to record and the
    entries not reached. `meta` is kept with each removal."""
    changes: list[FileChange] = []
    unreached: list[_Planned] = []
    reached = 0
    entries = in_folders(root, planned, result, create=False)
    for directory, entry in entries:
        if reached and time.monotonic() > until:
            unreached = [entry, *(rest for _, rest in entries)]
            break
        reached += 1
        path, data, current = entry.item.path, entry.item.data, entry.current
        try:
            with reporting_os_errors(path, "restore"):
                done = _published if data is not None else _removed
                if not done(directory, entry):
                    result.changed.append(path)
                    continue
                seen = file_stat(directory, path.name) if data is not None else None
        except MemoryStoreError as error:
            result.failed[path] = str(error)
            continue
        restored_from = entry.item.restored_from
        op: Op = "restore" if restored_from else "create" if current is None else "edit"
        if data is None:
            kept_meta = meta.get(store.meta_key(path))
            changes.append(FileChange(str(path), current, None, "delete", meta=kept_meta))
        else:
            change = FileChange(
                str(path), current, data, op, seen, entry.copied, restored_from=restored_from
            )
            changes.append(change)
        result.written.append(path)
    return changes, unreached


def _removed(parent: Directory, entry: _Planned) -> bool:
    """Remove the file; False (it stays) when it changed since it was checked."""
    name = entry.item.path.name
    if read_whole(parent, name) != entry.current:
        return False
    remove_entry(parent, name, directory=False)
    return True


def _published(parent: Directory, entry: _Planned) -> bool:
    """Publish the temp file; False (it is discarded) when the file changed meanwhile."""
    name, current, temp = entry.item.path.name, entry.current, entry.temp
    assert temp is not None
    entry.temp = None  # published or discarded, whatever happens
    if current is None:
        try:
            parent.publish(temp, name, unchanged=None, create=True)
        except FileExistsError:
            info = parent.lstat(name)
            if info is not None and stat.S_ISDIR(info.st_mode):
                raise MemoryStoreError(f"{entry.item.path} is a directory") from None
            return False
        return True
    return parent.publish(temp, name, unchanged=lambda: read_whole(parent, name) == current)
