"""File → Sync…'s operations, on the job service's lanes: plain functions, no Qt
(docs/formats.md §18.2)."""

from __future__ import annotations

from dataclasses import dataclass

from memtab.components.jobs import JobContext
from memtab.store.home import Home
from memtab.store.paths import project_basename
from memtab.store.sidecars.registry import Workspace
from memtab.sync.remote_check import check_remote
from memtab.sync.repository.layout import (
    DEFAULT_TARGET,
    GLOBAL_SCOPE,
    SyncedScope,
    SyncSetupError,
    Target,
    load_config,
    parse_scope,
)
from memtab.sync.service import SyncError, SyncService
from memtab.sync.state import load_state


@dataclass(frozen=True)
class Refused:
    """Why it cannot be done, in words: an answer to show, not an error to log."""

    message: str


@dataclass(frozen=True)
class SetupState:
    """Sync's set-up as the dialog shows it."""

    target: Target | None
    """The target the dialog edits: `memory` (what `sync init` makes), else the first
    (None: sync is not set up)."""
    others: tuple[Target, ...] = ()
    last_sync_at: int | None = None
    conflicts: int = 0
    problem: str | None = None
    """Why the set-up cannot be read (the dialog says so; setting up again rewrites it)."""


@dataclass(frozen=True)
class ScopeChoice:
    """A scope the dialog offers: its check box's text and what it means."""

    scope: SyncedScope
    label: str
    detail: str


def read_setup(home: Home, _ctx: JobContext) -> SetupState:
    """The home's sync set-up as the dialog shows it."""
    config = load_config(home)
    if not config.targets:
        return SetupState(None, problem=config.problem)
    target = next((t for t in config.targets if t.name == DEFAULT_TARGET), config.targets[0])
    state = load_state(SyncService(home).paths.state(target.name))
    return SetupState(
        target,
        tuple(other for other in config.targets if other.name != target.name),
        state.last_sync_at,
        len(state.conflicts),
        config.problem,
    )


def scope_choices(workspace: Workspace | None, target: Target | None) -> list[ScopeChoice]:
    """Global memory, the shown workspace's project and the workspace itself, then the
    target's other scopes (carried by it from another window or the CLI)."""
    choices = [
        ScopeChoice(
            GLOBAL_SCOPE,
            "Global memory",
            "What every agent reads, in every project (the repository's global/)",
        )
    ]
    if workspace is not None and workspace.project_identity:
        project = parse_scope(f"project:{workspace.project_identity}")
        name = project_basename(workspace.project_identity) or project.name
        choices.append(
            ScopeChoice(
                project,
                f"This project's memory ({name})",
                f"{workspace.project_identity}, as projects/{project.name}/ — where a "
                "teammate's checkout of the project meets it",
            )
        )
    if workspace is not None:
        choices.append(
            ScopeChoice(
                parse_scope(f"workspace:{workspace.id}"),
                f"This workspace's memory ({workspace.name})",
                "Notes of this workspace alone; they stay on this machine unless chosen",
            )
        )
    offered = {(choice.scope.kind, choice.scope.key) for choice in choices}
    for scope in target.scopes if target is not None else ():
        if (scope.kind, scope.key) in offered:
            choices = [
                ScopeChoice(scope, c.label, c.detail)  # the target's name for it stays
                if (c.scope.kind, c.scope.key) == (scope.kind, scope.key)
                else c
                for c in choices
            ]
        else:
            choices.append(ScopeChoice(scope, scope.label, "Synced by this target already"))
    return choices


def check_connection(
    home: Home, remote: str, git_program: str | None, ctx: JobContext
) -> str | Refused:
    """What the remote holds, in a sentence, or why it cannot be used."""
    try:
        service = SyncService(home, git_program=git_program)
        return check_remote(service, remote, cancel=ctx.is_cancelled).message
    except SyncError as error:
        return Refused(str(error))


def set_up(
    home: Home,
    remote: str,
    scopes: tuple[SyncedScope, ...],
    git_program: str | None,
    name: str,
    ctx: JobContext,
) -> Target | Refused:
    """Connect `scopes` to `remote` as the target `name` (a new one, or a change of it),
    or say why not, having changed nothing."""
    if not scopes:
        return Refused("Choose at least one memory to sync")
    try:
        return SyncService(home, git_program=git_program).init(
            remote, scopes, name=name, cancel=ctx.is_cancelled
        )
    except (SyncError, SyncSetupError) as error:
        return Refused(str(error))


def stop_syncing(home: Home, name: str, git_program: str | None, _ctx: JobContext) -> str | Refused:
    """Stop syncing the target `name` (what it holds stays): what was done, or why not."""
    service = SyncService(home, git_program=git_program)
    try:
        service.remove(name)
    except (SyncError, SyncSetupError) as error:
        return Refused(str(error))
    return (
        f"Memory is no longer synced; the repository stays in {service.paths.target_dir(name)}, "
        "and setting sync up again goes on from it"
    )
