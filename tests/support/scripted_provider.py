"""A model in the process, for the consolidation and history tests: replies from a list."""

from __future__ import annotations

import threading
from collections.abc import Iterable

from memtab.llm.types import Message, ModelReply, ProviderError, ToolCall, ToolSpec


class ScriptedProvider:
    """An in-process ChatProvider: replies from a list, optionally blocking or failing."""

    def __init__(
        self,
        replies: Iterable[ModelReply] = (),
        *,
        gate: threading.Event | None = None,
        fail: ProviderError | None = None,
        name: str = "scripted",
    ) -> None:
        self.replies = list(replies)
        self.gate = gate
        self.fail = fail
        self.started = threading.Event()
        self.calls = 0
        self.systems: list[str] = []
        self.messages: list[list[Message]] = []
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    @property
    def model(self) -> str:
        return "test-model"

    def complete(
        self,
        system: str,
        messages: list[Message],
        tools: list[ToolSpec],
        *,
        cancel: threading.Event | None = None,
    ) -> ModelReply:
        self.calls += 1
        self.systems.append(system)
        self.messages.append(list(messages))
        self.started.set()
        if self.gate is not None:
            while not self.gate.wait(0.02):
                if cancel is not None and cancel.is_set():
                    raise ProviderError("cancelled", "scripted: cancelled")
        if self.fail is not None:
            raise self.fail
        return self.replies.pop(0) if self.replies else ModelReply("done")


def reading_first(replies: Iterable[ModelReply]) -> list[ModelReply]:
    """`replies` after one that views the memory root and every file their `memory` calls
    change, as a model that reads before it changes does: a consolidation refuses a
    model's change to a file its run has not viewed."""
    replies = list(replies)
    paths: list[str] = ["/memories"]
    for reply in replies:
        for call in reply.tool_calls:
            arguments = call.arguments or {}
            if call.name != "memory" or arguments.get("command") == "create":
                continue
            path = arguments.get("old_path") or arguments.get("path")
            if isinstance(path, str) and path not in paths:
                paths.append(path)
    views = tuple(
        ToolCall(f"read-{index}", "memory", {"command": "view", "path": path})
        for index, path in enumerate(paths)
    )
    return [ModelReply("", views), *replies]
