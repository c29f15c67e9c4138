"""components.consolidation.consolidation: Consolidate now's states, without Qt."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from memtab.components.consolidation.consolidation import (
    CANCELLED,
    CONSOLIDATE_NOW,
    CONSOLIDATING,
    DISCARDED,
    OTHER_RUNNING,
    STARTING,
    WAITING_FOR_OTHER,
    RunStates,
    Status,
    Tone,
)
from memtab.store.sidecars.journal import RunScope
from memtab.store.sidecars.registry import Workspace

MAIN = Workspace(
    id="a1b2c3d4e5", name="main", path="/src/web", project_path="/src/web", project_name="web"
)
OTHER = Workspace(
    id="d4e5f6a7b8",
    name="dark-mode",
    path="/src/web/dm",
    project_path="/src/web",
    project_name="web",
)


@dataclass
class Unit:
    indexes: tuple[int, ...]


@dataclass
class Plan:
    workspace_id: str = MAIN.id
    summary: str = ""
    proposed: tuple[object, ...] = ()
    units: tuple[Unit, ...] = field(default_factory=tuple)
    scope: RunScope | None = None

    def files_changed(self, accepted: Collection[int] | None = None) -> int:
        """Each op changes a file of its own here."""
        return len(self.proposed if accepted is None else accepted)


def shown(workspace: Workspace | None = MAIN) -> RunStates:
    runs = RunStates()
    runs.show_workspace(workspace)
    return runs


def test_without_a_workspace_nothing_can_start() -> None:
    runs = shown(None)
    controls = runs.controls()
    assert controls.button_text == CONSOLIDATE_NOW
    assert not controls.button_enabled and not controls.runs_enabled
    assert controls.button_tip == "Select a workspace first"
    assert runs.consolidate_clicked() is None


def test_a_run_from_click_to_done() -> None:
    runs = shown()
    assert "workspace, project and global memories of main" in runs.controls().button_tip
    assert runs.consolidate_clicked() == MAIN.id
    assert runs.consolidate_clicked() is None, "one run at a time"
    runs.call_returned()
    controls = runs.controls()
    assert controls.button_text == CONSOLIDATING and not controls.button_enabled
    assert controls.cancel_visible and controls.progress_visible
    assert controls.progress_text == STARTING and controls.progress_text_visible
    runs.run_started(MAIN.id)
    runs.progressed(2, "merging notes.md")
    assert runs.controls().progress_text == "Step 2 · merging notes.md"
    runs.run_finished(" merged 2 notes ")
    controls = runs.controls()
    assert controls.button_enabled and not controls.cancel_visible
    assert not controls.progress_text_visible
    assert controls.status == Status("Done: merged 2 notes", Tone.SUCCESS, fades=True)
    assert controls.status_visible
    said = runs.said
    runs.note_expired()
    assert runs.controls().status == Status() and not runs.controls().status_visible
    assert runs.said == said + 1, "each note said counts (its timer restarts)"


def test_a_refusal_from_inside_start_ends_the_request() -> None:
    runs = shown()
    runs.consolidate_clicked()
    runs.run_failed("already in flight")  # the facade's synchronous refusal
    runs.call_returned()
    controls = runs.controls()
    assert controls.button_enabled and not controls.progress_visible
    assert controls.status == Status("Consolidation failed: already in flight", Tone.ERROR)
    runs.consolidate_clicked()
    runs.start_refused(RuntimeError("shut down"))
    runs.call_returned()
    assert runs.controls().status.text == "Could not start: shut down"
    assert not runs.busy_here


def test_cancel_while_going_and_while_queued() -> None:
    runs = shown()
    assert not runs.cancel_clicked(), "nothing to cancel"
    runs.consolidate_clicked()
    runs.call_returned()
    runs.run_started(MAIN.id)
    assert runs.cancel_clicked()
    assert not runs.cancel_clicked(), "asked once"
    controls = runs.controls()
    assert controls.cancel_text == "Cancelling…" and not controls.cancel_enabled
    runs.progressed(3, "ignored while cancelling")
    assert runs.controls().progress_text == "Cancelling…"
    runs.run_cancelled(MAIN.id)
    assert runs.controls().status == Status(CANCELLED, Tone.PLAIN, fades=True)
    assert runs.controls().button_enabled and not runs.cancelling

    runs.run_started(OTHER.id)  # another workspace's run holds the worker
    runs.consolidate_clicked()
    runs.call_returned()
    assert runs.controls().progress_text == WAITING_FOR_OTHER
    runs.cancel_clicked()
    runs.run_cancelled(MAIN.id)  # cancelled while queued
    assert runs.requested is None and runs.active == OTHER.id
    controls = runs.controls()
    assert controls.progress_text == OTHER_RUNNING and controls.button_enabled


def test_another_workspace_shown_clears_the_note_and_follows_its_own_runs() -> None:
    runs = shown()
    runs.consolidate_clicked()
    runs.call_returned()
    runs.run_started(MAIN.id)
    runs.show_workspace(OTHER)
    controls = runs.controls()
    assert controls.button_enabled, "the run is the other workspace's"
    assert controls.progress_text == OTHER_RUNNING and not controls.progress_visible
    runs.run_failed("provider error")  # not the shown workspace's: not said here
    assert runs.controls().status == Status()
    runs.show_workspace(MAIN)
    assert runs.controls().progress_text_visible is False


def test_a_plan_is_reviewed_under_the_shown_name_and_applied() -> None:
    runs = shown()
    runs.consolidate_clicked()
    runs.call_returned()
    runs.run_started(MAIN.id)
    assert runs.plan_ready(Plan(summary=" all tidy ")) is None
    assert runs.controls().status == Status("Nothing to change: all tidy", Tone.PLAIN, True)

    plan = Plan(proposed=(1, 2, 3), units=(Unit((1, 2)), Unit((3,))))
    assert runs.plan_ready(plan) == "main"
    runs.reviewing(plan)
    assert runs.controls().status == Status("Review changes to 3 files…", Tone.INFO)
    assert runs.plan_ready(Plan(workspace_id="elsewhere", proposed=(1,))) == "elsewhere"
    runs.discarded()
    assert runs.controls().status == Status(DISCARDED, Tone.PLAIN, fades=True)

    runs.apply_requested(plan, (2,))
    runs.call_returned()
    controls = runs.controls()
    assert controls.progress_text == "Applying changes to 1 file…" and controls.progress_visible
    assert controls.status == Status()


def test_a_run_of_one_scope_alone_names_it_in_its_notes_and_review() -> None:
    """A scope's "Consolidate Global only" (docs/formats.md §9.8) goes as Consolidate now,
    its notes and its review's name saying which scope it ran."""
    runs = shown()
    assert runs.consolidate_clicked("global") == MAIN.id
    runs.call_returned()
    runs.run_started(MAIN.id)
    assert runs.plan_ready(Plan(summary="no changes needed", scope="global")) is None
    assert runs.controls().status.text == "Nothing to change (Global only): no changes needed"
    assert runs.consolidate_clicked("global") == MAIN.id
    runs.call_returned()
    runs.run_started(MAIN.id)
    runs.run_finished("removed 1 item said twice")
    assert runs.controls().status.text == "Done (Global only): removed 1 item said twice"
    assert runs.consolidate_clicked("project") == MAIN.id
    runs.call_returned()
    runs.run_started(MAIN.id)
    plan = Plan(proposed=(object(),), units=(Unit((1,)),), scope="project")
    assert runs.plan_ready(plan) == "main · Project only"
    runs.apply_requested(plan, (1,))
    runs.call_returned()
    runs.run_started(MAIN.id)
    runs.run_finished("")
    assert runs.controls().status.text == "Done (Project only)."
    assert runs.consolidate_clicked() == MAIN.id  # Consolidate now: every scope again
    runs.call_returned()
    runs.run_started(MAIN.id)
    runs.run_finished("merged")
    assert runs.controls().status.text == "Done: merged"
