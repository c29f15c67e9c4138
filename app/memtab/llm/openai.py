"""OpenAI-compatible Chat Completions provider (`POST {base}/chat/completions`).

Serves OpenAI itself and the servers that copy its format — Ollama, llama.cpp server, vLLM,
LM Studio, OpenRouter — so replies are read loosely: `content` may be null or a list of
parts, tool calls may lack ids or send their arguments as a dict, usage may be absent.

Every request carries a reply limit (`max_completion_tokens` for OpenAI's own API, which
refuses `max_tokens` for its reasoning models; `max_tokens` elsewhere).
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from memtab.llm.endpoints import DEFAULT_OPENAI_BASE_URL, is_official_endpoint
from memtab.llm.http import HttpChatProvider, HttpOptions
from memtab.llm.types import (
    AssistantMessage,
    Message,
    ModelReply,
    ToolCall,
    ToolResultsMessage,
    ToolSpec,
    Usage,
    UserMessage,
)
from memtab.llm.wire import as_text, as_token_count, make_tool_call, server_error_text

# Chat Completions has no error flag on tool results; the model reads it from the text.
TOOL_ERROR_PREFIX = "Error: "
DEFAULT_MAX_TOKENS = 4096


class OpenAIProvider(HttpChatProvider):
    """Any OpenAI-compatible chat model. The key is optional (local servers need none)."""

    provider_name: ClassVar[str] = "openai"
    endpoint_path: ClassVar[str] = "/chat/completions"

    def __init__(
        self,
        model: str,
        api_key: str | None = None,
        base_url: str = DEFAULT_OPENAI_BASE_URL,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        *,
        options: HttpOptions | None = None,
    ) -> None:
        headers = {"content-type": "application/json"}
        if api_key:
            headers["authorization"] = f"Bearer {api_key}"
        super().__init__(model, base_url, headers, api_key, options)
        self.max_tokens = max_tokens
        self._limit_key = (
            "max_completion_tokens"
            if is_official_endpoint("openai", self.base_url)
            else "max_tokens"
        )

    def build_request(
        self, system: str, messages: list[Message], tools: list[ToolSpec]
    ) -> dict[str, Any]:
        """The Chat Completions body, with its reply limit."""
        wire: list[dict[str, Any]] = []
        if system:
            wire.append({"role": "system", "content": system})
        for message in messages:
            wire.extend(_wire_message(message))
        body: dict[str, Any] = {"model": self.model, "messages": wire}
        if tools:
            body["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": tool.name,
                        "description": tool.description,
                        "parameters": tool.input_schema,
                    },
                }
                for tool in tools
            ]
        body[self._limit_key] = self.max_tokens
        return body

    def parse_reply(self, payload: dict[str, Any]) -> ModelReply:
        """`choices[0]`: its text, its tool calls (malformed arguments kept as parse errors)."""
        choices = payload.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            error_text = server_error_text(payload)
            if error_text:  # OpenRouter reports some upstream failures with HTTP 200
                raise self.error("server", f"the server answered with an error: {error_text}")
            raise self.error("protocol", "the reply has no 'choices'")
        choice = choices[0]
        message = choice.get("message")
        if not isinstance(message, dict):
            raise self.error("protocol", "choices[0] has no 'message' object")
        reply_id = as_text(payload.get("id"))
        calls: list[ToolCall] = []
        raw_calls = message.get("tool_calls")
        for raw_call in raw_calls if isinstance(raw_calls, list) else []:
            if not isinstance(raw_call, dict):
                continue
            function = raw_call.get("function")
            if not isinstance(function, dict):
                function = {}
            calls.append(
                make_tool_call(
                    raw_call.get("id"),
                    function.get("name"),
                    function.get("arguments"),
                    len(calls),
                    reply_id,
                )
            )
        usage = payload.get("usage")
        if not isinstance(usage, dict):
            usage = {}
        finish_reason = choice.get("finish_reason")
        return ModelReply(
            text=_content_text(message.get("content")),
            tool_calls=tuple(calls),
            stop_reason=finish_reason if isinstance(finish_reason, str) else "stop",
            usage=Usage(
                as_token_count(usage.get("prompt_tokens")),
                as_token_count(usage.get("completion_tokens")),
            ),
            served_model=as_text(payload.get("model")) or None,
        )


def _content_text(content: object) -> str:
    """Message content as text: a string, null, or a list of `{type: "text", text}` parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            part["text"]
            for part in content
            if isinstance(part, dict) and isinstance(part.get("text"), str)
        )
    return ""


def _wire_message(message: Message) -> list[dict[str, Any]]:
    if isinstance(message, UserMessage):
        return [{"role": "user", "content": message.text}]
    if isinstance(message, ToolResultsMessage):
        return [
            {
                "role": "tool",
                "tool_call_id": result.call_id,
                "content": TOOL_ERROR_PREFIX + result.content
                if result.is_error
                else result.content,
            }
            for result in message.results
        ]
    return [_assistant_wire(message)]


def _assistant_wire(message: AssistantMessage) -> dict[str, Any]:
    wire: dict[str, Any] = {"role": "assistant", "content": message.text}
    if message.tool_calls:
        # The spec-conformant form: content null when the turn is only tool calls.
        wire["content"] = message.text or None
        wire["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": _arguments_text(call)},
            }
            for call in message.tool_calls
        ]
    return wire


def _arguments_text(call: ToolCall) -> str:
    """Arguments as the model sent them (even if malformed), else the parsed dict as JSON."""
    if call.raw_arguments or call.arguments is None:
        return call.raw_arguments
    return json.dumps(call.arguments, ensure_ascii=False)
