"""The base of the offline engines (`llm/types.py`): what the offline consolidator and
the offline writer share — their provider name, a cancelled run's error, the tools they
cannot work without, and the calls so far read out of the conversation."""

from __future__ import annotations

import threading

import pytest

from memtab.consolidation.offline.provider import OfflineConsolidator
from memtab.llm.types import (
    AssistantMessage,
    CallsSoFar,
    ModelReply,
    OfflineProvider,
    ProviderError,
    ToolCall,
    ToolOutcome,
    ToolResultsMessage,
    ToolSpec,
    UserMessage,
    calls_so_far,
)
from memtab.writer.job.offline_provider import OfflineWriterProvider


class Echo(OfflineProvider):
    label = "offline echo"
    model_label = "echo"
    needs = frozenset(("look",))

    def next_turn(self, calls: CallsSoFar) -> ModelReply:
        return ModelReply(" ".join(f"{c.id}:{o.content if o else '-'}" for c, o in calls))


LOOK = [ToolSpec("look", "", {})]


def test_the_calls_so_far_are_read_in_the_order_asked_each_with_its_outcome() -> None:
    first, second = ToolCall("a", "look", {}), ToolCall("b", "look", {})
    messages = [
        UserMessage("go"),
        AssistantMessage("", (first, second)),
        ToolResultsMessage((ToolOutcome("b", "B"),)),
    ]
    assert calls_so_far(messages) == [(first, None), (second, ToolOutcome("b", "B"))]
    assert Echo().complete("", messages, LOOK).text == "a:- b:B"
    assert (Echo().name, Echo().model) == ("offline", "echo")


def test_a_cancelled_run_and_a_missing_tool_stop_it_before_it_decides() -> None:
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(ProviderError, match="offline echo: cancelled") as raised:
        Echo().complete("", [], LOOK, cancel=cancel)
    assert raised.value.kind == "cancelled"
    with pytest.raises(ProviderError, match=r"offline echo: tools missing: \['look'\]"):
        Echo().complete("", [], [])


def test_both_offline_engines_are_offline_providers() -> None:
    writer = OfflineWriterProvider()
    assert isinstance(writer, OfflineProvider) and writer.name == "offline"
    with pytest.raises(ProviderError, match="offline writer: tools missing"):
        writer.complete("", [], LOOK)
    assert issubclass(OfflineConsolidator, OfflineProvider)
    assert OfflineConsolidator.model_label == "consolidator"
