"""Reading the writer's trace dumps (SPEC §9): list them, summarize them, parse one loosely.

The background writer (Memtab's, or mux's own) saves a JSON dump under
`<home>/debug_obj/<workspaceId>/system1_memory_writer/` when a run fails. This module only
reads them, and reads them loosely: a viewer must never fail on a missing, extra or oddly
typed field, on a dump from an older mux (no `noNewMemories`, no
`satisfiedMemoryToolPolicy`), or on a file cut short by a crash mid-write (mux writes
dumps non-atomically). What cannot be read becomes a note in `problems` or `file_problem`,
never an exception.

- `list_traces(home, workspace_id)` / `TraceCatalog.scan()`: every dump, newest first, as a
  cheap `TraceSummary` (time, workspace, trigger, outcome, error line). The summary decodes
  only the small header members and `attempts` of a pretty-printed dump; the bulky `events`
  and `userMessage` are skipped without being parsed. The catalog caches summaries by file
  size and mtime, so a rescan after a new dump only reads the new file.
- `parse_trace(path)`: the whole dump as a typed `TraceDump` (header, existing memory, the
  events and their summary, attempts with messages, step results and tool executions).
- `describe_event`, `describe_step`, `format_json`: display helpers shared by the CLI and GUI.
"""

from __future__ import annotations

import enum
import json
import logging
import math
import os
import re
import stat
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from memtab.store.home import Home, HomeError, load_registry

logger = logging.getLogger(__name__)

TRACE_DIR_NAME: Final = "system1_memory_writer"
"""The per-workspace folder under `debug_obj/<workspaceId>/` that holds writer dumps."""

ERROR_LINE_MAX_CHARS: Final = 300

# The run's scalar fields: all a list summary needs besides `attempts`.
_HEADER_FIELDS: Final = frozenset(
    {
        "schemaVersion",
        "runStartedAt",
        "workspaceId",
        "workspaceName",
        "triggerMessageId",
        "modelString",
        "timeoutMs",
        "timedOut",
        "didWriteMemory",
        "satisfiedMemoryToolPolicy",
        "projectPath",
        "workspacePath",
        "memoryPath",
        "outcome",
        "error",
    }
)
_SUMMARY_FIELDS: Final = _HEADER_FIELDS | {"attempts"}
# Top-level members the viewer knows; anything else is shown as an "other field".
_KNOWN_FIELDS: Final = _SUMMARY_FIELDS | {
    "systemPrompt",
    "existingMemory",
    "eventsSummary",
    "events",
    "userMessage",
}


class Outcome(enum.StrEnum):
    """How a writer run ended, as far as its dump tells."""

    TIMED_OUT = "timed out"
    PROVIDER_ERROR = "provider error"
    POLICY_NOT_SATISFIED = "policy not satisfied"
    ABORTED = "aborted"
    WROTE_MEMORY = "wrote memory"
    NO_NEW_MEMORIES = "no new memories"
    FAILED = "failed"
    """Failed before any attempt ran, or the attempts were lost to a damaged file."""
    UNREADABLE = "unreadable"
    """Nothing could be read from the file (missing, unreadable, not JSON at all)."""

    @property
    def failed(self) -> bool:
        """Whether the run did not do its job (everything but a write or a deliberate no-op)."""
        return self not in (Outcome.WROTE_MEMORY, Outcome.NO_NEW_MEMORIES)


# --- the typed view -----------------------------------------------------------------------


@dataclass(frozen=True)
class TraceHeader:
    """The run's scalar fields; None where the dump lacks the field or it is unusable."""

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
    reported_outcome: str | None = None
    """Memtab's own `outcome` field ("wrote", "no_new_memories", "failed"); not in mux dumps."""
    run_error: str | None = None
    """Memtab's own run-level `error` field; not in mux dumps."""


@dataclass(frozen=True)
class EventsSummary:
    """`eventsSummary`: how many transcript events there were and the JSON budget."""

    original_count: int | None = None
    trimmed_count: int | None = None
    max_json_chars: int | None = None


@dataclass(frozen=True)
class ToolExecution:
    """One tool call the model made during an attempt, with its result or error."""

    tool_name: str
    tool_call_id: str | None = None
    input: Any = None
    output: Any = None
    has_output: bool = False
    error: str | None = None
    started_at: int | None = None
    duration_ms: float | None = None

    @property
    def failed(self) -> bool:
        """An explicit `error`, or a result that says `success: false` (a rejected write)."""
        return self.error is not None or _reported_failure(self.output) is not None

    @property
    def problem(self) -> str | None:
        """What went wrong, in one text: the error, or the failed result's own message."""
        if self.error is not None:
            return self.error
        return _reported_failure(self.output)


@dataclass(frozen=True)
class TraceMessage:
    """One message sent to the model: its role and its text (non-text parts as JSON)."""

    role: str
    text: str


