"""Translation between the neutral types and each wire format, checked on the real requests."""

from __future__ import annotations

import pytest

from memtab.llm.anthropic import AnthropicProvider
from memtab.llm.loop import run_tool_loop
from memtab.llm.openai import OpenAIProvider
from memtab.llm.types import (
    AssistantMessage,
    ProviderError,
    ToolCall,
    ToolOutcome,
    ToolResultsMessage,
    ToolSpec,
    UserMessage,
)
from support.fake_model_server import FakeModelServer

from .cases import ANTHROPIC_KEY, FAST_OPTIONS, OPENAI_KEY

MEMORY_SCHEMA = {
    "type": "object",
    "properties": {"command": {"type": "string"}, "path": {"type": "string"}},
    "required": ["command"],
}
MEMORY_TOOL = ToolSpec("memory", "Read and edit memory files.", MEMORY_SCHEMA)


def _view(call: ToolCall) -> ToolOutcome:
    assert call.arguments is not None
    return ToolOutcome(call.id, f"contents of {call.arguments['path']}")


def test_anthropic_tool_loop_request_bodies(
    anthropic: AnthropicProvider, fake_model_server: FakeModelServer
) -> None:
    fake_model_server.add_anthropic_reply(
        "Let me look.",
        [("memory", {"command": "view", "path": "/memories/a.md"}, "toolu_1")],
        usage=(100, 20),
    )
    fake_model_server.add_anthropic_reply("Nothing to change.", usage=(150, 10))

    result = run_tool_loop(
        anthropic, "You consolidate memory.", [UserMessage("Go.")], [MEMORY_TOOL], _view
    )

    assert result.stop_reason == "final"
    assert result.text == "Nothing to change."
    first, second = fake_model_server.bodies()
    assert first == {
        "model": "claude-test",
        "max_tokens": 4096,
        "system": "You consolidate memory.",
        "messages": [{"role": "user", "content": [{"type": "text", "text": "Go."}]}],
        "tools": [
            {
                "name": "memory",
                "description": "Read and edit memory files.",
                "input_schema": MEMORY_SCHEMA,
            }
        ],
    }
    assert second["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "Go."}]},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Let me look."},
                {
                    "type": "tool_use",
                    "id": "toolu_1",
                    "name": "memory",
                    "input": {"command": "view", "path": "/memories/a.md"},
                },
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_1",
                    "content": "contents of /memories/a.md",
                    "is_error": False,
                }
            ],
        },
    ]
    for request in fake_model_server.requests:
        assert request.headers["x-api-key"] == ANTHROPIC_KEY
        assert request.headers["anthropic-version"] == "2023-06-01"
        assert ANTHROPIC_KEY.encode() not in request.raw_body


def test_openai_tool_loop_request_bodies(
    openai: OpenAIProvider, fake_model_server: FakeModelServer
) -> None:
    fake_model_server.add_openai_reply(
        None, [("memory", '{"command": "view", "path": "/memories/a.md"}', "call_1")]
    )
    fake_model_server.add_openai_reply("Nothing to change.")

    result = run_tool_loop(
        openai, "You consolidate memory.", [UserMessage("Go.")], [MEMORY_TOOL], _view
    )

    assert result.text == "Nothing to change."
    first, second = fake_model_server.bodies()
    assert first == {
        "model": "gpt-test",
        "messages": [
            {"role": "system", "content": "You consolidate memory."},
            {"role": "user", "content": "Go."},
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "memory",
                    "description": "Read and edit memory files.",
                    "parameters": MEMORY_SCHEMA,
                },
            }
        ],
        "max_tokens": 4096,  # every request carries a reply limit
    }
    assert second["messages"][2:] == [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {
                        "name": "memory",
                        "arguments": '{"command": "view", "path": "/memories/a.md"}',
                    },
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "contents of /memories/a.md"},
    ]
    for request in fake_model_server.requests:
        assert request.headers["authorization"] == f"Bearer {OPENAI_KEY}"
        assert OPENAI_KEY.encode() not in request.raw_body


def test_openai_sends_no_authorization_without_key(fake_model_server: FakeModelServer) -> None:
    fake_model_server.add_openai_reply("local model here")
    with OpenAIProvider(
        "llama3", base_url=fake_model_server.openai_base_url, options=FAST_OPTIONS
    ) as local:
        assert local.complete("", [UserMessage("hi")], []).text == "local model here"
    assert "authorization" not in fake_model_server.requests[0].headers


def test_openai_tolerates_loose_servers(
    openai: OpenAIProvider, fake_model_server: FakeModelServer
) -> None:
    fake_model_server.add_openai_reply(
        None,
        [("memory", {"command": "view"}), ("memory", {"command": "view"}), ("memory", "")],
        usage=None,
        with_ids=False,
    )

    reply = openai.complete("", [UserMessage("hi")], [MEMORY_TOOL])

    assert reply.text == ""
    assert reply.usage.input_tokens == reply.usage.output_tokens == 0
    ids = [call.id for call in reply.tool_calls]
    assert all(ids) and len(set(ids)) == 3  # synthesized, distinct
    assert reply.tool_calls[0].arguments == {"command": "view"}
    assert reply.tool_calls[2].arguments == {}  # "" means no arguments


