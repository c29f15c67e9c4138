"""The trace-dump format, defined once (docs/formats.md §10.3): records with camelCase names."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Annotated, Any, Final, TypeVar

from memtab.fs.jsonfile import finite_number
from memtab.fs.records import Healed, Lenient, Record, ValidItems, note
from memtab.traces.describe import compact_json, error_text, reported_failure

DUMP_SCHEMA_VERSION: Final = 1

R = TypeVar("R")


def _text(value: Any) -> str | None:
    """A string as it is, a number as its digits; another value kept as its JSON, noted."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    note("not text", value)
    return compact_json(value)


def _number(value: Any) -> int | float | None:
    """A finite number, or a string that holds one (an integral one as an int)."""
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        if finite_number(value) is not None:
            return value
    elif isinstance(value, str):
        try:
            parsed = float(value.strip())
        except ValueError:
            pass
        else:
            if math.isfinite(parsed):
                return int(parsed) if parsed.is_integer() else parsed
    raise ValueError("not a number")


def _integer(value: Any) -> int | None:
    number = _number(value)
    return None if number is None else int(number)


def _timestamp(value: Any) -> int | None:
    """ms since the epoch, from a number or an ISO 8601 string."""
    if isinstance(value, str) and not value.strip().lstrip("-").replace(".", "").isdigit():
        try:
            moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            raise ValueError("not a time") from None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return int(moment.timestamp() * 1000)
    return _integer(value)


def _flag(value: Any) -> bool | None:
    """true or false, also as 1 and 0 or as a string."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise ValueError("not true or false")


def dump_items(value: Any) -> list[Any]:
    """A member that should be a list, as one (none: empty); another shape is kept, noted:
    a list saved as `{"0": …, "1": …}` as its values in order, anything else as one item."""
    if value is None:
        return []
    if isinstance(value, list):
        return value
    note("not a list", value)
    if isinstance(value, dict) and value and all(k.isdecimal() for k in value):
        return [value[k] for k in sorted(value, key=int)]
    return [value]


def _one_or_many(value: Any) -> list[Any]:
    """A list; a single value quietly a list of one."""
    return [] if value is None else value if isinstance(value, list) else [value]


Text = Annotated[str | None, Healed(_text)]
Integer = Annotated[int | None, Healed(_integer), Lenient(None)]
Number = Annotated[int | float | None, Healed(_number), Lenient(None)]
Flag = Annotated[bool | None, Healed(_flag), Lenient(None)]
Timestamp = Annotated[int | None, Healed(_timestamp), Lenient(None)]
"""ms since the epoch, or an ISO 8601 string."""
ErrorText = Annotated[str | None, Healed(error_text)]
"""A string, an object with a `message`, or a list of strings (joined with `: `)."""
Items = Annotated[tuple[Any, ...], Healed(dump_items)]
OneOrMany = Annotated[tuple[Any, ...], Healed(_one_or_many)]
"""A list; a single value is read quietly as a list of one."""
Records = Annotated[ValidItems[tuple[R, ...]], Healed(dump_items)]
"""A list of records: an entry that is no object dropped, noted."""


class DumpModel(Record, checked_when_built=False, given_only=True):
    """A part of a dump: a record (camelCase in the file, snake_case in Python, immutable)
    that writes the fields it was given and no others (`given`: read from the dump, or set
    by the writer), at every level: a dump holds those."""

    def to_document(self) -> dict[str, Any]:
        """The dump's JSON document (`to_json`)."""
        return self.to_json()


class ToolExecutionRecord(DumpModel):
    """`attempts[].toolExecutions[]`: one tool call the model made, with its result or error."""

    tool_name: Text = None
    tool_call_id: Text = None
    input: Any = None
    output: Any = None
    """Absent when the call raised (then `error` is set); see `has_output`."""
    error: ErrorText = None
    started_at: Timestamp = None
    duration_ms: Number = None

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
        return self.error if self.error is not None else reported_failure(self.output)

    @property
    def failed(self) -> bool:
        """An explicit `error`, or a result that says `success: false` (a rejected write)."""
        return self.problem is not None


class AttemptRecord(DumpModel):
    """`attempts[]`: one of the (up to two) model calls of a run."""

    attempt_index: Integer = None
    """mux counts from 1; others from 0."""
    messages: OneOrMany = ()
    step_results: Items = ()
    """Whatever the model SDK reported per step; no fixed shape."""
    tool_executions: Records[ToolExecutionRecord] = ()
    finish_reason: Text = None
    wrote: Flag = None
    no_new_memories: Flag = None
    """None on dumps from older mux versions."""
    aborted: Flag = None
    error: ErrorText = None
    """Set by mux when the model call threw; Memtab also notes a policy failure here."""


class EventsSummaryRecord(DumpModel):
    """`eventsSummary`: how many transcript events there were and the JSON budget."""

    original_count: Integer = None
    trimmed_count: Integer = None
    max_json_chars: Integer = None


CONSOLIDATION_KIND: Final = "consolidation"
"""`kind` of a consolidation's dump."""


class DumpRecord(DumpModel):
    """One dump: the run's header, what the model was given, and every attempt."""

    schema_version: Integer = None
    run_started_at: Integer = None
    workspace_id: Text = None
    workspace_name: Text = None
    trigger_message_id: Text = None
    model_string: Text = None
    timeout_ms: Integer = None
    timed_out: Flag = None
    did_write_memory: Flag = None
    satisfied_memory_tool_policy: Flag = None
    """None on dumps from older mux versions, which did not record it."""
    project_path: Text = None
    workspace_path: Text = None
    memory_path: Text = None
    system_prompt: Text = None
    existing_memory: Text = None
    events_summary: Annotated[EventsSummaryRecord | None, Lenient(None)] = None
    events: Items = ()
    user_message: Text = None
    attempts: Records[AttemptRecord] = ()
    outcome: Text = None
    """Memtab's own: "wrote", "no_new_memories" or "failed" (a consolidation's: "changed",
    "no_changes" or "failed"); not in mux dumps."""
    memory_file: Text = None
    """Memtab's own: the memory file the run wrote to."""
    memtab: Any = None
    """Memtab's own: `{"version": ...}` of the Memtab that wrote the dump (kept as it is:
    the viewer shows it among the other members)."""
    error: ErrorText = None
    """Memtab's own run-level error; not in mux dumps."""
    kind: Text = None
    """Memtab's own: `consolidation` for a consolidation's run (absent: the writer's)."""
    run_id: Text = None
    """Memtab's own: the run's id in the runs log (a consolidation's)."""
    trigger: Text = None
    """Memtab's own: what started a consolidation (`manual`, `launch`…)."""
    summary: Text = None
    """Memtab's own: what the run's tools did, as its journal and runs log say it."""
    refused: Items = ()
    """Memtab's own: `{line, why}` of each line a model wrote that the rails refused."""
