"""`memtab sync` (memory over a git remote) and `memtab conflicts` (file-sync copies). `memtab sync`
exits 0 when every target is in sync or offline (the changes wait), 1 when something needs the
user. `--json` is a stable contract."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Literal

from memtab.cli.common import Exclusive, as_cli_error, command, open_store
from memtab.cli.options import CliError
from memtab.fs.locking.filesystems import lock_problem
from memtab.fs.records import Inlined, Record
from memtab.fs.user_files import read_regular_file, read_stream
from memtab.humanize import relative_time
from memtab.store.files import MAX_FILE_BYTES
from memtab.store.home import Home
from memtab.store.xum_backup import BackupOverlap, Owner, backup_overlap, set_backup_owner
from memtab.sync.conflicts.copies import (
    CopyRow,
    SidecarCopy,
    copy_row,
    memory_copies,
    resolve_memory_copy,
    resolve_sidecar_copy,
    sidecar_copies,
)
from memtab.sync.conflicts.resolve import find_conflict, resolve_conflict
from memtab.sync.repository.layout import (
    DEFAULT_BRANCH,
    DEFAULT_TARGET,
    SyncSetupError,
    Target,
    load_config,
    parse_scope,
)
from memtab.sync.service import SyncConflict, SyncError, SyncReport, SyncService, SyncStatus

KEEP_OR_MERGED = Exclusive("keep", "merged", required=True)  # what a resolve takes
MERGED_HELP = "the merged text, from a file (- for stdin)"


def _merged_text(raw: str | None) -> bytes | None:
    if raw is None:
        return None
    # A merged text is a memory file: at most its cap, from a regular file (a FIFO or a
    # device such as /dev/zero is refused at once, docs/formats.md §16.1).
    try:
        if raw == "-":
            return read_stream(sys.stdin.buffer, limit=MAX_FILE_BYTES)
        return read_regular_file(raw, limit=MAX_FILE_BYTES)
    except OSError as error:
        raise CliError(f"Cannot read {raw}: {error.strerror or error}") from None


# --- memtab sync --------------------------------------------------------------------------


@command("sync", status=lambda report: 1 if report.needs_user else 0, writes_home=False)
def run_sync(home: Home, *, target: str | None = None, json: bool = False) -> SyncReport:
    """sync memory with a git remote: commit, fetch, merge, push

    Args:
        target (NAME): only this target (default: every one)
        json: machine-readable output
    """
    quiet = json or not sys.stderr.isatty()
    progress = None if quiet else (lambda line: print(f"… {line}", file=sys.stderr))
    with as_cli_error(SyncError, SyncSetupError):
        return SyncService(home).sync(target, progress=progress)


@run_sync.text
def _print_report(report: SyncReport) -> None:
    for target in report.targets:
        head = f"{target.target} ({target.remote}):"
        if target.status == "failed":
            print(f"{head} failed: {target.error}")
        elif target.status == "cancelled":
            print(f"{head} stopped")
        else:
            said = [f"{target.pushed} commit(s) pushed", f"{len(target.pulled)} file(s) updated"]
            if target.status == "offline":
                said = [
                    f"offline ({target.offline}); {target.commits} change(s) committed here "
                    "wait for the next sync"
                ]
            print(f"{head} " + ", ".join(said))
        for path in target.pulled:
            if path in target.deleted:
                print(f"  deleted {path} (deleted on another machine; memtab trash keeps it)")
            else:
                print(f"  updated {path}")
        for note in target.notes:
            print(f"  note: {note}")
        for problem in target.problems:
            print(f"  warning: {problem}", file=sys.stderr)
        for conflict in target.conflicts:
            print(f"  conflict: {conflict.path} — {conflict.reason}")
    if report.conflicts:
        print(
            "\nThis machine's text stays in each file until you decide: "
            "memtab sync resolve PATH --keep local|remote|both (or --merged FILE)"
        )


@command("init", under=run_sync)
def run_init(
    home: Home,
    *,
    remote: str,
    scope: tuple[str, ...] = (),
    name: str = DEFAULT_TARGET,
    branch: str = DEFAULT_BRANCH,
    machine: str | None = None,
    json: bool = False,
) -> SyncInitResult | int:
    """connect scopes of this home to a git remote

    Args:
        remote (URL): a git URL or a path
        scope: global (the default), project:PATH[=NAME] or workspace:ID[=NAME]; repeatable
        name: target name (%(default)s)
        branch: branch (%(default)s)
        machine: this machine's name in commits (default: host name)
    """
    if (problem := lock_problem(home.root, home.lock_path("x").parent)) is not None:
        raise CliError(problem)
    with as_cli_error(SyncError, SyncSetupError):
        scopes = [parse_scope(spec) for spec in scope]
        target = SyncService(home).init(remote, scopes, name=name, branch=branch, machine=machine)
    overlap = _xum_backup_overlap(home, [target])
    if json:
        return SyncInitResult(target=target, xum_backup=overlap)
    labels = ", ".join(scope.label for scope in target.scopes)
    print(f"Syncing {labels} with {target.remote} (branch {target.branch}) as {target.name}.")
    print("Run memtab sync to send and receive changes (cron, a timer, or by hand).")
    if overlap is not None:
        print(f"warning: {overlap.message}", file=sys.stderr)
    return 0


def _xum_backup_overlap(home: Home, targets: list[Target]) -> BackupOverlap | None:
    """What xum's settings backup carries of what these targets sync (docs/formats.md §18.9)."""
    return backup_overlap(home, [(s.kind, s.key) for t in targets for s in t.scopes])


