"""This machine's changes into the sync repository, one commit per history version since the last
export (docs/formats.md §14.2, §18.6), what history did not name in one last commit; pending files
merged again first, pins and usage in one commit."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from memtab.store.history.blobs import BlobError, BlobStore
from memtab.store.history.versions import ScopeHistory, Version
from memtab.store.paths import PathError, parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.meta import MetaEntry
from memtab.sync.meta_merge import (
    export_entries,
    parse_records,
    render_records,
)
from memtab.sync.records import Pending, RepoFormat, SyncState
from memtab.sync.repository.layout import FORMAT_PATH, FORMAT_VERSION, SyncedScope
from memtab.sync.repository.objects import (
    Change,
    Existing,
    NewCommit,
    ObjectMissingError,
)
from memtab.sync.repository.scopes import SYNC_ACTOR, LocalFile, ScopeFiles
from memtab.sync.repository.writing import Repository
from memtab.sync.tree_merge import merge_trees

logger = logging.getLogger(__name__)

# Versions of one move this close together are one commit.
_MOVE_WINDOW_MS = 2000


@dataclass(frozen=True)
class SyncedStore:
    """A synced scope with the store that reads and writes it, and what it holds now."""

    scope: SyncedScope
    store: MemoryStore
    files: ScopeFiles
    history_at: int | None = None
    """The scope's newest history version before its files were read (None: none)."""

    @classmethod
    def read(
        cls, scope: SyncedScope, store: MemoryStore, files: Callable[[], ScopeFiles]
    ) -> SyncedStore:
        """The scope read now: history's newest version first, then the files."""
        versions = ScopeHistory(store.home, store.history_key(scope.scope)).versions()
        newest = max((version.at for version in versions), default=None)
        return cls(scope, store, files(), newest)


@dataclass
class ExportResult:
    head: str | None
    commits: int = 0
    pending: dict[str, Pending] = field(default_factory=dict)
    meta_read: dict[str, dict[str, MetaEntry]] = field(default_factory=dict)
    """Per scope folder, this machine's entries as exported (what the import adds to)."""
    history_at: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Committer:
    """The repository and this machine's name (the messages name it)."""

    repo: Repository
    machine: str
    branch: str

    def commit(self, start: str | None, commits: list[NewCommit]) -> str | None:
        """Write `commits` on `start` and fast-forward the branch; the new head."""
        if not commits:
            return start
        return self.repo.write(f"refs/heads/{self.branch}", start, commits)[-1]


def export_changes(
    committer: Committer,
    head: str | None,
    tree: Mapping[str, str],
    synced: list[SyncedStore],
    state: SyncState,
    now: int,
) -> ExportResult:
    """Commit this machine's changes on `head` (whose files are `tree`); the new head and what the
    import needs."""
    changed: dict[str, LocalFile | None] = {}
    remerged: dict[str, bytes | None] = {}
    pending = dict(state.pending)
    for item in synced:
        in_tree = {path for path in tree if item.scope.virtual_path(path) is not None}
        for path in sorted(set(item.files.files) | in_tree):
            if item.files.leaves_out(path):
                continue
            disk, held = item.files.files.get(path), tree.get(path)
            record = pending.get(path)
            if record is None:
                if (disk.blob if disk else None) != held:
                    changed[path] = disk
                continue
            outcome = _merge_pending(committer.repo, path, record, disk, held, now)
            if isinstance(outcome, Pending):
                pending[path] = outcome
                continue
            del pending[path]
            if not outcome.unchanged:
                remerged[path] = outcome.data

    result = ExportResult(head, pending=pending)
    planned: list[NewCommit] = []
    if changed and head is None:
        contents: dict[str, Change] = {p: (f.content() if f else None) for p, f in changed.items()}
        message = _message(
            f"First sync from {committer.machine}: {len(contents)} files",
            [],
            {"Machine": committer.machine},
        )
        planned.append(NewCommit({FORMAT_PATH: _format_file(), **contents}, message))
    elif changed:
        planned += _replay_history(committer, tree, synced, changed, state)
    if remerged:
        paths = [_shown(synced, path) for path in sorted(remerged)]
        message = _message(
            f"{SYNC_ACTOR}: merged again {_first_and_more(paths)}",
            [f"merge {path}" for path in paths],
            {"Actor": SYNC_ACTOR, "Machine": committer.machine},
        )
        planned.append(NewCommit(dict(remerged), message))
    files = _applied(committer.repo, tree, planned)
    meta_changes, result.meta_read = _meta_changes(committer.repo, files, synced, state, now)
    if meta_changes:
        message = _message(
            f"Pins and usage from {committer.machine}", [], {"Machine": committer.machine}
        )
        planned.append(NewCommit(dict(meta_changes), message))
    result.head = committer.commit(head, planned)
    result.commits = len(planned)
    for item in synced:
        key = item.store.history_key(item.scope.scope)
        result.history_at[key] = item.history_at or state.history_at.get(key, 0)
    return result


