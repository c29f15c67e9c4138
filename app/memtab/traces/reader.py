"""Reading one trace dump loosely: a cheap summary for a list, or the whole dump. The writer
(Memtab's, or mux's own) saves a dump when a run fails (docs/formats.md §10.3)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from memtab.fs.records import NotWritten, Record, RecordError, computed
from memtab.traces.describe import content_text, describe_value, message_text
from memtab.traces.names import parse_trace_file_name, trace_workspace_id
from memtab.traces.outcome import Outcome, assess
from memtab.traces.schema import (
    CONSOLIDATION_KIND,
    AttemptRecord,
    DumpRecord,
    ToolExecutionRecord,
    dump_items,
)
from memtab.traces.tolerant_json import load_members

# Members a list summary skips: large, and not needed for the outcome or the error line.
_BULKY_FIELDS = frozenset(
    {"system_prompt", "existing_memory", "events_summary", "events", "user_message"}
)
# Memtab's own additions have no place of their own in the viewer: shown as other fields.
_SHOWN_AS_OTHER_FIELDS = frozenset(
    {"memory_file", "memtab", "run_id", "trigger", "summary", "refused"}
)


@dataclass(frozen=True)
class TraceMessage:
    """One message sent to the model: its role and its text (non-text parts as JSON)."""

    role: str
    text: str


@dataclass(frozen=True)
class TraceAttempt:
    """One attempt of a run as shown: its place in the dump, its record, its messages."""

    number: int
    """1-based position in the dump's `attempts` (mux counts `attemptIndex` from 1)."""
    record: AttemptRecord
    messages: tuple[TraceMessage, ...]

    @property
    def failed(self) -> bool:
        """The model call threw, or one of its tool calls failed."""
        return bool(self.record.error) or any(c.failed for c in self.record.tool_executions)


class TraceSummary(Record, write_only=True):
    """A dump as one line of a list (`memtab traces --json`, docs/formats.md §10.3)."""

    path: Path
    workspace_id: str
    workspace_name: str | None
    """The registry's display name, else the dump's `workspaceName`, else None."""
    run_started_at: int | None
    """ms since the epoch: the dump's `runStartedAt`, else the file name's, else its mtime."""
    trigger_message_id: str | None
    model_string: str | None
    kind: str = "writer"
    """Whose run: `writer` or `consolidation` (the dump's `kind`)."""
    outcome: Outcome
    failed: bool = computed(lambda summary: summary.outcome.failed)
    error: str
    """One line saying what went wrong ("" when nothing did)."""
    problem: str | None
    """A file-level problem (unreadable, truncated, corrupt, too deep), or None."""
    size_bytes: int
    modified_at_ms: Annotated[int | None, NotWritten]

    @property
    def display_workspace(self) -> str:
        """The workspace as a person reads it: its name, else its id."""
        return self.workspace_name or self.workspace_id


@dataclass(frozen=True, eq=False)
class TraceDump:
    """One dump, read loosely, with notes on whatever could not be read."""

    path: Path
    size_bytes: int
    raw_text: str
    """The file's text as read (invalid UTF-8 replaced), for the raw view and copying."""
    record: DumpRecord
    """Every field that could be read; unset ones are None or empty."""
    attempts: tuple[TraceAttempt, ...] = ()
    other_fields: Mapping[str, Any] = field(default_factory=dict)
    """Top-level members the viewer has no place for (newer versions, mux and Memtab extras)."""
    file_problem: str | None = None
    """Unreadable, empty, truncated, corrupt or too deep: what is shown is what was recovered."""
    problems: tuple[str, ...] = ()
    """Fields that were present but unusable (wrong type), one note each."""
    outcome: Outcome = Outcome.UNREADABLE
    error_line: str = ""

    @property
    def workspace_id(self) -> str:
        """The dump's `workspaceId`, else its folder's name."""
        return self.record.workspace_id or trace_workspace_id(self.path)

    @property
    def tool_executions(self) -> tuple[ToolExecutionRecord, ...]:
        """Every tool execution of every attempt, in order."""
        return tuple(call for attempt in self.record.attempts for call in attempt.tool_executions)

    def summary(self) -> TraceSummary:
        """The dump as a list line, for a dump opened before a scan listed it."""
        return TraceSummary(
            path=self.path,
            workspace_id=trace_workspace_id(self.path),
            workspace_name=self.record.workspace_name,
            run_started_at=self.record.run_started_at,
            trigger_message_id=self.record.trigger_message_id,
            model_string=self.record.model_string,
            kind=run_kind(self.record),
            outcome=self.outcome,
            error=self.error_line,
            problem=self.file_problem,
            size_bytes=self.size_bytes,
            modified_at_ms=None,
        )


