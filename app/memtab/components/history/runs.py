"""Every consolidation and writer run as the Runs dialog shows it, without Qt: each run's row,
heading, facts and summary, an op's diff, whether a revert may start, what a listing selects."""

from __future__ import annotations

import enum
import logging
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import NamedTuple

from memtab import humanize
from memtab.components.history.diff import parse_unified_diff
from memtab.components.text_diff import DiffResult
from memtab.store.actors import actor_name
from memtab.store.catch_up.runs_log import catch_up_runs
from memtab.store.errors import MemoryStoreError
from memtab.store.history.describe import DRY_RUN_NOTE, describe_run, op_diff
from memtab.store.history.records import RunEntry, RunOp
from memtab.store.history.runs import (
    CHECK_FIX_PROVIDER,
    MUX_SOURCE,
    REVERT_KIND,
    RunsLog,
    files_changed,
    reverted_by,
    touched_paths,
    trace_path,
)
from memtab.store.history.versions import ScopeHistory
from memtab.store.home import Home, HomeError
from memtab.store.paths import SHARED_SCOPES, PathError, parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry

logger = logging.getLogger(__name__)

KIND_WORDS = {
    "consolidation": "Consolidation",
    "writer": "Memory writer",
    "sync": "Sync",
    REVERT_KIND: "Revert",
}


@dataclass(frozen=True)
class RunFilter:
    """Which runs to list (None: any)."""

    workspace_id: str | None = None
    kind: str | None = None
    trigger: str | None = None
    failed_only: bool = False


class RunList(NamedTuple):
    """The runs a filter lists, each reverted run's newest revert, and `left_alone` partial ones."""

    runs: list[RunEntry]
    reverted: dict[str, RunEntry]
    partly_reverted: frozenset[str] = frozenset()


def load_run_list(home: Home, run_filter: RunFilter) -> RunList:
    """The runs that pass the filter, newest first (mux's journaled runs added first), with
    the reverts of the runs listed."""
    catch_up_runs(home)
    log = RunsLog(home)
    runs = log.runs(**asdict(run_filter))
    reverts = log.runs(kind=REVERT_KIND)
    reverted = reverted_by(reverts)
    partly = frozenset(run.id for run in runs if run.id in reverted and left_alone(run, reverts))
    return RunList(runs, reverted, partly)


def left_alone(run: RunEntry, reverts: list[RunEntry]) -> tuple[str, ...]:
    """The files `run` changed that none of its reverts (among `reverts`) restored: a
    revert refused them (changed since)."""
    restored = {
        path
        for revert in reverts
        if revert.reverts == run.id and not revert.failed
        for path in touched_paths(revert.ops)
    }
    return tuple(path for path in touched_paths(run.ops) if path not in restored)


def run_title(run: RunEntry) -> str:
    """`Consolidation · manual`, `Memory writer`, `Consolidation by mux · launch`, `Revert · You`; a
    consolidation of one scope alone names it (`Consolidation of Global · manual`)."""
    if run.provider == CHECK_FIX_PROVIDER:
        return "Fixes from the check"
    if run.kind == REVERT_KIND:
        return f"Revert · {actor_name(run.actor or 'user')}"
    kind = KIND_WORDS.get(run.kind, run.kind.capitalize())
    if run.scope is not None:
        kind += f" of {run.scope.capitalize()}"
    if run.source == MUX_SOURCE:
        kind += " by mux"
    if run.kind in ("consolidation", "sync") and run.trigger:
        return f"{kind} · {run.trigger}"
    return kind


def run_outcome(run: RunEntry, reverted: RunEntry | None = None, *, partly: bool = False) -> str:
    """`2 files changed · 1 not applied`, `failed: …`, `changed nothing` (a writer run: what it did
    instead); `Reverted · …` when a revert run (`reverted`) took it back, `Partly reverted · …`
    when it left some files alone (first: a narrow column cuts the end)."""
    if reverted is not None:
        return f"{'Partly reverted' if partly else 'Reverted'} · {run_outcome(run)}"
    if run.failed:
        return f"failed: {run.error or 'no reason recorded'}"
    if not run.ops:
        if run.kind == "writer" and run.summary:
            return run.summary[:1].lower() + run.summary[1:]
        return "changed nothing"
    files = humanize.files_changed_text(files_changed(run))
    left = len(run.ops) - run.applied_count
    return f"{files} · {left} not applied" if left else files


class OpState(enum.StrEnum):
    """What became of an op, as the dialog names it."""

    APPLIED = "Applied"
    REJECTED = "Rejected"
    PROPOSED = "Proposed (dry run)"


def op_state(op: RunOp) -> OpState:
    """Applied; Proposed for a dry run (not applied, note "dry-run"); otherwise Rejected."""
    if op.applied:
        return OpState.APPLIED
    return OpState.PROPOSED if op.note == DRY_RUN_NOTE else OpState.REJECTED


@dataclass(frozen=True)
class OpView:
    """One op of a run: in words, its state, its note, its diff and the file to open."""

    op: RunOp
    words: str
    state: OpState
    diff: DiffResult
    open_path: str | None
    """The file to open for this op (its new name after a rename); None when it no longer exists."""


