"""Consolidate now's run states, without Qt: what the footer's button, Cancel, progress
line and status line say for the shown workspace while runs start, go and end.

The footer (`gui/consolidation/footer.py`) keeps the widgets, the timers and the facade;
it tells `RunStates` what happened — the button or Cancel was clicked, the facade said a
run started, progressed, finished, failed, was cancelled or made a plan — and shows
`controls()`. Runs take turns on the facade's one worker: `requested` is the workspace
whose run this footer asked for and has not seen start (it may be queued), `active` the
workspace whose run is going; an end belongs to `active`. A refusal comes synchronously
from inside the facade's `start()` (`starting`).

A status note that fades (`Status.fades`: "Done", "Cancelled", "Nothing to change", "Plan
discarded") is cleared by the footer's timer (`note_expired`); another workspace shown
clears the note. A run of one scope alone (`consolidate_clicked(scope)`: a scope's
"Consolidate Global only", docs/formats.md §9.8) goes the same way, its notes naming it.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Sequence
from typing import NamedTuple, Protocol

from memtab import humanize
from memtab.store.sidecars.journal import RunScope
from memtab.store.sidecars.registry import Workspace

CONSOLIDATE_SCOPE = "consolidation.run_scope"
"""The action that consolidates the current row's scope alone (the window's; a scope's
context menu offers it)."""
CONSOLIDATE_NOW = "Consolidate now"
CONSOLIDATING = "Consolidating…"
STARTING = "Starting…"
CANCELLING = "Cancelling…"
WAITING_FOR_OTHER = "Waiting for another workspace's run to finish…"
OTHER_RUNNING = "Another workspace is being consolidated."
CANCELLED = "Cancelled. Changes it made before stopping, if any, are kept: see Runs…"
DISCARDED = "Plan discarded; nothing was changed."


class Tone(enum.Enum):
    """How a status note is coloured (the footer maps it to its accents)."""

    PLAIN = "plain"
    SUCCESS = "success"
    ERROR = "error"
    INFO = "info"


class Status(NamedTuple):
    """The status line's note: its text, its tone, and whether it fades after a while."""

    text: str = ""
    tone: Tone = Tone.PLAIN
    fades: bool = False


class Controls(NamedTuple):
    """What the footer shows of the runs (the widgets' texts, states and visibility)."""

    button_text: str
    button_enabled: bool
    button_tip: str
    cancel_visible: bool
    cancel_enabled: bool
    cancel_text: str
    progress_visible: bool
    """The busy bar: a run of the shown workspace is queued or going."""
    progress_text: str
    progress_text_visible: bool
    status: Status
    status_visible: bool
    runs_enabled: bool


class PlanUnit(Protocol):
    """One change of a plan: the ops it is made of (`consolidation.records.PlanUnit`)."""

    @property
    def indexes(self) -> Sequence[int]: ...


class Plan(Protocol):
    """What the run states read of a plan to review (`consolidation.records.ConsolidationPlan`)."""

    @property
    def workspace_id(self) -> str: ...

    @property
    def scope(self) -> RunScope | None: ...

    @property
    def summary(self) -> str: ...

    @property
    def proposed(self) -> Sequence[object]: ...

    @property
    def units(self) -> Sequence[PlanUnit]: ...

    def files_changed(self, accepted: Collection[int] | None = None) -> int: ...


