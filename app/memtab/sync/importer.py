"""Bringing a merge into the scopes (docs/formats.md §18.3, step 4) through `MemoryStore`, the
branch moved only after; what it will write is said first in the target's `import.json`, so a killed
import is finished by the next sync (`interrupted_import.py`)."""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, NamedTuple, TypeVar

from memtab.fs.atomic import make_file_durable
from memtab.fs.clock import Clock
from memtab.humanize import plural
from memtab.store.errors import MemoryStoreError, SaveConflictError
from memtab.store.history.capture import MAX_HISTORY_FILE_BYTES
from memtab.store.history.recorder import RecordedChange
from memtab.store.history.records import FileVersions, RunEntry, RunOp
from memtab.store.history.runs import RunsLog, log_run, new_run_id
from memtab.store.home import Home
from memtab.store.paths import PathError, VirtualPath
from memtab.store.restore.bulk_restore import Restore, RestoreResult, restore_contents
from memtab.store.restore.new_scope import restore_new_scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.meta import MetaEntry
from memtab.sync.export import PathConflict, SyncedStore, import_entry, parse_records
from memtab.sync.records import (
    INTENT_VERSION,
    ImportIntent,
    IntendedFile,
    MetaChange,
    MetaRecord,
    Pending,
    SyncState,
)
from memtab.sync.repository.layout import SyncedScope, SyncPaths, Target
from memtab.sync.repository.scopes import LocalFile, write_file
from memtab.sync.repository.writing import Repository
from memtab.sync.state import clear_intent, save_intent, save_state


def log_imports(
    home: Home,
    target: Target,
    changes: Sequence[RecordedChange],
    at_ms: int,
    *,
    durable: bool = True,
) -> None:
    """Log the run of a sync of `target` that brought `changes`; not `durable`: caller flushes."""
    if not changes:
        return
    ops = tuple(  # a thousand for a machine joining, of values history made: unchecked
        RunOp.unchecked(
            command=_command(c), path=c.path, applied=True, files=(FileVersions.from_change(c),)
        )
        for c in changes
    )
    workspaces = {scope.key for scope in target.scopes if scope.kind == "workspace"}
    only_workspace = next(iter(workspaces)) if len(target.scopes) == len(workspaces) == 1 else None
    summary = f"Brought in {plural(len(changes), 'change')} from {target.remote}"
    run = RunEntry(
        id=new_run_id(at_ms),
        at=at_ms,
        kind="sync",
        trigger=target.name,
        ops=ops,
        workspace_id=only_workspace,
        summary=summary,
    )
    log_run(home, run, durable=durable)


def not_logged(home: Home, changes: Sequence[RecordedChange]) -> list[RecordedChange]:
    """The changes no sync's run in the runs log names yet."""
    if not changes:
        return []
    try:
        runs = RunsLog(home).runs(kind="sync")
    except (OSError, TimeoutError):
        runs = []
    logged = {file.after_version for run in runs for op in run.ops for file in op.files}
    return [change for change in changes if change.after.id not in logged]


def _command(change: RecordedChange) -> str:
    if change.after.deleted:
        return "delete"
    return "create" if change.before is None or change.before.deleted else "edit"


T = TypeVar("T")


class Beside(Generic[T]):
    """`call()` on a daemon thread started at once; `result()` returns what it returned or raises
    what it raised."""

    def __init__(self, call: Callable[[], T], name: str) -> None:
        self._call = call
        self._returned: list[T] = []
        self._raised: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._returned.append(self._call())
        except BaseException as error:  # re-raised by `result`, where the caller waits
            self._raised = error

    def result(self) -> T:
        self._thread.join()
        if self._raised is not None:
            raise self._raised
        return self._returned[0]


logger = logging.getLogger(__name__)

TOO_LARGE = f"larger than {MAX_HISTORY_FILE_BYTES // (1024 * 1024)} MB, which history cannot keep"
MERGE_REF = "refs/memtab/merge"
Progress = Callable[[str], None]
ScopeMeta = dict[str, dict[str, MetaRecord]]
ReadScopes = Callable[[Mapping[str, str], Container[str]], list[SyncedStore]]
"""The target's scopes now; a file unchanged since read whose blob the given files have at its path
is not read again unless given."""


