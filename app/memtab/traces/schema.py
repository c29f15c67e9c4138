"""The trace-dump format, defined once (docs/formats.md §10.3): records with camelCase
names.

The writer builds a `DumpRecord` and saves `to_document()`; the reader builds the same
records from whatever a file holds (`memtab.traces.lenient`), so a field is named and typed
here and nowhere else. Every field is optional because dumps from mux and from older
versions lack some (`noNewMemories`, `satisfiedMemoryToolPolicy`); messages, step results,
events and tool inputs/outputs have no fixed shape and are kept as they are.

`Lenient` marks fields the reader accepts in more shapes than their type says; the record
codec ignores the marks.
"""

from __future__ import annotations

import enum
from typing import Annotated, Any, Final

from memtab.fs.records import Record
from memtab.traces.describe import reported_failure

DUMP_SCHEMA_VERSION: Final = 1


class Lenient(enum.Enum):
    """How the reader takes a field beyond its declared type."""

    ERROR_TEXT = "error text"
    """A string, an object with a `message`, or a list of strings (joined with `: `)."""
    TIMESTAMP = "timestamp"
    """ms since the epoch, or an ISO 8601 string."""
    ONE_OR_MANY = "one or many"
    """A list; a single value is read quietly as a list of one."""


ErrorText = Annotated[str | None, Lenient.ERROR_TEXT]
Timestamp = Annotated[int | None, Lenient.TIMESTAMP]


class DumpModel(Record, checked_when_built=False, given_only=True):
    """A part of a dump: a record (camelCase in the file, snake_case in Python, immutable)
    that writes the fields it was given and no others (`given`: read from the dump, or set
    by the writer), at every level: a dump holds those."""

    def to_document(self) -> dict[str, Any]:
        """The dump's JSON document (`to_json`)."""
        return self.to_json()


class ToolExecutionRecord(DumpModel):
    """`attempts[].toolExecutions[]`: one tool call the model made, with its result or error."""

    tool_name: str | None = None
    tool_call_id: str | None = None
    input: Any = None
    output: Any = None
    """Absent when the call raised (then `error` is set); see `has_output`."""
    error: ErrorText = None
    started_at: Timestamp = None
    duration_ms: int | float | None = None

    @property
    def has_output(self) -> bool:
        """Whether the dump holds an `output` for this call (even `null`)."""
        return self.given("output")

    @property
    def name(self) -> str:
        """The tool's name as shown (a call without one is still listed)."""
        return self.tool_name or "(unknown tool)"

    @property
    def problem(self) -> str | None:
        """What went wrong: the error, or a `{success: false}` result's own message."""
        if self.error is not None:
            return self.error
        return reported_failure(self.output)

    @property
    def failed(self) -> bool:
        """An explicit `error`, or a result that says `success: false` (a rejected write)."""
        return self.problem is not None


class AttemptRecord(DumpModel):
    """`attempts[]`: one of the (up to two) model calls of a run."""

    attempt_index: int | None = None
    """mux counts from 1; others from 0."""
    messages: Annotated[tuple[Any, ...], Lenient.ONE_OR_MANY] = ()
    step_results: tuple[Any, ...] = ()
    """Whatever the model SDK reported per step; no fixed shape."""
    tool_executions: tuple[ToolExecutionRecord, ...] = ()
    finish_reason: str | None = None
    wrote: bool | None = None
    no_new_memories: bool | None = None
    """None on dumps from older mux versions."""
    aborted: bool | None = None
    error: ErrorText = None
    """Set by mux when the model call threw; Memtab also notes a policy failure here."""


class EventsSummaryRecord(DumpModel):
    """`eventsSummary`: how many transcript events there were and the JSON budget."""

    original_count: int | None = None
    trimmed_count: int | None = None
    max_json_chars: int | None = None


class DumpRecord(DumpModel):
    """One dump: the run's header, what the model was given, and every attempt."""

    schema_version: int | None = None
    run_started_at: int | None = None
    workspace_id: str | None = None
    workspace_name: str | None = None
    trigger_message_id: str | None = None
    model_string: str | None = None
    timeout_ms: int | None = None
    timed_out: bool | None = None
    did_write_memory: bool | None = None
    satisfied_memory_tool_policy: bool | None = None
    """None on dumps from older mux versions, which did not record it."""
    project_path: str | None = None
    workspace_path: str | None = None
    memory_path: str | None = None
    system_prompt: str | None = None
    existing_memory: str | None = None
    events_summary: EventsSummaryRecord | None = None
    events: tuple[Any, ...] = ()
    user_message: str | None = None
    attempts: tuple[AttemptRecord, ...] = ()
    outcome: str | None = None
    """Memtab's own: "wrote", "no_new_memories" or "failed"; not in mux dumps."""
    memory_file: str | None = None
    """Memtab's own: the memory file the run wrote to."""
    memtab: dict[str, Any] | None = None
    """Memtab's own: `{"version": ...}` of the Memtab that wrote the dump."""
    error: ErrorText = None
    """Memtab's own run-level error; not in mux dumps."""