class SyncInitResult(Record, write_only=True):
    """`memtab sync init --json`: the target and xum's backup that carries it too (§21)."""

    target: Annotated[Target, Inlined]
    xum_backup: BackupOverlap | None


@command("status", under=run_sync)
def run_status(home: Home, *, fetch: bool = False, json: bool = False) -> SyncStatus | int:
    """what is ahead, behind and in conflict

    Args:
        fetch: ask the remotes first
    """
    status = SyncService(home).status(fetch=fetch)
    overlap = _xum_backup_overlap(home, [state.target for state in status.targets])
    if json:
        return status.replaced(xum_backup=overlap)
    if overlap is not None:
        print(f"warning: {overlap.message}")
    if status.problem:
        print(f"Sync's set-up {status.problem}; fix it, or run memtab sync init again")
        return 1
    if not status.targets:
        print("Sync is not set up in this home: memtab sync init --remote URL")
        return 0
    for state in status.targets:
        target = state.target
        scopes = ", ".join(scope.label for scope in target.scopes)
        print(f"{target.name}: {scopes} ↔ {target.remote} ({target.branch})")
        last = relative_time(state.last_sync_at) if state.last_sync_at else "never"
        print(f"  last sync: {last}")
        if state.offline_since:
            print(f"  offline since {relative_time(state.offline_since)}: {state.last_error}")
        elif state.last_error:
            print(f"  last error: {state.last_error}")
        print(
            f"  {state.local_changes} local change(s) to commit, {state.ahead} commit(s) to "
            f"push, {state.behind} to pull (as of the last fetch)"
        )
        _print_files("to send", state.to_send)
        _print_files("to bring in", state.to_receive)
        for conflict in state.conflicts:
            print(f"  conflict: {conflict.path} — {conflict.reason}")
        for path in state.unapplied:
            print(f"  waiting: {path} changed while a merge was written; merged again next sync")
        for problem in state.problems:
            print(f"  warning: {problem}")
    return 0


_LISTED = 10


def _print_files(what: str, paths: tuple[str, ...]) -> None:
    """The files that wait, the first few by name."""
    for path in paths[:_LISTED]:
        print(f"  {what}: {path}")
    if len(paths) > _LISTED:
        print(f"  {what}: … and {len(paths) - _LISTED} more")


@command("resolve", KEEP_OR_MERGED, under=run_sync)
def run_resolve(
    home: Home,
    path: str,
    *,
    keep: Literal["local", "remote", "both"] | None = None,
    merged: Annotated[str | None, MERGED_HELP] = None,
    target: str | None = None,
) -> SyncResolved:
    """decide a sync conflict

    Args:
        path: the file's virtual path
        keep: this machine's text, the other's, or both
        merged (FILE):
        target (NAME):
    """
    service = SyncService(home)
    text = _merged_text(merged)
    with as_cli_error(SyncError, SyncSetupError):
        conflict = find_conflict(service, path, target)
        resolve_conflict(service, conflict, keep=keep, merged=text)
    return SyncResolved(resolved=conflict, kept=keep or "your merge")


