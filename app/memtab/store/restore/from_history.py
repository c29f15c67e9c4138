"""Putting back from history: a file's versions, restore, the trash, and reverting a run; each a
recorded change that checks the file is still what was looked at."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Annotated, Literal

from memtab.fs.clock import now_ms
from memtab.fs.records import Key, Record, WrittenAs, computed, field
from memtab.store.actors import actor_name
from memtab.store.catch_up.external import record_external
from memtab.store.errors import (
    AlreadyExistsError,
    MemoryStoreError,
    SaveConflictError,
    UnkeptChangeError,
)
from memtab.store.history.blobs import BlobError, BlobStore, sha256_of
from memtab.store.history.describe import unified_diff
from memtab.store.history.recorder import RecordedChange
from memtab.store.history.records import FileVersions, RunEntry, RunOp
from memtab.store.history.runs import MUX_SOURCE, REVERT_KIND, RunsLog, new_run_id, touched_paths
from memtab.store.history.versions import ScopeHistory, Version
from memtab.store.home import Home
from memtab.store.paths import (
    SCOPE_ORDER,
    PathError,
    VirtualPath,
    parse_file_path,
    require_file_path,
)
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry

logger = logging.getLogger(__name__)

_MAX_RENAME_HOPS = 32


class HistoryError(MemoryStoreError):
    """A restore or revert that cannot be done (unknown version or run, content missing)."""


def content_of(home: Home, version: Version) -> bytes:
    """What a version holds (a deletion: what was deleted); HistoryError when history lost it."""
    return _blob(home, version.sha256, f"Cannot restore {version.path} version {version.id}")


def _blob(home: Home, sha: str, failure: str) -> bytes:
    try:
        return BlobStore(home.history_blobs_dir).get(sha)
    except BlobError as error:
        raise HistoryError(f"{failure}: {error}") from None


def text_of(data: bytes | None) -> str:
    return "" if data is None else data.decode("utf-8", "replace")


def file_history(store: MemoryStore, path: VirtualPath) -> list[Version]:
    """Every version of a file, newest first, following renames back to older names."""
    chain = _lineage(store, require_file_path(path), cutoff=None, hops=0)
    # Newest first; versions of the same millisecond stay in the order they were made.
    return sorted(reversed(chain), key=lambda version: version.at, reverse=True)


def _lineage(
    store: MemoryStore, path: VirtualPath, *, cutoff: tuple[int, str | None] | None, hops: int
) -> list[Version]:
    """Versions of `path`, oldest first, with those of every name it was moved from; `cutoff` stops
    before a move away."""
    assert path.scope is not None
    if store.unavailable_reason(path.scope):
        return []
    versions = ScopeHistory(store.home, store.history_key(path.scope)).versions()
    own = [v for v in versions if v.path == str(path)]
    if cutoff is not None:
        until, moved_to = cutoff
        own = [v for v in own if v.at <= until]
        # Up to the move that took it to the name we came from.
        for index in range(len(own) - 1, -1, -1):
            if own[index].moved_to == moved_to:
                own = own[:index]
                break
    chain: list[Version] = []
    for version in own:
        if version.moved_from and not version.deleted and hops < _MAX_RENAME_HOPS:
            try:
                source = parse_file_path(version.moved_from)
            except PathError:
                source = None
            if source is not None:
                chain.extend(_lineage(store, source, cutoff=(version.at, str(path)), hops=hops + 1))
        chain.append(version)
    return chain


def find_version(store: MemoryStore, path: VirtualPath, version_id: str) -> Version:
    """Version `version_id` of a file (or of a name it had). HistoryError if unknown."""
    if found := next((v for v in file_history(store, path) if v.id == version_id), None):
        return found
    raise HistoryError(
        f"No version {version_id!r} of {path} (see `memtab history PATH` for its versions)"
    )


def _version_id(version: Version) -> str:
    return version.id


class RestoreResult(Record, write_only=True):
    """What a restore did (`unchanged`: there already): `memtab restore --json` (formats §14.2)."""

    path: str
    version: Annotated[Version, WrittenAs(_version_id)]
    unchanged: bool = False


class TargetTakenError(AlreadyExistsError):
    """`restore --to` names a path where another file is: replacing it takes `replace`."""


def restore(
    store: MemoryStore,
    path: VirtualPath,
    version_id: str,
    *,
    to: VirtualPath | None = None,
    replace: bool = False,
    allow_unkept: bool = False,
    count_as_write: bool = True,
) -> RestoreResult:
    """Make a file hold one of its versions again: a deleted file at its path, or beside it when
    something new is there, with its pins and usage. `to` restores elsewhere (`replace` to replace a
    file there, else TargetTakenError). HistoryError, SaveConflictError, UnkeptChangeError (unless
    `allow_unkept`); without `count_as_write` it is no use of the file."""
    version = find_version(store, path, version_id)
    data = content_of(store.home, version)
    target = require_file_path(to) if to is not None else path
    current = store.read_whole(target)
    if target != path and current is not None and current != data and not replace:
        raise TargetTakenError(
            f"{target} already exists: restoring {path} there would replace it. Restore to "
            "a free path, or choose to replace it (its content is kept in history)"
        )
    if version.deleted and current is not None and to is None and current != data:
        target = free_path_near(store, target)
        current = None
    if current == data:
        return RestoreResult(version=version, path=str(target), unchanged=True)
    store.restore_content(
        target,
        data,
        expected_sha256=sha256_of(current) if current is not None else None,
        op="restore",
        restored_from=version.id,
        meta=version.meta if version.deleted else None,
        allow_unkept=allow_unkept,
        count_as_write=count_as_write,
    )
    return RestoreResult(version=version, path=str(target))


def free_path_near(store: MemoryStore, path: VirtualPath) -> VirtualPath:
    """`name-restored.md`, `name-restored-2.md`, …: the first that is free."""
    stem, dot, suffix = path.name.rpartition(".")
    if not dot or not stem:
        stem, suffix = path.name, ""
    for number in range(1, 1000):
        mark = "-restored" if number == 1 else f"-restored-{number}"
        name = f"{stem}{mark}.{suffix}" if suffix else f"{stem}{mark}"
        candidate = path.parent.child(name)
        if store.kind_of(candidate) is None:
            return candidate
    raise HistoryError(f"No free name to restore {path} beside it; give another path")


class TrashItem(Record, write_only=True):
    """A deleted file history still has: `memtab trash --json` (docs/formats.md §14.2, stable)."""

    path: str
    deleted_at: int = computed(lambda item: item.version.at)
    version: Annotated[Version, WrittenAs(_version_id)]
    size_bytes: int = computed(lambda item: item.version.size_bytes)
    actor: str = computed(lambda item: item.version.actor)
    run_id: str | None = computed(lambda item: item.version.run_id)
    pinned: bool = computed(lambda item: bool((item.version.meta or {}).get("pinned") is True))
    agent: str = "mux"  # whose memory it was: `mux` or another agent's (§17)
    event: str | None = None  # the burst it was deleted in (`memtab events`, §14.5), or null


def trash(store: MemoryStore) -> list[TrashItem]:
    """Deleted files of the store's scopes, newest first (not moved-away ones, nor paths that hold a
    file again)."""
    items: list[TrashItem] = []
    for scope in SCOPE_ORDER:
        if store.unavailable_reason(scope):
            continue
        newest = ScopeHistory(store.home, store.history_key(scope)).newest_by_path()
        for path_text, version in newest.items():
            if not version.deleted or version.moved_to is not None:
                continue
            try:
                if store.kind_of(parse_file_path(path_text)) is not None:
                    continue
            except (PathError, MemoryStoreError):
                continue
            items.append(TrashItem(path=path_text, version=version))
    items.sort(key=lambda item: item.deleted_at, reverse=True)
    return items


class Refusal(Record):
    """A file a revert left alone, why, and the diff it would have applied; `unkept`: only because
    history cannot keep it."""

    path: str
    reason: str
    diff: str = ""
    unkept: bool = False


class RevertResult(Record, write_only=True):
    """What reverting a run did; `memtab revert-run --json` (docs/formats.md §14.3)."""

    run: Annotated[RunEntry, Key("runId"), WrittenAs(lambda run: run.id)]
    restored: list[str] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)
    already: Annotated[list[str], Key("alreadyReverted")] = field(default_factory=list)
    """Files that held their before-run content already (an earlier revert got to them)."""
    revert_run_id: str | None = None
    """The revert's own run in the runs log (None: it restored nothing, or its log failed)."""


