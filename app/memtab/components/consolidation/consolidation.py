"""Consolidation in the window, without Qt (`gui/consolidation/` keeps the widgets, timers
and jobs): what the footer says of each scope's last run, Consolidate now's run states, and
what the review of a plan lists and says before it is applied."""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from memtab import humanize
from memtab.components import glossary
from memtab.components.history.diff import join_diffs
from memtab.components.text_diff import DiffResult
from memtab.consolidation.records import ConsolidationPlan, PlannedOp
from memtab.store.paths import Scope
from memtab.store.sidecars.journal import ConsolidationRecord, ConsolidationStatus, RunScope
from memtab.store.sidecars.registry import Workspace

LINE_KEYS = ("Workspace", "Project", "Global", "Session", "Harvest")
NO_WORKSPACE = "no workspace selected"
WAITING = "…"
PROJECT_UNAVAILABLE = "unavailable"
PROJECT_UNAVAILABLE_TIP = "Multi-project workspaces have no project identity, so no project memory."


@dataclass(frozen=True)
class Line:
    """A scope's line: its text, its tooltip, and whether it is muted (not a run's)."""

    text: str
    tooltip: str = ""
    muted: bool = False


@dataclass(frozen=True)
class HarvestLine:
    """The last harvest's line, its tooltip, and its error (None: it did not fail)."""

    text: str
    tooltip: str
    error: str | None


def _record_line(record: ConsolidationRecord | None, scope: Scope) -> Line:
    return Line(
        humanize.coverage_text(record, scope),
        humanize.absolute_time(record.last_run_at) if record is not None else "",
    )


def scope_lines(status: ConsolidationStatus) -> dict[str, Line]:
    """Each scope's last run: `Workspace`, `Project` (unavailable for a multi-project
    workspace), `Global`."""
    project = (
        _record_line(status.project_record, Scope.PROJECT)
        if status.project_available
        else Line(PROJECT_UNAVAILABLE, PROJECT_UNAVAILABLE_TIP, muted=True)
    )
    return {
        "Workspace": _record_line(status.workspace_record, Scope.WORKSPACE),
        "Project": project,
        "Global": _record_line(status.global_record, Scope.GLOBAL),
    }


def harvest_line(status: ConsolidationStatus | None) -> HarvestLine | None:
    """The last harvest mux wrote (None: none)."""
    harvest = status.latest_harvest if status is not None else None
    if harvest is None:
        return None
    failed = harvest.status == "failed"
    return HarvestLine(
        humanize.harvest_text(harvest),
        f"mux harvest of summary {harvest.summary_message_id}, "
        f"attempt {harvest.attempt_count}; {humanize.absolute_time(harvest.sort_time or None)}"
        f"\n{glossary.HARVEST}",
        harvest.error if failed else None,
    )


def summaries_tooltip(status: ConsolidationStatus | None) -> str:
    """Each distinct run summary once, after the scopes whose last run it was."""
    if status is None:
        return ""
    scopes_of: dict[str, list[str]] = {}
    for label, record in (
        ("Workspace", status.workspace_record),
        ("Project", status.project_record),
        ("Global", status.global_record),
    ):
        if record is None or not record.summary.strip():
            continue
        scopes_of.setdefault(record.summary.strip(), []).append(label)
    if not scopes_of:
        return "No consolidation runs yet."
    return "\n".join(f"{', '.join(scopes)}: {summary}" for summary, scopes in scopes_of.items())


def header_summary(status: ConsolidationStatus) -> str:
    """The collapsed footer's word on the workspace's last run."""
    record = status.workspace_record
    return f"ran {humanize.relative_time(record.last_run_at)}" if record else "never run"


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
    progress_visible: bool  # The busy bar: a run of the shown workspace is queued or going.
    progress_text: str
    progress_text_visible: bool
    status: Status
    status_visible: bool
    runs_enabled: bool


