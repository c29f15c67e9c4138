"""File → Sync…, without Qt: what the set-up dialog says and allows, and its jobs on the job
service's lanes (docs/formats.md §18.2)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from memtab.components.jobs import JobContext
from memtab.components.sync.status import SyncLook
from memtab.humanize import plural, relative_time
from memtab.store.home import Home
from memtab.store.paths import project_basename
from memtab.store.sidecars.registry import Workspace
from memtab.sync.repository.layout import (
    DEFAULT_TARGET,
    GLOBAL_SCOPE,
    SyncedScope,
    SyncSetupError,
    Target,
    load_config,
    parse_scope,
)
from memtab.sync.service import SyncError, SyncService, check_remote
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
    carried = {_key(s): s for s in (target.scopes if target is not None else ())}
    # An offered scope the target carries keeps the target's name for it.
    offered = [ScopeChoice(carried.pop(_key(c.scope), c.scope), c.label, c.detail) for c in choices]
    return offered + [
        ScopeChoice(s, s.label, "Synced by this target already") for s in carried.values()
    ]


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


PLACEHOLDER = "git@github.com:you/memory.git, https://…, or /path/to/memory.git"
INTRO = (
    "Memory syncs through a git repository you own — a private one on GitHub or GitLab, or "
    "a bare repository on a server or a shared drive. Memtab runs your git, with your ssh "
    "keys and credential helpers; it never asks for a password."
)
START_LABEL = "&Start first sync"
SAVE_LABEL = "&Save changes"
SAVED = "Saved: the next sync carries what you chose."
SETTING_UP = "Set up. Syncing for the first time…"
STOPPING = "Stopping…"
STOPPING_SYNC = "Stopping the sync…"
CANCELLED = "Stopped: nothing was changed."


@dataclass(frozen=True)
class SetupControls:
    """Which of the dialog's controls are enabled and shown."""

    remote: bool
    scopes: bool
    test: bool
    primary: bool
    stop_shown: bool
    stop: bool
    cancel_shown: bool
    progress_shown: bool


def _key(scope: SyncedScope) -> tuple[str, str | None]:
    return (scope.kind, scope.key)


def _keys(scopes: Iterable[SyncedScope]) -> set[tuple[str, str | None]]:
    return set(map(_key, scopes))


def target_of(state: SetupState | None) -> Target | None:
    """The target the dialog edits (None: not set up, or not read yet)."""
    return state.target if state is not None else None


def checked_at_first(choice: ScopeChoice, target: Target | None) -> bool:
    """Whether `choice`'s box starts checked: the target carries it, or (no target yet)
    it is global memory."""
    if target is None:
        return choice.scope.kind == "global"
    return _key(choice.scope) in _keys(target.scopes)


def primary_label(target: Target | None) -> str:
    """Save changes of a set-up, or start the first sync."""
    return SAVE_LABEL if target is not None else START_LABEL


def setup_controls(
    state: SetupState | None, remote: str, chosen: tuple[SyncedScope, ...], *, busy: bool
) -> SetupControls:
    """The controls' states for the form as it is (`remote`: the field's text)."""
    target = target_of(state)
    remote = remote.strip()
    changed = target is None or (remote != target.remote or _keys(chosen) != _keys(target.scopes))
    ready = state is not None and not busy
    return SetupControls(
        remote=ready,
        scopes=ready,
        test=ready and bool(remote),
        primary=ready and bool(remote) and changed and bool(chosen),
        stop_shown=target is not None,
        stop=not busy,
        cancel_shown=busy,
        progress_shown=busy,
    )


def connecting_text(remote: str) -> str:
    return f"Connecting to {remote}…"


def problem_text(state: SetupState) -> str | None:
    """What the dialog says of a set-up it cannot read (None: nothing to say)."""
    if state.problem and state.target is None:
        return f"Sync's set-up {state.problem}; setting sync up again rewrites it."
    return None


def current_text(state: SetupState | None, now_ms: int) -> str:
    """The line naming the set-up: the remote, its branch, the last sync, what waits."""
    if state is None:
        return "Reading sync's set-up…"
    target = state.target
    if target is None:
        return ""
    when = relative_time(state.last_sync_at, now_ms) if state.last_sync_at else "not yet"
    text = f"Syncing with {target.remote} (branch {target.branch}); last sync: {when}."
    if state.conflicts:
        text += f" {plural(state.conflicts, 'conflict')} to resolve (File → Resolve conflicts…)."
    if state.others:
        names = ", ".join(f"{t.name} ({t.remote})" for t in state.others)
        text += f" Also synced: {names} — memtab sync status."
    return text


def first_sync_text(look: SyncLook | None) -> str:
    """What the first sync did, in a sentence (None: it was stopped)."""
    if look is None:
        return (
            "Stopped. Sync is set up: the next sync (File → Sync now, or in five minutes) "
            "finishes what this one began, and nothing this machine recorded is lost."
        )
    report = look.report
    if look.error or report is None:
        return f"The first sync failed: {look.error or 'no report'}"
    target = report.targets[0] if report.targets else None
    if target is None:
        return "Synced."
    if target.status == "failed":
        return f"The first sync failed: {target.error}"
    if target.status == "offline":
        return f"Set up, but the remote cannot be reached now ({target.offline}); changes wait."
    sent = "this machine's memory sent" if target.pushed else "nothing here to send"
    said = f"Synced: {sent}, {plural(len(target.pulled), 'file')} brought in."
    if target.conflicts:
        said += f" {plural(len(target.conflicts), 'conflict')}: File → Resolve conflicts…."
    return said + " From now on the window syncs by itself."