def _applied(repo: Repository, tree: Mapping[str, str], commits: list[NewCommit]) -> dict[str, str]:
    """The files of `tree` once `commits` are made (path → object id)."""
    files = dict(tree)
    for commit in commits:
        for path, change in commit.changes.items():
            if change is None:
                files.pop(path, None)
            elif isinstance(change, Existing):
                files[path] = change.oid
            else:
                files[path] = repo.git.blob_id(change)
    return files


@dataclass(frozen=True)
class _Merged:
    """What the repository should hold for a pending file merged cleanly."""

    data: bytes | None
    unchanged: bool
    """It holds that already."""


def _merge_pending(
    repo: Repository,
    path: str,
    record: Pending,
    disk: LocalFile | None,
    held: str | None,
    now: int,
) -> Pending | _Merged:
    """A pending file merged again: still pending (its record), or merged."""
    disk_sha = disk.sha256 if disk else None
    if record.kind == "conflict" and disk_sha == record.local and held == record.remote:
        return record  # nothing moved on either side
    own = {disk.blob: disk.content()} if disk else {}
    base_oid = record.base
    if base_oid is not None and base_oid not in own:
        try:
            repo.blobs([base_oid])
        except ObjectMissingError:  # a repository made again: merge as if both created it
            base_oid = None

    def read(oids: Iterable[str]) -> dict[str, bytes]:
        wanted = list(oids)
        found = {oid: own[oid] for oid in wanted if oid in own}
        found.update(repo.blobs(oid for oid in wanted if oid not in own))
        return found

    base = {path: base_oid} if base_oid else {}
    ours = {path: disk.blob} if disk else {}
    theirs = {path: held} if held else {}
    merged = merge_trees(base, ours, theirs, read)
    if merged.conflicts:
        reason = merged.conflicts[0].reason
        return record.replaced(
            kind="conflict",
            local=disk_sha,
            remote=held,
            since=record.since or now,
            reason=reason,
        )
    if path in merged.merged:
        return _Merged(merged.merged[path], unchanged=False)
    chosen = merged.tree.get(path)
    data = disk.content() if disk is not None and chosen == disk.blob else None
    return _Merged(data, unchanged=chosen == held)


def _format_file() -> bytes:
    return (json.dumps(RepoFormat(format=FORMAT_VERSION).to_json(), indent=2) + "\n").encode()


def _shown(synced: list[SyncedStore], path: str) -> str:
    """A repository path as the virtual path it is here (the repository path otherwise)."""
    for item in synced:
        virtual = item.scope.virtual_path(path)
        if virtual is not None:
            return str(virtual)
    return path


def _message(summary: str, details: list[str], trailers: Mapping[str, str | None]) -> str:
    """A commit message: a summary line, the files, then `Memtab-<name>: value` lines."""
    lines = [summary, ""]
    if details:
        lines += [*details, ""]
    lines += [f"Memtab-{name}: {value}" for name, value in trailers.items() if value]
    return "\n".join(lines) + "\n"


def _new_versions(
    synced: list[SyncedStore], changed: Mapping[str, object], state: SyncState
) -> list[tuple[Version, str]]:
    """Versions recorded since the last export of files changed here, oldest first, with repository
    paths (sync's own left out)."""
    found: list[tuple[Version, str]] = []
    for item in synced:
        key = item.store.history_key(item.scope.scope)
        after = state.history_at.get(key, 0)
        for version in ScopeHistory(item.store.home, key).versions():
            if version.at <= after or version.actor == SYNC_ACTOR:
                continue
            try:
                repo_path = item.scope.repo_path(parse_file_path(version.path))
            except PathError:
                continue
            if repo_path in changed:
                found.append((version, repo_path))
    found.sort(key=lambda pair: pair[0].at)  # stable: each index keeps its own order
    return found


