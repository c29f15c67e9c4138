"""`memory-consolidation.json`, the consolidation journal and per-workspace status (docs/formats.md
§8): each bucket and record read on its own, changed through `fs.sidecar` keeping what Memtab does
not know, free text capped."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Annotated, Any, Literal, Protocol, get_args

from memtab.fs.jsonfile import finite_number
from memtab.fs.records import (
    Checked,
    Count,
    Healed,
    Key,
    Lenient,
    NotWritten,
    OmitNone,
    OrNone,
    PositiveTime,
    Record,
    RequiredTime,
    WrittenAs,
    field,
)
from memtab.fs.sidecar import edit_sidecar, read_sidecar
from memtab.store.home import Home
from memtab.store.paths import PathError, Scope, parse_virtual_path
from memtab.store.text.free_text import MAX_NOTE_BYTES, MAX_SUMMARY_BYTES, cap_optional, cap_text

Trigger = Literal["compaction", "launch", "archive", "manual"]
"""What started a consolidation run (mux's `MemoryConsolidationTrigger`)."""
TRIGGERS: tuple[Trigger, ...] = get_args(Trigger)
RunScope = Literal["global", "project", "workspace"]
"""The one scope a run was limited to (docs/formats.md §9.8); a whole-workspace run has none."""
RUN_SCOPES: tuple[RunScope, ...] = get_args(RunScope)


def run_scope(scope: Scope | None) -> RunScope | None:
    """`scope` as a run names it, when a run may be limited to it (not a session scope)."""
    return next((named for named in RUN_SCOPES if scope is not None and named == scope.value), None)


_RECORD_BUCKETS = ("workspaces", "projects")


class NamesFiles(Protocol):
    """An op naming a file (and a rename's new name)."""

    @property
    def path(self) -> str: ...

    @property
    def new_path(self) -> str | None: ...


def changed_files(ops: Iterable[NamesFiles], scope: Scope | None = None) -> list[str]:
    """The files `ops` change, each once, in order (a rename: its new name): the one count of what a
    run did (docs/formats.md §9.6). `scope`: only that scope's."""
    names = (op.new_path or op.path for op in ops)
    return list(dict.fromkeys(name for name in names if scope is None or _scope_of(name) is scope))


def _scope_of(raw: str) -> Scope | None:
    try:
        return parse_virtual_path(raw).scope
    except PathError:
        return None


class JournalOp(Record, keep_unknown=True):
    """One mutation attempt of a run (§8); `applied` only if it really happened; the note capped."""

    command: str
    path: str
    new_path: Annotated[OrNone[str], OmitNone] = None
    applied: bool
    note: Annotated[
        OrNone[str], Checked(lambda note: cap_optional(note, MAX_NOTE_BYTES)), OmitNone
    ] = None


def _count_or_none(value: Any) -> int | None:
    number = finite_number(value)
    return max(0, int(number)) if number is not None else None


class RunUsage(Record, keep_unknown=True):
    """A run's `usage` (§8): token counts, each finite and ≥ 0, else unknown."""

    input_tokens: Annotated[int | None, Healed(_count_or_none), OmitNone] = None
    output_tokens: Annotated[int | None, Healed(_count_or_none), OmitNone] = None

    @classmethod
    def of(cls, input_tokens: int | None, output_tokens: int | None) -> RunUsage | None:
        """The usage to journal: None when neither count is known."""
        if input_tokens is None and output_tokens is None:
            return None
        return cls(input_tokens=input_tokens or 0, output_tokens=output_tokens or 0)


class ConsolidationRecord(Record, keep_unknown=True):
    """One consolidation run as journaled (§8): `lastRunAt`, `trigger` and valid `ops` required; the
    summary capped."""

    last_run_at: RequiredTime
    trigger: str  # a `Trigger`; a record read back keeps any other text as written
    summary: Annotated[
        str, Lenient(""), Checked(lambda text: cap_text(text, MAX_SUMMARY_BYTES))
    ] = ""
    ops: tuple[JournalOp, ...] = ()
    usage: Annotated[OrNone[RunUsage], OmitNone] = None
    scope: Annotated[OrNone[RunScope], OmitNone] = None
    """The one scope the run was limited to (§9.8), None: the whole workspace; mux drops it on
    rewrite, harmlessly."""

    @property
    def input_tokens(self) -> int | None:
        return self.usage.input_tokens if self.usage is not None else None

    @property
    def output_tokens(self) -> int | None:
        return self.usage.output_tokens if self.usage is not None else None

    @property
    def applied_count(self) -> int:
        return sum(1 for op in self.ops if op.applied)

    def files_changed_in(self, scope: Scope) -> int:
        """How many files of `scope` the run changed."""
        return len(changed_files((op for op in self.ops if op.applied), scope))


def parse_record(raw: Any) -> ConsolidationRecord | None:
    """A record, or None when its required fields are missing or malformed."""
    return ConsolidationRecord.read(raw)


class HarvestRecord(Record, keep_unknown=True):
    """A transcript harvest written by mux (§8, `harvestsByWorkspace`), only read and shown."""

    summary_message_id: Annotated[str, NotWritten] = ""
    as_written: Annotated[dict[str, Any], NotWritten] = field(default_factory=dict)
    """The object as mux wrote it (what `memtab status --json` shows)."""
    status: str
    started_at: PositiveTime = None
    completed_at: PositiveTime = None
    attempt_count: Count = 0
    error: Annotated[OrNone[str], Healed(lambda value: value or None)] = None

    @property
    def sort_time(self) -> int:
        return self.completed_at or self.started_at or 0


def parse_harvest(message_id: str, raw: Any) -> HarvestRecord | None:
    """A harvest record, or None when malformed."""
    if (harvest := HarvestRecord.read(raw)) is not None:
        return harvest.replaced(summary_message_id=message_id, as_written=raw)
    return None


@dataclasses.dataclass(frozen=True)
class JournalData:
    """The parsed journal: valid records by workspace and project, and mux's harvests."""

    workspaces: dict[str, ConsolidationRecord] = dataclasses.field(default_factory=dict)
    projects: dict[str, ConsolidationRecord] = dataclasses.field(default_factory=dict)
    harvests: dict[str, dict[str, HarvestRecord]] = dataclasses.field(default_factory=dict)
    problems: tuple[str, ...] = ()


class ConsolidationStatus(Record, write_only=True):
    """Coverage of one workspace's scopes, as the footer and `memtab status --json` show it."""

    workspace_record: ConsolidationRecord | None
    project_record: ConsolidationRecord | None
    global_record: ConsolidationRecord | None
    project_available: bool
    latest_harvest: Annotated[
        HarvestRecord | None,
        Key("latestHarvestRecord"),
        WrittenAs(lambda harvest: harvest.as_written),
    ]


def parse_journal_document(document: Any) -> JournalData:
    """Validate each bucket and record on its own; keep what is valid, note what is not."""
    if not isinstance(document, dict):
        return JournalData(problems=("the journal is not a JSON object",))
    problems: list[str] = []

    def records(bucket_name: str) -> dict[str, ConsolidationRecord]:
        bucket = document.get(bucket_name, {})
        if not isinstance(bucket, dict):
            problems.append(f"`{bucket_name}` is not an object")
            return {}
        parsed = {key: parse_record(raw) for key, raw in bucket.items()}
        problems.extend(
            f"`{bucket_name}.{key}` is malformed" for key, r in parsed.items() if r is None
        )
        return {key: record for key, record in parsed.items() if record is not None}

    harvests: dict[str, dict[str, HarvestRecord]] = {}
    raw_harvests = document.get("harvestsByWorkspace", {})
    if isinstance(raw_harvests, dict):
        for workspace_id, by_message in raw_harvests.items():
            if not isinstance(by_message, dict):
                continue
            harvests[workspace_id] = {
                message_id: harvest
                for message_id, raw in by_message.items()
                if (harvest := parse_harvest(message_id, raw)) is not None
            }
    else:
        problems.append("`harvestsByWorkspace` is not an object")
    return JournalData(records("workspaces"), records("projects"), harvests, tuple(problems))


class ScopeRunRecords(Protocol):
    """The latest runs of one scope alone (`store.sidecars.scope_runs.ScopeRuns`)."""

    @property
    def global_run(self) -> ConsolidationRecord | None: ...

    def workspace_run(self, notebook_id: str) -> ConsolidationRecord | None: ...


def status_from(
    data: JournalData,
    workspace_id: str,
    project_path: str | None,
    notebook_id: str | None = None,
    scope_runs: ScopeRunRecords | None = None,
) -> ConsolidationStatus:
    """Status of docs/formats.md §8: legacy records never count as project coverage; a sub-agent's
    notebook runs are its owner's (§2.5); a scope's own newer run (§9.8) is its line."""
    notebook = notebook_id or workspace_id
    global_record = max(data.workspaces.values(), key=lambda r: r.last_run_at, default=None)
    workspace_record = data.workspaces.get(notebook)
    if scope_runs is not None:
        global_record = _newer(global_record, scope_runs.global_run)
        workspace_record = _newer(workspace_record, scope_runs.workspace_run(notebook))
    harvests = data.harvests.get(workspace_id, {}).values()
    return ConsolidationStatus(
        workspace_record=workspace_record,
        global_record=global_record,
        project_record=data.projects.get(project_path) if project_path is not None else None,
        project_available=project_path is not None,
        latest_harvest=max(harvests, key=lambda h: h.sort_time, default=None),
    )


def _newer(
    first: ConsolidationRecord | None, second: ConsolidationRecord | None
) -> ConsolidationRecord | None:
    return (
        second
        if first is None or (second is not None and second.last_run_at > first.last_run_at)
        else first
    )


def _shape_problem(document: dict[str, Any]) -> str | None:
    for bucket_name in _RECORD_BUCKETS:
        bucket = document.get(bucket_name)
        if bucket is not None and not isinstance(bucket, dict):
            return f"its `{bucket_name}` is not an object"
    return None


class Journal:
    """Reads and appends to the consolidation journal of one home."""

    def __init__(self, home: Home) -> None:
        self._home = home

    def load(self) -> JournalData:
        """The journal as far as it is valid; a missing or unusable file is empty."""
        read = read_sidecar(self._home.journal_path)
        if read.problem is not None:
            return JournalData(problems=(f"the journal is {read.problem}",))
        return parse_journal_document(read.document)

    def status(
        self,
        workspace_id: str,
        project_path: str | None,
        notebook_id: str | None = None,
        scope_runs: ScopeRunRecords | None = None,
    ) -> ConsolidationStatus:
        """Coverage of a workspace (its notebook's runs), its project and the global scope."""
        return status_from(self.load(), workspace_id, project_path, notebook_id, scope_runs)

    def save_run(
        self, workspace_id: str, project_path: str | None, record: ConsolidationRecord
    ) -> None:
        """Journal a run under the workspace and its project; a project-only run (§9.8) under its
        project only."""
        targets = [("workspaces", workspace_id)] if record.scope is None else []
        if project_path is not None and record.scope in (None, "project"):
            targets.append(("projects", project_path))
        if not targets:
            raise ValueError(f"a run of the {record.scope} scope alone has no place in the journal")
        lock = self._home.lock_path("memory-consolidation")
        with edit_sidecar(self._home.journal_path, lock, shape_problem=_shape_problem) as document:
            for bucket_name, key in targets:
                bucket = document.get(bucket_name)
                if not isinstance(bucket, dict):  # kept aside by edit_sidecar: start it anew
                    bucket = document[bucket_name] = {}
                # Other records stay as they are: they may be a newer mux's.
                bucket[key] = record.to_json()
