"""The offline writer: Memtab's built-in memory writer, no model needed.

It is a `ChatProvider`, so a run treats it exactly like a model: it gets the same user
message (and reads the events JSON from it), calls the same tools, and is held to the
same tool policy. Each turn it decides from the conversation so far:

1. nothing read yet → `memory_read`;
2. read → extract findings (`memtab.writer.extract`), merge them into the content it
   read (`memtab.writer.notes`); nothing new → `no_new_memories`, else a
   compare-and-swap `memory_write` with the whole content it read as `old_string`;
3. write failed (the file changed under it) → read again and retry, a bounded number of
   times;
4. write succeeded or no new memories → a one-line final answer.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from memtab.llm.types import (
    AssistantMessage,
    Message,
    ModelReply,
    ProviderError,
    ToolCall,
    ToolOutcome,
    ToolResultsMessage,
    ToolSpec,
    UserMessage,
)
from memtab.writer.extract import extract_findings
from memtab.writer.notes import merge_findings
from memtab.writer.prompts import events_from_user_message
from memtab.writer.tools import MEMORY_READ, MEMORY_WRITE, NO_NEW_MEMORIES

OFFLINE_WRITER_MODEL = "offline-writer"
MAX_WRITE_TRIES = 3


class OfflineWriterProvider:
    """A deterministic, rule-based stand-in for a model (see the module docstring)."""

    @property
    def name(self) -> str:
        return "offline"

    @property
    def model(self) -> str:
        return OFFLINE_WRITER_MODEL

    def complete(
        self,
        system: str,
        messages: list[Message],
        tools: list[ToolSpec],
        *,
        cancel: threading.Event | None = None,
    ) -> ModelReply:
        """The next turn of the offline writer."""
        if cancel is not None and cancel.is_set():
            raise ProviderError("cancelled", "offline writer: cancelled")
        offered = {tool.name for tool in tools}
        missing = {MEMORY_READ, MEMORY_WRITE, NO_NEW_MEMORIES} - offered
        if missing:
            raise ProviderError("config", f"offline writer: tools missing: {sorted(missing)}")
        history = _tool_history(messages)
        step = len(history)
        if not history:
            return _call(MEMORY_READ, {}, step)
        last_call, last_outcome = history[-1]
        if last_call.name == NO_NEW_MEMORIES:
            return ModelReply(text="No new memories in this conversation.")
        if last_call.name == MEMORY_WRITE:
            if not last_outcome.is_error:
                return ModelReply(text="Updated the memory file.")
            failed_writes = sum(
                1 for call, outcome in history if call.name == MEMORY_WRITE and outcome.is_error
            )
            if failed_writes >= MAX_WRITE_TRIES:
                return ModelReply(text=f"Gave up after {failed_writes} failed writes.")
            return _call(MEMORY_READ, {}, step)
        if last_call.name == MEMORY_READ:
            if last_outcome.is_error:
                return ModelReply(text=f"Cannot read the memory file: {last_outcome.content}")
            return self._update(_read_content(last_outcome), messages, step)
        return _call(MEMORY_READ, {}, step)

    def _update(self, current: str, messages: list[Message], step: int) -> ModelReply:
        items = _events(messages)
        merged = merge_findings(current, extract_findings(items))
        if merged == current:
            return _call(NO_NEW_MEMORIES, {}, step)
        old_string = current if current.strip() else ""
        return _call(MEMORY_WRITE, {"old_string": old_string, "new_string": merged}, step)


def _call(name: str, arguments: dict[str, Any], step: int) -> ModelReply:
    call = ToolCall(id=f"offline_{step}_{name}", name=name, arguments=arguments)
    return ModelReply(text="", tool_calls=(call,), stop_reason="tool_use")


def _tool_history(messages: list[Message]) -> list[tuple[ToolCall, ToolOutcome]]:
    """Every tool call made so far with its outcome, in order."""
    calls: dict[str, ToolCall] = {}
    history: list[tuple[ToolCall, ToolOutcome]] = []
    for message in messages:
        if isinstance(message, AssistantMessage):
            calls.update((call.id, call) for call in message.tool_calls)
        elif isinstance(message, ToolResultsMessage):
            history.extend(
                (calls[result.call_id], result)
                for result in message.results
                if result.call_id in calls
            )
    return history


def _read_content(outcome: ToolOutcome) -> str:
    try:
        value = json.loads(outcome.content)
    except ValueError:
        return ""
    content = value.get("content") if isinstance(value, dict) else None
    return content if isinstance(content, str) else ""


def _events(messages: list[Message]) -> list[dict[str, Any]]:
    for message in messages:
        if isinstance(message, UserMessage):
            events = events_from_user_message(message.text)
            if events is not None:
                return [event for event in events if isinstance(event, dict)]
    return []
