"""Trace dumps of writer runs: `debug_obj/<ws>/system1_memory_writer/<start>_<msg>.json`. A dump is
written for every failed run (timeout, tool policy not satisfied, provider error) and, when
`dump_successful_runs` is set, for successful ones too (docs/formats.md §10.3, §12)."""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Annotated, Any, Literal

from memtab import __version__
from memtab.fs.atomic import atomic_write_json
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.private import PRIVATE_FILE_MODE, private_dir
from memtab.fs.records import OmitNone, Record, WrittenAs
from memtab.llm.loop import ToolExecution
from memtab.llm.types import (
    AssistantMessage,
    Message,
    ModelReply,
    ToolCall,
    Usage,
    UserMessage,
)
from memtab.redact import KeyScrubber, redact_json
from memtab.store.home import Home
from memtab.traces.names import parse_trace_file_name, trace_file_name
from memtab.traces.schema import (
    DUMP_SCHEMA_VERSION,
    AttemptRecord,
    DumpRecord,
    EventsSummaryRecord,
    ToolExecutionRecord,
)
from memtab.writer.job.result import usage_json


class DumpToolCall(Record, write_only=True):
    """A tool call the model asked for; arguments that did not parse keep their raw text and why."""

    id: str
    name: str
    arguments: dict[str, Any] | None
    raw_arguments: Annotated[str | None, OmitNone] = None
    parse_error: Annotated[str | None, OmitNone] = None


class DumpUserMessage(Record, write_only=True):
    role: Literal["user"] = "user"
    text: str


class DumpAssistantMessage(Record, write_only=True):
    role: Literal["assistant"] = "assistant"
    text: str
    tool_calls: tuple[DumpToolCall, ...] = ()


class DumpToolResult(Record, write_only=True):
    tool_call_id: str
    content: str
    is_error: bool


class DumpToolMessage(Record, write_only=True):
    role: Literal["tool"] = "tool"
    results: tuple[DumpToolResult, ...]


class DumpReply(Record, write_only=True):
    """One model reply (a step result)."""

    text: str
    tool_calls: tuple[DumpToolCall, ...]
    stop_reason: str
    usage: Annotated[Usage, WrittenAs(usage_json)]


DumpMessage = DumpUserMessage | DumpAssistantMessage | DumpToolMessage


def dump_call(call: ToolCall) -> DumpToolCall:
    unread = {"raw_arguments": call.raw_arguments, "parse_error": call.parse_error}
    broken = unread if call.parse_error is not None else {}
    return DumpToolCall(id=call.id, name=call.name, arguments=call.arguments, **broken)


def dump_message(message: Message) -> DumpMessage:
    """A conversation message as the dump keeps it."""
    if isinstance(message, UserMessage):
        return DumpUserMessage(text=message.text)
    if isinstance(message, AssistantMessage):
        calls = tuple(map(dump_call, message.tool_calls))
        return DumpAssistantMessage(text=message.text, tool_calls=calls)
    return DumpToolMessage(
        results=tuple(
            DumpToolResult(tool_call_id=r.call_id, content=r.content, is_error=r.is_error)
            for r in message.results
        )
    )


def dump_reply(reply: ModelReply) -> DumpReply:
    """One model reply as the dump keeps it (a step result)."""
    return DumpReply(
        text=reply.text,
        tool_calls=tuple(map(dump_call, reply.tool_calls)),
        stop_reason=reply.stop_reason,
        usage=reply.usage,
    )


logger = logging.getLogger(__name__)


@dataclass
class AttemptTrace:
    """One attempt of a run: the conversation, the model's steps and the tool calls."""

    attempt_index: int
    messages: list[Message] = field(default_factory=list)
    replies: list[ModelReply] = field(default_factory=list)
    tool_executions: list[ToolExecution] = field(default_factory=list)
    finish_reason: str | None = None
    wrote: bool = False
    no_new_memories: bool = False
    aborted: bool = False
    error: str | None = None

    def to_record(self) -> AttemptRecord:
        """The `attempts[]` entry of a dump."""
        optional = {"error": self.error} if self.error is not None else {}
        return AttemptRecord(
            attempt_index=self.attempt_index,
            messages=tuple(map(dump_message, self.messages)),
            step_results=tuple(map(dump_reply, self.replies)),
            tool_executions=tuple(_execution_record(call) for call in self.tool_executions),
            finish_reason=self.finish_reason,
            wrote=self.wrote,
            no_new_memories=self.no_new_memories,
            aborted=self.aborted,
            **optional,
        )


