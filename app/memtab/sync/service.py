"""`SyncService`: what the CLI and window call to sync a home over git, from a worker (`progress`
and `cancel` on each), one sync per target at a time across processes; an unreachable remote is
`offline`, never an error."""

from __future__ import annotations

import functools
import getpass
import logging
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal

from memtab.fs.atomic import is_temp_name
from memtab.fs.clock import Clock, now_ms
from memtab.fs.locking.locks import LockUnavailableError, interprocess_lock
from memtab.fs.private import private_folders
from memtab.fs.records import NotWritten, Record, WrittenAs, computed
from memtab.store.errors import MemoryStoreError
from memtab.store.home import Home
from memtab.store.paths import PathError
from memtab.store.restore.new_scope import discard_staging
from memtab.store.scopes.memory import MemoryStore
from memtab.store.xum_backup import BackupOverlap
from memtab.sync.engine import SyncCancelledError, SyncOutcome, TargetSync
from memtab.sync.export import Committer, SyncedStore
from memtab.sync.records import SyncState
from memtab.sync.repository.git import (
    Git,
    GitError,
    Identity,
    branch_problem,
    describe_remote_error,
    find_git,
    remote_problem,
)
from memtab.sync.repository.layout import (
    DEFAULT_BRANCH,
    DEFAULT_TARGET,
    GLOBAL_SCOPE,
    STAGING_NAME,
    SyncConfig,
    SyncedScope,
    SyncPaths,
    SyncSetupError,
    Target,
    check_name,
    load_config,
    remove_target,
    save_target,
)
from memtab.sync.repository.objects import ObjectMissingError
from memtab.sync.repository.scopes import (
    SeenFiles,
    open_scope_store,
    read_scope,
    record_outside_changes,
)
from memtab.sync.repository.writing import Repository
from memtab.sync.state import load_state, save_state

logger = logging.getLogger(__name__)

_GIT_LOCKS = ("HEAD.lock", "packed-refs.lock", "config.lock", "shallow.lock", "FETCH_HEAD.lock")


def clear_leftovers(target_dir: Path, repository: Path) -> list[str]:
    """Remove what a killed sync left (the target's lock held); the names removed."""
    removed: list[str] = []
    staging = target_dir / STAGING_NAME
    if os.path.lexists(staging):
        discard_staging(staging)
        removed.append(STAGING_NAME)
    candidates = [p for p in _entries(target_dir) if is_temp_name(p.name)]
    candidates += [repository / name for name in _GIT_LOCKS]
    for folder in (repository / "refs", repository / "logs"):
        for directory, _dirs, files in os.walk(folder):
            candidates += [Path(directory, f) for f in files if f.endswith(".lock")]
    candidates += [
        p for p in _entries(repository / "objects" / "pack") if p.name.startswith("tmp_")
    ]
    for path in candidates:
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        except OSError as error:
            logger.warning("Cannot remove %s a killed sync left: %s", path, error)
            continue
        removed.append(str(path.relative_to(target_dir)))
    if removed:
        logger.info("Removed what a killed sync left: %s", ", ".join(removed))
    return removed


def _entries(folder: Path) -> list[Path]:
    try:
        return [entry for entry in folder.iterdir() if entry.is_file()]
    except OSError:
        return []


def distance(git: Git, head: str | None, remote: str | None) -> tuple[int, int]:
    """Commits only `head` has, and only `remote` has."""
    if head is None or remote is None:
        counts = [git.run(["rev-list", "--count", c]).stdout if c else b"" for c in (head, remote)]
        return int(counts[0].strip() or 0), int(counts[1].strip() or 0)
    result = git.run(["rev-list", "--left-right", "--count", f"{head}...{remote}"])
    left, _, right = result.stdout.decode().strip().partition("\t")
    return int(left or 0), int(right or 0)


def files_apart(
    repo: Repository, target: Target, head: str | None, remote: str | None
) -> tuple[set[str], set[str]]:
    """The memory files changed by `head`'s own commits and by the remote's since they parted."""
    if head == remote:
        return set(), set()
    base = repo.git.merge_base(head, remote) if head is not None and remote is not None else None
    before = repo.files(base) if base is not None else {}
    ours = _changed(before, repo.files(head) if head is not None else {}, target)
    theirs = _changed(before, repo.files(remote) if remote is not None else {}, target)
    return ours, theirs


def _changed(before: Mapping[str, str], after: Mapping[str, str], target: Target) -> set[str]:
    paths = {path for path in {*before, *after} if before.get(path) != after.get(path)}
    return {path for path in paths if scope_of(target, path) is not None}


