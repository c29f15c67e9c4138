"""Deeply nested JSON from a model is a tool error for the model, never a RecursionError."""

from __future__ import annotations

import json

import pytest

from memtab.fs.jsonfile import MAX_DEPTH
from memtab.llm.anthropic import AnthropicProvider
from memtab.llm.loop import run_tool_loop
from memtab.llm.openai import OpenAIProvider
from memtab.llm.types import (
    ProviderError,
    ToolCall,
    ToolOutcome,
    ToolResultsMessage,
    ToolSpec,
    UserMessage,
)
from memtab.llm.wire import parse_tool_arguments
from support.fake_model_server import FakeModelServer, anthropic_message, openai_completion

MEMORY_TOOL = ToolSpec("memory", "Memory files.", {"type": "object"})


def _nested_text(depth: int) -> str:
    return '{"x":' * depth + "1" + "}" * depth


def _nested(depth: int) -> dict[str, object]:
    value: dict[str, object] = {"x": 1}
    for _ in range(depth - 1):
        value = {"x": value}
    return value


def _never_called(call: ToolCall) -> ToolOutcome:
    raise AssertionError(f"a call with unusable arguments reached the tool: {call.name}")


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 450, 100_000])
def test_deep_argument_text_is_a_parse_error(depth: int) -> None:
    arguments, _, error = parse_tool_arguments(_nested_text(depth))
    assert arguments is None
    assert error is not None and "nested" in error and "deep" in error


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 450])
def test_a_deep_argument_object_is_a_parse_error(depth: int) -> None:
    arguments, _, error = parse_tool_arguments(_nested(depth))
    assert arguments is None and error is not None and "nested" in error


def test_arguments_at_the_depth_limit_are_fine() -> None:
    assert parse_tool_arguments(_nested_text(MAX_DEPTH))[2] is None


def _loop_result_error(provider: AnthropicProvider | OpenAIProvider) -> str:
    result = run_tool_loop(
        provider, "system", [UserMessage("go")], [MEMORY_TOOL], _never_called, max_steps=3
    )
    assert result.ok, result.detail
    [results] = [m for m in result.messages if isinstance(m, ToolResultsMessage)]
    [outcome] = results.results
    assert outcome.is_error
    return outcome.content


@pytest.mark.parametrize("depth", [450, 100_000])
def test_openai_deep_arguments_go_back_to_the_model_as_a_tool_error(
    fake_model_server: FakeModelServer, depth: int
) -> None:
    fake_model_server.add_json(openai_completion("", [("memory", _nested_text(depth))]))
    fake_model_server.add_json(openai_completion("Sorry, done."))
    with OpenAIProvider("gpt", "k" * 20, fake_model_server.openai_base_url) as provider:
        message = _loop_result_error(provider)
    assert "Invalid arguments for tool 'memory'" in message and "nested" in message
    # The model saw the error in its next request.
    assert "nested" in json.dumps(fake_model_server.requests[1].body)


def test_anthropic_deep_input_goes_back_to_the_model_as_a_tool_error(
    fake_model_server: FakeModelServer,
) -> None:
    body = json.dumps(anthropic_message("", [("memory", "PLACEHOLDER")]))
    raw = body.replace('"PLACEHOLDER"', _nested_text(MAX_DEPTH + 50)).encode()
    fake_model_server.add_raw(raw, content_type="application/json")
    fake_model_server.add_json(anthropic_message("Sorry, done."))
    with AnthropicProvider("claude", "k" * 20, fake_model_server.anthropic_base_url) as provider:
        message = _loop_result_error(provider)
    assert "nested" in message


def test_an_anthropic_reply_too_deep_to_read_is_a_protocol_error(
    fake_model_server: FakeModelServer,
) -> None:
    body = json.dumps(anthropic_message("", [("memory", "PLACEHOLDER")]))
    raw = body.replace('"PLACEHOLDER"', _nested_text(100_000)).encode()
    fake_model_server.add_raw(raw, content_type="application/json")
    provider = AnthropicProvider("claude", "k" * 20, fake_model_server.anthropic_base_url)
    with provider, pytest.raises(ProviderError) as caught:
        provider.complete("", [UserMessage("go")], [MEMORY_TOOL])
    assert caught.value.kind == "protocol" and "nested too deeply" in caught.value.message
