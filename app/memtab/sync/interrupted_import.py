"""An import a kill cut short, finished by the next sync from its `import.json` (docs/formats.md
§18.3); an unusable intent is kept aside and the import worked out from the repository, one whose
branch moved is dropped."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from memtab.store.errors import MemoryStoreError
from memtab.store.history.blobs import sha256_of
from memtab.store.history.recorder import FileChange, RecordedChange
from memtab.store.history.versions import ScopeHistory, Version
from memtab.store.paths import PathError, VirtualPath
from memtab.store.restore.bulk_restore import remove_empty_folders
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.meta import MetaEntry
from memtab.sync.export import SyncedStore
from memtab.sync.importer import (
    MERGE_REF,
    Importer,
    Write,
    blob_of,
    ended,
    meta_plan,
    meta_read_then,
    not_logged,
    scope_item,
)
from memtab.sync.records import INTENT_VERSION, ImportIntent, IntendedFile, Pending, SyncState
from memtab.sync.repository.git import GitError
from memtab.sync.repository.objects import ObjectMissingError
from memtab.sync.repository.scopes import SYNC_ACTOR, LocalFile
from memtab.sync.repository.writing import Repository
from memtab.sync.state import clear_intent, load_intent

logger = logging.getLogger(__name__)


@dataclass
class InterruptedImport:
    """Finishing the import an intent names, with the sync's importer (see the module doc)."""

    importer: Importer

    @property
    def _repo(self) -> Repository:
        return self.importer.repo

    def finish(self, state: SyncState) -> SyncState | None:
        """Finish the import an intent names; the state then, None when there was none."""
        importer = self.importer
        read = load_intent(importer.paths.import_intent(importer.target.name))
        branch = importer.repo.resolve(f"refs/heads/{importer.target.branch}")
        intent = read.intent
        if read.problem is not None:
            intent = self._from_repository(branch, state)
            then = "finished from the repository" if intent else "nothing left to finish"
            importer.brought.problems.append(f"{read.problem}; {then}")
        if intent is None:
            return None
        # Before its files are done the branch is at the import's start; after, maybe at the merge.
        if branch not in ((intent.start,) if intent.done is None else (intent.start, intent.merge)):
            self._stale(intent, branch)
            return None
        try:
            tree = importer.repo.files(intent.merge)
        except ObjectMissingError as error:
            self._stale(intent, branch, str(error))
            return None
        importer.progress("Finishing the import a stopped sync began")
        mark = len(importer.brought.imported)
        if intent.done is None:
            self._claim(intent)  # before outside changes are recorded as another program's
        synced = importer.read_scopes(importer.repo.files(branch), ())
        read_then = meta_read_then(intent.state.meta)
        if intent.done is not None:  # the files are done: pins and usage, if not written
            final = intent.done
            self._sort_out(synced, intent, None)
            if not _meta_written(synced, intent):
                _, updates = meta_plan(importer.repo.blobs, synced, tree, read_then)
                importer.write_meta(synced, updates, intent, final)
        else:
            pending = dict(intent.state.pending)
            importer.write(self._sort_out(synced, intent, pending), pending)
            baseline, updates = meta_plan(importer.repo.blobs, synced, tree, read_then)
            final = ended(intent.state, intent.merge, pending, baseline, importer.clock())
            importer.write_meta(synced, updates, intent, final)
        importer.complete(intent, final, branch, importer.brought.imported[mark:])
        self._tidy_folders(intent)
        return final

    def _tidy_folders(self, intent: ImportIntent) -> None:
        """Remove the empty folders the import made for files not there now."""
        made = [path for path, planned in intent.files.items() if planned.after is not None]
        if not made:
            return
        for scope, store in self.importer.open_scopes():
            paths = [virtual for virtual in map(scope.virtual_path, made) if virtual is not None]
            remove_empty_folders(store, scope.scope, paths)

    def _sort_out(
        self, synced: list[SyncedStore], intent: ImportIntent, pending: dict[str, Pending] | None
    ) -> dict[str, Write]:
        """The intent's files now: holding what the import leaves, done; what it held, to write;
        anything else, changed since and merged again. `pending` None: the end state says."""
        writes: dict[str, Write] = {}
        done: list[tuple[SyncedStore, VirtualPath, LocalFile | None]] = []
        for path, planned in sorted(intent.files.items()):
            item = scope_item(synced, path)
            virtual = item.scope.virtual_path(path) if item is not None else None
            if item is None or virtual is None:
                continue  # no longer synced here
            have = item.files.files.get(path)
            if not item.files.leaves_out(path) and blob_of(have) == planned.after:
                if pending is not None:
                    pending.pop(path, None)
                self.importer.pulled(item, virtual, deleted=planned.after is None)
                done.append((item, virtual, have))
            elif pending is None:
                continue
            elif not item.files.leaves_out(path) and blob_of(have) == planned.before:
                writes[path] = Write(item, have, planned.after, virtual)
            else:
                pending[path] = Pending(
                    kind="unapplied",
                    base=planned.before,
                    local=have.sha256 if have else None,
                    remote=planned.after,
                    since=self.importer.clock(),
                )
        self.importer.brought.imported += not_logged(self.importer.paths.home, _sync_versions(done))
        return writes

    def _stale(self, intent: ImportIntent, branch: str | None, why: str = "") -> None:
        """An intent that names another branch than this one: not finished, and gone."""
        reason = why or f"the branch is at {(branch or 'nothing')[:12]}, not where it began"
        name = self.importer.target.name
        logger.warning("Sync of %s: an unfinished import was left as it is: %s", name, reason)
        self.importer.brought.problems.append(
            f"An import a stopped sync began could not be finished ({reason}); "
            "its files were taken as they are"
        )
        clear_intent(self.importer.paths.import_intent(self.importer.target.name))
        self._tidy_folders(intent)

    def _claim(self, intent: ImportIntent) -> None:
        """Record as sync's the files the import wrote but the kill left unrecorded; a removed file
        loses its pins and usage."""
        for scope, store in self.importer.open_scopes():
            changes: list[FileChange] = []
            gone: list[str] = []
            newest = ScopeHistory(store.home, store.history_key(scope.scope)).newest_by_path()
            for path, planned in sorted(intent.files.items()):
                virtual = scope.virtual_path(path)
                if virtual is None:
                    continue
                try:
                    data = store.read_whole(virtual)
                except (MemoryStoreError, PathError):
                    continue
                if (self._repo.git.blob_id(data) if data is not None else None) != planned.after:
                    continue
                version = newest.get(str(virtual))
                if data is None:
                    gone.append(store.meta_key(virtual))
                    if version is None or version.deleted:
                        continue
                elif version and not version.deleted and version.sha256 == sha256_of(data):
                    continue
                change = self._claimed(store, virtual, planned, data)
                if change is not None:
                    changes.append(change)
            if changes:
                with store.writing(scope.scope, changes_home=False):
                    store.record_changes(scope.scope, changes)
            if gone:  # after the record, which keeps them with the removed version
                store.meta.drop_subtrees(gone)

    def _claimed(
        self, store: MemoryStore, virtual: VirtualPath, planned: IntendedFile, data: bytes | None
    ) -> FileChange | None:
        """The change the import made to one file, as history records it."""
        before = None
        if planned.before is not None:
            try:
                before = self._repo.blobs([planned.before]).get(planned.before)
            except ObjectMissingError:
                return None
        if (before is None) != (planned.before is None) or (data is None and before is None):
            return None
        if data is None:
            meta = store.meta_snapshot().get(store.meta_key(virtual))
            return FileChange(str(virtual), before, None, "delete", meta=meta)
        return FileChange(str(virtual), before, data, "create" if before is None else "edit")

    def _from_repository(self, branch: str | None, state: SyncState) -> ImportIntent | None:
        """The import worked out from the repository (the merge in `MERGE_REF`, or the remote's
        commit ahead): each differing blob written, a file this machine changed that the merge gives
        the remote's text kept as a conflict."""
        try:
            found = self._waiting_merge(branch)
            if found is None:
                return None
            merge, remote = found
            base = self._repo.git.merge_base(branch, remote) if branch else None
            trees = [self._repo.files(commit) for commit in (base, branch, merge)]
            theirs = self._repo.files(remote)
        except (GitError, ObjectMissingError):
            return None
        before, ours, after = trees
        pending = dict(state.pending)
        files: dict[str, IntendedFile] = {}
        for path in sorted(set(ours) | set(after)):
            if ours.get(path) == after.get(path) or path in pending:
                continue
            if not any(scope.virtual_path(path) for scope in self.importer.target.scopes):
                continue  # pins and usage, the format: not a memory file
            mine, merged = ours.get(path), after.get(path)
            if mine != before.get(path) and merged is not None and merged == theirs.get(path):
                pending[path] = Pending(
                    kind="conflict",
                    base=before.get(path),
                    local=None,
                    remote=merged,
                    since=self.importer.clock(),
                    remote_commit=remote,
                    reason="both sides changed it (an interrupted sync's record was lost)",
                )
                continue
            files[path] = IntendedFile(before=mine, after=merged)
        return ImportIntent(
            version=INTENT_VERSION,
            merge=merge,
            start=branch,
            remote=remote,
            files=files,
            state=state.replaced(pending=pending),
        )

    def _waiting_merge(self, branch: str | None) -> tuple[str, str] | None:
        """The commit an import was bringing in on `branch`, and the remote's."""
        merge = self._repo.resolve(MERGE_REF)
        if merge is not None:
            parents = self._repo.parents(merge)
            if len(parents) == 2 and parents[0] == branch:
                return merge, parents[1]
        remote = self._repo.resolve(f"refs/remotes/origin/{self.importer.target.branch}")
        if remote is None or remote == branch:
            return None
        if branch is not None and not self._repo.git.is_ancestor(branch, remote):
            return None
        return remote, remote


