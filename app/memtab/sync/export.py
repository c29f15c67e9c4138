"""This machine's changes into the sync repository, one commit per history version since the last
export (docs/formats.md §14.2, §18.6), what history did not name in one last commit; pending files
merged again first, pins and usage in one commit."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from memtab.fs.jsonfile import JsonError, parse_json
from memtab.store.history.blobs import BlobError, BlobStore
from memtab.store.history.versions import ScopeHistory, Version
from memtab.store.paths import PathError, parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.meta import MetaEntry
from memtab.store.text.line_merge import merge_lines
from memtab.sync.records import MetaRecord, Pending, RepoFormat, RepoMetaFile, SyncState
from memtab.sync.repository.layout import FORMAT_PATH, FORMAT_VERSION, SyncedScope
from memtab.sync.repository.objects import Change, Existing, NewCommit, ObjectMissingError
from memtab.sync.repository.scopes import SYNC_ACTOR, LocalFile, ScopeFiles
from memtab.sync.repository.writing import Repository

_DEFAULT = MetaRecord()
_DEFAULT_ENTRY = MetaEntry()
Records = dict[str, MetaRecord]


def parse_records(data: bytes | None) -> Records:
    """A repository meta file's entries (an unreadable one has none: the files stay)."""
    try:
        read = RepoMetaFile.read(parse_json(data)) if data else None
    except JsonError:
        return {}
    entries = read.entries if read is not None else {}
    return {rel: record for rel, record in entries.items() if not record.is_default}


def render_records(records: Mapping[str, MetaRecord]) -> bytes:
    """The meta file's bytes: sorted, so equal entries are equal blobs."""
    document = RepoMetaFile(entries={rel: records[rel] for rel in sorted(records)}).to_json()
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode()


def _latest(one: int | None, other: int | None) -> int | None:
    return max((v for v in (one, other) if v is not None), default=None)


def export_entries(
    tree: Mapping[str, MetaRecord],
    local: Mapping[str, MetaEntry],
    baseline: Mapping[str, MetaRecord],
    files: Iterable[str],
    now: int,
) -> Records:
    """The repository's entries of `files` once this machine's changes since `baseline` are in."""
    exported: Records = {}
    for rel in files:
        held = tree.get(rel, _DEFAULT)
        mine = local.get(rel, _DEFAULT_ENTRY)
        before = baseline.get(rel, _DEFAULT)
        count = max(0, held.access_count + mine.access_count - before.access_count)
        accessed = _latest(held.last_accessed_at, mine.last_accessed_at)
        written = _latest(held.last_write_at, mine.last_write_at)
        record = held
        # Most files changed nothing: their record is the repository's as it is.
        if (count, accessed, written) != (
            held.access_count,
            held.last_accessed_at,
            held.last_write_at,
        ):
            record = held.replaced(
                access_count=count, last_accessed_at=accessed, last_write_at=written
            )
        if mine.pinned != before.pinned:
            record = record.replaced(pinned=mine.pinned, pin_changed_at=now)
        if not record.is_default:
            exported[rel] = record
    return exported


def follow_renames(records: Mapping[str, MetaRecord], renames: Mapping[str, str]) -> Records:
    """`records` with a moved file's entry at its new path, so the other side's changes under the
    old name merge in."""
    moved = dict(records)
    for old, new in renames.items():
        if old in moved and new not in moved:
            moved[new] = moved.pop(old)
    return moved


def merge_records(
    base: Mapping[str, MetaRecord] | None,
    ours: Mapping[str, MetaRecord],
    theirs: Mapping[str, MetaRecord],
    files: Iterable[str],
) -> Records:
    """The entries of the merged `files`; `base` None: no common state."""
    merged = {
        rel: merge_record(
            None if base is None else base.get(rel, _DEFAULT),
            ours.get(rel, _DEFAULT),
            theirs.get(rel, _DEFAULT),
        )
        for rel in files
    }
    return {rel: record for rel, record in merged.items() if not record.is_default}


def merge_record(base: MetaRecord | None, ours: MetaRecord, theirs: MetaRecord) -> MetaRecord:
    """One file's entry from two sides (and their common state, when known)."""
    both = ours.access_count, theirs.access_count
    count = max(both) if base is None else max(0, sum(both) - base.access_count)
    pinned, changed_at = _merged_pin(base, ours, theirs)
    return MetaRecord(
        pinned=pinned,
        pin_changed_at=changed_at,
        access_count=count,
        last_accessed_at=_latest(ours.last_accessed_at, theirs.last_accessed_at),
        last_write_at=_latest(ours.last_write_at, theirs.last_write_at),
    )