@dataclass
class Brought:
    """What a sync's imports brought in, for its report and its run in the runs log."""

    pulled: list[str] = field(default_factory=list)
    pulled_on_disk: list[str] = field(default_factory=list)
    """Where the pulled files are on this disk (the window badges their changes as sync's)."""
    deleted: list[str] = field(default_factory=list)
    """The pulled files that were removed (deleted on another machine)."""
    imported: list[RecordedChange] = field(default_factory=list)
    """The versions the files brought in were recorded as (the runs log's run of kind `sync`)."""
    notes: list[tuple[str, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Write:
    """A file to write: its scope, content (None: no file), blob (None: removed), memory path."""

    item: SyncedStore
    have: LocalFile | None
    want: str | None
    virtual: VirtualPath


class _Coming(NamedTuple):
    """A file to write: its memory path, its blob, the sha256 it holds now (None: no file)."""

    path: VirtualPath
    blob: str
    expected_sha256: str | None


@dataclass
class Importer:
    """The imports of one sync of a target (see the module doc)."""

    target: Target
    repo: Repository
    paths: SyncPaths
    open_scopes: Callable[[], list[tuple[SyncedScope, MemoryStore]]]
    """The target's scopes' stores (sync's), nothing read or recorded yet."""
    read_scopes: ReadScopes
    clock: Clock
    progress: Progress
    brought: Brought
    _roots: dict[int, str] = field(default_factory=dict, init=False, repr=False)

    def bring_in(
        self,
        synced: list[SyncedStore],
        merged: str | None,
        start: str | None,
        remote: str | None,
        conflicts: Sequence[PathConflict],
        meta_read: Mapping[str, dict[str, MetaEntry]],
        state: SyncState,
    ) -> SyncState:
        """Bring commit `merged` into the scopes and move the branch from `start` to it; the state
        once done. `merged` None: nothing to bring."""
        if merged is None:
            return ended(state, None, dict(state.pending), {}, self.clock())
        tree = self.repo.files(merged)
        pending = dict(state.pending)
        for conflict in conflicts:
            item = scope_item(synced, conflict.path)
            local = item.files.files.get(conflict.path) if item is not None else None
            pending[conflict.path] = Pending(
                kind="conflict",
                base=conflict.base,
                local=local.sha256 if local else None,
                remote=tree.get(conflict.path),
                since=self.clock(),
                remote_commit=remote,
                reason=conflict.reason,
            )
        for path, why in sorted(self.repo.reader.skipped.items()):
            self.brought.problems.append(f"{path} in the repository was not read: {why}")
        writes = _planned(synced, tree, pending)
        baseline, updates = meta_plan(self.repo.blobs, synced, tree, meta_read)
        if merged == start and not writes and not updates:
            return ended(state, merged, pending, baseline, self.clock())
        mark = len(self.brought.imported)
        self._keep_bases(start, writes)
        intent = ImportIntent.unchecked(  # the repository's ids and this sync's own state
            version=INTENT_VERSION,
            merge=merged,
            start=start,
            remote=remote,
            files={
                path: IntendedFile(before=write.have.blob if write.have else None, after=write.want)
                for path, write in writes.items()
            },
            state=state.replaced(pending=pending),
        )
        # Durable before the first write: by the batch's flush when only files are written, else on
        # its own.
        intent_file = self.paths.import_intent(self.target.name)
        removes = any(write.want is None for write in writes.values())
        save_intent(intent_file, intent, durable=removes)
        self.write(writes, pending, unflushed=() if removes else (intent_file,))
        final = ended(state, merged, pending, baseline, self.clock())
        self.write_meta(synced, updates, intent, final)
        self.complete(intent, final, start, self.brought.imported[mark:])
        return final

    def _keep_bases(self, start: str | None, writes: Mapping[str, Write]) -> None:
        """What each file held, in the repository (the base a later merge of it reads)."""
        replaced = [write.have for write in writes.values() if write.have is not None]
        known = set(self.repo.files(start).values()) if replaced else set()
        for have in replaced:
            if have.blob not in known and have.data is not None:  # not read: held there
                self.repo.store_blob(have.data)

    def write(
        self,
        writes: Mapping[str, Write],
        pending: dict[str, Pending],
        unflushed: Sequence[Path] = (),
    ) -> None:
        """Write the files (deletions through the store, the rest together); one changed since read
        is merged again (`unapplied`). `unflushed`: made durable before any of these."""
        if writes:
            self.progress(f"Bringing in {plural(len(writes), 'file')}")
        # Whether each can be read whole (MAX_BLOB_BYTES); contents read as each scope is written.
        readable = self.repo.readable(write.want for write in writes.values() if write.want)
        batches: dict[int, tuple[SyncedStore, list[_Coming]]] = {}
        repo_paths: dict[VirtualPath, str] = {}
        for path, write in writes.items():
            item, have, want, virtual = write.item, write.have, write.want, write.virtual
            if want and want not in readable:
                # History could not keep it: not brought in (nor removed).
                self.brought.problems.append(f"{virtual} was not brought in: {TOO_LARGE}")
                pending[path] = self._unapplied(have, want)
            elif want:  # written together, durable at once (`bulk_restore`)
                repo_paths[virtual] = path
                coming = _Coming(virtual, want, have.sha256 if have else None)
                batches.setdefault(id(item), (item, []))[1].append(coming)
            else:
                self._delete(item, path, virtual, have, want, pending)
        for item, batch in batches.values():
            try:
                done = self._restore(item, batch, unflushed)
                unflushed = ()  # durable before the batch published anything
            except MemoryStoreError as error:  # nothing published: still to be made durable
                done = RestoreResult(failed={restore.path: str(error) for restore in batch})
            for virtual in done.written:
                pending.pop(repo_paths[virtual], None)
                self.pulled(item, virtual)
            for virtual, why in done.failed.items():
                self.brought.problems.append(f"{virtual} was not updated: {why}")
            for virtual in [*done.changed, *done.failed]:
                # Changed since the export (or not written): merged again next time.
                write = writes[repo_paths[virtual]]
                pending[repo_paths[virtual]] = self._unapplied(write.have, write.want)
            self.brought.imported += done.recorded
        for written in unflushed:  # no batch published: durable all the same, before the meta
            make_file_durable(written)

    def _restore(
        self, item: SyncedStore, batch: Sequence[_Coming], unflushed: Sequence[Path]
    ) -> RestoreResult:
        """Write a scope's files together: a new scope whole in one rename (`new_scope`), else file
        by file (`bulk_restore`)."""
        store, scope = item.store, item.scope.scope
        oids = [coming.blob for coming in batch]
        if all(coming.expected_sha256 is None for coming in batch):
            whole = restore_new_scope(
                store,
                scope,
                [coming.path for coming in batch],
                functools.partial(self.repo.stream, oids),
                staging=self.paths.staging(self.target.name),
                unflushed=unflushed,
            )
            if whole is not None:
                return whole
        contents = self.repo.blobs(oids)  # read already, where the whole scope was tried
        restores = [Restore(c.path, contents[c.blob], c.expected_sha256) for c in batch]
        return restore_contents(store, scope, restores, unflushed=unflushed)

    def _delete(
        self,
        item: SyncedStore,
        path: str,
        virtual: VirtualPath,
        have: LocalFile | None,
        want: str | None,
        pending: dict[str, Pending],
    ) -> None:
        """Remove a file the merge removed (through the store: history keeps it)."""
        try:
            pinned = item.store.is_pinned(virtual)
            with item.store.collecting_changes() as recorded:
                write_file(item.store, virtual, None, have.sha256 if have else None)
        except SaveConflictError:
            # Changed since the export: merged again from what it held then.
            pending[path] = self._unapplied(have, want)
            return
        except (MemoryStoreError, PathError, OSError) as error:
            self.brought.problems.append(f"{virtual} was not updated: {error}")
            pending[path] = self._unapplied(have, want)
            return
        pending.pop(path, None)
        self.pulled(item, virtual, deleted=True)
        self.brought.imported += recorded
        if pinned:  # history keeps the pin with the deleted version: a restore brings both
            self.brought.notes.append(
                (
                    path,
                    "pinned here, deleted on another machine: in the trash with its pin "
                    "(memtab trash; memtab restore brings it back pinned)",
                )
            )

    def _unapplied(self, have: LocalFile | None, want: str | None) -> Pending:
        """A merge that could not be written, merged again next time from what the file held."""
        if have is not None and have.data is not None:  # not read: the repository holds it
            self.repo.store_blob(have.data)
        base, local = (have.blob, have.sha256) if have else (None, None)
        return Pending(kind="unapplied", base=base, local=local, remote=want, since=self.clock())

    def pulled(self, item: SyncedStore, virtual: VirtualPath, *, deleted: bool = False) -> None:
        """Count `virtual` of `item` in as pulled, with where it is on disk."""
        self.brought.pulled.append(str(virtual))
        root = self._roots.get(id(item))
        if root is None:  # once a scope: a thousand files joining ask it a thousand times
            root = self._roots[id(item)] = str(item.store.root(item.scope.scope))
        self.brought.pulled_on_disk.append("/".join((root, *virtual.segments)))
        if deleted:
            self.brought.deleted.append(str(virtual))

    def write_meta(
        self,
        synced: list[SyncedStore],
        updates: Mapping[str, Callable[[MetaEntry], MetaEntry | None]],
        intent: ImportIntent,
        final: SyncState,
    ) -> None:
        """Pins and usage into memory-meta.json, the intent told first."""
        path = self.paths.import_intent(self.target.name)

        def note(changing: dict[str, tuple[MetaEntry, MetaEntry]]) -> None:
            meta = {key: MetaChange(before=old, after=new) for key, (old, new) in changing.items()}
            save_intent(path, _done(intent, final, meta))

        if not updates:
            note({})
            return
        try:
            synced[0].store.meta.update_entries(updates, before_write=note)
        except (OSError, MemoryStoreError) as error:
            logger.warning("Pins and usage from the sync were not recorded: %s", error)
            note({})  # the files are done all the same

    def complete(
        self,
        intent: ImportIntent,
        final: SyncState,
        branch: str | None,
        recorded: Sequence[RecordedChange],
    ) -> None:
        """The branch to the merge while the run is logged, the state saved, run and state made
        durable together, then the intent gone."""
        moving = None
        if branch != intent.merge:
            move = functools.partial(self.repo.git.set_branch, self.target.branch, intent.merge)
            moving = Beside(functools.partial(move, branch), "memtab-sync-branch")
        state = self.paths.state(self.target.name)
        try:
            log_imports(self.paths.home, self.target, recorded, self.clock(), durable=False)
        finally:
            if moving is not None:
                moving.result()
        save_state(state, final, durable=False)
        durable = [state, self.paths.home.runs_log_path] if recorded else [state]
        for written in durable:
            with contextlib.suppress(FileNotFoundError):  # the log: not written (a warning)
                make_file_durable(written)
        clear_intent(self.paths.import_intent(self.target.name))


def _done(intent: ImportIntent, final: SyncState, meta: dict[str, MetaChange]) -> ImportIntent:
    """`intent` once its files are written: its end state, pins and usage (built unchecked)."""
    values = {name: getattr(intent, name) for name in ("version", "merge", "start", "remote")}
    return ImportIntent.unchecked(
        **values, files=intent.files, state=intent.state, done=final, meta=meta
    )


def blob_of(file: LocalFile | None) -> str | None:
    return file.blob if file is not None else None


def scope_item(synced: Sequence[SyncedStore], path: str) -> SyncedStore | None:
    return next((item for item in synced if item.scope.virtual_path(path) is not None), None)


def _planned(
    synced: Sequence[SyncedStore], tree: Mapping[str, str], pending: dict[str, Pending]
) -> dict[str, Write]:
    """The files whose content here is not the merge's."""
    writes: dict[str, Write] = {}
    for item in synced:
        scope = item.scope
        in_tree = {p: v for p in tree if (v := scope.virtual_path(p)) is not None}
        for path in sorted(in_tree.keys() | item.files.files.keys()):
            record = pending.get(path)
            if item.files.leaves_out(path) or (record and record.kind == "conflict"):
                if record is not None and tree.get(path) != record.remote:
                    pending[path] = record.replaced(remote=tree.get(path))
                continue
            have, want = item.files.files.get(path), tree.get(path)
            if (have.blob if have else None) != want:
                virtual = in_tree.get(path) or scope.virtual_path(path)
                assert virtual is not None  # a file of the scope's
                writes[path] = Write(item, have, want, virtual)
    return writes


def ended(
    state: SyncState, merged: str | None, pending: dict[str, Pending], meta: ScopeMeta, now: int
) -> SyncState:
    return state.replaced(
        head=merged,
        pending=pending,
        meta=meta,
        last_sync_at=now,
        offline_since=None,
        last_error=None,
    )


def meta_plan(
    blobs: Callable[[Iterable[str]], dict[str, bytes]],
    synced: Sequence[SyncedStore],
    tree: Mapping[str, str],
    read: Mapping[str, dict[str, MetaEntry]],
) -> tuple[ScopeMeta, dict[str, Callable[[MetaEntry], MetaEntry | None]]]:
    """The merge's pins and usage: the new baseline, and what memory-meta.json gets."""
    metas = blobs(tree[item.scope.meta_path] for item in synced if item.scope.meta_path in tree)
    baseline: ScopeMeta = {}
    updates: dict[str, Callable[[MetaEntry], MetaEntry | None]] = {}
    for item in synced:
        scope = item.scope
        oid = tree.get(scope.meta_path)
        merged = parse_records(metas.get(oid) if oid else None)
        head = scope.prefix + "/"
        # Only a memory file's key, never one a teammate's sidecar made up.
        files = {path[len(head) :] for path in tree if scope.virtual_path(path) is not None}
        merged = {rel: record for rel, record in merged.items() if rel in files}
        baseline[scope.prefix] = merged
        exported = read.get(scope.prefix, {})
        for rel in sorted(files & (set(merged) | set(exported))):
            record, before = merged.get(rel, MetaRecord()), exported.get(rel, MetaEntry())
            if record.to_entry() != before:  # else nothing to bring: nothing written
                updates[scope.meta_key(rel)] = functools.partial(_imported, before, record)
    return baseline, updates


def _imported(before: MetaEntry, record: MetaRecord, current: MetaEntry) -> MetaEntry | None:
    """A file's entry here once the merged one comes back (None: back to no entry)."""
    entry = import_entry(current, before, record)
    return None if entry.is_default else entry


def meta_read_then(meta: ScopeMeta) -> dict[str, dict[str, MetaEntry]]:
    """This machine's entries as the export read them (the state's baseline after it)."""
    return {prefix: {rel: r.to_entry() for rel, r in rs.items()} for prefix, rs in meta.items()}