def _execution_record(execution: ToolExecution) -> ToolExecutionRecord:
    if execution.error is not None:
        result: dict[str, Any] = {"error": execution.error}
    else:
        # The tools answer in JSON text; keep it as an object so the dump reads like mux's.
        output: Any = execution.output
        if isinstance(output, str) and output.startswith("{"):
            with contextlib.suppress(JsonError):
                output = parse_json(output)
        result = {"output": output}
    return ToolExecutionRecord(
        tool_name=execution.tool_name,
        tool_call_id=execution.tool_call_id,
        input=execution.input,
        started_at=execution.started_at_ms,
        duration_ms=execution.duration_ms,
        **result,
    )


@dataclass
class RunTrace:
    """Everything a dump records about one run, gathered while it runs (see `to_record`)."""

    run_started_at: int
    workspace_id: str
    workspace_name: str
    trigger_message_id: str
    model_string: str
    timeout_ms: int
    project_path: str
    workspace_path: str
    memory_path: str
    memory_file: str
    system_prompt: str
    existing_memory: str
    events_summary: dict[str, int]
    events: list[dict[str, Any]]
    user_message: str
    attempts: list[AttemptTrace] = field(default_factory=list)
    timed_out: bool = False
    did_write_memory: bool = False
    satisfied_memory_tool_policy: bool = False
    outcome: str = "failed"
    error: str | None = None
    refused: list[tuple[str, str]] = field(default_factory=list)
    """(line, why) of each line the rails refused."""
    summary: str | None = None
    """Memtab's own: what the run's plan asked and left out for lack of time (§10.2)."""

    def to_record(self) -> DumpRecord:
        """The dump, before redaction."""
        optional: dict[str, Any] = {"error": self.error} if self.error is not None else {}
        if self.refused:
            optional["refused"] = tuple({"line": line, "why": why} for line, why in self.refused)
        same = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in _CONVERTED}
        return DumpRecord(
            schema_version=DUMP_SCHEMA_VERSION,
            events_summary=EventsSummaryRecord.read_or_raise(self.events_summary),
            events=tuple(self.events),
            attempts=tuple(attempt.to_record() for attempt in self.attempts),
            memtab={"version": __version__},
            **same,
            **optional,
        )


# What `RunTrace.to_record` converts; every other field is the dump's as it is.
_CONVERTED = frozenset({"events_summary", "events", "attempts", "error", "refused"})


def write_trace_dump(
    home: Home, trace: RunTrace, *, known_secrets: Iterable[str] = (), max_dumps: int
) -> Path:
    """Redact and write the dump of a writer's run (`save_dump`); return its path."""
    name = trace_file_name(trace.run_started_at, trace.trigger_message_id)
    return save_dump(
        home.trace_dir(trace.workspace_id),
        name,
        trace.to_record(),
        known_secrets=known_secrets,
        max_dumps=max_dumps,
    )


def save_dump(
    folder: Path,
    name: str,
    record: DumpRecord,
    *,
    known_secrets: Iterable[str] = (),
    max_dumps: int,
) -> Path:
    """Redact a dump and write it atomically, private (0600 in a 0700 folder: it quotes
    transcripts and memory, docs/formats.md §16.2), as `folder/name`; prune the folder's
    old dumps; return the dump's path. The consolidation's dumps are written here too."""
    # The keys Memtab holds are hidden by the same rule as in provider errors, marked as
    # the transcript rules mark a secret.
    keys = KeyScrubber(known_secrets)
    document = keys.json(redact_json(record.to_document()))
    directory = private_dir(folder)  # transcripts' words
    path = directory / name
    atomic_write_json(path, document, mode=PRIVATE_FILE_MODE)
    prune_trace_dumps(directory, max_dumps, keep=path)
    return path


def prune_trace_dumps(directory: Path, max_dumps: int, *, keep: Path | None = None) -> list[Path]:
    """Delete the oldest `<start>_*.json` dumps beyond `max_dumps`; return what was deleted. Age is
    the run start in the name (then the name); other files are never touched. `keep` (the dump just
    written) is never deleted."""
    try:
        names = [entry.name for entry in os.scandir(directory) if entry.is_file()]
    except OSError:
        return []
    dumps = sorted(
        (
            (named.run_started_at, name)
            for name in names
            if (named := parse_trace_file_name(name)) is not None
        ),
        reverse=True,
    )
    removed: list[Path] = []
    for _, name in dumps[max(max_dumps, 1) :]:
        path = directory / name
        if keep is not None and path == keep:
            continue
        try:
            path.unlink()
        except OSError as error:
            logger.warning("Cannot delete the old trace dump %s: %s", path, error)
            continue
        removed.append(path)
    return removed