@run_resolve.text
def _print_resolved(done: SyncResolved) -> None:
    print(f"Resolved {done.resolved.path} ({done.kept}); memtab sync sends it to the others.")


class SyncResolved(Record, write_only=True):
    """`memtab sync resolve --json`: the conflict resolved and what was kept."""

    resolved: SyncConflict
    kept: str


@command("remove", under=run_sync)
def run_remove(home: Home, name: str) -> int:
    """stop syncing a target (its repository stays)"""
    service = SyncService(home)
    with as_cli_error(SyncError, SyncSetupError):
        service.remove(name)
    print(f"{name} is no longer synced; its repository stays in {service.paths.root}.")
    return 0


@command("backup-owner", under=run_sync)
def run_backup_owner(home: Home, owner: Owner) -> int:
    """who owns memory xum's settings backup carries too

    Args:
        owner: memtab: this sync; xum: xum's backup
    """
    set_backup_owner(home, owner)
    overlap = _xum_backup_overlap(home, list(load_config(home).targets))
    print(overlap.message if overlap is not None else f"Noted: {owner} owns it.")
    return 0


# --- memtab conflicts ---------------------------------------------------------------------


@command("conflicts", writes_home=False)
def run_conflicts(
    home: Home, *, workspace: str | None = None, json: bool = False
) -> ConflictCopies | int:
    """conflict copies a file-sync tool left (Syncthing, Dropbox…)

    Args:
        workspace (ID): include its project and workspace
    """
    store, _ = open_store(home, workspace)
    copies = memory_copies(store)
    sidecars = sidecar_copies(home)
    if json:
        rows = tuple(copy_row(copy) for copy in copies)
        return ConflictCopies(copies=rows, sidecars=tuple(sidecars))
    if not copies and not sidecars:
        print("No conflict copies.")
        return 0
    for copy in copies:
        print(f"{copy.path}  (a {copy.name.tool} conflict copy of {copy.original})")
    for sidecar in sidecars:
        print(f"{sidecar.path}  (a {sidecar.name.tool} conflict copy of {sidecar.original.name})")
    print(
        "\nResolve one: memtab conflicts resolve PATH --keep this|mine|both (or --merged FILE);"
        " agents and the consolidator do not see a copy until then."
    )
    return 0


class ConflictCopies(Record, write_only=True):
    """`memtab conflicts --json`: the copies of memory files and of sidecars (§18.5)."""

    copies: tuple[CopyRow, ...]
    sidecars: tuple[SidecarCopy, ...]


@command("resolve", KEEP_OR_MERGED, under=run_conflicts)
def run_copy_resolve(
    home: Home,
    path: str,
    *,
    workspace: str | None = None,
    keep: Literal["this", "mine", "both"] | None = None,
    merged: Annotated[str | None, MERGED_HELP] = None,
    json: bool = False,
) -> SidecarCopy | CopyRow | int:
    """resolve one conflict copy

    Args:
        path: the copy's virtual path, or a sidecar copy's file path
        workspace (ID):
        keep: the copy's text, the original's, or both
        merged (FILE):
    """
    result: SidecarCopy | CopyRow
    if not path.strip().startswith("/memories"):
        wanted = {path, str(Path(path).absolute()), str(home.root / path)}
        found = [copy for copy in sidecar_copies(home) if str(copy.path) in wanted]
        if not found:
            raise CliError(f"{path} is not a conflict copy of a sidecar of {home.root}")
        if keep is None:  # --merged given instead (one of the two is)
            raise CliError("A sidecar's copy is kept, dropped or merged by rule: use --keep")
        aside = resolve_sidecar_copy(home, found[0], keep)
        result = found[0].replaced(kept=keep, set_aside=aside)
    else:
        store, _ = open_store(home, workspace)
        copy = resolve_memory_copy(store, path, keep=keep, merged=_merged_text(merged))
        result = copy_row(copy).replaced(kept=keep or "merged")
    if json:
        return result
    if isinstance(result, SidecarCopy) and result.set_aside is not None:
        print(f"Resolved {result.path} ({result.kept}); set aside: {result.set_aside}")
    else:
        print(f"Resolved {result.path} ({result.kept}); the copy stays in history.")
    return 0