def test_openai_synthesized_ids_are_stable_per_reply(openai: OpenAIProvider) -> None:
    def payload(reply_id: str) -> dict[str, object]:
        call = {"function": {"name": "memory", "arguments": '{"command": "view"}'}}
        return {"id": reply_id, "choices": [{"message": {"content": None, "tool_calls": [call]}}]}

    first = openai.parse_reply(payload("r1")).tool_calls[0].id
    assert openai.parse_reply(payload("r1")).tool_calls[0].id == first
    assert openai.parse_reply(payload("r2")).tool_calls[0].id != first


def test_openai_arguments_as_dict_and_content_parts(openai: OpenAIProvider) -> None:
    reply = openai.parse_reply(
        {
            "choices": [
                {
                    "message": {
                        "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
                        "tool_calls": [
                            {"id": "x", "function": {"name": "memory", "arguments": {"k": 1}}}
                        ],
                    },
                    "finish_reason": "tool_calls",
                }
            ]
        }
    )
    assert reply.text == "ab"
    assert reply.tool_calls[0].arguments == {"k": 1}
    assert reply.stop_reason == "tool_calls"


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ('{"command": "view"', "not valid JSON"),
        ('["view"]', "got array"),
        ("42", "got int"),
    ],
)
def test_openai_malformed_arguments_become_parse_errors(
    openai: OpenAIProvider, fake_model_server: FakeModelServer, raw: str, why: str
) -> None:
    fake_model_server.add_openai_reply(None, [("memory", raw, "call_bad")])

    [call] = openai.complete("", [UserMessage("hi")], [MEMORY_TOOL]).tool_calls

    assert call.arguments is None
    assert call.raw_arguments == raw
    assert call.parse_error is not None and why in call.parse_error


def test_openai_error_inside_a_200_reply(
    openai: OpenAIProvider, fake_model_server: FakeModelServer
) -> None:
    fake_model_server.add_json({"error": {"message": "upstream provider overloaded", "code": 502}})
    with pytest.raises(ProviderError) as caught:
        openai.complete("", [UserMessage("hi")], [])
    assert caught.value.kind == "server"
    assert "upstream provider overloaded" in caught.value.message


def test_openai_tool_errors_are_marked_in_the_text(openai: OpenAIProvider) -> None:
    body = openai.build_request(
        "",
        [
            UserMessage("hi"),
            AssistantMessage("", (ToolCall("c1", "memory", None, "{oops", "bad JSON"),)),
            ToolResultsMessage((ToolOutcome("c1", "bad arguments", is_error=True),)),
        ],
        [],
    )
    assistant, tool = body["messages"][1:]
    # The malformed arguments are re-sent as the model wrote them.
    assert assistant["tool_calls"][0]["function"]["arguments"] == "{oops"
    assert tool == {"role": "tool", "tool_call_id": "c1", "content": "Error: bad arguments"}


def test_anthropic_merges_user_turns_and_fills_empty_assistant_turns(
    anthropic: AnthropicProvider,
) -> None:
    body = anthropic.build_request(
        "",
        [
            UserMessage("hi"),
            AssistantMessage("", (ToolCall("t1", "memory", {"command": "view"}),)),
            ToolResultsMessage((ToolOutcome("t1", "failed", is_error=True),)),
            UserMessage("Reminder: finish with a summary."),
            AssistantMessage(""),
        ],
        [],
    )
    assert "system" not in body and "tools" not in body
    assert body["messages"][2] == {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "failed", "is_error": True},
            {"type": "text", "text": "Reminder: finish with a summary."},
        ],
    }
    assert body["messages"][3]["content"] == [{"type": "text", "text": "(no reply)"}]


def test_anthropic_reply_parsing(anthropic: AnthropicProvider) -> None:
    reply = anthropic.parse_reply(
        {
            "content": [
                {"type": "thinking", "thinking": "hmm"},
                {"type": "text", "text": "One."},
                {"type": "tool_use", "id": "t1", "name": "memory", "input": {"command": "view"}},
                {"type": "tool_use", "name": "memory", "input": "not an object"},
                {"type": "text", "text": "Two."},
            ],
            "stop_reason": "tool_use",
            "usage": {
                "input_tokens": 10,
                "cache_read_input_tokens": 90,
                "output_tokens": 7,
            },
        }
    )
    assert reply.text == "One.\nTwo."
    assert reply.tool_calls[0] == ToolCall(
        "t1", "memory", {"command": "view"}, '{"command": "view"}'
    )
    assert reply.tool_calls[1].id  # synthesized
    assert reply.tool_calls[1].parse_error is not None
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (100, 7)


def test_anthropic_base_url_with_v1_suffix(fake_model_server: FakeModelServer) -> None:
    fake_model_server.add_anthropic_reply("ok")
    with AnthropicProvider(
        "claude-test", ANTHROPIC_KEY, fake_model_server.base_url + "/v1/", options=FAST_OPTIONS
    ) as provider:
        assert provider.complete("", [UserMessage("hi")], []).text == "ok"
    assert fake_model_server.requests[0].path == "/v1/messages"


def test_anthropic_needs_a_key() -> None:
    with pytest.raises(ProviderError) as caught:
        AnthropicProvider("claude-test", "")
    assert caught.value.kind == "config"
    assert "ANTHROPIC_API_KEY" in caught.value.message


@pytest.mark.parametrize("base_url", ["localhost:11434/v1", "ftp://example.com", "http://"])
def test_unusable_base_url_is_a_config_error(base_url: str) -> None:
    with pytest.raises(ProviderError) as caught:
        OpenAIProvider("llama3", base_url=base_url)
    assert caught.value.kind == "config"
    assert "base URL" in caught.value.message