def scope_of(target: Target, repo_path: str) -> SyncedScope | None:
    """The target's scope a repository path is a memory file of (None: none)."""
    return next((s for s in target.scopes if s.virtual_path(repo_path) is not None), None)


def shown(target: Target, repo_path: str) -> str:
    """A repository path as the virtual path of this home's scope (else as it is)."""
    scope = scope_of(target, repo_path)
    virtual = scope.virtual_path(repo_path) if scope is not None else None
    return str(virtual) if virtual is not None else repo_path


_NOT_A_HOST_CHAR = re.compile(r"[^A-Za-z0-9.-]")

Progress = Callable[[str], None]
Cancel = Callable[[], bool]
TargetStatus = Literal["synced", "offline", "conflicts", "failed", "cancelled"]
LOCK_WAIT_S = 30.0
# What ends a sync of one target (reported, never raised).
_FAILURES = (GitError, ObjectMissingError, MemoryStoreError, PathError, SyncSetupError, OSError)


class SyncError(Exception):
    """Sync cannot be done as asked (not set up, git missing, a bad argument); one line."""


class SyncConflict(Record, write_only=True):
    """A file both sides changed on the same lines, waiting for the user (docs/formats.md §18.4)."""

    path: str  # the virtual path (`/memories/global/x.md`)
    target: str
    repo_path: str
    reason: str
    since: int
    scope: Annotated[SyncedScope | None, WrittenAs(lambda scope: scope.label)] = None
    """The scope of this home the file is in (None: the repository path is none of them)."""


class TargetReport(Record, write_only=True):
    """What one sync of a target did (docs/formats.md §18.4)."""

    target: str
    remote: str
    status: TargetStatus
    commits: int = 0
    pushed: int = 0
    pulled: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    """The pulled files that were removed (deleted on another machine)."""
    conflicts: tuple[SyncConflict, ...] = ()
    pulled_on_disk: Annotated[tuple[str, ...], NotWritten] = ()
    """Where the pulled files are on this disk (the window badges their changes as sync's)."""
    notes: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    error: str | None = None
    offline: str | None = None


class SyncReport(Record, write_only=True):
    """What a sync did: `memtab sync --json` (docs/formats.md §18.4)."""

    pushed: int = computed(lambda report: sum(target.pushed for target in report.targets))
    pulled: int = computed(lambda report: sum(len(target.pulled) for target in report.targets))
    conflicts: list[SyncConflict] = computed(
        lambda report: [conflict for target in report.targets for conflict in target.conflicts]
    )
    offline: bool = computed(
        lambda report: any(target.status == "offline" for target in report.targets)
    )
    errors: list[str] = computed(lambda report: [t.error for t in report.targets if t.error])
    targets: tuple[TargetReport, ...] = ()

    @property
    def needs_user(self) -> bool:
        """Conflicts to resolve, or a failure only the user can fix (credentials, set-up)."""
        return any(target.status in ("conflicts", "failed") for target in self.targets)


class TargetState(Record, write_only=True):
    """Where a target stands without syncing: `memtab sync status --json` (formats §18.4)."""

    target: Annotated[Target, WrittenAs(lambda target: target.name)]
    remote: str = computed(lambda state: state.target.remote)
    branch: str = computed(lambda state: state.target.branch)
    scopes: list[str] = computed(lambda state: [s.label for s in state.target.scopes])
    ahead: int
    behind: int
    local_changes: int
    conflicts: tuple[SyncConflict, ...]
    unapplied: tuple[str, ...]
    last_sync_at: int | None
    offline_since: int | None
    last_error: str | None
    problems: tuple[str, ...] = ()
    to_send: tuple[str, ...] = ()
    """The memory files (virtual paths) changed here that the remote does not have yet."""
    to_receive: tuple[str, ...] = ()
    """The memory files the remote changed (as of the last fetch) not yet brought in here."""


class SyncStatus(Record, write_only=True):
    """Every target's standing (docs/formats.md §18.4)."""

    machine: str
    targets: tuple[TargetState, ...] = ()
    problem: str | None = None  # why the set-up cannot be read (then there are no targets to show)
    xum_backup: BackupOverlap | None = None
    """What xum's settings backup carries of these scopes (docs/formats.md §18.9)."""