@dataclass(frozen=True)
class TraceAttempt:
    """One of the (up to two) model calls of a run."""

    number: int
    """1-based position in the dump (mux counts `attemptIndex` from 1, others from 0)."""
    attempt_index: int | None = None
    messages: tuple[TraceMessage, ...] = ()
    step_results: tuple[Any, ...] = ()
    """Whatever the model SDK reported per step; no fixed shape (see `describe_step`)."""
    tool_executions: tuple[ToolExecution, ...] = ()
    finish_reason: str | None = None
    wrote: bool | None = None
    no_new_memories: bool | None = None
    """None on dumps from older mux versions."""
    aborted: bool | None = None
    error: str | None = None


@dataclass(frozen=True)
class TraceSummary:
    """A dump as one line of a list: cheap to compute, enough to pick the one to open."""

    path: Path
    workspace_id: str
    workspace_name: str | None
    """The registry's display name, else the dump's `workspaceName`, else None."""
    run_started_at: int | None
    """ms since the epoch: the dump's `runStartedAt`, else the file name's, else its mtime."""
    trigger_message_id: str | None
    model_string: str | None
    outcome: Outcome
    error: str
    """One line saying what went wrong ("" when nothing did)."""
    problem: str | None
    """A file-level problem (unreadable, truncated, corrupt), or None."""
    size_bytes: int
    modified_at_ms: int | None

    @property
    def display_workspace(self) -> str:
        """The workspace as a person reads it: its name, else its id."""
        return self.workspace_name or self.workspace_id

    def to_json(self) -> dict[str, Any]:
        """The stable JSON shape of `memtab traces --json`."""
        return {
            "path": str(self.path),
            "workspaceId": self.workspace_id,
            "workspaceName": self.workspace_name,
            "runStartedAt": self.run_started_at,
            "triggerMessageId": self.trigger_message_id,
            "modelString": self.model_string,
            "outcome": self.outcome.value,
            "failed": self.outcome.failed,
            "error": self.error,
            "problem": self.problem,
            "sizeBytes": self.size_bytes,
        }


@dataclass(frozen=True, eq=False)
class TraceDump:
    """One dump, fully parsed and typed, with notes on whatever could not be read."""

    path: Path
    size_bytes: int
    raw_text: str
    """The file's text as read (invalid UTF-8 replaced), for the raw view and copying."""
    header: TraceHeader = field(default_factory=TraceHeader)
    system_prompt: str | None = None
    existing_memory: str | None = None
    events_summary: EventsSummary | None = None
    events: tuple[Any, ...] = ()
    user_message: str | None = None
    attempts: tuple[TraceAttempt, ...] = ()
    other_fields: Mapping[str, Any] = field(default_factory=dict)
    """Top-level members this viewer does not know (newer versions, mux extras)."""
    file_problem: str | None = None
    """Unreadable, empty, truncated or corrupt: what is shown is what could be recovered."""
    problems: tuple[str, ...] = ()
    """Fields that were present but unusable (wrong type), one note each."""
    outcome: Outcome = Outcome.UNREADABLE
    error_line: str = ""

    @property
    def tool_executions(self) -> tuple[ToolExecution, ...]:
        """Every tool execution of every attempt, in order."""
        return tuple(
            execution for attempt in self.attempts for execution in attempt.tool_executions
        )


# --- listing ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _FileStamp:
    size: int
    mtime_ns: int


class TraceCatalog:
    """Lists the dumps of a home, remembering summaries of files that did not change.

    Not thread-safe: use one catalog from one thread at a time (the GUI keeps one and
    scans it on its task runner).
    """

    def __init__(self, home: Home) -> None:
        """A catalog over `home`'s `debug_obj/`; nothing is read until `scan()`."""
        self.home = home
        self._cache: dict[Path, tuple[_FileStamp, TraceSummary]] = {}

    def scan(self, workspace_id: str | None = None) -> list[TraceSummary]:
        """Every dump (of one workspace, if given), newest first; never raises for a bad file."""
        names = workspace_names(self.home)
        seen: set[Path] = set()
        summaries: list[TraceSummary] = []
        for owner, path in _trace_files(self.home, workspace_id):
            seen.add(path)
            summary = self._summary(owner, path)
            name = names.get(owner) or summary.workspace_name
            summaries.append(replace(summary, workspace_name=name))
        if workspace_id is None:
            for gone in set(self._cache) - seen:
                del self._cache[gone]
        summaries.sort(key=_newest_first)
        return summaries

    def _summary(self, owner: str, path: Path) -> TraceSummary:
        try:
            info = path.stat()
        except OSError as error:
            self._cache.pop(path, None)
            return _unreadable_summary(owner, path, error)
        stamp = _FileStamp(info.st_size, info.st_mtime_ns)
        cached = self._cache.get(path)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        summary = summarize_trace(path, owner)
        self._cache[path] = (stamp, summary)
        return summary


def list_traces(home: Home, workspace_id: str | None = None) -> list[TraceSummary]:
    """Every writer dump in `home` (of one workspace, if given), newest first."""
    return TraceCatalog(home).scan(workspace_id)


