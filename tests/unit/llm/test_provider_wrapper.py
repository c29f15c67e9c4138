"""One provider wrapper: `ProviderWrapper` forwards a provider's name, model, turn and
close, and the wrappers of a run (`llm.loop.Redacted`, the writer's policy stop) derive
from it instead of forwarding each by hand."""

from __future__ import annotations

import threading

from memtab.llm import loop
from memtab.llm.types import Message, ModelReply, ProviderWrapper, ToolSpec, UserMessage
from memtab.writer.job import run

TOOL = ToolSpec("memory", "Memory files.", {"type": "object"})


class Scripted:
    """A provider that records its turns and whether it was closed."""

    name = "scripted"
    model = "model-1"

    def __init__(self) -> None:
        self.asked: list[tuple[str, list[Message], list[ToolSpec], threading.Event | None]] = []
        self.closed = False

    def complete(
        self,
        system: str,
        messages: list[Message],
        tools: list[ToolSpec],
        *,
        cancel: threading.Event | None = None,
    ) -> ModelReply:
        self.asked.append((system, messages, tools, cancel))
        return ModelReply(text=f"reply {len(self.asked)}")

    def close(self) -> None:
        self.closed = True


class Unclosable:
    """A provider that holds nothing to close."""

    name = "bare"
    model = "m"

    def complete(
        self,
        system: str,
        messages: list[Message],
        tools: list[ToolSpec],
        *,
        cancel: threading.Event | None = None,
    ) -> ModelReply:
        return ModelReply(text="ok")


def test_the_base_forwards_name_model_turn_and_close() -> None:
    inner = Scripted()
    wrapper = ProviderWrapper(inner)
    cancel = threading.Event()
    messages: list[Message] = [UserMessage("hello")]

    reply = wrapper.complete("system", messages, [TOOL], cancel=cancel)

    assert (wrapper.name, wrapper.model, reply.text) == ("scripted", "model-1", "reply 1")
    assert inner.asked == [("system", messages, [TOOL], cancel)]
    wrapper.close()
    assert inner.closed
    ProviderWrapper(Unclosable()).close()  # nothing to close: nothing happens


def test_a_run_s_wrappers_derive_from_the_one_base() -> None:
    wrappers = {cls.__module__ + "." + cls.__name__ for cls in ProviderWrapper.__subclasses__()}
    assert f"{loop.__name__}.Redacted" in wrappers
    assert f"{run.__name__}._StopWhenSatisfied" in wrappers
    redacted = loop.Redacted(Scripted())
    assert (redacted.name, redacted.model) == ("scripted", "model-1")
    assert "name" not in vars(loop.Redacted) and "model" not in vars(loop.Redacted)
