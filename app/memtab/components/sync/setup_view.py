"""File → Sync… without Qt: what the set-up dialog says and allows."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from memtab.components.sync.look import SyncLook
from memtab.components.sync.setup import ScopeChoice, SetupState
from memtab.humanize import plural, relative_time
from memtab.sync.repository.layout import SyncedScope, Target

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


def _keys(scopes: Iterable[SyncedScope]) -> set[tuple[str, str | None]]:
    return {(scope.kind, scope.key) for scope in scopes}


def target_of(state: SetupState | None) -> Target | None:
    """The target the dialog edits (None: not set up, or not read yet)."""
    return state.target if state is not None else None


def checked_at_first(choice: ScopeChoice, target: Target | None) -> bool:
    """Whether `choice`'s box starts checked: the target carries it, or (no target yet)
    it is global memory."""
    if target is None:
        return choice.scope.kind == "global"
    return (choice.scope.kind, choice.scope.key) in _keys(target.scopes)


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