def trace_workspace_ids(home: Home) -> list[str]:
    """The workspace ids that have a dump folder under `debug_obj/` (sorted)."""
    try:
        with os.scandir(home.debug_dir) as entries:
            return sorted(e.name for e in entries if _is_dir(e) and not e.name.startswith("."))
    except OSError:
        return []


def workspace_names(home: Home) -> dict[str, str]:
    """Workspace id → display name from the registry ({} when it cannot be read)."""
    try:
        registry = load_registry(home)
    except (HomeError, OSError) as error:
        logger.info("Workspace names unavailable for trace dumps: %s", error)
        return {}
    return {workspace.id: workspace.display_name for workspace in registry.workspaces}


def _trace_files(home: Home, workspace_id: str | None) -> Iterator[tuple[str, Path]]:
    owners = [workspace_id] if workspace_id is not None else trace_workspace_ids(home)
    for owner in owners:
        folder = home.trace_dir(owner)
        try:
            with os.scandir(folder) as entries:
                names = sorted(entry.name for entry in entries if _is_dump_entry(entry))
        except OSError:
            continue
        for name in names:
            yield owner, folder / name


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _is_dump_entry(entry: os.DirEntry[str]) -> bool:
    """A `*.json` that is a regular file, or that cannot be stat'ed (shown as unreadable).

    Directories and special files (a FIFO would block the reader) are skipped, and so are
    hidden names (an atomic writer's `.name.tmp` never ends in `.json` anyway).
    """
    if not entry.name.endswith(".json") or entry.name.startswith("."):
        return False
    try:
        return stat.S_ISREG(entry.stat().st_mode)
    except OSError:
        return True


def _newest_first(summary: TraceSummary) -> tuple[int, str]:
    return (-(summary.run_started_at or 0), str(summary.path))


_FILE_NAME = re.compile(r"^(\d{10,16})_(.+)\.json$")


def _name_parts(path: Path) -> tuple[int | None, str | None]:
    """`<runStartedAt>_<messageId sanitized>.json` → (runStartedAt, sanitized id)."""
    match = _FILE_NAME.match(path.name)
    if match is None:
        return None, None
    return int(match.group(1)), match.group(2)


def _unreadable_summary(owner: str, path: Path, error: OSError) -> TraceSummary:
    started, trigger = _name_parts(path)
    return TraceSummary(
        path=path,
        workspace_id=owner,
        workspace_name=None,
        run_started_at=started,
        trigger_message_id=trigger,
        model_string=None,
        outcome=Outcome.UNREADABLE,
        error="",
        problem=f"Cannot read the file: {error.strerror or error}",
        size_bytes=0,
        modified_at_ms=None,
    )


# --- summarizing and parsing --------------------------------------------------------------


def summarize_trace(path: Path, workspace_id: str | None = None) -> TraceSummary:
    """A cheap summary of one dump; `workspace_id` defaults to the dump's folder name."""
    owner = workspace_id or path.parent.parent.name
    try:
        data = path.read_bytes()
        info = path.stat()
    except OSError as error:
        return _unreadable_summary(owner, path, error)
    loaded = _load(data, _SUMMARY_FIELDS)
    notes = _Notes()
    header = _read_header(loaded.values, notes)
    attempts = _read_attempts(loaded.values.get("attempts"), notes)
    outcome, error_line = _assess(header, attempts, loaded)
    started, trigger = _name_parts(path)
    return TraceSummary(
        path=path,
        workspace_id=owner,
        workspace_name=header.workspace_name,
        run_started_at=header.run_started_at or started or info.st_mtime_ns // 1_000_000,
        trigger_message_id=header.trigger_message_id or trigger,
        model_string=header.model_string,
        outcome=outcome,
        error=error_line,
        problem=loaded.problem,
        size_bytes=info.st_size,
        modified_at_ms=info.st_mtime_ns // 1_000_000,
    )


def parse_trace(path: Path) -> TraceDump:
    """Read and parse one dump loosely; never raises (an unreadable file says so)."""
    try:
        data = path.read_bytes()
    except OSError as error:
        return TraceDump(
            path=path,
            size_bytes=0,
            raw_text="",
            file_problem=f"Cannot read the file: {error.strerror or error}",
        )
    return parse_trace_bytes(data, path)


def parse_trace_bytes(data: bytes, path: Path) -> TraceDump:
    """Parse a dump's bytes (as read from `path`) loosely."""
    loaded = _load(data, None)
    values = loaded.values
    notes = _Notes()
    header = _read_header(values, notes)
    attempts = _read_attempts(values.get("attempts"), notes)
    outcome, error_line = _assess(header, attempts, loaded)
    return TraceDump(
        path=path,
        size_bytes=len(data),
        raw_text=loaded.text,
        header=header,
        system_prompt=notes.text(values, "systemPrompt"),
        existing_memory=notes.text(values, "existingMemory"),
        events_summary=_read_events_summary(values.get("eventsSummary"), notes),
        events=_read_list(values, "events", notes),
        user_message=notes.text(values, "userMessage"),
        attempts=attempts,
        other_fields={key: value for key, value in values.items() if key not in _KNOWN_FIELDS},
        file_problem=loaded.problem,
        problems=tuple(notes.problems),
        outcome=outcome,
        error_line=error_line,
    )


