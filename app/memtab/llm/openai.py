"""OpenAI-compatible Chat Completions provider (`POST {base}/chat/completions`)."""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

from memtab.fs.jsonfile import JsonError, parse_json
from memtab.llm.endpoints import DEFAULT_OPENAI_BASE_URL, is_official_endpoint
from memtab.llm.http import HttpChatProvider, HttpOptions
from memtab.llm.settings_model import Structured
from memtab.llm.types import (
    AssistantMessage,
    Cancel,
    Message,
    ModelReply,
    ProviderError,
    ToolCall,
    ToolResultsMessage,
    ToolSpec,
    UserMessage,
)
from memtab.llm.wire import server_error_text

FINAL_ANSWER = "final_answer"
_ANSWER_ARGUMENTS = {
    "type": "object",
    "properties": {"text": {"type": "string"}},
    "required": ["text"],
    "additionalProperties": False,
}


def call_schema(tool: ToolSpec) -> dict[str, Any]:
    """The JSON schema of one call of `tool`."""
    return {
        "type": "object",
        "properties": {"name": {"const": tool.name}, "arguments": tool.input_schema},
        "required": ["name", "arguments"],
        "additionalProperties": False,
    }


def calls_response_format(tools: Sequence[ToolSpec], *, answer: bool = False) -> dict[str, Any]:
    """A `response_format` asking for one call of one of `tools` (at least one), or with
    `answer` a final answer."""
    schemas = [call_schema(tool) for tool in tools]
    if answer:
        schemas.append(call_schema(ToolSpec(FINAL_ANSWER, "", _ANSWER_ARGUMENTS)))
    schema = schemas[0] if len(schemas) == 1 else {"anyOf": schemas}
    return {"type": "json_schema", "json_schema": {"name": "tool_call", "schema": schema}}


def tools_prompt(tools: Sequence[ToolSpec]) -> str:
    """The tools described for the system prompt, and how to call one in the reply."""
    lines = [
        "# Tools",
        "",
        "Call a tool by answering with one JSON object and nothing else: "
        '{"name": "<tool name>", "arguments": {<arguments>}}. The result comes back '
        "in the next message. The tools:",
    ]
    for tool in tools:
        schema = json.dumps(tool.input_schema, ensure_ascii=False, separators=(",", ":"))
        lines.append(f"- {tool.name}: {' '.join(tool.description.split())} Arguments: {schema}")
    return "\n".join(lines)


def structured_prompt(*, answer: bool) -> str:
    """What the system prompt says of a reply asked by schema."""
    text = (
        "Each reply is one JSON object and nothing else: a tool call, "
        '{"name": "<tool name>", "arguments": {<arguments>}}'
    )
    if answer:
        text += (
            f', or, when you are done, {{"name": "{FINAL_ANSWER}", "arguments": '
            '{"text": "<your final answer>"}}'
        )
    return text + "."


def answer_in_text(text: str) -> str | None:
    """The final answer a reply asked by schema holds, or None when it is not one."""
    try:
        value = parse_json(text.strip())
    except JsonError:
        return None
    if (
        not isinstance(value, dict)
        or value.get("name") != FINAL_ANSWER
        or set(value) != {"name", "arguments"}
    ):
        return None
    arguments = value["arguments"]
    if not isinstance(arguments, dict) or set(arguments) != {"text"}:
        return None
    answer = arguments["text"]
    return answer if isinstance(answer, str) else None


logger = logging.getLogger(__name__)

# Chat Completions has no error flag on tool results; the model reads it from the text.
TOOL_ERROR_PREFIX = "Error: "
DEFAULT_MAX_TOKENS = 4096

# What a server's refusal names when it cannot take a part of the request: that part.
_REFUSED_PARTS: dict[str, re.Pattern[str]] = {
    "response_format": re.compile(r"response_format|json_schema|grammar", re.IGNORECASE),
    "tools": re.compile(r"\btools?\b|tool_choice|function", re.IGNORECASE),
    "max_tokens": re.compile(r"max_completion_tokens", re.IGNORECASE),
    "temperature": re.compile(r"\btemperature\b", re.IGNORECASE),
    "cache_prompt": re.compile(r"\bcache_prompt\b", re.IGNORECASE),
}