def summarize_trace(path: Path, workspace_id: str | None = None) -> TraceSummary:
    """A cheap summary of one dump; `workspace_id` defaults to the dump's folder name."""
    owner = workspace_id or trace_workspace_id(path)
    try:
        data = path.read_bytes()
        info = path.stat()
    except OSError as error:
        return unreadable_summary(owner, path, error)
    loaded = load_members(data, _summary_members())
    record = DumpRecord.read(loaded.values) or DumpRecord()
    outcome, error_line = assess(record if loaded.values else None, loaded.problem)
    named = parse_trace_file_name(path.name)
    return TraceSummary(
        path=path,
        workspace_id=owner,
        workspace_name=record.workspace_name,
        run_started_at=(
            record.run_started_at
            or (named.run_started_at if named else None)
            or info.st_mtime_ns // 1_000_000
        ),
        trigger_message_id=record.trigger_message_id or (named.trigger if named else None),
        model_string=record.model_string,
        kind=run_kind(record),
        outcome=outcome,
        error=error_line,
        problem=loaded.problem,
        size_bytes=info.st_size,
        modified_at_ms=info.st_mtime_ns // 1_000_000,
    )


def run_kind(record: DumpRecord) -> str:
    """`consolidation` for a consolidation's dump, else `writer`."""
    return CONSOLIDATION_KIND if record.kind == CONSOLIDATION_KIND else "writer"


def unreadable_summary(owner: str, path: Path, error: OSError) -> TraceSummary:
    """The list line of a dump that cannot be read: what its name says, and why."""
    named = parse_trace_file_name(path.name)
    return TraceSummary(
        path=path,
        workspace_id=owner,
        workspace_name=None,
        run_started_at=named.run_started_at if named else None,
        trigger_message_id=named.trigger if named else None,
        model_string=None,
        outcome=Outcome.UNREADABLE,
        error="",
        problem=f"Cannot read the file: {error.strerror or error}",
        size_bytes=0,
        modified_at_ms=None,
    )


def parse_trace(path: Path) -> TraceDump:
    """Read and parse one dump loosely; never raises (an unreadable file says so)."""
    try:
        data = path.read_bytes()
    except OSError as error:
        record = DumpRecord()
        problem = f"Cannot read the file: {error.strerror or error}"
        return TraceDump(path=path, size_bytes=0, raw_text="", record=record, file_problem=problem)
    return parse_trace_bytes(data, path)


def parse_trace_bytes(data: bytes, path: Path) -> TraceDump:
    """Parse a dump's bytes (as read from `path`) loosely."""
    loaded = load_members(data)
    record, problems = _read_dump(loaded.values)
    outcome, error_line = assess(record if loaded.values else None, loaded.problem)
    placed = _placed_members()
    return TraceDump(
        path=path,
        size_bytes=len(data),
        raw_text=loaded.text,
        record=record,
        attempts=_attempts(record, loaded.values.get("attempts")),
        other_fields={key: value for key, value in loaded.values.items() if key not in placed},
        file_problem=loaded.problem,
        problems=tuple(problems),
        outcome=outcome,
        error_line=error_line,
    )


def _read_dump(members: dict[str, Any]) -> tuple[DumpRecord, list[str]]:
    """The record of the members that were read, and a note per value that was not read as
    it was (`traces.schema`: each field reads what it can)."""
    record, forgiven = DumpRecord.read_noting(members)
    return record or DumpRecord(), [_note(problem) for problem in forgiven]


def _note(problem: RecordError) -> str:
    """ "`attempts[1].toolExecutions[2].durationMs` should be a number but is true"."""
    where = ""
    for part in problem.where:
        where += f"[{part}]" if isinstance(part, int) else f".{part}" if where else part
    expected = problem.reason.removeprefix("not ")
    return f"`{where}` should be {expected} but is {describe_value(problem.value)}"


def _attempts(record: DumpRecord, raw_attempts: Any) -> tuple[TraceAttempt, ...]:
    """Each attempt read, numbered by its place in the dump's list (entries that are no
    object were dropped)."""
    items = enumerate(dump_items(raw_attempts))
    positions = [position for position, item in items if isinstance(item, dict)]
    return tuple(
        TraceAttempt(position + 1, attempt, _messages(attempt.messages))
        for position, attempt in zip(positions, record.attempts, strict=True)
    )


def _messages(items: tuple[Any, ...]) -> tuple[TraceMessage, ...]:
    return tuple(
        TraceMessage(
            role if isinstance(role := item.get("role"), str) and role else "?", message_text(item)
        )
        if isinstance(item, dict)
        else TraceMessage("?", content_text(item))
        for item in items
    )


@functools.cache
def _summary_members() -> frozenset[str]:
    """The top-level members a summary decodes: all but the bulky ones."""
    return frozenset(_aliases(exclude=_BULKY_FIELDS))


@functools.cache
def _placed_members() -> frozenset[str]:
    """The top-level members the viewer shows in a place of their own."""
    return frozenset(_aliases(exclude=_SHOWN_AS_OTHER_FIELDS))


def _aliases(exclude: frozenset[str]) -> list[str]:
    return [field.key for field in DumpRecord.fields() if field.name not in exclude]