def _read_header(values: Mapping[str, Any], notes: _Notes) -> TraceHeader:
    return TraceHeader(
        schema_version=notes.integer(values, "schemaVersion"),
        run_started_at=notes.integer(values, "runStartedAt"),
        workspace_id=notes.text(values, "workspaceId"),
        workspace_name=notes.text(values, "workspaceName"),
        trigger_message_id=notes.text(values, "triggerMessageId"),
        model_string=notes.text(values, "modelString"),
        timeout_ms=notes.integer(values, "timeoutMs"),
        timed_out=notes.flag(values, "timedOut"),
        did_write_memory=notes.flag(values, "didWriteMemory"),
        satisfied_memory_tool_policy=notes.flag(values, "satisfiedMemoryToolPolicy"),
        project_path=notes.text(values, "projectPath"),
        workspace_path=notes.text(values, "workspacePath"),
        memory_path=notes.text(values, "memoryPath"),
        reported_outcome=notes.text(values, "outcome"),
        run_error=_error_text(values.get("error")),
    )


def _read_events_summary(value: Any, notes: _Notes) -> EventsSummary | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        notes.wrong("eventsSummary", "an object", value)
        return None
    where = notes.nested("eventsSummary")
    return EventsSummary(
        original_count=where.integer(value, "originalCount"),
        trimmed_count=where.integer(value, "trimmedCount"),
        max_json_chars=where.integer(value, "maxJsonChars"),
    )


def _read_list(values: Mapping[str, Any], key: str, notes: _Notes) -> tuple[Any, ...]:
    return _as_items(values.get(key), key, notes)


def _as_items(value: Any, key: str, notes: _Notes) -> tuple[Any, ...]:
    """A member that should be a list, as a tuple; odd shapes are kept, and noted."""
    if value is None:
        return ()
    if isinstance(value, list):
        return tuple(value)
    notes.wrong(key, "a list", value)
    if isinstance(value, dict) and value and all(k.isdigit() for k in value):
        return tuple(value[k] for k in sorted(value, key=int))  # a list saved as {"0": ...}
    return (value,)


def _read_attempts(value: Any, notes: _Notes) -> tuple[TraceAttempt, ...]:
    items = _as_items(value, "attempts", notes)
    attempts = []
    for position, item in enumerate(items):
        where = notes.nested(f"attempts[{position}]")
        if not isinstance(item, dict):
            where.wrong("", "an object", item)
            continue
        attempts.append(
            TraceAttempt(
                number=position + 1,
                attempt_index=where.integer(item, "attemptIndex"),
                messages=_read_messages(item.get("messages")),
                step_results=_as_items(item.get("stepResults"), "stepResults", where),
                tool_executions=_read_tool_executions(item.get("toolExecutions"), where),
                finish_reason=where.text(item, "finishReason"),
                wrote=where.flag(item, "wrote"),
                no_new_memories=where.flag(item, "noNewMemories"),
                aborted=where.flag(item, "aborted"),
                error=_error_text(item.get("error")),
            )
        )
    return tuple(attempts)


def _read_messages(value: Any) -> tuple[TraceMessage, ...]:
    if value is None:
        return ()
    items = value if isinstance(value, list) else [value]
    messages = []
    for item in items:
        if isinstance(item, dict):
            role = item.get("role")
            messages.append(
                TraceMessage(role if isinstance(role, str) and role else "?", _message_text(item))
            )
        else:
            messages.append(TraceMessage("?", _content_text(item)))
    return tuple(messages)


def _message_text(message: Mapping[str, Any]) -> str:
    """A message's text, then its tool calls (`→`) and tool results (`←`), one per line.

    Covers mux's `{role, content}` (content a string or parts), Memtab's `{role, text,
    toolCalls}` / `{role: "tool", results}`, and shows anything else as JSON.
    """
    lines: list[str] = []
    for key in ("content", "parts", "text"):
        if message.get(key) is not None:
            text = _content_text(message[key])
            if text:
                lines.append(text)
            break
    calls = message.get("toolCalls")
    for call in calls if isinstance(calls, list) else ():
        if isinstance(call, dict):
            name = call.get("name", call.get("toolName", "?"))
            arguments = call.get("arguments", call.get("input"))
            lines.append(f"→ {name} {compact_json(arguments)}")
    results = message.get("results")
    for result in results if isinstance(results, list) else ():
        if isinstance(result, dict):
            mark = "← error: " if result.get("isError") else "← "
            lines.append(mark + _content_text(result.get("content")))
    if not lines:
        rest = {key: value for key, value in message.items() if key != "role"}
        return compact_json(rest) if rest else ""
    return "\n".join(lines)


