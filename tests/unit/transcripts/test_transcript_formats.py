"""Format rules on small synthetic transcripts: detection, pairing, merging, odd bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.transcripts.events import compact_json
from memtab.transcripts.reader import detect_format, read_transcript

from .helpers import jsonl


def _write(tmp_path: Path, data: bytes, name: str = "t.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _mux(message_id: str, role: str, parts: list, **metadata: object) -> dict:
    return {
        "id": message_id,
        "role": role,
        "metadata": {"timestamp": 1, **metadata},
        "parts": parts,
    }


def _claude(kind: str, uuid: str, content: object, **extra: object) -> dict:
    message = {"role": kind, "content": content, **extra.pop("message", {})}  # type: ignore[dict-item]
    return {"type": kind, "uuid": uuid, "sessionId": "s", "message": message, **extra}


def test_detects_each_format_and_honours_an_override(tmp_path: Path) -> None:
    mux = _write(tmp_path, jsonl(_mux("m1", "user", [{"type": "text", "text": "hi"}])), "a")
    claude = _write(tmp_path, jsonl(_claude("user", "u1", "hi")), "b")
    codex = _write(
        tmp_path,
        jsonl(
            {"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta", "payload": {"id": "x"}}
        ),
        "c",
    )

    assert [read_transcript(p).format for p in (mux, claude, codex)] == ["mux", "claude", "codex"]
    assert read_transcript(mux, format="claude").format == "claude"
    assert read_transcript(mux, format="claude").events == []  # not Claude records
    assert detect_format([42, "x", {"unrelated": True}]) is None
    with pytest.raises(ValueError, match="unknown transcript format"):
        read_transcript(mux, format="gemini")  # type: ignore[arg-type]


def test_an_empty_or_garbage_file_has_no_format_and_no_events(tmp_path: Path) -> None:
    empty = read_transcript(_write(tmp_path, b""))
    assert (empty.format, empty.events, empty.skipped_lines) == (None, [], 0)

    garbage = read_transcript(_write(tmp_path, b"not json\n{}\n\n[1,2]\n", "g"))
    assert garbage.format is None and garbage.events == []
    assert garbage.skipped_lines == 2 and garbage.ignored_records == 1


def test_non_utf8_bytes_and_lone_surrogates_do_not_break_reading(tmp_path: Path) -> None:
    # Latin-1 "é" (invalid UTF-8) and a JSON-escaped lone high surrogate.
    line = jsonl(_mux("m1", "user", [{"type": "text", "text": "TEXT"}])).replace(
        b"TEXT", b"caf\xe9 \\ud83d"
    )
    transcript = read_transcript(_write(tmp_path, line + b"\xff\xfe\n"))

    assert transcript.events[0].text == "caf\ufffd ?"
    compact_json(transcript.events[0].to_json()).encode("utf-8")  # no lone surrogate left
    assert transcript.skipped_lines == 1  # the line of raw bad bytes


def test_mux_tool_states_and_unknown_parts(tmp_path: Path) -> None:
    parts = [
        {"type": "step-start"},
        {"type": "text", "text": "Run"},
        {"type": "text", "text": "ning."},
        {"type": "reasoning", "text": "secret thoughts"},
        {
            "type": "dynamic-tool",
            "toolCallId": "a",
            "toolName": "bash",
            "state": "input-available",
            "input": {"script": "make"},
        },
        {
            "type": "dynamic-tool",
            "toolCallId": "b",
            "toolName": "file_read",
            "state": "output-error",
            "input": {},
            "errorText": "ENOENT",
        },
        {
            "type": "tool-file_edit",
            "toolCallId": "c",
            "state": "output-available",
            "input": {"path": "x"},
            "output": {"success": True, "diff": "+1"},
        },
        {
            "type": "dynamic-tool",
            "toolCallId": "d",
            "toolName": "web",
            "state": "output-available",
            "input": "q",
            "output": {"items": [1]},
        },
    ]
    record = _mux("a1", "assistant", parts, partial=True)
    event = read_transcript(_write(tmp_path, jsonl(record))).events[0]

    assert event.text == "Running."
    assert not event.completed_turn  # partial
    running, failed, edited, other = event.tool_calls
    assert running.command == "make" and running.output is None
    assert (failed.is_error, failed.error_text) == (True, "ENOENT")
    assert (edited.name, edited.output, edited.is_error) == ("file_edit", "+1", False)
    assert (other.input, other.output) == ("q", '{"items":[1]}')


def test_mux_text_parts_a_tool_call_divides_are_two_passages(tmp_path: Path) -> None:
    call = {"type": "dynamic-tool", "toolCallId": "a", "toolName": "bash", "state": "x"}
    parts = [
        {"type": "text", "text": "Vite is on 5173."},
        call,
        {"type": "text", "text": "Correction: "},
        {"type": "text", "text": "5180."},
    ]
    event = read_transcript(_write(tmp_path, jsonl(_mux("a", "assistant", parts)))).events[0]

    assert event.text == "Vite is on 5173.\n\nCorrection: 5180."


def test_mux_compaction_summary_and_synthetic_user_messages(tmp_path: Path) -> None:
    records = [
        _mux("s", "assistant", [{"type": "text", "text": "summary"}], compacted="user"),
        _mux("c", "user", [{"type": "text", "text": "[CONTINUE]"}], synthetic=True),
    ]
    events = read_transcript(_write(tmp_path, jsonl(*records))).events

    assert [(event.role, event.completed_turn) for event in events] == [
        ("summary", False),
        ("system", False),
    ]


def test_claude_lines_of_one_message_merge_even_around_tool_results(tmp_path: Path) -> None:
    records = [
        _claude("user", "u1", "build it"),
        _claude("assistant", "a1", [{"type": "thinking", "thinking": "hmm"}], message={"id": "M"}),
        _claude(
            "assistant",
            "a2",
            [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "make"}}],
            message={"id": "M"},
        ),
        _claude(
            "user",
            "r1",
            [
                {
                    "type": "tool_result",
                    "tool_use_id": "t1",
                    "content": "Exit code 2\nmake: *** [all] Error 2",
                    "is_error": True,
                }
            ],
        ),
        _claude(
            "assistant",
            "a3",
            [{"type": "tool_use", "id": "t2", "name": "Bash", "input": {"command": "make -k"}}],
            message={"id": "M", "stop_reason": "tool_use"},
        ),
        _claude(
            "user",
            "r2",
            [
                {
                    "type": "tool_result",
                    "tool_use_id": "t2",
                    "content": [{"type": "text", "text": "ok"}],
                }
            ],
        ),
        _claude("user", "r3", [{"type": "tool_result", "tool_use_id": "unknown", "content": "?"}]),
        _claude(
            "assistant",
            "a4",
            [{"type": "text", "text": "Built."}],
            message={"id": "N", "stop_reason": "end_turn"},
        ),
        _claude(
            "assistant", "a4", [{"type": "text", "text": "Built."}], message={"id": "N"}
        ),  # dup uuid
    ]
    transcript = read_transcript(_write(tmp_path, jsonl(*records)))

    user, merged, done = transcript.events
    assert user.text == "build it"
    assert merged.id == merged.message_id == "M" and merged.text == ""
    failed, fixed = merged.tool_calls
    assert (failed.is_error, failed.exit_code, failed.command) == (True, 2, "make")
    assert (fixed.is_error, fixed.output, fixed.command) == (False, "ok", "make -k")
    assert not merged.completed_turn and done.completed_turn and done.text == "Built."
    assert transcript.unmatched_tool_results == 1
    assert transcript.ignored_records == 1  # the duplicated line


def test_codex_exec_end_call_outputs_and_injected_context(tmp_path: Path) -> None:
    def line(kind: str, payload: dict) -> dict:
        return {"timestamp": "2026-01-01T00:00:00.000Z", "type": kind, "payload": payload}

    records = [
        line("session_meta", {"id": "sess", "cwd": "/repo"}),
        line(
            "response_item",
            {
                "type": "message",
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "<environment_context>cwd</environment_context>"}
                ],
            },
        ),
        line(
            "response_item",
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "never use npm"}],
            },
        ),
        line("event_msg", {"type": "user_message", "message": "never use npm"}),
        line(
            "response_item",
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Testing."}],
                "phase": "commentary",
            },
        ),
        line(
            "response_item",
            {
                "type": "function_call",
                "name": "shell",
                "arguments": json.dumps({"command": ["bash", "-lc", "npm test"]}),
                "call_id": "c1",
            },
        ),
        line(
            "response_item",
            {
                "type": "function_call_output",
                "call_id": "c1",
                "output": json.dumps({"output": "boom", "metadata": {"exit_code": 1}}),
            },
        ),
        line(
            "response_item",
            {
                "type": "local_shell_call",
                "call_id": "c2",
                "status": "completed",
                "action": {"type": "exec", "command": ["pnpm", "test"]},
            },
        ),
        line(
            "event_msg",
            {
                "type": "exec_command_end",
                "call_id": "c2",
                "exit_code": 0,
                "aggregated_output": "passed",
            },
        ),
        line(
            "response_item",
            {
                "type": "function_call",
                "name": "exec_command",
                "arguments": '{"cmd": "ls"}',
                "call_id": "c3",
            },
        ),
        line(
            "response_item",
            {
                "type": "function_call_output",
                "call_id": "c3",
                "output": "Chunk ID: 1\nProcess exited with code 127\nOutput:\nls: not found",
            },
        ),
        line(
            "response_item",
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Use pnpm."}],
            },
        ),
        line("event_msg", {"type": "task_complete"}),
        line("compacted", {"message": "earlier work"}),
    ]
    transcript = read_transcript(_write(tmp_path, jsonl(*records)))

    assert (transcript.session_id, transcript.cwd) == ("sess", "/repo")
    roles = [(event.role, event.text) for event in transcript.events]
    assert roles == [
        ("system", "<environment_context>cwd</environment_context>"),
        ("user", "never use npm"),
        ("assistant", "Testing."),
        ("assistant", "Use pnpm."),
        ("summary", "earlier work"),
    ]
    npm, pnpm, ls = transcript.events[2].tool_calls
    assert (npm.command, npm.output, npm.exit_code, npm.is_error) == ("npm test", "boom", 1, True)
    assert (pnpm.command, pnpm.output, pnpm.exit_code, pnpm.is_error) == (
        "pnpm test",
        "passed",
        0,
        False,
    )
    assert (ls.command, ls.exit_code, ls.is_error) == ("ls", 127, True)
    assert [event.completed_turn for event in transcript.events] == [
        False,
        False,
        False,
        True,
        False,
    ]


def test_timestamps_in_any_shape(tmp_path: Path) -> None:
    records = [
        _claude("user", "a", "x", timestamp="2025-06-14T11:00:00Z"),
        _claude("user", "b", "x", timestamp="2025-06-14T11:00:00.500+00:00"),
        _claude("user", "c", "x", timestamp=1749898800),
        _claude("user", "d", "x", timestamp="yesterday"),
        _claude("user", "e", "x", timestamp=True),
    ]
    events = read_transcript(_write(tmp_path, jsonl(*records))).events

    assert [event.timestamp for event in events] == [
        1749898800000,
        1749898800500,
        1749898800000,
        None,
        None,
    ]