@dataclass
class SyncService:
    """Sync of one home's memory over git (see the module doc)."""

    home: Home
    clock: Clock = now_ms
    git_program: str | None = None
    now_ns: Callable[[], int] = time.time_ns
    """The clock files' times are compared with (tests: a later one)."""
    paths: SyncPaths = field(init=False)

    def __post_init__(self) -> None:
        self.paths = SyncPaths(self.home)

    def config(self) -> SyncConfig:
        return load_config(self.home)

    def git(self, target: str, cancel: Cancel | None = None) -> Git:
        try:
            program = self.git_program or find_git()
        except GitError as error:
            raise SyncError(str(error)) from None
        return Git(self.paths.repository(target), git=program, cancel=cancel)

    def init(
        self,
        remote: str,
        scopes: Sequence[SyncedScope],
        *,
        name: str = DEFAULT_TARGET,
        branch: str = DEFAULT_BRANCH,
        machine: str | None = None,
        cancel: Cancel | None = None,
    ) -> Target:
        """Connect scopes of this home to a git remote: a repository of its own and a first fetch;
        SyncError, nothing changed, when it cannot be reached."""
        check_name(name, "The target name")
        if problem := remote_problem(remote) or branch_problem(branch, self.git(name).git):
            raise SyncError(problem)
        chosen = tuple(scopes) or (GLOBAL_SCOPE,)
        prefixes = [scope.prefix for scope in chosen]
        if len(set(prefixes)) != len(prefixes):
            raise SyncError("Two scopes would share one folder; give one of them =NAME")
        target = Target(name=name, remote=remote.strip(), branch=branch, scopes=chosen)
        for scope in chosen:
            try:
                open_scope_store(self.home, scope)
            except (SyncSetupError, MemoryStoreError) as error:
                raise SyncError(str(error)) from None
        existed = self.paths.repository(name).exists()
        if not existed:  # a state left by an earlier repository names commits it had
            self.paths.state(name).unlink(missing_ok=True)
            self.paths.import_intent(name).unlink(missing_ok=True)
        git = self.git(name, cancel)
        try:
            private_folders(self.paths.target_dir(name), below=self.home.memtab_dir)
            git.init(target.remote, branch)
            git.fetch(branch)
            save_target(self.home, target, machine=machine)
        except (GitError, SyncSetupError) as error:
            if not existed:
                shutil.rmtree(self.paths.target_dir(name), ignore_errors=True)
            words = (
                error
                if isinstance(error, SyncSetupError)
                else describe_remote_error(target.remote, error)
            )
            raise SyncError(str(words)) from None
        return target

    def remove(self, name: str) -> None:
        """Stop syncing a target (its repository stays, with everything it held)."""
        self.config().target(name)  # SyncSetupError for an unknown target
        state = load_state(self.paths.state(name))
        if state.conflicts:
            n = len(state.conflicts)
            raise SyncError(f"{name} has {n} conflict(s) to resolve first (memtab sync resolve)")
        remove_target(self.home, name)

    def sync(
        self,
        target: str | None = None,
        *,
        progress: Progress | None = None,
        cancel: Cancel | None = None,
        wait_s: float = LOCK_WAIT_S,
    ) -> SyncReport:
        """Sync every target (or the one named); never raises for what a target meets."""
        config = self.config()
        if not config.targets and config.problem:
            raise SyncError(
                f"Sync's set-up {config.problem}; fix it, or run memtab sync init again"
            )
        if not config.targets:
            raise SyncError("Sync is not set up in this home: run memtab sync init --remote URL")
        chosen = [config.target(target)] if target else list(config.targets)
        report = progress or (lambda _line: None)
        reports = []
        for item in chosen:
            # Progress lines prefixed with the target's name when there are several.
            prefix = f"{item.name}: " if len(chosen) > 1 else ""
            prefixed = functools.partial(lambda prefix, line: report(prefix + line), prefix)
            reports.append(
                self._sync_target(config, item, prefixed, cancel or (lambda: False), wait_s)
            )
        return SyncReport(targets=tuple(reports))

    def _sync_target(
        self, config: SyncConfig, target: Target, progress: Progress, cancel: Cancel, wait_s: float
    ) -> TargetReport:
        try:
            with interprocess_lock(self.paths.lock(target.name), timeout_s=wait_s):
                return self._run_locked(config, target, progress, cancel)
        except LockUnavailableError:
            return _failed(
                target, f"Another sync of {target.name} is running; try again when it ends"
            )

    def _run_locked(
        self, config: SyncConfig, target: Target, progress: Progress, cancel: Cancel
    ) -> TargetReport:
        clear_leftovers(self.paths.target_dir(target.name), self.paths.repository(target.name))
        state_path = self.paths.state(target.name)
        state = load_state(state_path)
        now = self.clock()
        try:
            git = self.git(target.name, cancel)
        except SyncError as error:
            return _failed(target, str(error))
        if refused := branch_problem(target.branch, git.git):
            return _failed(
                target, f"{refused} ({self.paths.config}); set it right or run memtab sync init"
            )
        if not self.paths.repository(target.name).is_dir():
            return _failed(
                target, f"The repository of {target.name} is missing; run memtab sync init again"
            )
        repo = self.repository(git, config.machine)
        committer = Committer(repo, config.machine, target.branch)
        read = functools.partial(self._read_scopes, target, git)
        attempted = state.replaced(last_attempt_at=now)  # now, in every state it saves
        target_sync = TargetSync(
            target,
            git,
            committer,
            self.paths,
            lambda: self._open_scopes(target),
            read,
            attempted,
            ever_synced=state.last_sync_at is not None,
            progress=progress,
            cancel=cancel,
            clock=self.clock,
        )
        try:
            outcome = target_sync.run()
        except Exception as error:
            reached = target_sync.state_after_cancel()  # what it committed stands
            if isinstance(error, SyncCancelledError) or (
                isinstance(error, GitError) and error.kind == "cancelled"
            ):
                save_state(state_path, reached)
                return TargetReport(target=target.name, remote=target.remote, status="cancelled")
            if isinstance(error, _FAILURES):
                logger.warning("Sync of %s failed: %s", target.name, error)
                message = str(error)
            else:  # a bug: said as a failure, kept for doctor and status
                logger.exception("Sync of %s stopped on an internal error", target.name)
                message = f"Memtab stopped on an internal error ({type(error).__name__}: {error})"
            save_state(state_path, reached.replaced(last_attempt_at=now, last_error=message))
            return _failed(target, message)
        finally:
            repo.close()
        final = outcome.state.replaced(
            last_attempt_at=now,
            offline_since=(state.offline_since or now) if outcome.offline else None,
            last_error=outcome.error or outcome.offline,
        )
        save_state(state_path, final)
        return self._report(target, outcome, final)

    def _open_scopes(self, target: Target) -> list[tuple[SyncedScope, MemoryStore]]:
        run_id = f"sync:{target.name}"
        return [
            (scope, open_scope_store(self.home, scope, run_id=run_id)) for scope in target.scopes
        ]

    def _read_scopes(
        self, target: Target, git: Git, held: Mapping[str, str], wanted: Container[str]
    ) -> list[SyncedStore]:
        """The target's scopes now, outside changes recorded first; an unchanged file holding
        `held`'s blob is not read again unless `wanted`."""
        seen = SeenFiles(self.home.root, target.name, now_ns=self.now_ns)
        seen.start()
        synced = []
        for scope, store in self._open_scopes(target):
            problems, walked = record_outside_changes(store, scope)
            read = functools.partial(read_scope, store, scope, git.blob_id, seen=seen, held=held)
            item = SyncedStore.read(
                scope, store, functools.partial(read, wanted=wanted, walked=walked)
            )
            item.files.problems[:0] = problems
            synced.append(item)
        seen.save()
        return synced

    @staticmethod
    def repository(git: Git, machine: str) -> Repository:
        """The repository for one sync, committing as the user's git identity or `<user>
        (<machine>)`; close it."""
        try:
            user = getpass.getuser()
        except (OSError, KeyError):
            user = "memtab"
        host = _NOT_A_HOST_CHAR.sub("-", machine) or "localhost"
        return Repository(git, git.identity(Identity(f"{user} ({machine})", f"{user}@{host}")))

    def _report(self, target: Target, outcome: SyncOutcome, state: SyncState) -> TargetReport:
        conflicts = tuple(self._conflicts(target, state))
        status: TargetStatus = (
            "failed" if outcome.error else "offline" if outcome.offline else "synced"
        )
        if status == "synced" and conflicts:
            status = "conflicts"
        notes = tuple(f"{shown(target, path)}: {note}" for path, note in outcome.notes)
        return TargetReport(
            target=target.name,
            remote=target.remote,
            status=status,
            commits=outcome.commits,
            pushed=outcome.pushed,
            pulled=tuple(outcome.pulled),
            conflicts=conflicts,
            deleted=tuple(outcome.deleted),
            pulled_on_disk=tuple(outcome.pulled_on_disk),
            notes=notes,
            problems=tuple(outcome.problems),
            error=outcome.error,
            offline=outcome.offline,
        )

    def _conflicts(self, target: Target, state: SyncState) -> list[SyncConflict]:
        return [
            SyncConflict(
                target=target.name,
                path=shown(target, path),
                repo_path=path,
                since=record.since,
                reason=record.reason or "both sides changed it",
                scope=scope_of(target, path),
            )
            for path, record in sorted(state.conflicts.items())
        ]

    def conflicts(self) -> list[SyncConflict]:
        """Every conflict of every target (no git, no network)."""
        found: list[SyncConflict] = []
        for target in self.config().targets:
            found += self._conflicts(target, load_state(self.paths.state(target.name)))
        return found

    def status(self, *, fetch: bool = False, cancel: Cancel | None = None) -> SyncStatus:
        """Ahead, behind and in conflict per target; without `fetch`, behind as of the last one."""
        config = self.config()
        states = tuple(self._target_state(t, fetch=fetch, cancel=cancel) for t in config.targets)
        return SyncStatus(machine=config.machine, targets=states, problem=config.problem)

    def _target_state(self, target: Target, *, fetch: bool, cancel: Cancel | None) -> TargetState:
        state = load_state(self.paths.state(target.name))
        problems: list[str] = []
        ahead = behind = 0
        changed: set[str] = set()  # here, not yet committed
        committed: set[str] = set()  # in commits the remote does not have
        received: set[str] = set()  # in the remote's commits this machine does not have
        try:
            git = self.git(target.name, cancel)
            branch = f"refs/heads/{target.branch}"
            if fetch:
                try:
                    git.fetch(target.branch)
                except GitError as error:
                    problems.append(f"{target.remote}: {error}")
            head = git.resolve(branch)
            remote = git.resolve(f"refs/remotes/origin/{target.branch}")
            ahead, behind = distance(git, head, remote)
            repo = self.repository(git, self.config().machine)
            try:
                tree = repo.files(head)
                committed, received = files_apart(repo, target, head, remote)
            finally:
                repo.close()
            for item in self._read_scopes(target, git, tree, state.pending):
                problems += item.files.problems
                in_tree = {p for p in tree if item.scope.virtual_path(p) is not None}
                for path in in_tree | set(item.files.files):
                    file = item.files.files.get(path)
                    if item.files.leaves_out(path) or path in state.pending:
                        continue
                    if (file.blob if file else None) != tree.get(path):
                        changed.add(path)
        except (SyncError, *_FAILURES) as error:
            problems.append(str(error))
        unapplied = [path for path, record in state.pending.items() if record.kind == "unapplied"]
        return TargetState(
            target=target,
            ahead=ahead,
            behind=behind,
            local_changes=len(changed),
            conflicts=tuple(self._conflicts(target, state)),
            unapplied=tuple(shown(target, path) for path in sorted(unapplied)),
            last_sync_at=state.last_sync_at,
            offline_since=state.offline_since,
            last_error=state.last_error,
            problems=tuple(problems),
            to_send=tuple(sorted({shown(target, path) for path in changed | committed})),
            to_receive=tuple(sorted({shown(target, path) for path in {*received, *unapplied}})),
        )


