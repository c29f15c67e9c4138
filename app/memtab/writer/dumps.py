"""Trace dumps of writer runs: `debug_obj/<ws>/system1_memory_writer/<start>_<msg>.json`.

A dump is written for every failed run (timeout, tool policy not satisfied, provider
error) and, when `dump_successful_runs` is set, for successful ones too. Its fields are
mux's (SPEC §9), so the Traces view reads mux's dumps and Memtab's alike; Memtab adds a
few of its own (`outcome`, `error`, `memoryFile`, `memtab`), which a loose reader skips.

Before a dump reaches the disk, every string in it goes through the secret redaction of
SPEC §11, and every API key Memtab holds (passed as `known_secrets`) is replaced as
well. It is written atomically; the oldest dumps of the workspace beyond `max_dumps` are
then deleted.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memtab import __version__
from memtab.fs.atomic import atomic_write_json
from memtab.llm.loop import ToolExecution
from memtab.llm.types import Message, ModelReply, message_to_json, reply_to_json
from memtab.store.home import Home
from memtab.transcripts import REDACTED, redact_json

logger = logging.getLogger(__name__)

DUMP_SCHEMA_VERSION = 1
_UNSAFE_NAME_CHARS = re.compile(r"[^a-zA-Z0-9_.-]+")
_DUMP_NAME = re.compile(r"^(\d+)_.*\.json$")
_MAX_ID_CHARS = 120
# Shorter "secrets" would replace ordinary words all over the dump.
_MIN_KNOWN_SECRET_CHARS = 8


def trace_file_name(run_started_at: int, message_id: str) -> str:
    """`<runStartedAt>_<message id with [^a-zA-Z0-9_.-]+ runs replaced by _>.json`."""
    safe = _UNSAFE_NAME_CHARS.sub("_", message_id)[:_MAX_ID_CHARS]
    return f"{run_started_at}_{safe}.json"


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

    def to_json(self) -> dict[str, Any]:
        """The `attempts[]` entry of a dump."""
        data: dict[str, Any] = {
            "attemptIndex": self.attempt_index,
            "messages": [message_to_json(message) for message in self.messages],
            "stepResults": [reply_to_json(reply) for reply in self.replies],
            "toolExecutions": [_execution_json(execution) for execution in self.tool_executions],
            "finishReason": self.finish_reason,
            "wrote": self.wrote,
            "noNewMemories": self.no_new_memories,
            "aborted": self.aborted,
        }
        if self.error is not None:
            data["error"] = self.error
        return data


def _execution_json(execution: ToolExecution) -> dict[str, Any]:
    data = execution.to_json()
    # The tools answer in JSON text; keep it as an object so the dump reads like mux's.
    output = data.get("output")
    if isinstance(output, str) and output.startswith("{"):
        with contextlib.suppress(ValueError):
            data["output"] = json.loads(output)
    return data


@dataclass
class RunTrace:
    """Everything a dump records about one run (SPEC §9 field names in `to_json`)."""

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

    def to_json(self) -> dict[str, Any]:
        """The dump document, before redaction."""
        data: dict[str, Any] = {
            "schemaVersion": DUMP_SCHEMA_VERSION,
            "runStartedAt": self.run_started_at,
            "workspaceId": self.workspace_id,
            "workspaceName": self.workspace_name,
            "triggerMessageId": self.trigger_message_id,
            "modelString": self.model_string,
            "timeoutMs": self.timeout_ms,
            "timedOut": self.timed_out,
            "didWriteMemory": self.did_write_memory,
            "satisfiedMemoryToolPolicy": self.satisfied_memory_tool_policy,
            "projectPath": self.project_path,
            "workspacePath": self.workspace_path,
            "memoryPath": self.memory_path,
            "systemPrompt": self.system_prompt,
            "existingMemory": self.existing_memory,
            "eventsSummary": self.events_summary,
            "events": self.events,
            "userMessage": self.user_message,
            "attempts": [attempt.to_json() for attempt in self.attempts],
            "outcome": self.outcome,
            "memoryFile": self.memory_file,
            "memtab": {"version": __version__},
        }
        if self.error is not None:
            data["error"] = self.error
        return data


def scrub_known_secrets(value: Any, secrets: Iterable[str]) -> Any:
    """A copy of a JSON-like value with every occurrence of each secret replaced."""
    needles = sorted(
        {s for s in secrets if s and len(s) >= _MIN_KNOWN_SECRET_CHARS}, key=len, reverse=True
    )
    if not needles:
        return value

    def scrub(item: Any) -> Any:
        if isinstance(item, str):
            for needle in needles:
                item = item.replace(needle, REDACTED)
            return item
        if isinstance(item, dict):
            return {scrub(key): scrub(inner) for key, inner in item.items()}
        if isinstance(item, list | tuple):
            return [scrub(inner) for inner in item]
        return item

    return scrub(value)


def write_trace_dump(
    home: Home,
    trace: RunTrace,
    *,
    known_secrets: Iterable[str] = (),
    max_dumps: int,
) -> Path:
    """Redact and write the dump atomically, prune old dumps; return the dump's path."""
    document = scrub_known_secrets(redact_json(trace.to_json()), known_secrets)
    directory = home.trace_dir(trace.workspace_id)
    path = directory / trace_file_name(trace.run_started_at, trace.trigger_message_id)
    atomic_write_json(path, document)
    prune_trace_dumps(directory, max_dumps, keep=path)
    return path


def prune_trace_dumps(directory: Path, max_dumps: int, *, keep: Path | None = None) -> list[Path]:
    """Delete the oldest `<start>_*.json` dumps beyond `max_dumps`; return what was deleted.

    Age is the run start in the name (then the name); other files are never touched.
    `keep` (the dump just written) is never deleted.
    """
    try:
        names = [entry.name for entry in os.scandir(directory) if entry.is_file()]
    except OSError:
        return []
    dumps = sorted(
        (
            (int(match.group(1)), name)
            for name in names
            if (match := _DUMP_NAME.match(name)) is not None
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
