"""The tool loop against both providers: steps, tool errors, bounds, cancellation, usage."""

from __future__ import annotations

import threading

import pytest

from memtab.llm.http import HttpChatProvider
from memtab.llm.loop import CUT_REPLY, LoopResult, run_tool_loop
from memtab.llm.types import (
    AssistantMessage,
    ToolCall,
    ToolOutcome,
    ToolResultsMessage,
    ToolSpec,
    UserMessage,
)
from support.fake_model_server import cancel_once_asked

from .cases import ProviderCase

MEMORY_TOOL = ToolSpec("memory", "Memory files.", {"type": "object"})
GO = [UserMessage("Consolidate.")]


class RecordingTool:
    """An execute_tool that records its calls and answers `ok <command>`."""

    def __init__(self) -> None:
        self.calls: list[ToolCall] = []

    def __call__(self, call: ToolCall) -> ToolOutcome:
        self.calls.append(call)
        assert call.arguments is not None
        return ToolOutcome(call.id, f"ok {call.arguments.get('command')}")


def _run(provider: HttpChatProvider, tool: RecordingTool, **kwargs: object) -> LoopResult:
    return run_tool_loop(provider, "system", GO, [MEMORY_TOOL], tool, **kwargs)  # type: ignore[arg-type]


def test_multi_step_loop_sums_usage_and_records_everything(
    case: ProviderCase, provider: HttpChatProvider
) -> None:
    case.add_reply("", [("memory", {"command": "view"})], usage=(100, 10))
    case.add_reply("", [("memory", {"command": "str_replace"})], usage=(200, 20))
    case.add_reply("  Merged two files.\n", usage=(300, 30))
    tool = RecordingTool()
    progress: list[tuple[int, str]] = []

    result = _run(provider, tool, on_step=lambda step, message: progress.append((step, message)))

    assert result.ok and result.stop_reason == "final"
    assert result.text == "Merged two files."
    assert result.steps == 3
    assert (result.usage.input_tokens, result.usage.output_tokens) == (600, 60)
    assert [call.arguments for call in tool.calls] == [
        {"command": "view"},
        {"command": "str_replace"},
    ]
    assert len(result.replies) == 3
    assert [type(message) for message in result.messages] == [
        UserMessage,
        AssistantMessage,
        ToolResultsMessage,
        AssistantMessage,
        ToolResultsMessage,
        AssistantMessage,
    ]
    [first, second] = result.tool_executions
    assert (first.tool_name, first.input, first.output, first.error) == (
        "memory",
        {"command": "view"},
        "ok view",
        None,
    )
    assert first.tool_call_id == tool.calls[0].id
    assert first.started_at_ms > 1_600_000_000_000 and first.duration_ms >= 0
    assert second.output == "ok str_replace"
    # The second request carried the first tool result back to the model.
    assert case.tool_results(case.server.requests[1].body) == [(tool.calls[0].id, "ok view", False)]
    assert {step for step, _ in progress} == {1, 2, 3}
    assert any("running memory" in message for _, message in progress)


def test_malformed_arguments_are_answered_by_the_loop(
    case: ProviderCase, provider: HttpChatProvider
) -> None:
    if case.wire == "anthropic":
        case.server.add_anthropic_reply("", [("memory", "not an object", "bad_1")])
    else:
        case.server.add_openai_reply(None, [("memory", '{"command": "vi', "bad_1")])
    case.add_reply("", [("memory", {"command": "view"})])
    case.add_reply("done")
    tool = RecordingTool()

    result = _run(provider, tool)

    assert result.stop_reason == "final" and result.text == "done"
    assert len(tool.calls) == 1  # only the well-formed call reached the tool
    [(call_id, content, is_error)] = case.tool_results(case.server.requests[1].body)
    assert call_id == "bad_1" and is_error
    assert "Invalid arguments for tool 'memory'" in content
    bad = result.tool_executions[0]
    assert bad.error is not None and bad.output is None


def test_unknown_tool_gets_an_error_result(case: ProviderCase, provider: HttpChatProvider) -> None:
    case.add_reply("", [("shell", {"cmd": "rm -rf /"})])
    case.add_reply("sorry")
    tool = RecordingTool()

    result = _run(provider, tool)

    assert result.text == "sorry"
    assert tool.calls == []
    [(_, content, is_error)] = case.tool_results(case.server.requests[1].body)
    assert is_error
    assert "Unknown tool 'shell'" in content and "memory" in content


