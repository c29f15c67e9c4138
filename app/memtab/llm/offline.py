"""A provider that needs no model: rules of Memtab's own, spoken to like a model."""

from __future__ import annotations

import threading
from typing import ClassVar

from memtab.llm.types import (
    AssistantMessage,
    Message,
    ModelReply,
    ProviderError,
    ToolCall,
    ToolOutcome,
    ToolResultsMessage,
    ToolSpec,
)

OFFLINE_PROVIDER = "offline"
"""The provider name of every offline engine (`ChatProvider.name`)."""

CallsSoFar = list[tuple[ToolCall, ToolOutcome | None]]
"""Each tool call of a conversation in the order asked, with its outcome (None: none yet)."""


class OfflineProvider:
    """A `ChatProvider` of rules (see the module doc). A subclass names itself (`label`,
    for errors; `model_label`, its `model`), says which tools it needs (`needs`) and
    decides each turn (`next_turn`)."""

    label: ClassVar[str]
    """What it is, in words: "offline writer"."""
    model_label: ClassVar[str]
    needs: ClassVar[frozenset[str]]
    """The tools it cannot work without."""

    @property
    def name(self) -> str:
        return OFFLINE_PROVIDER

    @property
    def model(self) -> str:
        return self.model_label

    def complete(
        self,
        system: str,
        messages: list[Message],
        tools: list[ToolSpec],
        *,
        cancel: threading.Event | None = None,
    ) -> ModelReply:
        """The next turn, decided from the calls so far (`next_turn`)."""
        if cancel is not None and cancel.is_set():
            raise ProviderError("cancelled", f"{self.label}: cancelled")
        missing = self.needs - {tool.name for tool in tools}
        if missing:
            return self.without(missing)
        return self.next_turn(calls_so_far(messages))

    def without(self, missing: frozenset[str]) -> ModelReply:
        """The reply when tools it needs are not offered: by default it cannot work."""
        raise ProviderError("config", f"{self.label}: tools missing: {sorted(missing)}")

    def next_turn(self, calls: CallsSoFar) -> ModelReply:
        """The turn after `calls` (each with its outcome so far)."""
        raise NotImplementedError


def calls_so_far(messages: list[Message]) -> CallsSoFar:
    """Every tool call of `messages`, in the order asked, each with its outcome."""
    asked: list[ToolCall] = []
    outcomes: dict[str, ToolOutcome] = {}
    for message in messages:
        if isinstance(message, AssistantMessage):
            asked.extend(message.tool_calls)
        elif isinstance(message, ToolResultsMessage):
            outcomes.update((result.call_id, result) for result in message.results)
    return [(call, outcomes.get(call.id)) for call in asked]
