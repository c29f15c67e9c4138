"""One sync of one target (docs/formats.md §18): export, push alone if the remote takes it, else
fetch, merge, import, push. An import says what it will write first, so a killed sync is finished by
the next."""

from __future__ import annotations

import contextlib
import functools
import logging
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from memtab.fs.clock import Clock, now_ms
from memtab.fs.heap import collector_paused
from memtab.humanize import plural
from memtab.store.scopes.memory import MemoryStore
from memtab.sync.export import (
    Committer,
    ExportResult,
    PathConflict,
    SyncedStore,
    export_changes,
    find_renames,
    follow_renames,
    merge_records,
    merge_trees,
    parse_records,
    render_records,
)
from memtab.sync.importer import MERGE_REF, Beside, Brought, Importer, ReadScopes
from memtab.sync.interrupted_import import InterruptedImport
from memtab.sync.records import MetaRecord, SyncState
from memtab.sync.repository.git import Git, GitError
from memtab.sync.repository.layout import META_DIR, SyncedScope, SyncPaths, Target
from memtab.sync.repository.objects import Change, Existing, NewCommit, TreeEntry
from memtab.sync.repository.writing import Repository
from memtab.sync.state import save_state

GC_AUTO = 6700
GC_AUTO_PACK_LIMIT = 50
_HEX = frozenset("0123456789abcdef")
_CHOOSING_NO_TASK = frozenset({"maintenance.autodetach", "maintenance.auto"})
"""`maintenance.*` keys that choose no task (Memtab sets the first on every git it runs)."""
_FALSE = frozenset({"false", "no", "off", "0"})


