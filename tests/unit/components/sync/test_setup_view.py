"""File → Sync… without Qt: which scopes start checked, which controls are enabled (a
remote, a change, nothing running), what the set-up's line and the first sync say."""

from __future__ import annotations

from memtab.components.sync.setup import (
    SAVE_LABEL,
    START_LABEL,
    ScopeChoice,
    SetupState,
    checked_at_first,
    current_text,
    first_sync_text,
    primary_label,
    problem_text,
    setup_controls,
)
from memtab.components.sync.status import SyncLook
from memtab.sync.repository.layout import SyncedScope, Target
from memtab.sync.service import SyncReport, TargetReport

NOW_MS = 1_767_261_600_000
GLOBAL = SyncedScope(kind="global")
PROJECT = SyncedScope(kind="project", path="/src/app", folder="app")
REMOTE = "git@example.com:me/memory.git"
TARGET = Target(name="memory", remote=REMOTE, scopes=(GLOBAL,))


def test_global_memory_alone_starts_checked_until_a_target_says_what_it_carries() -> None:
    global_choice = ScopeChoice(GLOBAL, "Global memory", "")
    project_choice = ScopeChoice(PROJECT, "This project's memory (app)", "")
    assert checked_at_first(global_choice, None)
    assert not checked_at_first(project_choice, None)
    carries_project = Target(name="memory", remote=REMOTE, scopes=(PROJECT,))
    assert not checked_at_first(global_choice, carries_project)
    assert checked_at_first(project_choice, carries_project)
    assert primary_label(None) == START_LABEL and primary_label(TARGET) == SAVE_LABEL


def test_the_first_sync_needs_a_remote_and_a_scope_and_nothing_running() -> None:
    unset = SetupState(None)
    assert not setup_controls(None, REMOTE, (GLOBAL,), busy=False).primary  # not read yet
    assert not setup_controls(unset, "  ", (GLOBAL,), busy=False).primary
    assert not setup_controls(unset, REMOTE, (), busy=False).primary
    ready = setup_controls(unset, REMOTE, (GLOBAL,), busy=False)
    assert ready.primary and ready.test and not ready.stop_shown and not ready.cancel_shown
    running = setup_controls(unset, REMOTE, (GLOBAL,), busy=True)
    assert not running.primary and not running.remote and running.cancel_shown
    assert running.progress_shown


def test_a_set_up_is_saved_only_once_changed() -> None:
    state = SetupState(TARGET)
    same = setup_controls(state, f" {REMOTE} ", (GLOBAL,), busy=False)
    assert not same.primary and same.stop_shown and same.stop
    assert setup_controls(state, REMOTE, (GLOBAL, PROJECT), busy=False).primary
    assert setup_controls(state, "/elsewhere.git", (GLOBAL,), busy=False).primary


def test_the_set_ups_line_names_the_remote_what_waits_and_the_other_targets() -> None:
    assert current_text(None, NOW_MS) == "Reading sync's set-up…"
    assert current_text(SetupState(None), NOW_MS) == ""
    other = Target(name="backup", remote="/mnt/backup.git")
    state = SetupState(TARGET, others=(other,), conflicts=2)
    assert current_text(state, NOW_MS) == (
        f"Syncing with {REMOTE} (branch main); last sync: not yet. 2 conflicts to resolve "
        "(File → Resolve conflicts…). Also synced: backup (/mnt/backup.git) — memtab sync "
        "status."
    )
    assert problem_text(SetupState(None, problem="is damaged")) == (
        "Sync's set-up is damaged; setting sync up again rewrites it."
    )
    assert problem_text(SetupState(TARGET, problem="is damaged")) is None


def test_the_first_sync_says_what_it_did() -> None:
    assert first_sync_text(None).startswith("Stopped. Sync is set up")
    assert first_sync_text(SyncLook(error="git is missing")) == (
        "The first sync failed: git is missing"
    )

    def look(**fields: object) -> SyncLook:
        report = TargetReport(target="memory", remote=REMOTE, **fields)  # type: ignore[arg-type]
        return SyncLook(targets=("memory",), report=SyncReport(targets=(report,)))

    assert first_sync_text(look(status="offline", offline="no route")) == (
        "Set up, but the remote cannot be reached now (no route); changes wait."
    )
    assert first_sync_text(look(status="ok", pushed=1, pulled=("/memories/a.md",))) == (
        "Synced: this machine's memory sent, 1 file brought in. From now on the window "
        "syncs by itself."
    )