def _merged_pin(
    base: MetaRecord | None, ours: MetaRecord, theirs: MetaRecord
) -> tuple[bool, int | None]:
    if ours.pinned == theirs.pinned:
        return ours.pinned, _latest(ours.pin_changed_at, theirs.pin_changed_at)
    if base is not None and ours.pinned == base.pinned:
        return theirs.pinned, theirs.pin_changed_at  # only theirs changed it
    if base is not None and theirs.pinned == base.pinned:
        return ours.pinned, ours.pin_changed_at
    pinned, unpinned = (ours, theirs) if ours.pinned else (theirs, ours)
    if unpinned.pin_changed_at is not None and (
        pinned.pin_changed_at is None or unpinned.pin_changed_at > pinned.pin_changed_at
    ):
        return False, unpinned.pin_changed_at
    return True, pinned.pin_changed_at


def import_entry(current: MetaEntry, exported: MetaEntry, merged: MetaRecord) -> MetaEntry:
    """This machine's entry once the merge comes back: what others added, added to `current`."""
    pinned = merged.pinned if current.pinned == exported.pinned else current.pinned
    return MetaEntry(
        pinned=pinned,
        access_count=max(0, current.access_count + merged.access_count - exported.access_count),
        last_accessed_at=_latest(current.last_accessed_at, merged.last_accessed_at),
        last_write_at=_latest(current.last_write_at, merged.last_write_at),
    )


Tree = Mapping[str, str]
ReadBlobs = Callable[[Iterable[str]], Mapping[str, bytes]]


@dataclass(frozen=True)
class PathConflict:
    """A file both sides changed in ways that cannot be merged."""

    path: str
    base: str | None
    ours: str | None
    theirs: str | None
    reason: str


@dataclass
class TreeMerge:
    """The merged tree: blob ids, and merged contents that have no blob yet."""

    tree: dict[str, str] = field(default_factory=dict)
    merged: dict[str, bytes] = field(default_factory=dict)
    conflicts: list[PathConflict] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)
    """(path, what was decided) for choices the user may want to know about."""

    def paths(self) -> set[str]:
        return set(self.tree) | set(self.merged)


def find_renames(base: Tree, side: Tree) -> dict[str, str]:
    """The files `side` moved (old path → new), by content at a new path."""
    added: dict[str, list[str]] = {}
    for path, oid in sorted(side.items()):
        if path not in base:
            added.setdefault(oid, []).append(path)
    renames: dict[str, str] = {}
    for old, oid in sorted(base.items()):
        if old not in side and added.get(oid):
            renames[old] = added[oid].pop(0)
    return renames


def carry_renames(
    base: Tree, renamed: Tree, edited: Tree
) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """Carry `edited`'s change of a file `renamed` moved to its new path; the trees to merge."""
    base_out, edited_out = dict(base), dict(edited)
    for old, new in find_renames(base, renamed).items():
        oid = base[old]
        if new in edited or edited.get(old) in (None, oid):
            continue  # the other side did not edit it, or has the new path already
        edited_out[new] = edited_out.pop(old)
        base_out[new] = oid
    return base_out, dict(renamed), edited_out


def merge_trees(base: Tree, ours: Tree, theirs: Tree, read: ReadBlobs) -> TreeMerge:
    """Merge `ours` and `theirs` from `base` (see the module doc)."""
    base, ours, theirs = carry_renames(base, ours, theirs)
    base, theirs, ours = carry_renames(base, theirs, ours)
    result = TreeMerge()
    both_edited: list[str] = []
    for path in sorted(set(base) | set(ours) | set(theirs)):
        before, one, other = base.get(path), ours.get(path), theirs.get(path)
        if one in (other, before):
            chosen = other
        elif before == other:
            chosen = one
        elif one is None or other is None:
            chosen = one or other
            where = "here" if one is None else "on another machine"
            result.notes.append(
                (path, f"deleted {where} but changed elsewhere: the change is kept")
            )
        else:
            both_edited.append(path)
            continue
        if chosen is not None:
            result.tree[path] = chosen
    if both_edited:
        wanted = [oid for path in both_edited for oid in (base.get(path), ours[path], theirs[path])]
        contents = read(oid for oid in wanted if oid is not None)
        for path in both_edited:
            _merge_text(path, base.get(path), ours[path], theirs[path], contents, result)
    return result


