"""Deciding a sync conflict (docs/formats.md §18.4): this machine's text, the other side's, both, or
a merge, written through `MemoryStore` (the other side's kept lines its author's in blame, §20.1)
and committed for the next sync to send."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Literal

from memtab.fs.locking.locks import LockUnavailableError, interprocess_lock
from memtab.store.history.provenance import log_kept_from
from memtab.store.paths import VirtualPath
from memtab.store.text.line_merge import merge_union
from memtab.sync.export import Committer
from memtab.sync.repository.layout import SyncedScope, Target
from memtab.sync.repository.objects import NewCommit
from memtab.sync.repository.scopes import SYNC_ACTOR, open_scope_store, write_file
from memtab.sync.service import SyncConflict, SyncError, SyncService
from memtab.sync.state import load_state, save_state

Keep = Literal["local", "remote", "both"]


@dataclass(frozen=True)
class ConflictTexts:
    """The three texts of a conflict (None: no file on that side, or no common one)."""

    conflict: SyncConflict
    base: bytes | None
    local: bytes | None
    remote: bytes | None


def find_conflict(service: SyncService, path: str, target: str | None = None) -> SyncConflict:
    """The conflict at `path` (virtual or repository path); SyncError when none or several (`target`
    chooses)."""
    targets = (c for c in service.conflicts() if target in (None, c.target))
    found = [c for c in targets if path in (c.path, c.repo_path)]
    if not found:
        raise SyncError(f"No sync conflict at {path} (memtab sync status lists them)")
    if len(found) > 1:
        where = ", ".join(f"{c.target}:{c.repo_path}" for c in found)
        raise SyncError(f"{path} names several conflicts ({where}); give --target or the path")
    return found[0]


def _scope_of(target: Target, repo_path: str) -> tuple[SyncedScope, VirtualPath]:
    for scope in target.scopes:
        if (virtual := scope.virtual_path(repo_path)) is not None:
            return scope, virtual
    raise SyncError(f"{repo_path} is in no scope {target.name} syncs any more")


def conflict_texts(service: SyncService, conflict: SyncConflict) -> ConflictTexts:
    """This machine's text, the other side's and their common ancestor."""
    target = service.config().target(conflict.target)
    record = load_state(service.paths.state(target.name)).pending.get(conflict.repo_path)
    if record is None:
        raise SyncError(f"{conflict.path} is no longer in conflict")
    scope, virtual = _scope_of(target, conflict.repo_path)
    local = open_scope_store(service.home, scope).read_whole(virtual)
    repo = service.repository(service.git(target.name), service.config().machine)
    try:
        blobs = repo.blobs(oid for oid in (record.base, record.remote) if oid)
    finally:
        repo.close()
    base, remote = (blobs.get(oid) if oid else None for oid in (record.base, record.remote))
    return ConflictTexts(conflict, base, local, remote)


def resolve_conflict(
    service: SyncService,
    conflict: SyncConflict,
    *,
    keep: Keep | None = None,
    merged: bytes | None = None,
) -> None:
    """Decide a conflict (see the module doc): `keep` one side or both, or `merged`."""
    if (keep is None) == (merged is None):
        raise SyncError("Say what to keep: local, remote or both, or give the merged text")
    target = service.config().target(conflict.target)
    try:
        with interprocess_lock(service.paths.lock(target.name), timeout_s=30.0):
            _resolve_locked(service, target, conflict, keep, merged)
    except LockUnavailableError:
        raise SyncError(f"A sync of {target.name} is running; try again when it ends") from None


def _resolve_locked(
    service: SyncService,
    target: Target,
    conflict: SyncConflict,
    keep: Keep | None,
    merged: bytes | None,
) -> None:
    if service.paths.import_intent(target.name).exists():  # the branch must not move first
        raise SyncError(
            f"A sync of {target.name} stopped while it brought files in; run memtab sync to "
            "finish it, then decide"
        )
    state_path = service.paths.state(target.name)
    state = load_state(state_path)
    record = state.pending.get(conflict.repo_path)
    if record is None or record.kind != "conflict":
        raise SyncError(f"{conflict.path} is no longer in conflict")
    scope, virtual = _scope_of(target, conflict.repo_path)
    store = open_scope_store(service.home, scope, actor="user")
    local = store.read_whole(virtual)
    local_sha = hashlib.sha256(local).hexdigest() if local is not None else None
    config = service.config()
    repo = service.repository(service.git(target.name), config.machine)
    try:
        remote = repo.blobs([record.remote]).get(record.remote) if record.remote else None
        sides = {"local": local, "remote": remote, None: merged}
        chosen = _both(conflict, local, remote) if keep == "both" else sides[keep]
        if chosen != local:
            with store.collecting_changes() as changes:
                write_file(store, virtual, chosen, local_sha)
            if remote is not None and chosen is not None:
                for change in changes:  # the lines it keeps from there are the other side's
                    log_kept_from(service.home, change.after, SYNC_ACTOR, remote)
        head = repo.git.resolve(f"refs/heads/{target.branch}")
        if chosen != remote:
            message = (
                f"user: resolve {conflict.path} ({keep or 'merged'})\n\n"
                f"Memtab-Actor: user\nMemtab-Machine: {config.machine}\n"
            )
            committer = Committer(repo, config.machine, target.branch)
            head = committer.commit(head, [NewCommit({conflict.repo_path: chosen}, message)])
            state = state.replaced(unpushed=state.unpushed + 1)
    finally:
        repo.close()
    pending = {path: p for path, p in state.pending.items() if path != conflict.repo_path}
    save_state(state_path, state.replaced(head=head, pending=pending))


def _both(conflict: SyncConflict, local: bytes | None, remote: bytes | None) -> bytes | None:
    if local is None or remote is None:
        return local if remote is None else remote
    try:
        return merge_union(local.decode("utf-8"), remote.decode("utf-8")).encode("utf-8")
    except UnicodeDecodeError:
        words = "is not UTF-8 text on both sides; keep local or remote instead"
        raise SyncError(f"{conflict.path} {words}") from None