def _refusal_lasts(status: int, message: str) -> bool:
    """A server error that names a part of the request comes again: llama.cpp's server
    answers HTTP 500 "tools param requires --jinja flag"."""
    return any(pattern.search(message) for pattern in _REFUSED_PARTS.values())


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
        structured: Structured | None = None,
        temperature: float | None = None,
        fresh_prompt: bool = False,
    ) -> None:
        """`fresh_prompt`: ask a llama.cpp server to read each prompt whole (`cache_prompt:
        false`): a prompt partly read from its cache gives other logits, and at temperature 0
        another answer to the same session (its README says so); other servers ignore it."""
        headers = {"content-type": "application/json"}
        if api_key:
            headers["authorization"] = f"Bearer {api_key}"
        super().__init__(model, base_url, headers, api_key, options, lasting=_refusal_lasts)
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.structured = structured
        self.fresh_prompt = fresh_prompt
        self._limit_key = (
            "max_completion_tokens"
            if is_official_endpoint("openai", self.base_url)
            else "max_tokens"
        )
        self._lock = threading.Lock()
        self._refused: set[str] = set()  # parts of a request this server refused

    @property
    def refused(self) -> frozenset[str]:
        """The parts of a request this server refused, left out of every later one."""
        with self._lock:
            return frozenset(self._refused)

    def complete(
        self, system: str, messages: list[Message], tools: list[ToolSpec], *, cancel: Cancel = None
    ) -> ModelReply:
        """One model turn; asked again without a part of the request the server refused.
        A final answer asked by schema comes back as the reply's text."""
        while True:
            try:
                reply = super().complete(system, messages, tools, cancel=cancel)
            except ProviderError as error:
                part = self._refused_part(error, system, messages, tools)
                if part is None:
                    raise
                logger.info("%s refused %s; asking without it: %s", self.describe(), part, error)
                with self._lock:
                    self._refused.add(part)
                continue
            if self.structured == "calls or answer" and not reply.tool_calls:
                answer = answer_in_text(reply.text)
                if answer is not None:
                    return replace(reply, text=answer)
            return reply

    def _refused_part(
        self, error: ProviderError, system: str, messages: list[Message], tools: list[ToolSpec]
    ) -> str | None:
        """The part of the request `error` refuses, when leaving it out may help."""
        if error.kind != "bad_request":
            return None
        sent = self.build_request(system, messages, tools)
        for part, pattern in _REFUSED_PARTS.items():
            # "max_tokens" refused: the server wants max_completion_tokens instead.
            if part in sent and pattern.search(error.detail):
                return part
        return None

    def build_request(
        self, system: str, messages: list[Message], tools: list[ToolSpec]
    ) -> dict[str, Any]:
        """The Chat Completions body, without the parts this server refused."""
        refused = self.refused
        as_text = "tools" in refused
        schema = bool(self.structured and tools and "response_format" not in refused)
        # A job that ends in words answers once it has used a tool: it reads before it says.
        answer = self.structured == "calls or answer" and any(
            isinstance(message, ToolResultsMessage) for message in messages
        )
        added = [
            *([tools_prompt(tools)] if tools and as_text else []),
            # The same words each turn: a server reuses what it computed for the prompt.
            *([structured_prompt(answer=self.structured == "calls or answer")] if schema else []),
        ]
        system = "\n\n".join(part for part in (system, *added) if part)
        wire: list[dict[str, Any]] = []
        if system:
            wire.append({"role": "system", "content": system})
        for message in messages:
            wire.extend(_wire_message(message, as_text=as_text))
        body: dict[str, Any] = {"model": self.model, "messages": wire}
        if tools and not as_text:
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
        if schema:
            body["response_format"] = calls_response_format(tools, answer=answer)
        limit_key = "max_completion_tokens" if "max_tokens" in refused else self._limit_key
        body[limit_key] = self.max_tokens
        if self.temperature is not None and "temperature" not in refused:
            body["temperature"] = self.temperature
        if self.fresh_prompt and "cache_prompt" not in refused:
            body["cache_prompt"] = False
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
        raw_calls = message.get("tool_calls")
        calls: list[tuple[object, object, object]] = []
        for raw_call in raw_calls if isinstance(raw_calls, list) else []:
            if isinstance(raw_call, dict):
                function = raw_call.get("function")
                function = function if isinstance(function, dict) else {}
                calls.append((raw_call.get("id"), function.get("name"), function.get("arguments")))
        return self.reply(
            payload,
            _content_text(message.get("content")),
            calls,
            choice.get("finish_reason"),
            "stop",
            ("prompt_tokens",),
            "completion_tokens",
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


def _wire_message(message: Message, *, as_text: bool = False) -> list[dict[str, Any]]:
    """`message` on the wire; `as_text` for a server without tools: calls and their
    results as plain turns."""
    if isinstance(message, UserMessage):
        return [{"role": "user", "content": message.text}]
    if isinstance(message, ToolResultsMessage):
        if as_text:
            return [{"role": "user", "content": _results_text(message)}]
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
    if as_text:
        return [{"role": "assistant", "content": _calls_text(message)}]
    return [_assistant_wire(message)]


def _calls_text(message: AssistantMessage) -> str:
    """An assistant turn as text: its text, then each call as the JSON a model writes."""
    calls = [
        json.dumps({"name": call.name, "arguments": call.arguments or {}}, ensure_ascii=False)
        for call in message.tool_calls
    ]
    return "\n".join(part for part in (message.text, *calls) if part)


def _results_text(message: ToolResultsMessage) -> str:
    return "\n\n".join(
        f"Tool result{' (error)' if result.is_error else ''}:\n{result.content}"
        for result in message.results
    )


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
