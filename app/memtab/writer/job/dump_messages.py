"""The model loop's conversation as a writer trace dump keeps it (`attempts[].messages` and
`stepResults`, docs/formats.md §10.3): a record per message kind, each built from the model loop's
own types (`memtab.llm.types`, which know nothing of files)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from memtab.fs.records import OmitNone, Record, WrittenAs
from memtab.llm.types import (
    AssistantMessage,
    Message,
    ModelReply,
    ToolCall,
    ToolOutcome,
    Usage,
    UserMessage,
)
from memtab.writer.job.result import usage_json


class DumpToolCall(Record, write_only=True):
    """A tool call the model asked for; arguments that did not parse keep their raw text and why."""

    id: str
    name: str
    arguments: dict[str, Any] | None
    raw_arguments: Annotated[str | None, OmitNone] = None
    parse_error: Annotated[str | None, OmitNone] = None


class DumpUserMessage(Record, write_only=True):
    role: Literal["user"] = "user"
    text: str


class DumpAssistantMessage(Record, write_only=True):
    role: Literal["assistant"] = "assistant"
    text: str
    tool_calls: tuple[DumpToolCall, ...] = ()


class DumpToolResult(Record, write_only=True):
    tool_call_id: str
    content: str
    is_error: bool


class DumpToolMessage(Record, write_only=True):
    role: Literal["tool"] = "tool"
    results: tuple[DumpToolResult, ...]


class DumpReply(Record, write_only=True):
    """One model reply (a step result)."""

    text: str
    tool_calls: tuple[DumpToolCall, ...]
    stop_reason: str
    usage: Annotated[Usage, WrittenAs(usage_json)]


DumpMessage = DumpUserMessage | DumpAssistantMessage | DumpToolMessage


def dump_call(call: ToolCall) -> DumpToolCall:
    if call.parse_error is None:
        return DumpToolCall(id=call.id, name=call.name, arguments=call.arguments)
    return DumpToolCall(
        id=call.id,
        name=call.name,
        arguments=call.arguments,
        raw_arguments=call.raw_arguments,
        parse_error=call.parse_error,
    )


def _result(outcome: ToolOutcome) -> DumpToolResult:
    return DumpToolResult(
        tool_call_id=outcome.call_id, content=outcome.content, is_error=outcome.is_error
    )


def dump_message(message: Message) -> DumpMessage:
    """A conversation message as the dump keeps it."""
    if isinstance(message, UserMessage):
        return DumpUserMessage(text=message.text)
    if isinstance(message, AssistantMessage):
        calls = tuple(map(dump_call, message.tool_calls))
        return DumpAssistantMessage(text=message.text, tool_calls=calls)
    return DumpToolMessage(results=tuple(map(_result, message.results)))


def dump_reply(reply: ModelReply) -> DumpReply:
    """One model reply as the dump keeps it (a step result)."""
    return DumpReply(
        text=reply.text,
        tool_calls=tuple(map(dump_call, reply.tool_calls)),
        stop_reason=reply.stop_reason,
        usage=reply.usage,
    )
