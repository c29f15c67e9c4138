"""`memtab doctor`'s checks of one memory across machines: whether locks work on the home's file
system, the sync targets, xum's settings backup (docs/formats.md §18.9), and conflict copies."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from memtab.diagnostics.report import Findings
from memtab.fs.locking.filesystems import filesystem_of, lock_problem, probe_locks
from memtab.fs.records import Record
from memtab.store.conflict_copies import find_copies
from memtab.store.files import list_scope
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.xum_backup import backup_overlap
from memtab.sync.conflicts.copies import CopyRow, SidecarCopy, copy_row, sidecar_copies
from memtab.sync.repository.git import branch_problem
from memtab.sync.repository.layout import SyncPaths, load_config
from memtab.sync.state import load_state


class FileSystemFacts(Record, write_only=True):
    """`sync.fileSystem`: the home's file system and whether locks work there (None: no home)."""

    type: str
    mount_point: str
    remote: bool
    locks_work: bool | None


class TargetFacts(Record, write_only=True):
    """One of `sync.targets`: a sync target as its state file leaves it (no network)."""

    name: str
    remote: str
    scopes: tuple[str, ...]
    last_sync_at: int | None
    offline_since: int | None
    conflicts: tuple[str, ...]
    last_error: str | None


class SyncFacts(Record, write_only=True):
    """`sync`: the file system, git, the targets, xum's backup, and the conflict copies."""

    file_system: FileSystemFacts | None
    git: str | None
    targets: tuple[TargetFacts, ...]
    xum_backup: tuple[str, ...]
    conflict_copies: tuple[CopyRow | SidecarCopy, ...]


def check_sync(home: Home) -> tuple[SyncFacts, Findings]:
    found = Findings("sync")
    facts = SyncFacts(
        file_system=_file_system(home, found),
        git=shutil.which("git"),
        targets=_targets(home, found),
        xum_backup=_xum_backup(home, found),
        conflict_copies=_copies(home, found),
    )
    return facts, found


def _xum_backup(home: Home, found: Findings) -> tuple[str, ...]:
    """The synced scopes xum's settings backup carries too."""
    scopes = [(s.kind, s.key) for target in load_config(home).targets for s in target.scopes]
    overlap = backup_overlap(home, scopes)
    if overlap is None:
        return ()
    found.warning(overlap.message)
    return tuple(overlap.scopes)


def _file_system(home: Home, found: Findings) -> FileSystemFacts | None:
    mount = filesystem_of(home.root)
    works = None
    if home.root.is_dir():
        probe = probe_locks(home.lock_path("x").parent)
        works = probe.works
        # A lock taken that does not keep another process out (some network and FUSE systems).
        if probe.taken and not probe.enforced:
            found.broken(lock_problem(home.root, home.lock_path("x").parent, probe) or "")
    if mount is None:
        return None
    return FileSystemFacts(
        type=mount.type, mount_point=mount.mount_point, remote=mount.remote, locks_work=works
    )


def _targets(home: Home, found: Findings) -> tuple[TargetFacts, ...]:
    config = load_config(home)
    if config.problem:
        found.broken(f"Sync's set-up {config.problem}: memtab sync cannot run")
    git = shutil.which("git")
    if config.targets and git is None:
        found.broken("Sync is set up but git is not installed: memtab sync cannot run")
    rows: list[TargetFacts] = []
    paths = SyncPaths(home)
    for target in config.targets:
        if not paths.repository(target.name).is_dir():
            found.broken(
                f"The repository of sync target {target.name} is missing "
                f"({paths.repository(target.name)}): run memtab sync init again"
            )
        refused = branch_problem(target.branch, git) if git else None
        if refused:
            found.broken(f"Sync target {target.name}: {refused} ({paths.config})")
        state = load_state(paths.state(target.name))
        conflicts = sorted(state.conflicts)
        if conflicts:
            found.warning(
                f"{len(conflicts)} sync conflict(s) with {target.name} wait for you "
                f"({', '.join(conflicts[:3])}): memtab sync resolve PATH --keep local|remote|both"
            )
        if state.last_error and not state.offline_since:
            found.warning(f"The last sync with {target.name} failed: {state.last_error}")
        rows.append(
            TargetFacts(
                name=target.name,
                remote=target.remote,
                scopes=tuple(scope.label for scope in target.scopes),
                last_sync_at=state.last_sync_at,
                offline_since=state.offline_since,
                conflicts=tuple(conflicts),
                last_error=state.last_error,
            )
        )
    return tuple(rows)


def _scope_roots(home: Home) -> list[tuple[Scope, str, Path]]:
    roots: list[tuple[Scope, str, Path]] = [(Scope.GLOBAL, "global", home.global_root)]
    for parent, scope in (
        (home.projects_root, Scope.PROJECT),
        (home.sessions_dir, Scope.WORKSPACE),
    ):
        try:
            names = sorted(e.name for e in os.scandir(parent) if e.is_dir(follow_symlinks=False))
        except OSError:
            continue
        for name in names:
            if name.startswith("."):
                continue
            root = parent / name if scope is Scope.PROJECT else home.workspace_root(name)
            roots.append((scope, name, root))
    return roots


def _copies(home: Home, found: Findings) -> tuple[CopyRow | SidecarCopy, ...]:
    rows: list[CopyRow | SidecarCopy] = []
    for scope, where, root in _scope_roots(home):
        listing = list_scope(scope, root, read_files=False)
        for copy in find_copies(entry.path for entry in listing.files).values():
            rows.append(copy_row(copy).replaced(where=where))
    for sidecar in sidecar_copies(home):
        rows.append(sidecar.replaced(where="home"))
    if rows:
        named = ", ".join(f"{row.path} ({row.where})" for row in rows[:3])
        more = f" and {len(rows) - 3} more" if len(rows) > 3 else ""
        found.warning(
            f"{len(rows)} conflict cop{'y' if len(rows) == 1 else 'ies'} left by a file-sync "
            f"tool: {named}{more}; agents do not see them until resolved: memtab conflicts"
        )
    return tuple(rows)