@pytest.mark.expect_log("memtab.llm.loop", "ERROR", r"^tool memory failed")
def test_tool_exception_becomes_an_error_result(
    case: ProviderCase, provider: HttpChatProvider
) -> None:
    case.add_reply("", [("memory", {"command": "view"})])
    case.add_reply("noted")

    def broken(call: ToolCall) -> ToolOutcome:
        raise RuntimeError("disk on fire")

    result = run_tool_loop(provider, "", GO, [MEMORY_TOOL], broken)

    assert result.text == "noted"
    [(_, content, is_error)] = case.tool_results(case.server.requests[1].body)
    assert is_error and "disk on fire" in content


def test_max_steps(case: ProviderCase, provider: HttpChatProvider) -> None:
    for _ in range(3):
        case.add_reply("still going", [("memory", {"command": "view"})])
    tool = RecordingTool()

    result = _run(provider, tool, max_steps=2)

    assert result.stop_reason == "max_steps"
    assert result.steps == 2
    assert len(tool.calls) == 2  # the last step's calls still ran
    assert len(case.server.requests) == 2
    assert "2 steps" in result.detail
    assert case.server.pending == 1


def test_a_reply_cut_at_its_length_limit_is_no_answer_the_model_is_told_once(
    case: ProviderCase, provider: HttpChatProvider
) -> None:
    # Qwen2.5-Coder 1.5B wrote 2,048 tokens of a note and was cut mid-call.
    case.add_reply('```json\n{"name": "memory", "arguments": {"command": "cre', cut=True)
    case.add_reply("", [("memory", {"command": "view"})])
    case.add_reply("again and again", cut=True)
    case.add_reply("again and again", cut=True)
    tool = RecordingTool()

    result = _run(provider, tool)

    assert [call.arguments for call in tool.calls] == [{"command": "view"}]
    assert result.stop_reason == "final" and result.steps == 3
    assert result.text == "again and again"  # told once: the next cut reply ends the loop
    told = [message for message in result.messages if isinstance(message, UserMessage)]
    assert [message.text for message in told] == ["Consolidate.", CUT_REPLY]
    assert CUT_REPLY in str(case.server.requests[1].body)
    assert case.server.pending == 1


def test_overall_timeout_aborts_the_request_in_flight(
    case: ProviderCase, provider: HttpChatProvider
) -> None:
    case.add_reply("", [("memory", {"command": "view"})])
    case.add_reply("much too late", delay=10)

    result = _run(provider, RecordingTool(), timeout_s=0.3)

    assert result.stop_reason == "timeout"
    assert case.server.replies_sent == 1, "the second reply was not waited for"
    assert result.steps == 2
    assert result.error is None
    assert "timed out after 0.3 s" in result.detail


def test_cancel_stops_the_request_in_flight(case: ProviderCase, provider: HttpChatProvider) -> None:
    case.add_reply("much too late", delay=10)
    cancel = cancel_once_asked(case.server)

    result = _run(provider, RecordingTool(), cancel=cancel)

    assert result.stop_reason == "cancelled"
    assert case.server.replies_sent == 0, "the reply was not waited for"
    assert result.replies == []


def test_cancelled_before_start_asks_nothing(
    case: ProviderCase, provider: HttpChatProvider
) -> None:
    cancel = threading.Event()
    cancel.set()
    result = _run(provider, RecordingTool(), cancel=cancel)
    assert result.stop_reason == "cancelled"
    assert result.steps == 0
    assert case.server.requests == []


@pytest.mark.expect_log(
    "memtab.llm.loop",
    "WARNING",
    r"stopped at step 2: The server refused the credentials \(HTTP 401\)",
)
def test_provider_error_is_kept_in_the_result(
    case: ProviderCase, provider: HttpChatProvider
) -> None:
    case.add_reply("", [("memory", {"command": "view"})], usage=(7, 3))
    case.server.add_error(401)

    result = _run(provider, RecordingTool())

    assert result.stop_reason == "error"
    assert result.error is not None and result.error.kind == "auth"
    assert result.detail == result.error.message
    assert result.steps == 2
    assert (result.usage.input_tokens, result.usage.output_tokens) == (7, 3)
    assert len(result.tool_executions) == 1


def test_max_steps_must_be_positive(provider: HttpChatProvider) -> None:
    with pytest.raises(ValueError, match="max_steps"):
        _run(provider, RecordingTool(), max_steps=0)