def _merge_text(
    path: str,
    before: str | None,
    ours: str,
    theirs: str,
    contents: Mapping[str, bytes],
    result: TreeMerge,
) -> None:
    texts = [_text(contents.get(oid)) if oid else "" for oid in (before, ours, theirs)]
    if before is None:
        reason = "both sides created it with different contents"
    elif any(text is None for text in texts):
        reason = "it is not UTF-8 text"
    else:
        base_text, our_text, their_text = (text or "" for text in texts)
        merged = merge_lines(base_text, our_text, their_text, insertions="both")
        if merged.text is not None:
            result.merged[path] = merged.text.encode("utf-8")
            return
        first, last = merged.conflicts[0]
        where = f"line {first}" if first == last else f"lines {first}-{last}"
        reason = f"both sides changed {where}"
    result.conflicts.append(PathConflict(path, before, ours, theirs, reason))
    result.tree[path] = theirs


def _text(data: bytes | None) -> str | None:
    try:
        return None if data is None or b"\0" in data else data.decode("utf-8")
    except UnicodeDecodeError:
        return None


logger = logging.getLogger(__name__)

_MOVE_WINDOW_MS = 2000  # versions of one move this close together are one commit


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
        return cls(scope, store, files(), max((version.at for version in versions), default=None))


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
    machine = {"Machine": committer.machine}
    if changed and head is None:
        contents: dict[str, Change] = {p: (f.content() if f else None) for p, f in changed.items()}
        message = _message(
            f"First sync from {committer.machine}: {len(contents)} files", [], machine
        )
        format_file = json.dumps(RepoFormat(format=FORMAT_VERSION).to_json(), indent=2) + "\n"
        planned.append(NewCommit({FORMAT_PATH: format_file.encode(), **contents}, message))
    elif changed:
        planned += _replay_history(committer, tree, synced, changed, state)
    if remerged:
        paths = [_shown(synced, path) for path in sorted(remerged)]
        message = _message(
            f"{SYNC_ACTOR}: merged again {_first_and_more(paths)}",
            [f"merge {path}" for path in paths],
            {"Actor": SYNC_ACTOR, **machine},
        )
        planned.append(NewCommit(dict(remerged), message))
    files = _applied(committer.repo, tree, planned)
    meta_changes, result.meta_read = _meta_changes(committer.repo, files, synced, state, now)
    if meta_changes:
        message = _message(f"Pins and usage from {committer.machine}", [], machine)
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
            else:
                files[path] = (
                    change.oid if isinstance(change, Existing) else repo.git.blob_id(change)
                )
    return files


class _Merged(NamedTuple):
    """What the repository should hold for a pending file merged cleanly (`unchanged`: it does)."""

    data: bytes | None
    unchanged: bool


def _merge_pending(
    repo: Repository, path: str, record: Pending, disk: LocalFile | None, held: str | None, now: int
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

    base, ours = ({path: base_oid} if base_oid else {}), ({path: disk.blob} if disk else {})
    merged = merge_trees(base, ours, {path: held} if held else {}, read)
    if merged.conflicts:
        since, reason = record.since or now, merged.conflicts[0].reason
        return record.replaced(
            kind="conflict", local=disk_sha, remote=held, since=since, reason=reason
        )
    if path in merged.merged:
        return _Merged(merged.merged[path], unchanged=False)
    chosen = merged.tree.get(path)
    data = disk.content() if disk is not None and chosen == disk.blob else None
    return _Merged(data, unchanged=chosen == held)


def _shown(synced: list[SyncedStore], path: str) -> str:
    """A repository path as the virtual path it is here (the repository path otherwise)."""
    virtual = (item.scope.virtual_path(path) for item in synced)
    return next((str(v) for v in virtual if v is not None), path)


def _message(summary: str, details: list[str], trailers: Mapping[str, str | None]) -> str:
    """A commit message: a summary line, the files, then `Memtab-<name>: value` lines."""
    lines = [summary, "", *details, *([""] if details else [])]
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
    groups: list[list[tuple[Version, str]]] = []
    for pair in _new_versions(synced, changed, state):
        if groups and _same_change(groups[-1][0][0], pair[0]):
            groups[-1].append(pair)
        else:
            groups.append([pair])
    commits: list[NewCommit] = []
    for group in groups:
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
    last = group[-1][0].id
    trailers = {"Actor": first.actor, "Run": first.run_id, "Machine": machine, "Version": last}
    return _message(f"{who}: {what}", lines if len(lines) > 1 else [], trailers)


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
