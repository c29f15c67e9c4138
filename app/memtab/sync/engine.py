"""One sync of one target: export, fetch, merge, import, push (docs/formats.md §18).

1. Export: what changed in the scopes since the last sync becomes commits on this
   machine's branch (`export.py`). Nothing is lost if the rest fails: the commits wait.
2. Fetch the remote's branch. A remote that cannot be reached changes nothing more: the
   sync says it is offline and the next one goes on from here.
3. Merge: fast-forward when one side has nothing new; otherwise a merge commit whose tree
   is merged file by file (`tree_merge.py`) and pins and usage by rule (`meta_merge.py`).
4. Import: every file the merge changed is written into its scope through `MemoryStore`,
   checked against what the file held at export; one that changed meanwhile is merged
   again at the next sync (`unapplied`). A conflict keeps this machine's text live and
   the other side's in the repository, listed until the user decides.
5. Push; a remote that moved meanwhile is fetched and merged again (a few times).

The branch moves to the merge only once its files are in the scopes, so a crash or a
cancel in between leaves the disk as the branch says, or a little ahead of it (the next
export then finds the merged contents as local changes, and they merge as the same edit).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field

from memtab.fs.clock import Clock, now_ms
from memtab.humanize import plural
from memtab.store.errors import MemoryStoreError, SaveConflictError
from memtab.store.history.capture import MAX_HISTORY_FILE_BYTES
from memtab.store.history.recorder import RecordedChange
from memtab.store.paths import PathError, VirtualPath
from memtab.store.restore.bulk_restore import Restore, RestoreResult, restore_contents
from memtab.store.sidecars.meta import MetaEntry
from memtab.sync.export import Committer, ExportResult, SyncedStore, export_changes
from memtab.sync.meta_merge import (
    follow_renames,
    import_entry,
    merge_records,
    parse_records,
    render_records,
)
from memtab.sync.records import MetaRecord, Pending, SyncState
from memtab.sync.repository.git import Git, GitError
from memtab.sync.repository.layout import META_DIR, Target
from memtab.sync.repository.objects import Change, Existing, NewCommit, Repository, TreeEntry
from memtab.sync.repository.scopes import LocalFile, write_file
from memtab.sync.tree_merge import PathConflict, find_renames, merge_trees

logger = logging.getLogger(__name__)

PUSH_ATTEMPTS = 3
TOO_LARGE = f"larger than {MAX_HISTORY_FILE_BYTES // (1024 * 1024)} MB, which history cannot keep"
MERGE_REF = "refs/memtab/merge"
Progress = Callable[[str], None]


class SyncCancelledError(Exception):
    """The sync was asked to stop; what it did so far is consistent (see the module doc)."""


@dataclass
class SyncOutcome:
    """What one sync of a target did."""

    commits: int = 0
    pushed: int = 0
    pulled: list[str] = field(default_factory=list)
    pulled_on_disk: list[str] = field(default_factory=list)
    """Where the pulled files are on this disk (the window badges their changes as sync's)."""
    deleted: list[str] = field(default_factory=list)
    """The pulled files that were removed (deleted on another machine)."""
    imported: list[RecordedChange] = field(default_factory=list)
    """The versions the files brought in were recorded as (the runs log's run of kind `sync`)."""
    new_conflicts: list[PathConflict] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    offline: str | None = None
    error: str | None = None
    state: SyncState = field(default_factory=SyncState)


@dataclass
class TargetSync:
    """Everything one sync of a target works with."""

    target: Target
    git: Git
    committer: Committer
    read_scopes: Callable[[], list[SyncedStore]]
    """The target's scopes as they are now (read at each export)."""
    state: SyncState
    ever_synced: bool
    progress: Progress
    cancel: Callable[[], bool]
    clock: Clock = now_ms
    synced: list[SyncedStore] = field(default_factory=list)
    outcome: SyncOutcome = field(default_factory=SyncOutcome)

    def check_cancel(self) -> None:
        if self.cancel():
            raise SyncCancelledError

    def state_after_cancel(self) -> SyncState:
        """The state to keep when the sync stopped early: what it committed stands."""
        return self.outcome.state

    @contextmanager
    def _uncancellable(self) -> Iterator[None]:
        """Bringing a merge into the scopes is not stopped halfway."""
        cancel, self.git.cancel = self.git.cancel, lambda: False
        try:
            yield
        finally:
            self.git.cancel = cancel

    def run(self) -> SyncOutcome:
        outcome = self.outcome = SyncOutcome(state=self.state)
        head = self.repo.resolve(f"refs/heads/{self.target.branch}")
        self.progress("Recording this machine's changes")
        exported = self._export(head, outcome, counted=True)
        head = exported.head
        self.check_cancel()
        for _attempt in range(PUSH_ATTEMPTS):
            self.progress(f"Fetching {self.target.remote}")
            try:
                remote = self.git.fetch(self.target.branch)
            except GitError as error:
                self._network_failure(error, outcome)
                return outcome
            self.check_cancel()
            self.progress("Merging")
            merged, conflicts = self._merge(head, remote, outcome)
            with self._uncancellable():
                imported_state = self._import(merged, remote, exported, conflicts, outcome)
                if merged is not None and merged != head:
                    self.git.set_branch(self.target.branch, merged, head)
            head = merged
            outcome.state = imported_state
            if merged is None or merged == remote:
                outcome.state = outcome.state.with_changes(unpushed=0)  # the remote has them
                return outcome
            sent = plural(outcome.state.unpushed, "change")
            self.progress(f"Pushing {sent} to {self.target.remote}")
            try:
                if self.git.push(self.target.branch, merged):
                    outcome.pushed += outcome.state.unpushed
                    outcome.state = outcome.state.with_changes(unpushed=0)
                    return outcome
            except GitError as error:
                self._network_failure(error, outcome)
                return outcome
            # The remote moved since the fetch: read this machine again and merge again.
            exported = self._export(head, outcome)
            head = exported.head
        outcome.error = (
            f"{self.target.remote} kept changing while this sync pushed; try again in a moment"
        )
        return outcome

    # --- the steps -------------------------------------------------------------------------

    def _export(
        self, head: str | None, outcome: SyncOutcome, counted: bool = False
    ) -> ExportResult:
        self.synced = self.read_scopes()
        for item in self.synced:
            outcome.problems.extend(item.files.problems)
        if counted:  # what the first sync of a big home is busy with, in numbers
            read = sum(len(item.files.files) for item in self.synced)
            self.progress(f"Recording the changes among {plural(read, 'memory file')} here")
        tree = self.repo.files(head)
        exported = export_changes(
            self.committer, head, tree, self.synced, outcome.state, self.clock()
        )
        outcome.commits += exported.commits
        if counted and exported.commits:
            self.progress(f"Recorded {plural(exported.commits, 'change')}")
        # What this machine counted is in the repository now: later uses are counted
        # from what was read (docs/formats.md §18.3).
        baseline = {
            prefix: {rel: MetaRecord.from_entry(e) for rel, e in entries.items()}
            for prefix, entries in exported.meta_read.items()
        }
        outcome.state = outcome.state.with_changes(
            unpushed=outcome.state.unpushed + exported.commits,
            head=exported.head,
            pending=exported.pending,
            history_at=exported.history_at,
            meta=baseline,
        )
        return exported

    def _network_failure(self, error: GitError, outcome: SyncOutcome) -> None:
        if error.kind == "cancelled":
            raise SyncCancelledError
        if error.kind == "offline" or (error.kind == "missing" and self.ever_synced):
            outcome.offline = str(error)
        else:
            outcome.error = f"{self.target.remote}: {error}"

    @property
    def repo(self) -> Repository:
        return self.committer.repo

    def _merge(
        self, head: str | None, remote: str | None, outcome: SyncOutcome
    ) -> tuple[str | None, list[PathConflict]]:
        """The commit this machine should be at (`head`, `remote`, or their merge) and
        the files that could not be merged."""
        if remote is None or remote == head:
            return head, []
        base = self.git.merge_base(head, remote) if head is not None else None
        if head is None or base == head:
            return remote, []
        if base == remote:
            return head, []
        trees = [self.repo.entries(commit) for commit in (base, head, remote)]
        merged_tree, contents, conflicts, notes = self._merge_trees(
            *trees, has_base=base is not None
        )
        outcome.notes.extend(notes)
        ours = trees[1]
        modes = {path: entry.mode for tree in trees for path, entry in tree.items()}
        changes: dict[str, Change] = {
            path: Existing(oid, modes.get(path, "100644"))
            for path, oid in merged_tree.items()
            if path not in contents and (path not in ours or ours[path].oid != oid)
        }
        changes.update(contents)
        changes.update({path: None for path in ours if path not in merged_tree})
        lines = [f"Merge {self.committer.machine} with {self.target.remote}", ""]
        if conflicts:
            lines += ["Conflicts (this machine kept its text until the user decides):"]
            lines += [f"  {conflict.path}: {conflict.reason}" for conflict in conflicts] + [""]
        lines.append(f"Memtab-Machine: {self.committer.machine}")
        message = "\n".join(lines) + "\n"
        [commit] = self.repo.write(MERGE_REF, head, [NewCommit(changes, message, [remote])])
        return commit, conflicts

    def _merge_trees(
        self,
        base: Mapping[str, TreeEntry],
        ours: Mapping[str, TreeEntry],
        theirs: Mapping[str, TreeEntry],
        *,
        has_base: bool,
    ) -> tuple[dict[str, str], dict[str, bytes], list[PathConflict], list[tuple[str, str]]]:
        """The merged tree (path → object id) and the merged contents it has no object
        for yet (they are in the tree too, by the id they will have)."""

        def content(tree: Mapping[str, TreeEntry]) -> dict[str, str]:
            return {p: entry.oid for p, entry in tree.items() if not p.startswith(".memtab/")}

        files = merge_trees(content(base), content(ours), content(theirs), self.repo.blobs)
        renames = {
            **find_renames(content(base), content(ours)),
            **find_renames(content(base), content(theirs)),
        }
        merged: dict[str, str] = dict(files.tree)
        new_contents: dict[str, bytes] = dict(files.merged)
        sidecars = {p for tree in (base, ours, theirs) for p in tree if p.startswith(".memtab/")}
        for path in sorted(sidecars):
            before, one, other = (_oid(tree.get(path)) for tree in (base, ours, theirs))
            if path.startswith(META_DIR + "/") and path.endswith(".json") and one != other:
                data = self._merged_meta(path, before, one, other, files.paths(), has_base, renames)
                if data is not None:
                    new_contents[path] = data
                continue
            chosen = one if other == before else other
            if chosen is not None:
                merged[path] = chosen
        for path, data in new_contents.items():
            merged[path] = self.git.blob_id(data)
        return merged, new_contents, files.conflicts, files.notes

    def _merged_meta(
        self,
        path: str,
        before: str | None,
        one: str | None,
        other: str | None,
        files: set[str],
        has_base: bool,
        renames: Mapping[str, str],
    ) -> bytes | None:
        prefix = path[len(META_DIR) + 1 : -len(".json")]
        head = prefix + "/"
        moved = {
            old[len(head) :]: new[len(head) :]
            for old, new in renames.items()
            if old.startswith(head) and new.startswith(head)
        }
        contents = self.repo.blobs(oid for oid in (before, one, other) if oid)
        records = [
            follow_renames(parse_records(contents.get(oid)) if oid else {}, moved)
            for oid in (before, one, other)
        ]
        rels = [p[len(prefix) + 1 :] for p in files if p.startswith(prefix + "/")]
        merged = merge_records(records[0] if has_base else None, records[1], records[2], rels)
        return render_records(merged) if merged else None

    def _import(
        self,
        merged: str | None,
        remote: str | None,
        exported: ExportResult,
        conflicts: list[PathConflict],
        outcome: SyncOutcome,
    ) -> SyncState:
        """Bring the merged commit into the scopes; the state to save with it."""
        state = outcome.state
        pending = dict(state.pending)
        tree = self.repo.files(merged)
        for conflict in conflicts:
            local = self._local(conflict.path)
            pending[conflict.path] = Pending(
                kind="conflict",
                base=conflict.base,
                local=local.sha256 if local else None,
                remote=tree.get(conflict.path),
                since=self.clock(),
                remote_commit=remote,
                reason=conflict.reason,
            )
        outcome.new_conflicts.extend(conflicts)
        for path, why in sorted(self.repo.reader.skipped.items()):
            outcome.problems.append(f"{path} in the repository was not read: {why}")
        self._import_files(tree, pending, outcome)
        meta = self._import_meta(tree, exported.meta_read)
        return state.with_changes(
            head=merged,
            pending=pending,
            meta=meta,
            last_sync_at=self.clock(),
            offline_since=None,
            last_error=None,
        )

    def _local(self, path: str) -> LocalFile | None:
        for item in self.synced:
            if path in item.files.files:
                return item.files.files[path]
        return None

    def _import_files(
        self, tree: Mapping[str, str], pending: dict[str, Pending], outcome: SyncOutcome
    ) -> None:
        writes: dict[str, tuple[SyncedStore, LocalFile | None, str | None]] = {}
        for item in self.synced:
            scope = item.scope
            in_tree = {p for p in tree if scope.virtual_path(p) is not None}
            for path in sorted(in_tree | set(item.files.files)):
                record = pending.get(path)
                if path in item.files.left_out or (record and record.kind == "conflict"):
                    if record is not None and tree.get(path) != record.remote:
                        pending[path] = record.replaced(remote=tree.get(path))
                    continue
                have, want = item.files.files.get(path), tree.get(path)
                if (have.blob if have else None) != want:
                    writes[path] = (item, have, want)
        if writes:
            self.progress(f"Bringing in {plural(len(writes), 'file')}")
        contents = self.repo.blobs(want for _, _, want in writes.values() if want)
        batches: dict[int, tuple[SyncedStore, list[Restore]]] = {}
        repo_paths: dict[VirtualPath, str] = {}
        for path, (item, have, want) in writes.items():
            virtual = item.scope.virtual_path(path)
            assert virtual is not None
            data = contents.get(want) if want else None
            if want and (data is None or len(data) > MAX_HISTORY_FILE_BYTES):
                # History could not keep it: not brought in (and so never removed either).
                outcome.problems.append(f"{virtual} was not brought in: {TOO_LARGE}")
                pending[path] = self._unapplied(have, want)
            elif data is not None:  # written together, durable at once (`bulk_restore`)
                repo_paths[virtual] = path
                restore = Restore(virtual, data, have.sha256 if have else None)
                batches.setdefault(id(item), (item, []))[1].append(restore)
            else:
                self._delete(item, path, have, want, pending, outcome)
        for item, batch in batches.values():
            try:
                done = restore_contents(item.store, item.scope.scope, batch)
            except MemoryStoreError as error:
                done = RestoreResult(failed={restore.path: str(error) for restore in batch})
            for virtual in done.written:
                pending.pop(repo_paths[virtual], None)
                _pulled(outcome, item, virtual)
            for virtual, why in done.failed.items():
                outcome.problems.append(f"{virtual} was not updated: {why}")
            for virtual in [*done.changed, *done.failed]:
                # Changed since the export (or not written): merged again next time.
                _, have, want = writes[repo_paths[virtual]]
                pending[repo_paths[virtual]] = self._unapplied(have, want)
            outcome.imported += done.recorded

    def _delete(
        self,
        item: SyncedStore,
        path: str,
        have: LocalFile | None,
        want: str | None,
        pending: dict[str, Pending],
        outcome: SyncOutcome,
    ) -> None:
        """Remove a file the merge removed (through the store: history keeps it)."""
        virtual = item.scope.virtual_path(path)
        assert virtual is not None
        try:
            pinned = item.store.is_pinned(virtual)
            with item.store.collecting_changes() as recorded:
                write_file(item.store, virtual, None, have.sha256 if have else None)
        except SaveConflictError:
            # Changed since the export: merged again from what it held then.
            pending[path] = self._unapplied(have, want)
            return
        except (MemoryStoreError, PathError, OSError) as error:
            outcome.problems.append(f"{virtual} was not updated: {error}")
            pending[path] = self._unapplied(have, want)
            return
        pending.pop(path, None)
        _pulled(outcome, item, virtual)
        outcome.deleted.append(str(virtual))
        outcome.imported += recorded
        if pinned:  # history keeps the pin with the deleted version: a restore brings both
            outcome.notes.append(
                (path, "pinned here, deleted on another machine: in the trash with its pin "
                 "(memtab trash; memtab restore brings it back pinned)")
            )  # fmt: skip

    def _unapplied(self, have: LocalFile | None, want: str | None) -> Pending:
        """A merge that could not be written: merged again next time from what the file
        held when it was made (kept in the repository as the base)."""
        if have is not None:
            self.repo.store_blob(have.data)
        return Pending(
            kind="unapplied",
            base=have.blob if have else None,
            local=have.sha256 if have else None,
            remote=want,
            since=self.clock(),
        )

    def _import_meta(
        self, tree: Mapping[str, str], read: Mapping[str, dict[str, MetaEntry]]
    ) -> dict[str, dict[str, MetaRecord]]:
        """Pins and usage of the merged commit into memory-meta.json; the new baseline."""
        metas = self.repo.blobs(
            tree[item.scope.meta_path] for item in self.synced if item.scope.meta_path in tree
        )
        baseline: dict[str, dict[str, MetaRecord]] = {}
        updates: dict[str, Callable[[MetaEntry], MetaEntry | None]] = {}
        for item in self.synced:
            scope = item.scope
            oid = tree.get(scope.meta_path)
            merged = parse_records(metas.get(oid) if oid else None)
            head = scope.prefix + "/"
            # Only a memory file's key: never one a teammate's sidecar made up (`../x.md`).
            files = {path[len(head) :] for path in tree if scope.virtual_path(path) is not None}
            merged = {rel: record for rel, record in merged.items() if rel in files}
            baseline[scope.prefix] = merged
            exported = read.get(scope.prefix, {})
            for rel in sorted(files & (set(merged) | set(exported))):
                record = merged.get(rel, MetaRecord())
                before = exported.get(rel, MetaEntry())
                if record.is_default and before.is_default:
                    continue
                updates[scope.meta_key(rel)] = functools.partial(_imported, before, record)
        if updates:
            try:
                self.synced[0].store.meta.update_entries(updates)
            except (OSError, MemoryStoreError) as error:
                logger.warning("Pins and usage from the sync were not recorded: %s", error)
        return baseline


def _pulled(outcome: SyncOutcome, item: SyncedStore, virtual: VirtualPath) -> None:
    """Count `virtual` of `item` in as pulled, with where it is on disk."""
    outcome.pulled.append(str(virtual))
    root = item.store.root(item.scope.scope)
    outcome.pulled_on_disk.append("/".join((str(root), *virtual.segments)))


def _imported(before: MetaEntry, record: MetaRecord, current: MetaEntry) -> MetaEntry | None:
    """A file's entry here once the merged one comes back (None: back to no entry)."""
    entry = import_entry(current, before, record)
    return None if entry.is_default else entry


def _oid(entry: TreeEntry | None) -> str | None:
    return entry.oid if entry is not None else None