@dataclass(frozen=True)
class _Touched:
    key: str
    path: str
    first: Version
    last: Version
    later: tuple[Version, ...]

    @property
    def pre_sha256(self) -> str | None:
        """What the file held before the run (None: no file)."""
        return self.first.prev_sha256

    @property
    def post_sha256(self) -> str | None:
        """What the run left (None: no file)."""
        return None if self.last.deleted else self.last.sha256


def revert_run(
    home: Home, run_id: str, *, done: list[RecordedChange] | None = None
) -> RevertResult:
    """Restore every file a run touched to its before-run content (`done` gets each change), a run
    of its own (`revert`, docs/formats.md §14.3). A file changed since is refused with its diff; one
    already restored counts as done; HistoryError for an unknown run or a revert."""
    run = RunsLog(home).get(run_id)
    if run is None:
        raise HistoryError(f"No run {run_id!r} (see `memtab runs`)")
    if run.kind == REVERT_KIND:
        raise HistoryError(
            f"{run_id} is a revert (of {run.reverts or 'a run'}): a revert is not reverted; "
            "restore its files from their history instead (`memtab history PATH`)"
        )
    result = RevertResult(run=run)
    if run.source == MUX_SOURCE:
        reason = (
            "made by mux: Memtab saw its changes as external ones; restore the file "
            "from its history instead"
        )
        return result.replaced(
            refused=[Refusal(path=path, reason=reason) for path in touched_paths(run.ops)]
        )
    workspace = load_registry(home).workspace(run.workspace_id) if run.workspace_id else None
    revert_id = new_run_id(now_ms())
    store = MemoryStore(home, workspace, run_id=revert_id)
    record_external(store)  # a later change by another program is a later version too
    touched = _touched_by(store, run_id)
    for path in touched_paths(run.ops):
        if path not in {item.path for item in touched}:
            unrecorded = "its change was not recorded in history"
            result.refused.append(Refusal(path=path, reason=unrecorded))
    # Removals first: they make room and free names renames had taken.
    touched.sort(key=lambda item: item.pre_sha256 is not None)
    with store.collecting_changes() as changes:
        for item in touched:
            outcome = _revert_file(store, item, run)
            if isinstance(outcome, Refusal):
                result.refused.append(outcome)
            elif outcome == "restored":
                result.restored.append(item.path)
            elif outcome == "already":
                result.already.append(item.path)
    if done is not None:
        done.extend(change for change in changes if change.path in result.restored)
    if result.restored:
        return result.replaced(revert_run_id=_log_revert(home, run, result, changes, revert_id))
    return result