class RunStates:
    """Consolidate now's states for the shown workspace."""

    def __init__(self) -> None:
        self.workspace: Workspace | None = None
        self.requested: str | None = None
        self.active: str | None = None
        self.scope: RunScope | None = None  # the one scope the run asked for is limited to
        self.starting = False
        self.cancelling = False
        self.progress_text = ""
        self.status = Status()
        self.said = 0  # notes said: the footer restarts a fading note's timer on each one

    @property
    def busy_here(self) -> bool:
        """Whether the shown workspace has a run queued or going."""
        shown = self.workspace.id if self.workspace is not None else None
        return shown is not None and shown in (self.requested, self.active)

    def is_shown(self, workspace_id: str | None) -> bool:
        """Whether `workspace_id` is the workspace shown."""
        return self.workspace is not None and workspace_id == self.workspace.id

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

    def plan_ready(self, plan: ConsolidationPlan) -> str | None:
        """A plan came: the name of the workspace to review it under (None: nothing to
        change, said in the status line). Once its review is open: `reviewing(plan)`."""
        self._end_active()
        if not plan.proposed:
            summary = plan.summary.strip()
            nothing = "Nothing to change" + (f" ({_scope_words(plan.scope)})" if plan.scope else "")
            text = f"{nothing}: {summary}" if summary else f"{nothing}."
            self._say(Status(text, Tone.PLAIN, True))
            return None
        shown = self.workspace
        name = shown.display_name if shown and shown.id == plan.workspace_id else plan.workspace_id
        return f"{name} · {_scope_words(plan.scope)}" if plan.scope else name

    def reviewing(self, plan: ConsolidationPlan) -> None:
        """The review of `plan` opened (after a review still open closed as discarded)."""
        files = humanize.plural(plan.files_changed(), "file")  # as Runs… will count it
        self._say(Status(f"Review changes to {files}…", Tone.INFO))

    def apply_requested(self, plan: ConsolidationPlan, accepted: Sequence[int]) -> None:
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
    scopes = "workspace, project" if workspace.project_identity else "workspace"
    return (
        f"Combine, prune and promote the {scopes} and global memories of {workspace.display_name} "
        "now (ignores the 6-hour debounce)"
    )


PlannedOpView = PlannedOp  # the review dialog's name for it


@dataclass(frozen=True)
class ReviewRow:
    """A row of the review: its Apply cell and words, the op numbers it stands for, its
    tooltip (the parts applied together), whether it can be ticked (a unit; a refused op
    cannot) and its parts, each (words, op number)."""

    apply: str
    words: str
    indexes: tuple[int, ...]
    checkable: bool
    tooltip: str = ""
    parts: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class RowDiff:
    """A row's details: why it was proposed ("": no reason), a message instead of its diff."""

    reason: str
    message: str | None
    diff: DiffResult | None = None


def review_title(workspace_name: str) -> str:
    return f"Review consolidation — {humanize.short_name(workspace_name)}"


def review_summary(plan: ConsolidationPlan) -> str:
    """What the plan proposes, and that nothing has changed yet."""
    proposed = len(plan.units)
    return (
        f"{plan.summary or 'The consolidator proposes these changes.'}\n"
        f"Nothing has changed yet: tick the {humanize.plural(proposed, 'change')} to "
        "apply. Each goes through the same rails as any run."
    )


def review_rows(plan: ConsolidationPlan) -> list[ReviewRow]:
    """The plan's rows, in the order of each unit's first op and each refused op."""
    units = {unit.indexes[0]: unit for unit in plan.units}
    rows = []
    for op in plan.ops:
        unit = units.get(op.index)
        if unit is not None and len(unit.ops) > 1:
            tip = f"Applied together: {unit.numbers()} of the plan"
            parts = tuple((part.description or part.command, part.index) for part in unit.ops)
            rows.append(ReviewRow("", unit.description, unit.indexes, True, tip, parts))
        elif unit is not None:
            rows.append(ReviewRow("", unit.description, unit.indexes, checkable=True))
        elif not op.proposed:
            words = f"{op.description or f'{op.command} {op.path}'}: {op.note or 'refused'}"
            rows.append(ReviewRow("refused", words, (op.index,), False))
        # else: a later part of a unit, listed under its row
    return rows


def has_parts(plan: ConsolidationPlan) -> bool:
    """Whether some row has parts under it (the list shows its branches)."""
    return any(len(unit.ops) > 1 for unit in plan.units)


def accepted_ops(ticked: Iterable[Sequence[int]]) -> tuple[int, ...]:
    """The op numbers of the ticked rows, in plan order."""
    return tuple(sorted(index for indexes in ticked for index in indexes))


def apply_label(plan: ConsolidationPlan | None, accepted: Collection[int]) -> str:
    """The Apply button's words: how many files the ticked changes change."""
    files = plan.files_changed(accepted) if plan is not None else 0
    return f"&Apply changes to {humanize.plural(files, 'file')}"


def ops_of(plan: ConsolidationPlan | None, indexes: Collection[int]) -> list[PlannedOp]:
    """The plan's ops a row stands for."""
    return [op for op in plan.ops if op.index in indexes] if plan is not None else []


def row_diff(ops: Sequence[PlannedOp]) -> RowDiff:
    """What the details show for a row's ops (at least one)."""
    reasons = [op.note for op in ops if op.proposed and op.note]
    reason = "Why: " + " ".join(dict.fromkeys(reasons)) if reasons else ""
    if not ops[0].proposed or not any(op.files for op in ops):
        return RowDiff(reason, f"Not proposed: {ops[0].note or 'the rails refused it'}.")
    return RowDiff(reason, None, join_diffs(file.diff for op in ops for file in op.files))


def forgot_text(forgotten: object) -> str:
    """What Forget declined changes did."""
    count = forgotten if isinstance(forgotten, int) else 0
    return (
        f"Forgot {humanize.plural(count, 'declined change')}: "
        "the next Consolidate now may propose them again."
    )