def _content_text(content: Any) -> str:
    """Content as text: strings as they are, text parts joined, anything else as JSON."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        pieces = []
        for part in content:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                pieces.append(part["text"])
            elif isinstance(part, str):
                pieces.append(part)
            else:
                pieces.append(compact_json(part))
        return "\n".join(pieces)
    return compact_json(content)


def _read_tool_executions(value: Any, notes: _Notes) -> tuple[ToolExecution, ...]:
    items = _as_items(value, "toolExecutions", notes)
    executions = []
    for position, item in enumerate(items):
        where = notes.nested(f"toolExecutions[{position}]")
        if not isinstance(item, dict):
            where.wrong("", "an object", item)
            continue
        executions.append(
            ToolExecution(
                tool_name=where.text(item, "toolName") or "(unknown tool)",
                tool_call_id=where.text(item, "toolCallId"),
                input=item.get("input"),
                output=item.get("output"),
                has_output="output" in item,
                error=_error_text(item.get("error")),
                started_at=where.timestamp(item, "startedAt"),
                duration_ms=where.number(item, "durationMs"),
            )
        )
    return tuple(executions)


def _error_text(value: Any) -> str | None:
    """An `error` field as text: strings as they are, `{message}` objects by their message."""
    if value is None or value is False:
        return None
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, dict):
        message = value.get("message", value.get("error"))
        if isinstance(message, str) and message.strip():
            return message.strip()
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return ": ".join(value) or None
    return compact_json(value)


def _reported_failure(output: Any) -> str | None:
    """A tool result of the form `{success: false, error?}` → its message; else None."""
    if isinstance(output, dict) and output.get("success") is False:
        return _error_text(output.get("error")) or "success: false"
    return None


# --- outcome -----------------------------------------------------------------------------


def _assess(
    header: TraceHeader, attempts: Sequence[TraceAttempt], loaded: _Loaded
) -> tuple[Outcome, str]:
    """The run's outcome and its one-line error.

    mux sets an attempt's `error` only when the model call threw (a provider error, or an
    abort); Memtab also notes a policy failure there, with a finish reason, and keeps a
    run-level `error` and `outcome`.
    """
    if not loaded.values:
        return Outcome.UNREADABLE, _first_line(loaded.problem or "")
    erring = next((a for a in reversed(attempts) if a.error), None)
    failed_call = next(
        (
            call
            for attempt in reversed(attempts)
            for call in reversed(attempt.tool_executions)
            if call.failed
        ),
        None,
    )
    reported = header.reported_outcome
    if header.timed_out:
        outcome = Outcome.TIMED_OUT
    elif header.did_write_memory or reported == "wrote" or any(a.wrote for a in attempts):
        outcome = Outcome.WROTE_MEMORY
    elif (
        header.satisfied_memory_tool_policy
        or reported == "no_new_memories"
        or any(a.no_new_memories for a in attempts)
    ):
        outcome = Outcome.NO_NEW_MEMORIES
    elif any(a.aborted for a in attempts):
        outcome = Outcome.ABORTED
    elif erring is not None and erring.finish_reason in (None, "error"):
        outcome = Outcome.PROVIDER_ERROR
    elif not attempts:
        outcome = Outcome.FAILED
    else:
        outcome = Outcome.POLICY_NOT_SATISFIED

    if outcome in (Outcome.WROTE_MEMORY, Outcome.NO_NEW_MEMORIES):
        error = ""
    elif header.run_error is not None:
        error = header.run_error
    elif erring is not None:
        error = erring.error or ""
    elif failed_call is not None:
        error = f"{failed_call.tool_name}: {failed_call.problem}"
    elif outcome is Outcome.TIMED_OUT:
        error = f"Timed out after {header.timeout_ms} ms" if header.timeout_ms else "Timed out"
    elif outcome is Outcome.POLICY_NOT_SATISFIED:
        finish = attempts[-1].finish_reason
        error = "The model ended without calling memory_write or no_new_memories"
        if finish:
            error += f" (finish reason: {finish})"
    else:
        error = ""
    return outcome, _first_line(error)


def _first_line(text: str) -> str:
    line = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if len(line) > ERROR_LINE_MAX_CHARS:
        return line[: ERROR_LINE_MAX_CHARS - 1] + "…"
    return line


# --- loose field reading -----------------------------------------------------------------


class _Notes:
    """Reads fields loosely, noting each present-but-unusable one in a shared list."""

    def __init__(self, prefix: str = "", problems: list[str] | None = None) -> None:
        self.prefix = prefix
        self.problems: list[str] = [] if problems is None else problems

    def nested(self, name: str) -> _Notes:
        """Notes for the members of `name` (e.g. `attempts[0]`), into the same list."""
        return _Notes(f"{self.prefix}.{name}" if self.prefix else name, self.problems)

    def wrong(self, key: str, expected: str, value: Any) -> None:
        where = f"{self.prefix}.{key}" if self.prefix and key else (self.prefix or key)
        self.problems.append(f"`{where}` should be {expected} but is {_describe_value(value)}")

    def text(self, values: Mapping[str, Any], key: str) -> str | None:
        value = values.get(key)
        if value is None:
            return None
        if isinstance(value, str):
            return value
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
        self.wrong(key, "text", value)
        return compact_json(value)

    def integer(self, values: Mapping[str, Any], key: str) -> int | None:
        number = self.number(values, key)
        return None if number is None else int(number)

    def number(self, values: Mapping[str, Any], key: str) -> float | None:
        value = values.get(key)
        if value is None:
            return None
        if isinstance(value, int | float) and not isinstance(value, bool):
            if math.isfinite(value):
                return value
        elif isinstance(value, str):
            try:
                parsed = float(value.strip())
            except ValueError:
                pass
            else:
                if math.isfinite(parsed):
                    return int(parsed) if parsed.is_integer() else parsed
        self.wrong(key, "a number", value)
        return None

    def timestamp(self, values: Mapping[str, Any], key: str) -> int | None:
        """ms since the epoch from a number or an ISO 8601 string."""
        value = values.get(key)
        if isinstance(value, str) and not value.strip().lstrip("-").replace(".", "").isdigit():
            try:
                moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
            except ValueError:
                self.wrong(key, "a time", value)
                return None
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
            return int(moment.timestamp() * 1000)
        return self.integer(values, key)

    def flag(self, values: Mapping[str, Any], key: str) -> bool | None:
        value = values.get(key)
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        self.wrong(key, "true or false", value)
        return None


def _describe_value(value: Any) -> str:
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:39] + "…"
        return f"the text {json.dumps(shown, ensure_ascii=False)}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    return "null"


# --- tolerant JSON loading ----------------------------------------------------------------


@dataclass
class _Loaded:
    """The top-level members that could be read, and what went wrong, if anything."""

    text: str
    values: dict[str, Any]
    problem: str | None = None


class _Missing:
    """Nothing could be recovered at this position."""


_MISSING: Final = _Missing()
_DECODER: Final = json.JSONDecoder()
_WHITESPACE: Final = re.compile(r"[ \t\n\r]*")
_KEY: Final = re.compile(r'"((?:[^"\\\n]|\\.)*)"[ \t]*:[ \t]*')
_PARTIAL_ESCAPE: Final = re.compile(r"\\(?:u[0-9a-fA-F]{0,3})?$")
PathPart = str | int


def _load(data: bytes, wanted: frozenset[str] | None) -> _Loaded:
    """The dump's top-level members (only `wanted` ones, if given), as far as readable."""
    try:
        text = data.decode("utf-8")
        not_utf8 = False
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="replace")
        not_utf8 = True
    if text.startswith("\ufeff"):
        text = text[1:]
    loaded = _load_text(text, wanted)
    if not_utf8:
        note = "Some bytes are not valid UTF-8 (shown as �)"
        loaded.problem = f"{loaded.problem}. {note}" if loaded.problem else note
    return loaded