@dataclass(frozen=True)
class RunDetail:
    """A run with its ops in words, and whether it can be reverted (and why not)."""

    run: RunEntry
    ops: tuple[OpView, ...]
    revert_refusal: str | None
    reverted_at: int | None = None  # When a revert of this run restored its files (ms), if one did.
    reverted_by: RunEntry | None = None
    """The revert run that did (None: none logged — a revert before reverts were runs)."""
    left_alone: tuple[str, ...] = ()
    """The files the run changed that no revert of it restored (a revert refused them:
    changed since); while there are any, "Revert this run" is offered again."""
    trace: Path | None = None
    """The run's trace dump, when it left one that is still kept."""

    @property
    def revertible(self) -> bool:
        return self.revert_refusal is None

    @property
    def reverted_words(self) -> str:
        """`Reverted by You 3 min ago (run-…)`, or "" when the run was not reverted."""
        revert = self.reverted_by
        if revert is not None:
            who = actor_name(revert.actor or "user")
            said = f"by {who} {humanize.relative_time(revert.at)} ({revert.id})"
            if self.left_alone:
                left = humanize.plural(len(self.left_alone), "file")
                return f"Partly reverted {said}: {left} left as changed since"
            return f"Reverted {said}"
        if self.reverted_at is not None:
            return f"Reverted {humanize.relative_time(self.reverted_at)}"
        return ""


def revert_refusal(run: RunEntry) -> str | None:
    """Why "Revert this run" cannot help for this run, or None when it can."""
    if run.kind == REVERT_KIND:
        return (
            f"this run is a revert (of {run.reverts or 'a run'}): a revert is not reverted; "
            "restore its files from their history to take it back"
        )
    if run.source == MUX_SOURCE:
        return (
            "mux made this run: Memtab saw its changes as outside changes; restore a file "
            "from its history instead"
        )
    return "this run changed no file" if not touched_paths(run.ops) else None


def load_run_detail(home: Home, run: RunEntry) -> RunDetail:
    """Describe every op of a run and read its diffs."""
    words = describe_run(home, run)
    store = _store_of(home, run)
    ops = [
        OpView(op, text, op_state(op), parse_unified_diff(op_diff(home, op)), _opens(store, op))
        for op, text in zip(run.ops, words, strict=True)
    ]
    reverted = reverted_at(store, run) if store is not None else None
    reverts = RunsLog(home).runs(kind=REVERT_KIND)
    revert = reverted_by(reverts).get(run.id)
    left: tuple[str, ...] = ()
    if revert is not None:
        reverted = max(reverted or 0, revert.at)
        left = left_alone(run, reverts)
    refusal = revert_refusal(run)
    if reverted is not None and refusal is None and not left:
        refusal = (
            f"reverted {humanize.relative_time(reverted)}: its files hold what they held before it"
        )
    trace = trace_path(home, run)
    kept = trace if trace is not None and trace.is_file() else None
    return RunDetail(run, tuple(ops), refusal, reverted, revert, left, kept)


def trace_tip(detail: RunDetail) -> str:
    """The trace button's tooltip: what it opens, or why there is nothing to open."""
    if detail.trace is not None:
        return "Open this run's trace dump in the Traces tab: what it was given, said and did"
    if detail.run.trace_dump:
        return f"Its trace dump {detail.run.trace_dump} is gone: only the newest are kept"
    return "This run left no trace dump"


def no_change_message(run: RunEntry) -> str:
    """What the diff pane says for a run that changed no file: what it did instead."""
    if run.failed:
        return "This run failed before it changed a file (why: above)."
    outcome = run_outcome(run)
    if outcome == "changed nothing":
        return "This run changed nothing."
    return f"This run changed no file: it {outcome}."


def usage_line(run: RunEntry) -> str:
    """`18,240 input · 1,312 output tokens`, or "" when the run recorded no usage."""
    if run.input_tokens is None and run.output_tokens is None:
        return ""
    return f"{run.input_tokens or 0:,} input · {run.output_tokens or 0:,} output tokens"


def reverted_at(store: MemoryStore, run: RunEntry) -> int | None:
    """When a revert of `run` restored a file (its newest such version), if one did."""
    times = [
        version.at
        for scope in SHARED_SCOPES  # no run changes a session scope
        if not store.unavailable_reason(scope)
        for version in ScopeHistory(store.home, store.history_key(scope)).versions()
        if version.revert_of == run.id
    ]
    return max(times, default=None)


def _store_of(home: Home, run: RunEntry) -> MemoryStore | None:
    """A store seeing the run's scopes (global only when its workspace is gone)."""
    try:
        registry = load_registry(home)
    except HomeError as error:
        logger.warning("Cannot read the registry to locate a run's files: %s", error)
        return None
    workspace = registry.workspace(run.workspace_id) if run.workspace_id else None
    return MemoryStore(home, workspace, record_history=False)


def _opens(store: MemoryStore | None, op: RunOp) -> str | None:
    try:
        path = parse_file_path(op.new_path or op.path)
        return str(path) if store is not None and store.kind_of(path) == "file" else None
    except (PathError, MemoryStoreError):
        return None


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
    """The diff pane for an op: a message (None: the op's diff) and its sides' names."""

    message: str | None
    sides: tuple[str, str] | None


@dataclass(frozen=True)
class ListingChoice:
    """What a new listing selects: a run (None: the first), a note, and the op to select now."""

    run_id: str | None
    note: str | None = None
    op_now: int | None = None


def empty_text(run_filter: RunFilter) -> str:
    """What the dialog says with no run listed: none match, or none yet."""
    return NO_MATCH_TEXT if run_filter != RunFilter() else EMPTY_TEXT


def run_rows(listing: RunList, names: dict[str, str]) -> list[RunRow]:
    """The listed runs' rows, newest first (`names`: each workspace id's name)."""
    return [
        RunRow(
            run.id,
            humanize.relative_time(run.at),
            run_title(run),
            run_outcome(
                run, listing.reverted.get(run.id), partly=run.id in listing.partly_reverted
            ),
            names.get(run.workspace_id or "", run.workspace_id or "—"),
            humanize.absolute_time(run.at),
            run.failed,
        )
        for run in listing.runs
    ]


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