def maintenance_due(repository: Path, config: Mapping[str, str], *, oid_hex: int = 40) -> bool:
    """Whether `git maintenance run --auto` would find work; `config` as `git config --list` gives
    it, `oid_hex` an id's length."""
    if config.get("maintenance.auto", "").strip().lower() in _FALSE:
        return False
    if any(key.startswith("maintenance.") and key not in _CHOOSING_NO_TASK for key in config):
        return True  # a task or strategy of the user's: git knows its conditions
    auto = _number(config.get("gc.auto"), GC_AUTO)
    pack_limit = _number(config.get("gc.autopacklimit"), GC_AUTO_PACK_LIMIT)
    if auto is None or pack_limit is None:
        return True  # a value git reads its own way (`1k`): git decides
    if auto <= 0:
        return False
    objects = repository / "objects"
    try:
        if pack_limit > 0:
            names = set(_names(objects / "pack"))
            # A pack git can use: its index and its data.
            packs = [
                name[: -len(".idx")]
                for name in names
                if name.startswith("pack-")
                and name.endswith(".idx")
                and name[:-4] + ".pack" in names
            ]
            if sum(stem + ".keep" not in names for stem in packs) > pack_limit:
                return True
        loose = (len(n) == oid_hex - 2 and _HEX.issuperset(n) for n in _names(objects / "17"))
        return sum(loose) > -(-auto // 256)  # rounded up, as git does
    except OSError:
        return True


def _number(value: str | None, default: int) -> int | None:
    try:
        return default if value is None else int(value.strip())
    except ValueError:
        return None


def _names(folder: Path) -> list[str]:
    try:
        return os.listdir(folder)
    except FileNotFoundError:
        return []


logger = logging.getLogger(__name__)

PUSH_ATTEMPTS = 3
Progress = Callable[[str], None]


class SyncCancelledError(Exception):
    """The sync was asked to stop; what it did so far is consistent (see the module doc)."""


@dataclass
class SyncOutcome(Brought):
    """What one sync of a target did."""

    commits: int = 0
    pushed: int = 0
    new_conflicts: list[PathConflict] = field(default_factory=list)
    offline: str | None = None
    error: str | None = None
    state: SyncState = field(default_factory=SyncState)


@dataclass
class TargetSync:
    """Everything one sync of a target works with."""

    target: Target
    git: Git
    committer: Committer
    paths: SyncPaths
    open_scopes: Callable[[], list[tuple[SyncedScope, MemoryStore]]]
    """The target's scopes' stores, nothing read yet."""
    read_scopes: ReadScopes  # the target's scopes as they are now (read at each export)
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
    def _importing(self) -> Iterator[None]:
        """Bringing a merge into the scopes: not stopped halfway."""
        cancel, self.git.cancel = self.git.cancel, lambda: False
        try:
            yield
        finally:
            self.git.cancel = cancel

    def run(self) -> SyncOutcome:
        """The sync, the cycle collector paused (what it reads lives until it ends)."""
        with collector_paused():
            outcome = self._run()
        if maintenance_due(self.git.repo, self.git.config(), oid_hex=2 * self.git.oid_bytes):
            self.git.maintain()  # after this sync's objects, as git's fetch or commit would
        return outcome

    def _run(self) -> SyncOutcome:
        outcome = self.outcome = SyncOutcome(state=self.state)
        importer = Importer(
            self.target,
            self.repo,
            self.paths,
            self.open_scopes,
            self.read_scopes,
            self.clock,
            self.progress,
            outcome,
        )
        with self._importing():
            finished = InterruptedImport(importer).finish(outcome.state)
        if finished is not None:
            outcome.state = finished
        head = self.repo.resolve(f"refs/heads/{self.target.branch}")
        self.progress("Recording this machine's changes")
        exported = self._export(head, outcome, counted=True)
        head = exported.head
        self.check_cancel()
        if head is not None and outcome.state.unpushed and self._pushed_alone(exported, importer):
            return outcome
        fetching: Beside[str | None] | None = None
        joined = self._joining(head, exported, importer)
        if joined is not None:
            head, fetching = joined
        for _attempt in range(PUSH_ATTEMPTS):
            try:
                if fetching is None:
                    self.progress(f"Fetching {self.target.remote}")
                    remote = self.git.fetch(self.target.branch, maintain=False)
                else:
                    remote, fetching = fetching.result(), None
                    if remote == head:  # what `sync init` fetched: brought in already
                        return outcome
                    exported = self._export(head, outcome)  # the scopes as it left them
                    head = exported.head
            except GitError as error:
                self._network_failure(error, outcome)
                return outcome
            self.check_cancel()
            self.progress("Merging")
            merged, conflicts = self._merge(head, remote, outcome)
            outcome.new_conflicts.extend(conflicts)
            with self._importing():
                outcome.state = importer.bring_in(
                    self.synced, merged, head, remote, conflicts, exported.meta_read, outcome.state
                )
            head = merged
            if merged is None or merged == remote:
                outcome.state = outcome.state.replaced(unpushed=0)  # the remote has them
                return outcome
            sent = plural(outcome.state.unpushed, "change")
            self.progress(f"Pushing {sent} to {self.target.remote}")
            try:
                if self.git.push(self.target.branch, merged):
                    outcome.pushed += outcome.state.unpushed
                    outcome.state = outcome.state.replaced(unpushed=0)
                    return outcome
            except GitError as error:
                self._network_failure(error, outcome)
                return outcome
            # The remote moved since the fetch: export and merge again.
            exported = self._export(head, outcome)
            head = exported.head
        outcome.error = (
            f"{self.target.remote} kept changing while this sync pushed; try again in a moment"
        )
        return outcome

    def _joining(
        self, head: str | None, exported: ExportResult, importer: Importer
    ) -> tuple[str, Beside[str | None]] | None:
        """A machine joining brings in the commit `sync init` fetched (a fast-forward) while the
        remote is fetched again beside; None when this is no join, else the commit, the branch and
        the fetch."""
        branch = self.target.branch
        tracked = self.repo.resolve(f"refs/remotes/origin/{branch}") if head is None else None
        if tracked is None:
            return None
        self.progress(f"Fetching {self.target.remote}")
        self.git.remote_url()  # asked once, before the fetch's thread asks it too
        fetch = functools.partial(self.git.fetch, branch, maintain=False)
        fetching = Beside(fetch, "memtab-sync-fetch")
        try:
            with self._importing():
                self.outcome.state = importer.bring_in(
                    self.synced, tracked, None, tracked, [], exported.meta_read, self.outcome.state
                )
        except BaseException:
            with contextlib.suppress(GitError):
                fetching.result()  # no git left running behind the sync
            raise
        return tracked, fetching

    def _pushed_alone(self, exported: ExportResult, importer: Importer) -> bool:
        """Push this machine's commits before fetching: taken, nothing needs merging and the sync is
        done; refused, it goes on. Whether the sync is over (pushed, or the remote out of reach)."""
        outcome, head = self.outcome, exported.head
        assert head is not None
        self.progress(f"Pushing {plural(outcome.state.unpushed, 'change')} to {self.target.remote}")
        try:
            taken = self.git.push(self.target.branch, head)
        except GitError as error:
            if error.kind not in ("offline", "cancelled"):
                return False  # refused here (a hook, rights): the fetch and merge go on
            self._network_failure(error, outcome)
            return True
        if not taken:
            return False
        with self._importing():
            meta_read = exported.meta_read
            outcome.state = importer.bring_in(
                self.synced, head, head, head, [], meta_read, outcome.state
            )
        outcome.pushed += outcome.state.unpushed
        outcome.state = outcome.state.replaced(unpushed=0)
        return True

    def _export(
        self, head: str | None, outcome: SyncOutcome, counted: bool = False
    ) -> ExportResult:
        tree = self.repo.files(head)
        self.synced = self.read_scopes(tree, outcome.state.pending)
        for item in self.synced:
            outcome.problems.extend(item.files.problems)
        if counted:  # what the first sync of a big home is busy with, in numbers
            read = sum(len(item.files.files) for item in self.synced)
            self.progress(f"Recording the changes among {plural(read, 'memory file')} here")
        exported = export_changes(
            self.committer, head, tree, self.synced, outcome.state, self.clock()
        )
        outcome.commits += exported.commits
        if counted and exported.commits:
            self.progress(f"Recorded {plural(exported.commits, 'change')}")
        # What this machine counted is in the repository now (docs/formats.md §18.3).
        baseline = {
            prefix: {rel: MetaRecord.from_entry(e) for rel, e in entries.items()}
            for prefix, entries in exported.meta_read.items()
        }
        before = outcome.state
        outcome.state = before.replaced(
            unpushed=before.unpushed + exported.commits,
            head=exported.head,
            meta=baseline,
            pending=exported.pending,
            history_at=exported.history_at,
        )
        # What was sent is not sent again after a kill; a machine with no commit that made none sent
        # nothing.
        unsent = exported.commits == 0 and before.head is None and exported.head is None
        if outcome.state != before and not (unsent and outcome.state.pending == before.pending):
            save_state(self.paths.state(self.target.name), outcome.state)
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
        """The commit this machine should be at (`head`, `remote` or their merge) and the files that
        could not be merged."""
        if remote is None or remote == head:
            return head, []
        base = self.git.merge_base(head, remote) if head is not None else None
        if head is None or base == head:
            return remote, []
        if base == remote:
            return head, []
        trees = [self.repo.reader.files(commit) for commit in (base, head, remote)]
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
        """The merged tree (path → object id) and the merged contents it has no object for yet."""

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
            before, one, other = (t[path].oid if path in t else None for t in (base, ours, theirs))
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