def _meta_written(synced: Sequence[SyncedStore], intent: ImportIntent) -> bool:
    """Whether memory-meta.json holds what the intent was about to write (none telling counts as
    written: a use never counts twice)."""
    if not intent.meta or not synced:
        return True
    entries = synced[0].store.meta.load()
    for key, change in intent.meta.items():
        now = entries.get(key, MetaEntry())
        if now in (change.after, change.before):
            return now == change.after
    return True


def _sync_versions(
    done: Sequence[tuple[SyncedStore, VirtualPath, LocalFile | None]],
) -> list[RecordedChange]:
    """The versions sync recorded of the files the import wrote, newest and as on disk."""
    found: list[RecordedChange] = []
    by_store: dict[int, tuple[SyncedStore, dict[str, LocalFile | None]]] = {}
    for item, virtual, have in done:
        by_store.setdefault(id(item), (item, {}))[1][str(virtual)] = have
    for item, files in by_store.values():
        key = item.store.history_key(item.scope.scope)
        previous: dict[str, Version] = {}
        newest: dict[str, tuple[Version | None, Version]] = {}
        for version in ScopeHistory(item.store.home, key).versions():
            if version.path in files:
                newest[version.path] = (previous.get(version.path), version)
                previous[version.path] = version
        for path, (before, after) in sorted(newest.items()):
            have = files[path]
            holds = (
                after.deleted if have is None else after.sha256 == have.sha256 and not after.deleted
            )
            if after.actor == SYNC_ACTOR and holds:
                alive = before if before is not None and not before.deleted else None
                found.append(RecordedChange(key, path, alive, after))
    return found
