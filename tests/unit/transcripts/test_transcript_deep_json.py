"""Deeply nested JSON in a transcript is a skipped line with a reason, never a RecursionError.

450 levels is the dangerous case: `json.loads` still builds it, and the redaction and
budget code that walks it afterwards used to overflow the stack. 100,000 levels is what
`json.loads` itself cannot read.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.transcripts.budget import select_event_budget
from memtab.transcripts.reader import TranscriptTail, read_transcript

from .helpers import jsonl

DEPTHS = (450, 100_000)


def _nested(depth: int) -> str:
    """A JSON object nested `depth` levels, as text (json.dumps cannot build it)."""
    return '{"x":' * depth + "1" + "}" * depth


def _mux_line(message_id: str, tool_input: str) -> bytes:
    head = json.dumps(
        {
            "id": message_id,
            "role": "assistant",
            "metadata": {"timestamp": 1, "historySequence": 1},
            "parts": [
                {
                    "type": "dynamic-tool",
                    "toolCallId": "c1",
                    "toolName": "bash",
                    "state": "output-available",
                    "output": "ok",
                    "input": "PLACEHOLDER",
                }
            ],
        }
    )
    return head.replace('"PLACEHOLDER"', tool_input).encode() + b"\n"


def _claude_line(uuid: str, tool_input: str) -> bytes:
    record = {
        "type": "assistant",
        "uuid": uuid,
        "sessionId": "s",
        "message": {
            "id": "msg1",
            "role": "assistant",
            "stop_reason": "tool_use",
            "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": "PLACEHOLDER"}],
        },
    }
    return json.dumps(record).replace('"PLACEHOLDER"', tool_input).encode() + b"\n"


def _codex_line(tool_input: str) -> bytes:
    record = {
        "timestamp": "2026-01-01T00:00:00Z",
        "type": "response_item",
        "payload": {"type": "function_call", "name": "shell", "call_id": "c1", "arguments": 0},
    }
    return json.dumps(record).replace('"arguments": 0', f'"arguments": {tool_input}').encode() + (
        b"\n"
    )


def _assert_usable(path: Path, expected_texts: list[str]) -> None:
    transcript = read_transcript(path)
    assert [event.text for event in transcript.events] == expected_texts
    assert transcript.skipped_lines == 1
    assert "nested too deeply" in transcript.skipped[0].reason
    # Everything a writer run does with the events works.
    budget = select_event_budget(transcript.events, redact=True)
    assert json.loads(budget.json_text())
    tail = TranscriptTail(path)
    assert [event.text for event in tail.read_new()] == expected_texts


@pytest.mark.parametrize("depth", DEPTHS)
def test_a_deep_mux_line_is_skipped(tmp_path: Path, depth: int) -> None:
    user = {
        "id": "u1",
        "role": "user",
        "metadata": {"timestamp": 1},
        "parts": [{"type": "text", "text": "hi"}],
    }
    path = tmp_path / "chat.jsonl"
    path.write_bytes(jsonl(user) + _mux_line("a1", _nested(depth)))
    _assert_usable(path, ["hi"])


@pytest.mark.parametrize("depth", DEPTHS)
def test_a_deep_claude_line_is_skipped(tmp_path: Path, depth: int) -> None:
    user = {
        "type": "user",
        "uuid": "u1",
        "sessionId": "s",
        "message": {"role": "user", "content": "hi"},
    }
    path = tmp_path / "session.jsonl"
    path.write_bytes(jsonl(user) + _claude_line("a1", _nested(depth)))
    _assert_usable(path, ["hi"])


@pytest.mark.parametrize("depth", DEPTHS)
def test_a_deep_codex_line_is_skipped(tmp_path: Path, depth: int) -> None:
    meta = {"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta", "payload": {"id": "x"}}
    user = {
        "timestamp": "2026-01-01T00:00:00Z",
        "type": "response_item",
        "payload": {
            "type": "message",
            "role": "user",
            "content": [{"type": "input_text", "text": "hi"}],
        },
    }
    path = tmp_path / "rollout.jsonl"
    path.write_bytes(jsonl(meta, user) + _codex_line(_nested(depth)))
    _assert_usable(path, ["hi"])


@pytest.mark.parametrize("depth", DEPTHS)
def test_deep_codex_arguments_inside_a_string_stay_text(tmp_path: Path, depth: int) -> None:
    """Codex sends call arguments as a JSON string: the line is fine, the string is kept."""
    meta = {"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta", "payload": {"id": "x"}}
    path = tmp_path / "rollout.jsonl"
    path.write_bytes(jsonl(meta) + _codex_line(json.dumps(_nested(depth))))

    transcript = read_transcript(path)
    [call] = [call for event in transcript.events for call in event.tool_calls]
    assert call.input == _nested(depth)
    assert json.loads(select_event_budget(transcript.events, redact=True).json_text())


def test_nan_and_infinity_in_a_line_read_as_null(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_bytes(_mux_line("a1", '{"n": NaN, "i": -Infinity}'))
    [event] = read_transcript(path).events
    assert event.tool_calls[0].input == {"n": None, "i": None}
    assert "NaN" not in select_event_budget([event]).json_text()
