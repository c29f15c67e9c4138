"""Provider-neutral types for a tool-using chat model."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Protocol


@dataclass(frozen=True)
class ToolSpec:
    """A tool offered to the model: its name, what it does and a JSON schema of its input."""

    name: str
    description: str
    input_schema: dict[str, Any]


@dataclass(frozen=True)
class ToolCall:
    """One tool call the model asked for. `arguments` is None when the model sent arguments that are
    not a JSON object; then `parse_error` says why and the caller returns that to the model as a
    tool error."""

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
    """A user turn: plain text (the task, a reminder, transcript excerpts)."""

    text: str
    role: Literal["user"] = "user"


@dataclass(frozen=True)
class AssistantMessage:
    """A model turn as it is sent back to the model: its text and the tool calls it made."""

    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    role: Literal["assistant"] = "assistant"


@dataclass(frozen=True)
class ToolResultsMessage:
    """The answers to every tool call of the preceding assistant turn, in call order."""

    results: tuple[ToolOutcome, ...]
    role: Literal["tool"] = "tool"


Message = UserMessage | AssistantMessage | ToolResultsMessage
Cancel = threading.Event | None
"""What a provider's turn watches: set, the turn ends (kind "cancelled")."""


@dataclass
class Usage:
    """Token counts of one model call, or summed over a run."""

    input_tokens: int = 0
    output_tokens: int = 0

    def add(self, other: Usage) -> None:
        """Add another call's counts to these (in place)."""
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens


@dataclass(frozen=True)
class Timings:
    """What a server says one reply took (`llm.speed`): the prompt tokens it read (those it
    had not kept from an earlier request) in `prompt_s` seconds, the tokens it wrote in
    `output_s`."""

    prompt_tokens: int
    prompt_s: float
    output_tokens: int
    output_s: float


CUT_STOP_REASONS = frozenset({"length", "max_tokens"})
"""Why a reply stopped when it hit its length limit: OpenAI-compatible servers'
`finish_reason`, Anthropic's `stop_reason`."""


@dataclass(frozen=True)
class ModelReply:
    """One model turn: its text, the tool calls it asks for, why it stopped, token usage,
    and the model the server says answered and how long it took (when it says).
    `calls_from_text`: the calls were read from the text (the model wrote them instead of
    making them)."""

    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    stop_reason: str = "end_turn"
    usage: Usage = field(default_factory=Usage)
    served_model: str | None = None
    calls_from_text: bool = False
    timings: Timings | None = None

    @property
    def cut(self) -> bool:
        """The reply stopped at its length limit (`max_tokens`), before it ended."""
        return self.stop_reason in CUT_STOP_REASONS

    def as_message(self) -> AssistantMessage:
        """This reply as the assistant turn to append to the conversation (calls read from
        the text go back as calls, so the model sees its call made)."""
        return AssistantMessage(
            text="" if self.calls_from_text else self.text, tool_calls=self.tool_calls
        )


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
    """A model call that failed. The message names provider, model and URL — never a key;
    `detail` is what went wrong alone (the message when nothing else is known)."""

    def __init__(self, kind: ProviderErrorKind, message: str, detail: str | None = None) -> None:
        super().__init__(message)
        self.kind: ProviderErrorKind = kind
        self.message = message
        self.detail = message if detail is None else detail


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
        self, system: str, messages: list[Message], tools: list[ToolSpec], *, cancel: Cancel = None
    ) -> ModelReply:
        """One model turn. Raises ProviderError; kind "cancelled" within ~1 s of `cancel`."""
        ...


class ProviderWrapper:
    """A `ChatProvider` around another that forwards what a subclass does not change:
    its name, model, turn and close (`llm.loop.Redacted`, the writer's policy stop)."""

    def __init__(self, provider: ChatProvider) -> None:
        self.provider = provider

    @property
    def name(self) -> str:
        return self.provider.name

    @property
    def model(self) -> str:
        return self.provider.model

    def complete(
        self, system: str, messages: list[Message], tools: list[ToolSpec], *, cancel: Cancel = None
    ) -> ModelReply:
        """The wrapped provider's turn."""
        return self.provider.complete(system, messages, tools, cancel=cancel)

    def close(self) -> None:
        close_provider(self.provider)


def close_provider(provider: ChatProvider) -> None:
    """Release a provider's connections, if it holds any (HTTP providers hold a pool)."""
    close = getattr(provider, "close", None)  # duck-typed: httpx2 loads only with a model
    if callable(close):
        close()


OFFLINE_PROVIDER = "offline"
"""The provider name of every offline engine (`ChatProvider.name`)."""

CallsSoFar = list[tuple[ToolCall, ToolOutcome | None]]
"""Each tool call of a conversation in the order asked, with its outcome (None: none yet)."""


class OfflineProvider:
    """A `ChatProvider` of rules (see the module doc). A subclass names itself (`label`,
    for errors; `model_label`, its `model`), says which tools it needs (`needs`) and
    decides each turn (`next_turn`)."""

    label: ClassVar[str]
    """What it is, in words: "offline writer"."""
    model_label: ClassVar[str]
    needs: ClassVar[frozenset[str]]
    """The tools it cannot work without."""

    @property
    def name(self) -> str:
        return OFFLINE_PROVIDER

    @property
    def model(self) -> str:
        return self.model_label

    def complete(
        self, system: str, messages: list[Message], tools: list[ToolSpec], *, cancel: Cancel = None
    ) -> ModelReply:
        """The next turn, decided from the calls so far (`next_turn`)."""
        if cancel is not None and cancel.is_set():
            raise ProviderError("cancelled", f"{self.label}: cancelled")
        missing = self.needs - {tool.name for tool in tools}
        if missing:
            return self.without(missing)
        return self.next_turn(calls_so_far(messages))

    def without(self, missing: frozenset[str]) -> ModelReply:
        """The reply when tools it needs are not offered: by default it cannot work."""
        raise ProviderError("config", f"{self.label}: tools missing: {sorted(missing)}")

    def next_turn(self, calls: CallsSoFar) -> ModelReply:
        """The turn after `calls` (each with its outcome so far)."""
        raise NotImplementedError


def calls_so_far(messages: list[Message]) -> CallsSoFar:
    """Every tool call of `messages`, in the order asked, each with its outcome."""
    asked: list[ToolCall] = []
    outcomes: dict[str, ToolOutcome] = {}
    for message in messages:
        if isinstance(message, AssistantMessage):
            asked.extend(message.tool_calls)
        elif isinstance(message, ToolResultsMessage):
            outcomes.update((result.call_id, result) for result in message.results)
    return [(call, outcomes.get(call.id)) for call in asked]