class RunStates:
    """Consolidate now's states for the shown workspace (see the module docstring)."""

    def __init__(self) -> None:
        self.workspace: Workspace | None = None
        self.requested: str | None = None
        self.active: str | None = None
        self.scope: RunScope | None = None
        """The one scope the run this footer asked for is limited to (None: all)."""
        self.starting = False
        self.cancelling = False
        self.progress_text = ""
        self.status = Status()
        self.said = 0
        """Counts the notes said: the footer restarts a fading note's timer on each one."""

    # -- what the footer asks ----------------------------------------------------------------

    @property
    def busy_here(self) -> bool:
        """Whether the shown workspace has a run queued or going."""
        shown = self.workspace.id if self.workspace is not None else None
        return shown is not None and shown in (self.requested, self.active)

    def is_shown(self, workspace_id: str | None) -> bool:
        """Whether `workspace_id` is the workspace shown."""
        return (
            workspace_id is not None
            and self.workspace is not None
            and workspace_id == self.workspace.id
        )

    def controls(self) -> Controls:
        """What the button, Cancel, the progress and the status line show now."""
        workspace = self.workspace
        busy = self.busy_here
        other_active = self.active is not None and not self.is_shown(self.active)
        progress = self.progress_text
        if busy and other_active:
            progress = WAITING_FOR_OTHER
        elif not busy and other_active:
            progress = OTHER_RUNNING
        saying_progress = busy or other_active
        return Controls(
            button_text=CONSOLIDATING if busy else CONSOLIDATE_NOW,
            button_enabled=workspace is not None and not busy,
            button_tip=_button_tip(workspace),
            cancel_visible=busy,
            cancel_enabled=not self.cancelling,
            cancel_text=CANCELLING if self.cancelling else "Cancel",
            progress_visible=busy,
            progress_text=progress,
            progress_text_visible=saying_progress,
            status=self.status,
            status_visible=not saying_progress and bool(self.status.text),
            runs_enabled=workspace is not None,
        )

    # -- what happened -----------------------------------------------------------------------

    def show_workspace(self, workspace: Workspace | None) -> None:
        """The footer shows `workspace` (after every scan); another one clears the note."""
        if workspace is None or not self.is_shown(workspace.id):
            self._say(Status())
        self.workspace = workspace

    def consolidate_clicked(self, scope: RunScope | None = None) -> str | None:
        """Consolidate now (`scope`: that scope alone): the workspace whose run to start
        (None: nothing to start)."""
        workspace = self.workspace
        if workspace is None or self.busy_here:
            return None
        self.requested = workspace.id
        self.scope = scope
        self.cancelling = False
        self.progress_text = STARTING
        self._say(Status())
        self.starting = True
        return workspace.id

    def start_refused(self, error: object) -> None:
        """The facade raised instead of starting (e.g. it is shut down)."""
        self.requested = None
        self._say(Status(f"Could not start: {error}", Tone.ERROR))

    def call_returned(self) -> None:
        """The facade's start or apply returned (a refusal from inside it came before)."""
        self.starting = False

    def cancel_clicked(self) -> bool:
        """Cancel: whether to ask the facade to cancel the run."""
        if not self.busy_here or self.cancelling:
            return False
        self.cancelling = True
        self.progress_text = CANCELLING
        return True

    def run_started(self, workspace_id: str) -> None:
        """The facade started the run of `workspace_id`."""
        self.active = workspace_id
        if workspace_id == self.requested:
            self.requested = None
        if self.is_shown(workspace_id) and not self.cancelling:
            self.progress_text = STARTING

    def progressed(self, step: int, message: str) -> None:
        """The run going made a step."""
        if self.cancelling or self.active is None or not self.is_shown(self.active):
            return
        said = message.removeprefix(f"step {step}: ")  # the tool loop's own "step 1: …"
        self.progress_text = f"Step {step} · {said}" if step > 0 else message

    def run_finished(self, summary: str) -> None:
        """The run going finished (its record's `summary`)."""
        if self.is_shown(self._end_active()):
            summary = summary.strip()
            done = f"Done ({_scope_words(self.scope)})" if self.scope else "Done"
            self._say(Status(f"{done}: {summary}" if summary else f"{done}.", Tone.SUCCESS, True))

    def run_failed(self, message: str) -> None:
        """A run failed, or the facade refused one at once (while `starting`)."""
        if self.starting:
            ended, self.requested = self.requested, None  # refused at once (in flight…)
        else:
            ended = self._end_active()
        if self.is_shown(ended):
            self._say(Status(f"Consolidation failed: {message}", Tone.ERROR))

    def run_cancelled(self, workspace_id: str) -> None:
        """The run of `workspace_id` was cancelled (going, or while queued)."""
        if workspace_id == self.active:
            self._end_active()
        elif workspace_id == self.requested:
            self.requested = None  # cancelled while queued
        if self.is_shown(workspace_id):
            self.cancelling = False
            self._say(Status(CANCELLED, Tone.PLAIN, True))

    def plan_ready(self, plan: Plan) -> str | None:
        """A plan came: the name of the workspace to review it under (None: nothing to
        change, said in the status line). Once its review is open: `reviewing(plan)`."""
        self._end_active()
        if not plan.proposed:
            summary = plan.summary.strip()
            nothing = (
                f"Nothing to change ({_scope_words(plan.scope)})"
                if plan.scope
                else "Nothing to change"
            )
            text = f"{nothing}: {summary}" if summary else f"{nothing}."
            self._say(Status(text, Tone.PLAIN, True))
            return None
        workspace = self.workspace
        if workspace is not None and workspace.id == plan.workspace_id:
            name = workspace.display_name
        else:
            name = plan.workspace_id
        return f"{name} · {_scope_words(plan.scope)}" if plan.scope else name

    def reviewing(self, plan: Plan) -> None:
        """The review of `plan` opened (after a review still open closed as discarded)."""
        files = humanize.plural(plan.files_changed(), "file")  # as Runs… will count it
        self._say(Status(f"Review changes to {files}…", Tone.INFO))

    def apply_requested(self, plan: Plan, accepted: Sequence[int]) -> None:
        """The review asked to apply the `accepted` ops (a run of its own)."""
        self.requested = plan.workspace_id
        self.scope = plan.scope
        self.cancelling = False
        files = humanize.plural(plan.files_changed(accepted), "file")
        self.progress_text = f"Applying changes to {files}…"
        self._say(Status())
        self.starting = True

    def discarded(self) -> None:
        """The review was closed without applying."""
        self._say(Status(DISCARDED, Tone.PLAIN, True))

    def note_expired(self) -> None:
        """A fading note has been shown long enough."""
        self._say(Status())

    def _say(self, status: Status) -> None:
        self.status = status
        self.said += 1

    def _end_active(self) -> str | None:
        """The run going has ended: back to idle for it; returns its workspace."""
        ended, self.active = self.active, None
        if not self.busy_here:
            self.cancelling = False
        return ended


def _scope_words(scope: RunScope | None) -> str:
    """`Global only`: the scope a run was limited to, as its notes name it."""
    return f"{(scope or '').capitalize()} only"


def _button_tip(workspace: Workspace | None) -> str:
    if workspace is None:
        return "Select a workspace first"
    scopes = (
        "workspace, project and global" if workspace.project_identity else "workspace and global"
    )
    return (
        f"Combine, prune and promote the {scopes} memories of {workspace.display_name} "
        "now (ignores the 6-hour debounce)"
    )
