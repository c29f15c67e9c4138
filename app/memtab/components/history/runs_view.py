"""Runs… as the dialog shows it, without Qt: each run's row, the selected run's heading,
facts and summary, what an op's diff pane says, what opening an op does, whether a revert
may start, and which run a new listing selects."""

from __future__ import annotations

from dataclasses import dataclass

from memtab import humanize
from memtab.components.history.runs import (
    OpState,
    OpView,
    RunDetail,
    RunFilter,
    RunList,
    run_outcome,
    run_title,
    usage_line,
)
from memtab.store.history.records import RunEntry
from memtab.store.history.runs import MUX_SOURCE

EMPTY_TEXT = (
    "No runs yet. Runs appear here after Consolidate now, a launch sweep, an archive, a "
    "compaction or a memory writer run — and mux's runs once Memtab sees them."
)
NO_MATCH_TEXT = "No runs match these filters."
PICK_A_CHANGE = "Select a change to see its diff."
READING_CHANGES = "Reading the changes…"
REVERT_TIP = "Restore every file this run changed to what it held before the run"
REVERTING = "Reverting…"


@dataclass(frozen=True)
class RunRow:
    """One run in the list: its cells, the tooltip of its time, and whether it failed."""

    run_id: str
    when: str
    title: str
    outcome: str
    workspace: str
    when_tip: str
    failed: bool

    @property
    def cells(self) -> list[str]:
        return [self.when, self.title, self.outcome, self.workspace]


@dataclass(frozen=True)
class RunHeading:
    """What the detail pane says of a run above its ops."""

    title: str
    meta: str
    summary: str


@dataclass(frozen=True)
class OpDiffView:
    """What the diff pane shows for an op: a message (None: the op's diff), and the
    names of its sides (None: as they are)."""

    message: str | None
    sides: tuple[str, str] | None


@dataclass(frozen=True)
class ListingChoice:
    """What a new listing selects: a run (None: the first listed), a note, and the op of
    the run shown to select now (its details are shown already)."""

    run_id: str | None
    note: str | None = None
    op_now: int | None = None


def empty_text(run_filter: RunFilter) -> str:
    """What the dialog says with no run listed: none match, or none yet."""
    return NO_MATCH_TEXT if run_filter != RunFilter() else EMPTY_TEXT


def run_rows(listing: RunList, names: dict[str, str]) -> list[RunRow]:
    """The listed runs' rows, newest first (`names`: each workspace id's name)."""
    rows = []
    for run in listing.runs:
        workspace = names.get(run.workspace_id or "", run.workspace_id or "—")
        partly = run.id in listing.partly_reverted
        outcome = run_outcome(run, listing.reverted.get(run.id), partly=partly)
        rows.append(
            RunRow(
                run_id=run.id,
                when=humanize.relative_time(run.at),
                title=run_title(run),
                outcome=outcome,
                workspace=workspace,
                when_tip=humanize.absolute_time(run.at),
                failed=run.failed,
            )
        )
    return rows


def run_heading(run: RunEntry, detail: RunDetail | None, names: dict[str, str]) -> RunHeading:
    """The selected run's title, its facts in a line, and its summary (with its failure
    and, once its details are read, its revert)."""
    meta = [f"{humanize.absolute_time(run.at)} ({humanize.relative_time(run.at)})"]
    if run.workspace_id:
        meta.append(names.get(run.workspace_id, run.workspace_id))
    if run.provider:
        meta.append(f"{run.provider} {run.model or ''}".strip())
    if usage := usage_line(run):
        meta.append(usage)
    if run.source == MUX_SOURCE:
        meta.append("from mux's journal")
    summary = run.summary or "(no summary)"
    if run.failed and not (run.error and run.error in summary):  # said once
        summary += f"\nFailed: {run.error or 'no reason recorded'}"
    if detail is not None and detail.reverted_words:
        summary = f"{summary}\n{detail.reverted_words}"
    return RunHeading(run_title(run), " · ".join(meta), summary)