def _log_revert(
    home: Home, run: RunEntry, result: RevertResult, changes: list[RecordedChange], revert_id: str
) -> str | None:
    """Log the revert as a run of its own: one op per file it restored."""
    ops = tuple(
        RunOp(command=REVERT_KIND, path=c.path, applied=True, files=(FileVersions.from_change(c),))
        for c in changes
        if c.path in result.restored
    )
    left = f"; left {_files(len(result.refused))} alone" if result.refused else ""
    summary = f"Reverted run {run.id}: restored {_files(len(result.restored))}{left}"
    entry = RunEntry(
        id=revert_id,
        at=now_ms(),
        kind=REVERT_KIND,
        trigger="manual",
        summary=summary,
        ops=ops,
        workspace_id=run.workspace_id,
        project_path=run.project_path,
        reverts=run.id,
        actor="user",
    )
    try:
        RunsLog(home).append(entry)
    except (OSError, TimeoutError) as error:
        logger.warning("Could not add the revert of %s to the runs log: %s", run.id, error)
        return None
    return revert_id


def _touched_by(store: MemoryStore, run_id: str) -> list[_Touched]:
    touched: list[_Touched] = []
    for scope in SCOPE_ORDER:
        if store.unavailable_reason(scope):
            continue
        key = store.history_key(scope)
        by_path: dict[str, list[Version]] = {}
        positions: dict[str, int] = {}
        versions = ScopeHistory(store.home, key).versions()
        for index, version in enumerate(versions):
            if version.run_id == run_id:
                by_path.setdefault(version.path, []).append(version)
                positions[version.path] = index
        for path_text, own in by_path.items():
            later = tuple(v for v in versions[positions[path_text] + 1 :] if v.path == path_text)
            touched.append(_Touched(key, path_text, own[0], own[-1], later))
    return touched


def _revert_file(
    store: MemoryStore, item: _Touched, run: RunEntry
) -> Refusal | Literal["restored", "unchanged", "already"]:
    try:
        path = parse_file_path(item.path)
        current = store.read_whole(path)
        current_sha = sha256_of(current) if current is not None else None
        if current_sha == item.pre_sha256 != item.post_sha256:
            return "already"
        gone = "the content before the run is gone"
        pre = _blob(store.home, item.pre_sha256, gone) if item.pre_sha256 else None
        if current_sha != item.post_sha256:
            diff = unified_diff(
                text_of(current), text_of(pre), before_name="current", after_name="before run"
            )
            return Refusal(path=item.path, reason=_changed_since(item), diff=diff)
        if item.pre_sha256 == item.post_sha256:
            return "unchanged"
        meta = item.last.meta if item.last.deleted else None
        store.restore_content(
            path, pre, expected_sha256=current_sha, op="revert", revert_of=run.id, meta=meta
        )
    except SaveConflictError:
        return Refusal(path=item.path, reason="it changed while the run was being reverted")
    except UnkeptChangeError as error:
        return Refusal(path=item.path, reason=str(error), unkept=True)
    except (MemoryStoreError, PathError) as error:
        return Refusal(path=item.path, reason=str(error))
    return "restored"


def _files(count: int) -> str:
    return f"{count} file" if count == 1 else f"{count} files"


def _changed_since(item: _Touched) -> str:
    if not item.later:
        return "changed after the run (not yet seen by Memtab)"
    newest = item.later[-1]
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(newest.at / 1000))
    return f"changed after the run (by {actor_name(newest.actor)} at {when})"
