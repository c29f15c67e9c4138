"""A writer trace dump's `attempts[]`: Memtab's own messages and model replies as JSON,
key by key and in order (docs/formats.md §10.3; the Traces view reads them back)."""

from __future__ import annotations

import json

from memtab.llm.types import (
    AssistantMessage,
    ModelReply,
    ToolCall,
    ToolOutcome,
    ToolResultsMessage,
    Usage,
    UserMessage,
)
from memtab.writer.job.dumps import AttemptTrace


def test_an_attempts_messages_and_replies_keep_their_keys_in_order() -> None:
    good = ToolCall(id="c1", name="memory", arguments={"command": "view"})
    bad = ToolCall(id="c2", name="memory", arguments=None, raw_arguments="{x", parse_error="bad")
    attempt = AttemptTrace(
        attempt_index=1,
        messages=[
            UserMessage(text="the task"),
            AssistantMessage(text="looking", tool_calls=(good, bad)),
            ToolResultsMessage(
                results=(
                    ToolOutcome(call_id="c1", content="ok"),
                    ToolOutcome(call_id="c2", content="bad", is_error=True),
                )
            ),
        ],
        replies=[
            ModelReply(
                text="done",
                tool_calls=(good,),
                stop_reason="tool_use",
                usage=Usage(input_tokens=3, output_tokens=4),
            )
        ],
    )
    written = attempt.to_record().to_json()
    calls = (
        '[{"id": "c1", "name": "memory", "arguments": {"command": "view"}}, '
        '{"id": "c2", "name": "memory", "arguments": null, "rawArguments": "{x", '
        '"parseError": "bad"}]'
    )
    assert json.dumps(written["messages"]) == (
        '[{"role": "user", "text": "the task"}, '
        f'{{"role": "assistant", "text": "looking", "toolCalls": {calls}}}, '
        '{"role": "tool", "results": [{"toolCallId": "c1", "content": "ok", "isError": false}, '
        '{"toolCallId": "c2", "content": "bad", "isError": true}]}]'
    )
    assert json.dumps(written["stepResults"]) == (
        '[{"text": "done", "toolCalls": [{"id": "c1", "name": "memory", "arguments": '
        '{"command": "view"}}], "stopReason": "tool_use", '
        '"usage": {"inputTokens": 3, "outputTokens": 4}}]'
    )