def op_diff_view(op: OpView) -> OpDiffView:
    """What the diff pane shows for `op` (None message: its diff)."""
    if op.state is not OpState.APPLIED:
        return OpDiffView("This change was not applied: nothing changed on disk.", ("", ""))
    if not op.diff.lines:
        return OpDiffView("History has no contents for this change (made by mux).", None)
    return OpDiffView(None, ("before the run", "after the run"))


def revert_tip(detail: RunDetail) -> str:
    """The revert button's tooltip: why it cannot, or what it does."""
    return detail.revert_refusal or REVERT_TIP


class RunsPresenter:
    """The dialog's state: the runs listed, the run shown, the workspaces' names, a run
    asked for by `show_run` until listed, a revert under way, and a listing's note with
    the run it was shown over."""

    def __init__(self) -> None:
        """Nothing listed yet."""
        self.runs: list[RunEntry] = []
        self.detail: RunDetail | None = None
        self.names: dict[str, str] = {}
        self.revert_job: int | None = None
        self._wanted: tuple[str, int | None] | None = None
        self._select_newest = False
        self._note: tuple[str, str | None] | None = None

    def ask_newest(self) -> None:
        """The next listing selects its newest run (the dialog is opened again)."""
        self._select_newest = True

    def want(self, run_id: str, op_index: int | None) -> None:
        """Select `run_id` (and its `op_index`th op) once listed."""
        self._wanted = (run_id, op_index)

    def is_wanted(self, run_id: str) -> bool:
        """Whether `run_id` is the run asked for, its op still to select."""
        return self._wanted is not None and self._wanted[0] == run_id

    def take_wanted_op(self) -> int | None:
        """The op asked for (once), now its run's details are shown."""
        wanted, self._wanted = self._wanted, None
        return wanted[1] if wanted is not None else None

    def listed(self, listing: RunList, selected: str | None) -> ListingChoice:
        """Take a new listing; which run it selects (`selected`: the one selected now)."""
        keep = None if self._select_newest else selected
        self._select_newest = False
        self.runs = listing.runs
        listed = {run.id for run in listing.runs}
        if self._wanted is not None:
            wanted = self._wanted[0]
            if wanted not in listed:
                self._wanted = None
                note = f"The run {wanted} is no longer in the runs log"
                # The run selected instead: its details must not wipe the note.
                self._note = (note, listing.runs[0].id if listing.runs else None)
                return ListingChoice(None, note)
            shown = self.detail is not None and self.detail.run.id == wanted
            return ListingChoice(wanted, op_now=self.take_wanted_op() if shown else None)
        return ListingChoice(keep if keep in listed else None)

    def note_over(self, run_id: str | None) -> str:
        """The note shown over `run_id`'s details: a listing's note while the run it
        selected is shown (read or not), gone once another run is."""
        if self._note is not None and self._note[1] == run_id:
            return self._note[0]
        self._note = None
        return ""

    def run(self, run_id: str | None) -> RunEntry | None:
        """The listed run of `run_id`, or None."""
        return next((run for run in self.runs if run.id == run_id), None)

    def needs_detail(self, run: RunEntry) -> bool:
        """Whether selecting `run` must read its details (they are not the ones shown)."""
        return self.detail is None or self.detail.run != run

    def can_revert(self) -> bool:
        """Whether the revert button may start a revert now."""
        detail = self.detail
        return detail is not None and detail.revertible and self.revert_job is None

    def op(self, index: object) -> OpView | None:
        """The shown run's `index`th op, or None."""
        detail = self.detail
        if detail is None or not isinstance(index, int) or not 0 <= index < len(detail.ops):
            return None
        return detail.ops[index]

    def open_op(self, op: OpView) -> tuple[str | None, str] | str:
        """What opening `op` does: (workspace id, path) of its file, or the note saying
        it is gone."""
        detail = self.detail
        if op.open_path is None or detail is None:
            return f"{op.op.new_path or op.op.path} no longer exists: see Recently deleted"
        return (detail.run.workspace_id, op.open_path)