def _same_change(first: Version, version: Version) -> bool:
    if (version.actor, version.run_id) != (first.actor, first.run_id):
        return False
    if first.run_id is not None:
        return True  # one run, one commit
    return first.op == version.op == "move" and version.at - first.at <= _MOVE_WINDOW_MS


def _grouped(versions: list[tuple[Version, str]]) -> list[list[tuple[Version, str]]]:
    groups: list[list[tuple[Version, str]]] = []
    for pair in versions:
        if groups and _same_change(groups[-1][0][0], pair[0]):
            groups[-1].append(pair)
        else:
            groups.append([pair])
    return groups


def _replay_history(
    committer: Committer,
    tree: Mapping[str, str],
    synced: list[SyncedStore],
    changed: Mapping[str, LocalFile | None],
    state: SyncState,
) -> list[NewCommit]:
    """One commit per change history recorded, then one for what it did not name."""
    blob_id = committer.repo.git.blob_id
    blobs = BlobStore(synced[0].store.home.history_blobs_dir)
    held: dict[str, str | None] = dict(tree)
    commits: list[NewCommit] = []
    for group in _grouped(_new_versions(synced, changed, state)):
        group_changes: dict[str, Change] = {}
        for version, repo_path in group:
            try:
                data = None if version.deleted else blobs.get(version.sha256)
            except BlobError as error:
                logger.info("Exporting %s without its version %s: %s", repo_path, version.id, error)
                continue
            oid = blob_id(data) if data is not None else None
            if held.get(repo_path) != oid:
                group_changes[repo_path] = data
                held[repo_path] = oid
        if group_changes:
            commits.append(NewCommit(group_changes, _describe(group, committer.machine)))
    rest: dict[str, Change] = {
        path: (file.content() if file else None)
        for path, file in changed.items()
        if held.get(path) != (file.blob if file else None)
    }
    if rest:
        paths = sorted(rest)
        message = _message(
            f"Changes history did not name: {_first_and_more(paths)}",
            [f"{'edit' if rest[p] is not None else 'delete'} {p}" for p in paths],
            {"Machine": committer.machine},
        )
        commits.append(NewCommit(rest, message))
    return commits


def _first_and_more(items: list[str]) -> str:
    return items[0] + (f" and {len(items) - 1} more" if len(items) > 1 else "")


def _describe(group: list[tuple[Version, str]], machine: str) -> str:
    first = group[0][0]
    arrived = {version.moved_from for version, _ in group if version.op == "move"}
    lines = []
    for version, _ in group:
        if version.op == "move" and version.moved_from:
            lines.append(f"move {version.moved_from} -> {version.path}")
        elif version.op == "move" and version.path in arrived:
            continue  # the other half of a move
        elif version.op == "move":
            # Its new path is not exported (moved again or deleted since).
            lines.append(f"move {version.path} -> {version.moved_to or '?'}")
        else:
            lines.append(f"{'delete' if version.deleted else version.op} {version.path}")
    what = _first_and_more(lines)
    who = first.actor + (f" run {first.run_id}" if first.run_id else "")
    return _message(
        f"{who}: {what}",
        lines if len(lines) > 1 else [],
        {
            "Actor": first.actor,
            "Run": first.run_id,
            "Machine": machine,
            "Version": group[-1][0].id,
        },
    )


def _meta_changes(
    repo: Repository,
    files: Mapping[str, str],
    synced: list[SyncedStore],
    state: SyncState,
    now: int,
) -> tuple[dict[str, bytes | None], dict[str, dict[str, MetaEntry]]]:
    """The meta files to commit, and the entries they were made from, per scope folder."""
    if not synced:
        return {}, {}
    local_all = synced[0].store.meta.load()
    held_contents = repo.blobs(
        files[item.scope.meta_path] for item in synced if item.scope.meta_path in files
    )
    changes: dict[str, bytes | None] = {}
    read: dict[str, dict[str, MetaEntry]] = {}
    for item in synced:
        scope = item.scope
        head = scope.prefix + "/"
        rels = [path[len(head) :] for path in files if path.startswith(head)]
        local = {
            rel: entry for rel in rels if (entry := local_all.get(scope.meta_key(rel))) is not None
        }
        read[scope.prefix] = local
        held_oid = files.get(scope.meta_path)
        held_data = held_contents.get(held_oid) if held_oid else None
        baseline = state.meta.get(scope.prefix, {})
        exported = export_entries(parse_records(held_data), local, baseline, rels, now)
        data = render_records(exported) if exported else None
        if data != held_data:
            changes[scope.meta_path] = data
    return changes, read