def _load_text(text: str, wanted: frozenset[str] | None) -> _Loaded:
    if not text.strip():
        return _Loaded(text, {}, "The file is empty")
    if wanted is None:
        # The common case, at C speed; the member walk below is for damaged or partial reads.
        try:
            document = json.loads(text)
        except json.JSONDecodeError:
            pass
        else:
            return _document(text, document, None)
    members = _split_members(text)
    if members is None:
        return _load_whole(text, wanted)
    closed = _closing_brace(text) is not None
    values: dict[str, Any] = {}
    problem: str | None = None
    for index, (key, start, end) in enumerate(members):
        if wanted is not None and key not in wanted:
            continue
        chunk = text[start:end]
        try:
            values[key] = json.loads(chunk)
            continue
        except json.JSONDecodeError as error:
            failure = error
        value, _, _, cut = _recover_value(chunk, 0)
        if not isinstance(value, _Missing):
            values[key] = value
        if problem is None:
            cut_short = index == len(members) - 1 and not closed and _hit_the_end(failure)
            problem = _damage_note(text, start + failure.pos, failure.msg, (key, *cut), cut_short)
    if not closed and problem is None:
        # The cut is in a member that was not decoded (or right after the last one).
        problem = _damage_note(text, len(text), "", (members[-1][0],), cut_short=True)
    return _Loaded(text, values, problem)


