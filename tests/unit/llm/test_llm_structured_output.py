"""Structured output where the server offers it, and a server's refusals of a part of the
request: a job whose every reply is a call asks a server on this machine for one call by
JSON schema; a server that cannot take `tools` (llama.cpp's without `--jinja`: HTTP 500),
`response_format` or `max_tokens` is asked again without it, at once, and from then on."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memtab.llm.loop import run_tool_loop
from memtab.llm.openai import (
    OpenAIProvider,
    answer_in_text,
    calls_response_format,
    structured_prompt,
)
from memtab.llm.types import ToolCall, ToolOutcome, ToolSpec, UserMessage
from support.fake_model_server import FakeModelServer

from .cases import FAST_OPTIONS

WRITE = ToolSpec(
    "memory_write",
    "Replace text in the memory file.",
    {
        "type": "object",
        "properties": {"old_string": {"type": "string"}, "new_string": {"type": "string"}},
        "required": ["old_string", "new_string"],
        "additionalProperties": False,
    },
)
NOTHING = ToolSpec(
    "no_new_memories",
    "Nothing to record.",
    {"type": "object", "properties": {}, "additionalProperties": False},
)
JINJA_500 = {
    "error": {"code": 500, "message": "tools param requires --jinja flag", "type": "server_error"}
}
WRITTEN = (
    '```json\n{"name": "memory_write", "arguments": {"old_string": "", "new_string": "- x"}}\n```'
)


@pytest.fixture
def local(fake_model_server: FakeModelServer) -> Iterator[OpenAIProvider]:
    with OpenAIProvider(
        "qwen",
        None,
        fake_model_server.openai_base_url,
        512,
        options=FAST_OPTIONS,
        structured="calls",
    ) as made:
        yield made


def _ran(calls: list[ToolCall]) -> object:
    def execute(call: ToolCall) -> ToolOutcome:
        calls.append(call)
        return ToolOutcome(call.id, "ok")

    return execute


def test_a_calls_only_request_asks_for_one_call_by_schema(
    local: OpenAIProvider, fake_model_server: FakeModelServer
) -> None:
    fake_model_server.add_openai_reply(WRITTEN.strip("`").removeprefix("json\n"))
    reply = local.complete("Keep notes.", [UserMessage("go")], [WRITE, NOTHING])
    [body] = fake_model_server.bodies()
    assert body["response_format"] == calls_response_format([WRITE, NOTHING])
    schema = body["response_format"]["json_schema"]["schema"]
    assert [option["properties"]["name"] for option in schema["anyOf"]] == [
        {"const": "memory_write"},
        {"const": "no_new_memories"},
    ]
    assert [tool["function"]["name"] for tool in body["tools"]] == [
        "memory_write",
        "no_new_memories",
    ]
    assert reply.calls_from_text and reply.tool_calls[0].name == "memory_write"


def test_a_call_written_as_text_runs_and_goes_back_to_the_model_as_a_call(
    local: OpenAIProvider, fake_model_server: FakeModelServer
) -> None:
    fake_model_server.add_openai_reply(WRITTEN)
    fake_model_server.add_openai_reply("no_new_memories")
    calls: list[ToolCall] = []
    result = run_tool_loop(
        local,
        "Keep notes.",
        [UserMessage("go")],
        [WRITE, NOTHING],
        _ran(calls),
        max_steps=2,  # type: ignore[arg-type]
    )
    assert [call.name for call in calls] == ["memory_write", "no_new_memories"]
    assert calls[0].arguments == {"old_string": "", "new_string": "- x"}
    assert result.stop_reason == "max_steps"
    second = fake_model_server.bodies()[1]["messages"]
    assert second[2]["role"] == "assistant" and second[2]["content"] is None
    assert second[2]["tool_calls"][0]["function"]["name"] == "memory_write"
    assert second[3] == {"role": "tool", "tool_call_id": calls[0].id, "content": "ok"}


def test_a_server_without_tools_is_asked_again_at_once_with_the_tools_in_the_prompt(
    local: OpenAIProvider, fake_model_server: FakeModelServer
) -> None:
    fake_model_server.add_error(500, JINJA_500)
    fake_model_server.add_openai_reply(WRITTEN)
    fake_model_server.add_openai_reply("no_new_memories")
    calls: list[ToolCall] = []
    run_tool_loop(
        local,
        "Keep notes.",
        [UserMessage("go")],
        [WRITE, NOTHING],
        _ran(calls),
        max_steps=2,  # type: ignore[arg-type]
    )
    refused, retried, later = fake_model_server.bodies()  # a 500 that lasts is not retried
    assert "tools" in refused and "tools" not in retried and "tools" not in later
    system = retried["messages"][0]["content"]
    assert system.startswith("Keep notes.\n\n# Tools\n")
    assert system.endswith(structured_prompt(answer=False))
    assert '- memory_write: Replace text in the memory file. Arguments: {"type":"object"' in system
    assert retried["response_format"] == calls_response_format([WRITE, NOTHING])
    assert [call.name for call in calls] == ["memory_write", "no_new_memories"]
    # The conversation's call and its result go as plain turns.
    assert later["messages"][2:] == [
        {
            "role": "assistant",
            "content": '{"name": "memory_write", "arguments": '
            '{"old_string": "", "new_string": "- x"}}',
        },
        {"role": "user", "content": "Tool result:\nok"},
    ]
    assert local.refused == frozenset({"tools"})


def test_a_server_that_refuses_the_schema_is_asked_without_it(
    local: OpenAIProvider, fake_model_server: FakeModelServer
) -> None:
    fake_model_server.add_error(400, {"error": "response_format json_schema is not supported"})
    fake_model_server.add_openai_reply(WRITTEN)
    reply = local.complete("", [UserMessage("go")], [WRITE])
    refused, retried = fake_model_server.bodies()
    assert "response_format" in refused and "response_format" not in retried
    assert "tools" in retried and reply.tool_calls[0].name == "memory_write"


def test_a_server_that_wants_max_completion_tokens_gets_it(
    local: OpenAIProvider, fake_model_server: FakeModelServer
) -> None:
    fake_model_server.add_error(
        400,
        {
            "error": {
                "message": "Unsupported parameter: 'max_tokens' is not supported with this "
                "model. Use 'max_completion_tokens' instead."
            }
        },
    )
    fake_model_server.add_openai_reply("done")
    local.complete("", [UserMessage("go")], [])
    refused, retried = fake_model_server.bodies()
    assert refused["max_tokens"] == 512
    assert retried["max_completion_tokens"] == 512 and "max_tokens" not in retried


def test_a_refusal_of_something_else_is_not_retried(
    local: OpenAIProvider, fake_model_server: FakeModelServer
) -> None:
    fake_model_server.add_error(400, {"error": "the request exceeds the available context size"})
    with pytest.raises(Exception, match="exceeds the available context size"):
        local.complete("", [UserMessage("go")], [WRITE])
    assert len(fake_model_server.requests) == 1 and local.refused == frozenset()


def test_a_job_that_ends_in_words_is_asked_for_a_call_or_a_final_answer(
    fake_model_server: FakeModelServer,
) -> None:
    """Consolidate now ends with a summary: asked by schema, Qwen2.5-Coder 1.5B calls the
    memory tool instead of writing "View /memories/…" in prose, then answers."""
    fake_model_server.add_openai_reply(
        '{"name": "memory_write", "arguments": {"old_string": "", "new_string": "- x"}}'
    )
    fake_model_server.add_openai_reply(
        '{"name": "final_answer", "arguments": {"text": "Added one note."}}'
    )
    calls: list[ToolCall] = []
    with OpenAIProvider(
        "qwen",
        None,
        fake_model_server.openai_base_url,
        options=FAST_OPTIONS,
        structured="calls or answer",
    ) as provider:
        result = run_tool_loop(
            provider,
            "Tidy up.",
            [UserMessage("go")],
            [WRITE],
            _ran(calls),  # type: ignore[arg-type]
        )
    assert [call.name for call in calls] == ["memory_write"]
    assert result.stop_reason == "final" and result.text == "Added one note."
    first, second = fake_model_server.bodies()
    # The first reply must be a call (it answered "Merged …" without reading, else).
    assert first["response_format"] == calls_response_format([WRITE])
    schema = second["response_format"]["json_schema"]["schema"]
    assert [option["properties"]["name"] for option in schema["anyOf"]] == [
        {"const": "memory_write"},
        {"const": "final_answer"},
    ]
    # The system prompt stays the same (the server keeps what it computed of it).
    for body in (first, second):
        assert body["messages"][0]["content"] == "Tidy up.\n\n" + structured_prompt(answer=True)


@pytest.mark.parametrize(
    "text",
    [
        '{"name": "final_answer", "arguments": {"text": 3}}',
        '{"name": "final_answer", "arguments": {"text": "x", "more": 1}}',
        '{"name": "final_answer"}',
        "Done.",
    ],
)
def test_anything_but_a_final_answer_stays_as_written(text: str) -> None:
    assert answer_in_text(text) is None
