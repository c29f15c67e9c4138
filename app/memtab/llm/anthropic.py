"""Anthropic Messages API provider (`POST {base}/v1/messages`)."""

from __future__ import annotations

from typing import Any, ClassVar

from memtab.llm.endpoints import DEFAULT_ANTHROPIC_BASE_URL
from memtab.llm.http import HttpChatProvider, HttpOptions
from memtab.llm.types import (
    AssistantMessage,
    Message,
    ModelReply,
    ToolResultsMessage,
    ToolSpec,
    UserMessage,
)

ANTHROPIC_VERSION = "2023-06-01"
DEFAULT_MAX_TOKENS = 4096
# The API refuses empty turns; an assistant turn with neither text nor tool calls gets this.
_EMPTY_TURN_TEXT = "(no reply)"


class AnthropicProvider(HttpChatProvider):
    """Claude models over the Anthropic Messages API. `base_url` may be given with or without the
    trailing `/v1`."""

    provider_name: ClassVar[str] = "anthropic"
    endpoint_path: ClassVar[str] = "/v1/messages"

    def __init__(
        self,
        model: str,
        api_key: str,
        base_url: str = DEFAULT_ANTHROPIC_BASE_URL,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        *,
        options: HttpOptions | None = None,
        temperature: float | None = None,
    ) -> None:
        base = base_url.rstrip("/").removesuffix("/v1")
        headers = {
            "x-api-key": api_key,
            "anthropic-version": ANTHROPIC_VERSION,
            "content-type": "application/json",
        }
        super().__init__(model, base, headers, api_key, options)
        if not api_key:
            self.close()
            raise self.error("config", "no API key (set ANTHROPIC_API_KEY)")
        self.max_tokens = max_tokens
        self.temperature = temperature

    def build_request(
        self, system: str, messages: list[Message], tools: list[ToolSpec]
    ) -> dict[str, Any]:
        """The Messages API body: consecutive user-side turns are merged into one."""
        body: dict[str, Any] = {"model": self.model, "max_tokens": self.max_tokens}
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if system:
            body["system"] = system
        body["messages"] = _wire_messages(messages)
        if tools:
            body["tools"] = [
                {
                    "name": tool.name,
                    "description": tool.description,
                    "input_schema": tool.input_schema,
                }
                for tool in tools
            ]
        return body

    def parse_reply(self, payload: dict[str, Any]) -> ModelReply:
        """Text blocks joined, tool_use blocks as ToolCalls; other block types are ignored."""
        content = payload.get("content")
        if not isinstance(content, list):
            raise self.error("protocol", "the reply has no 'content' list")
        blocks = [block for block in content if isinstance(block, dict)]
        return self.reply(
            payload,
            "\n".join(
                block["text"]
                for block in blocks
                if block.get("type") == "text" and isinstance(block.get("text"), str)
            ),
            [
                (block.get("id"), block.get("name"), block.get("input"))
                for block in blocks
                if block.get("type") == "tool_use"
            ],
            payload.get("stop_reason"),
            "end_turn",
            ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"),
            "output_tokens",
        )


def _wire_messages(messages: list[Message]) -> list[dict[str, Any]]:
    wire: list[dict[str, Any]] = []
    for message in messages:
        if isinstance(message, AssistantMessage):
            wire.append({"role": "assistant", "content": _assistant_blocks(message)})
            continue
        blocks = (
            [{"type": "text", "text": message.text}]
            if isinstance(message, UserMessage)
            else _tool_result_blocks(message)
        )
        if wire and wire[-1]["role"] == "user":
            wire[-1]["content"].extend(blocks)
        else:
            wire.append({"role": "user", "content": blocks})
    return wire


def _assistant_blocks(message: AssistantMessage) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = [{"type": "text", "text": message.text}] if message.text else []
    blocks += [
        {"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments or {}}
        for call in message.tool_calls
    ]
    return blocks or [{"type": "text", "text": _EMPTY_TURN_TEXT}]


def _tool_result_blocks(message: ToolResultsMessage) -> list[dict[str, Any]]:
    return [
        {
            "type": "tool_result",
            "tool_use_id": result.call_id,
            "content": result.content,
            "is_error": result.is_error,
        }
        for result in message.results
    ]