def _load_whole(text: str, wanted: frozenset[str] | None) -> _Loaded:
    """Compact (single-line) JSON: parse all of it, recovering a prefix if it is damaged."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        value, _, _, cut = _recover_value(text, 0)
        problem = _damage_note(text, error.pos, error.msg, cut, _hit_the_end(error))
        loaded = _document(text, value if isinstance(value, dict) else {}, problem)
    else:
        loaded = _document(text, document, None)
    if wanted is not None:
        loaded.values = {key: value for key, value in loaded.values.items() if key in wanted}
    return loaded


def _document(text: str, document: Any, problem: str | None) -> _Loaded:
    if isinstance(document, dict):
        return _Loaded(text, document, problem)
    return _Loaded(text, {}, problem or f"The file holds {_describe_value(document)}, not a dump")


def _split_members(text: str) -> list[tuple[str, int, int]] | None:
    """Locate the top-level members of a pretty-printed object without parsing them.

    In indented JSON a line that starts with exactly one indent unit and a quote can only
    be a key of the top-level object (strings cannot hold raw newlines), so `str.find`
    finds every member at C speed. Returns (key, value start, value end) for each, or None
    when the text is not laid out that way (then it is parsed whole).
    """
    brace = _skip_space(text, 0)
    if not text.startswith("{", brace):
        return None
    newline = text.find("\n", brace)
    if newline < 0 or text[brace + 1 : newline].strip():
        return None
    indent_end = newline + 1
    while indent_end < len(text) and text[indent_end] in " \t":
        indent_end += 1
    indent = text[newline + 1 : indent_end]
    if not indent or not text.startswith('"', indent_end):
        return None
    marker = "\n" + indent + '"'
    found: list[tuple[str, int]] = []
    position = newline
    while position >= 0:
        match = _KEY.match(text, position + len(marker) - 1)
        if match is None:
            return None
        try:
            key = json.loads(f'"{match.group(1)}"')
        except json.JSONDecodeError:
            return None
        found.append((key, match.end()))
        position = text.find(marker, match.end())
    closing = _closing_brace(text)
    ending = closing if closing is not None else _end_of_content(text, len(text))
    members = []
    for index, (key, start) in enumerate(found):
        if index + 1 < len(found):
            end = _end_of_content(text, text.rfind("\n", start, found[index + 1][1]), start)
            if text[end - 1 : end] == ",":
                end -= 1
        else:
            end = _end_of_content(text, ending, start)
        members.append((key, start, end))
    return members


def _end_of_content(text: str, end: int, start: int = 0) -> int:
    """`end` moved back over whitespace (like `rstrip`, without copying a huge string)."""
    while end > start and text[end - 1] in " \t\r\n":
        end -= 1
    return end


def _closing_brace(text: str) -> int | None:
    """Where the top-level `}` is, if the text ends with it alone on its line; else None."""
    end = _end_of_content(text, len(text))
    if text[end - 1 : end] != "}":
        return None
    line_start = text.rfind("\n", 0, end - 1)
    if line_start < 0 or text[line_start + 1 : end - 1].strip(" \t\r"):
        return None
    return end - 1


# What is left when a file is cut inside a literal or a number: `tru`, `nul`, `-12.`.
_PARTIAL_SCALAR: Final = re.compile(r"t(r(ue?)?)?|f(a(l(se?)?)?)?|n(u(ll?)?)?|-?[0-9.eE+-]*")


def _hit_the_end(error: json.JSONDecodeError) -> bool:
    """Whether the decoder failed because the text ended, not because of bad content."""
    if error.msg.startswith("Unterminated string"):
        return True
    rest = error.doc[error.pos :].strip()
    return _PARTIAL_SCALAR.fullmatch(rest) is not None


def _damage_note(
    text: str, position: int, reason: str, cut: Sequence[PathPart], cut_short: bool
) -> str:
    where = _format_path(cut)
    if cut_short:
        inside = f" inside `{where}`" if where else ""
        return f"The file is truncated (it ends{inside}); showing what could be recovered"
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    inside = f" in `{where}`" if where else ""
    return (
        f"The file is corrupt ({reason} at line {line}, column {column}{inside}); "
        "showing what could be recovered"
    )


def _format_path(parts: Sequence[PathPart]) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _recover_value(text: str, position: int) -> tuple[Any, int, bool, tuple[PathPart, ...]]:
    """Decode the JSON value at `position`, or as much of it as a damaged text holds.

    Returns (value or _MISSING, end, complete, path to where reading stopped).
    """
    position = _skip_space(text, position)
    if position >= len(text):
        return _MISSING, position, False, ()
    try:
        value, end = _DECODER.raw_decode(text, position)
    except json.JSONDecodeError:
        pass
    else:
        return value, end, True, ()
    opener = text[position]
    if opener == "{":
        return _recover_object(text, position + 1)
    if opener == "[":
        return _recover_array(text, position + 1)
    if opener == '"':
        return _recover_string(text, position), len(text), False, ()
    return _MISSING, position, False, ()


def _recover_object(text: str, position: int) -> tuple[Any, int, bool, tuple[PathPart, ...]]:
    result: dict[str, Any] = {}
    while True:
        position = _skip_space(text, position)
        if text.startswith("}", position):
            return result, position + 1, True, ()
        match = _KEY.match(text, position)
        if match is None:
            return result, position, False, ()
        try:
            key = json.loads(f'"{match.group(1)}"')
        except json.JSONDecodeError:
            return result, position, False, ()
        value, position, complete, cut = _recover_value(text, match.end())
        if not isinstance(value, _Missing):
            result[key] = value
        if not complete:
            return result, position, False, (key, *cut)
        position = _skip_space(text, position)
        if text.startswith(",", position):
            position += 1
        elif text.startswith("}", position):
            return result, position + 1, True, ()
        else:
            return result, position, False, ()


def _recover_array(text: str, position: int) -> tuple[Any, int, bool, tuple[PathPart, ...]]:
    result: list[Any] = []
    while True:
        position = _skip_space(text, position)
        if text.startswith("]", position):
            return result, position + 1, True, ()
        index = len(result)
        value, position, complete, cut = _recover_value(text, position)
        if not isinstance(value, _Missing):
            result.append(value)
        if not complete:
            return result, position, False, (index, *cut)
        position = _skip_space(text, position)
        if text.startswith(",", position):
            position += 1
        elif text.startswith("]", position):
            return result, position + 1, True, ()
        else:
            return result, position, False, ()


def _recover_string(text: str, position: int) -> Any:
    """The readable start of a string cut off by the end of the file, or _MISSING."""
    body = _PARTIAL_ESCAPE.sub("", text[position + 1 :].rstrip("\n"))
    for trim in range(4):  # a cut inside a surrogate pair or escape leaves a few bad chars
        try:
            value = json.loads(f'"{body[: len(body) - trim]}"')
        except json.JSONDecodeError:
            continue
        return value if isinstance(value, str) else _MISSING
    return _MISSING


def _skip_space(text: str, position: int) -> int:
    match = _WHITESPACE.match(text, position)
    return match.end() if match else position


# --- display helpers (shared by the CLI and the GUI) ---------------------------------------


def compact_json(value: Any) -> str:
    """One-line JSON, non-ASCII kept (unknown objects as their str)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def format_json(value: Any) -> str:
    """Indented JSON for reading; strings are shown as they are, not quoted."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, indent=2, default=str)


@dataclass(frozen=True)
class EventView:
    """A transcript event of a dump, as one line of a list."""

    role: str
    text: str
    sequence: int | None = None
    tool_names: tuple[str, ...] = ()
    failed_tools: int = 0


def describe_event(event: Any) -> EventView:
    """Read one `events[]` entry loosely: Memtab's normalized events, mux messages, or else."""
    if not isinstance(event, dict):
        return EventView("?", _content_text(event))
    role = event.get("role")
    metadata = event.get("metadata")
    sequence = event.get("historySequence")
    if sequence is None and isinstance(metadata, dict):
        sequence = metadata.get("historySequence")
    calls: list[Any] = []
    texts: list[str] = []
    if isinstance(event.get("text"), str):
        texts.append(event["text"])
    if isinstance(event.get("toolCalls"), list):
        calls.extend(event["toolCalls"])
    parts = event.get("parts")
    if isinstance(parts, list):  # a mux chat.jsonl message
        for part in parts:
            if not isinstance(part, dict):
                continue
            if part.get("type") == "text" and isinstance(part.get("text"), str):
                texts.append(part["text"])
            elif "toolName" in part:
                calls.append(part)
    names = tuple(str(call.get("toolName", "?")) for call in calls if isinstance(call, dict))
    failed = sum(1 for call in calls if isinstance(call, dict) and _call_failed(call))
    return EventView(
        role=role if isinstance(role, str) and role else "?",
        text="\n".join(texts),
        sequence=sequence if isinstance(sequence, int) and not isinstance(sequence, bool) else None,
        tool_names=names,
        failed_tools=failed,
    )


