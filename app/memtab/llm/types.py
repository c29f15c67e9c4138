"""Provider-neutral types for a tool-using chat model.

The consolidator and the writer speak only these types; each provider translates them to
its wire format (Anthropic Messages, OpenAI Chat Completions) or answers them itself
(Memtab's offline engines, which live next to the job they serve).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol


@dataclass(frozen=True)
class ToolSpec:
    """A tool offered to the model: its name, what it does and a JSON schema of its input."""

    name: str
    description: str
    input_schema: dict[str, Any]


@dataclass(frozen=True)
class ToolCall:
    """One tool call the model asked for.

    `arguments` is None when the model sent arguments that are not a JSON object; then
    `parse_error` says why and the caller returns that to the model as a tool error.
    """

    id: str
    name: str
    arguments: dict[str, Any] | None
    raw_arguments: str = ""
    parse_error: str | None = None


@dataclass(frozen=True)
class ToolOutcome:
    """What a tool call produced, sent back to the model."""

    call_id: str
    content: str
    is_error: bool = False


@dataclass(frozen=True)
class UserMessage:
    text: str
    role: Literal["user"] = "user"


@dataclass(frozen=True)
class AssistantMessage:
    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    role: Literal["assistant"] = "assistant"


@dataclass(frozen=True)
class ToolResultsMessage:
    results: tuple[ToolOutcome, ...]
    role: Literal["tool"] = "tool"


Message = UserMessage | AssistantMessage | ToolResultsMessage


@dataclass
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0

    def add(self, other: Usage) -> None:
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens


@dataclass(frozen=True)
class ModelReply:
    """One model turn: its text, the tool calls it asks for, why it stopped, token usage."""

    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    stop_reason: str = "end_turn"
    usage: Usage = field(default_factory=Usage)

    def as_message(self) -> AssistantMessage:
        return AssistantMessage(text=self.text, tool_calls=self.tool_calls)


ProviderErrorKind = Literal[
    "auth",  # 401/403: key missing or refused
    "not_found",  # 404: wrong base URL or model
    "bad_request",  # 400/422: the server refused the request
    "rate_limited",  # 429 after every retry
    "server",  # 5xx after every retry
    "timeout",
    "connection",
    "cancelled",
    "protocol",  # a reply that is not the wire format
    "config",  # missing key, unknown provider
]


class ProviderError(Exception):
    """A model call that failed. The message names provider, model and URL — never a key."""

    def __init__(self, kind: ProviderErrorKind, message: str) -> None:
        super().__init__(message)
        self.kind: ProviderErrorKind = kind
        self.message = message


class ChatProvider(Protocol):
    """A tool-using chat model. Implementations must be safe to call from a worker thread."""

    @property
    def name(self) -> str:
        """Provider id: "anthropic", "openai", "offline"."""
        ...

    @property
    def model(self) -> str:
        """The model id as sent to the server (or a label for offline engines)."""
        ...

    def complete(
        self,
        system: str,
        messages: list[Message],
        tools: list[ToolSpec],
        *,
        cancel: threading.Event | None = None,
    ) -> ModelReply:
        """One model turn. Raises ProviderError; kind "cancelled" within ~1 s of `cancel`."""
        ...