def _failed(target: Target, error: str) -> TargetReport:
    return TargetReport(target=target.name, remote=target.remote, status="failed", error=error)


@dataclass(frozen=True)
class RemoteCheck:
    """What the remote holds, as far as its branches tell."""

    remote: str
    branch: str
    head: str | None  # the commit `branch` points at there (None: no such branch yet)
    branches: tuple[str, ...]

    @property
    def message(self) -> str:
        """What the check found, in a sentence."""
        if self.head is not None:
            return (
                f"Reached {self.remote}: its branch {self.branch} has memory; a sync "
                "merges it with this machine's"
            )
        if not self.branches:
            return f"Reached {self.remote}: an empty repository; the first sync fills it"
        others = ", ".join(self.branches[:5])
        return (
            f"Reached {self.remote}: it has no branch {self.branch} yet (it has {others}); "
            f"the first sync makes {self.branch}"
        )


def check_remote(
    service: SyncService, remote: str, *, branch: str = DEFAULT_BRANCH, cancel: Cancel | None = None
) -> RemoteCheck:
    """Test connection: `remote`'s branches by `git ls-remote` from a scratch bare repository, as a
    sync runs git (docs/formats.md §18.1), nothing of the home changed; SyncError says why not."""
    if problem := remote_problem(remote):
        raise SyncError(problem)
    remote = remote.strip()
    try:
        program = service.git_program or find_git()
    except GitError as error:  # git is missing
        raise SyncError(str(error)) from None
    if refused := branch_problem(branch, program):
        raise SyncError(refused)
    with tempfile.TemporaryDirectory(prefix="memtab-remote-check-") as scratch:
        git = Git(Path(scratch) / "repo.git", git=program, cancel=cancel)
        try:
            git.init(remote, branch)
            heads = git.heads()
        except GitError as error:
            raise SyncError(describe_remote_error(remote, error)) from None
    return RemoteCheck(remote, branch, heads.get(branch), tuple(sorted(heads)))