def _call_failed(call: Mapping[str, Any]) -> bool:
    return (
        bool(call.get("isError"))
        or bool(call.get("error"))
        or (_reported_failure(call.get("output")) is not None)
    )


def describe_step(step: Any) -> str:
    """One line for a step result of any shape: finish reason, tool calls, tokens, text."""
    if not isinstance(step, dict):
        return _first_line(_content_text(step)) or "(empty)"
    pieces: list[str] = []
    finish = step.get("finishReason", step.get("stopReason"))
    if isinstance(finish, str) and finish:
        pieces.append(finish)
    calls = step.get("toolCalls")
    if isinstance(calls, list) and calls:
        names = [str(c.get("toolName", c.get("name", "?"))) for c in calls if isinstance(c, dict)]
        pieces.append(f"tools: {', '.join(names)}" if names else f"{len(calls)} tool calls")
    usage = step.get("usage")
    if isinstance(usage, dict):
        tokens_in = usage.get("inputTokens", usage.get("input_tokens"))
        tokens_out = usage.get("outputTokens", usage.get("output_tokens"))
        if isinstance(tokens_in, int) and isinstance(tokens_out, int):
            pieces.append(f"{tokens_in:,} → {tokens_out:,} tokens")
    text = step.get("text")
    if isinstance(text, str) and text.strip():
        pieces.append(f"“{_first_line(text)[:80]}”")
    if not pieces:
        return _first_line(compact_json(step))[:120]
    return " · ".join(pieces)
